import Foundation
import UndoKit

/// UndoKit's manager. Foundation on Linux declares a class of the same name, so the bench
/// always names UndoKit's through this alias.
typealias Manager = UndoKit.UndoManager

/// The target of every action in W1–W7: an integer, changed by each action, whose mutators
/// register their own inverse the way an app's model does, so undo registers redo.
///
/// The handlers capture nothing but the target UndoKit passes back, which is the idiomatic
/// `registerUndo(withTarget:handler:)` call; any allocation per action is UndoKit's own.
final class Counter {
    private(set) var value = 0
    /// Strong on purpose: the manager holds its targets weakly, so there is no cycle.
    let manager: Manager

    init(manager: Manager) {
        self.manager = manager
    }

    func increment() {
        value += 1
        manager.registerUndo(withTarget: self) { $0.decrement() }
    }

    func decrement() {
        value -= 1
        manager.registerUndo(withTarget: self) { $0.increment() }
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
