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
    /// `perform(_:retaining:)`: the same commands, with the manager holding the model
    /// strongly while its steps exist (the opt-in that skips the weak load per undo).
    case commandsRetained = "commands-retained"

    /// The `impl` the JSON lines name.
    var impl: String {
        switch self {
        case .closures: "undokit"
        case .commands: "undokit-commands"
        case .commandsRetained: "undokit-commands-retained"
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
    /// Strong on purpose: the manager holds its targets weakly, so there is no cycle, except
    /// with `perform(_:retaining:)`, whose steps hold the counter: the workloads then break
    /// the cycle when they end (``Manager/endBenchmark(_:)``), as an app must.
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
        case .commands, .commandsRetained:
            performIncrement()
        }
    }

    /// The command forms, out of line: `perform` is `@inlinable`, and its body here would keep
    /// the compiler from inlining `increment()` into the closure handlers, a call more in every
    /// closure redo (callgrind: +14 instructions per W2 redo) that is the benchmark's, not
    /// UndoKit's.
    @inline(never)
    private func performIncrement() {
        if api == .commands {
            manager.perform(Increment(), on: self)
        } else {
            manager.perform(Increment(), retaining: self)
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
    /// Ends a workload's use of the manager: with ``API/commandsRetained`` the steps hold
    /// their counters and the counters hold the manager, so the steps are removed (untimed),
    /// or every repetition would leak its manager and history; then each counter must be
    /// referenced by the workload alone, or a removed step kept its model.
    func endBenchmark(_ api: API, _ counter: inout Counter) throws(BenchmarkFailure) {
        guard api == .commandsRetained else { return }
        removeAllActions()
        try check(isKnownUniquelyReferenced(&counter), "commands-retained: a removed step still holds its model")
    }

    /// ``endBenchmark(_:_:)`` for several counters.
    func endBenchmark(_ api: API, _ counters: inout [Counter]) throws(BenchmarkFailure) {
        guard api == .commandsRetained else { return }
        removeAllActions()
        for index in counters.indices {
            try check(isKnownUniquelyReferenced(&counters[index]), "commands-retained: a removed step still holds its model")
        }
    }

    /// A manager set up the way the workloads want it: explicit groups, and notifications
    /// off unless a workload measures them (the targets are for notifications off).
    static func forBenchmark(groupsByEvent: Bool = false, postsNotifications: Bool = false) -> Manager {
        let manager = Manager()
        manager.groupsByEvent = groupsByEvent
        manager.notificationCenter = postsNotifications ? NotificationCenter.default : nil
        return manager
    }
}
