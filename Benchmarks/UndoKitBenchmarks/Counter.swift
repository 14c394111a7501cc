import Foundation
import UndoKit

/// UndoKit's manager. Foundation on Linux declares a class of the same name, so the bench
/// always names UndoKit's through this alias.
typealias Manager = UndoKit.UndoManager

/// How a workload records its actions (`--api`).
enum API: String, CaseIterable {
    /// `registerUndo(withTarget:handler:)` with a closure: Apple's API.
    case closures
    /// `perform(_:on:)` with an `UndoableCommand`: UndoKit's command pattern.
    case commands

    /// The `impl` the JSON lines name.
    var impl: String {
        switch self {
        case .closures: "undokit"
        case .commands: "undokit-commands"
        }
    }
}

/// The target of every action in W1–W7: an integer, changed by each action.
///
/// With closures (the default), its mutators register their own inverse the way an app's
/// model does, so undo registers redo. The handlers capture nothing but the target UndoKit
/// passes back, which is the idiomatic `registerUndo(withTarget:handler:)` call; any
/// allocation per action is UndoKit's own. With commands, each increment is an
/// ``Increment`` performed on the counter: the same change, undone and redone by the command.
final class Counter {
    fileprivate(set) var value = 0
    /// Strong on purpose: the manager holds its targets weakly, so there is no cycle.
    let manager: Manager
    let api: API

    init(manager: Manager, api: API = .closures) {
        self.manager = manager
        self.api = api
    }

    func increment() {
        switch api {
        case .closures:
            value += 1
            manager.registerUndo(withTarget: self) { $0.decrement() }
        case .commands:
            manager.perform(Increment(), on: self)
        }
    }

    func decrement() {
        value -= 1
        manager.registerUndo(withTarget: self) { $0.increment() }
    }
}

/// The command form of ``Counter/increment()``: `execute` adds one, `undo` takes it back.
struct Increment: UndoableCommand {
    func execute(on counter: Counter) {
        counter.value += 1
    }

    func undo(on counter: Counter) {
        counter.value -= 1
    }
}

extension Manager {
    /// A manager set up the way the workloads want it: explicit groups, and notifications
    /// off unless a workload measures them (the targets are for notifications off).
    static func forBenchmark(groupsByEvent: Bool = false, postsNotifications: Bool = false) -> Manager {
        let manager = Manager()
        manager.groupsByEvent = groupsByEvent
        manager.notificationCenter = postsNotifications ? NotificationCenter.default : nil
        return manager
    }
}
