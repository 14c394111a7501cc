import Foundation

/// The end of an event, made explicit: what closes an ``UndoManager``'s automatic group.
///
/// On Apple platforms the run loop ends each event and the undo manager closes the group
/// that the event's first registration opened, so one user action becomes one undo step.
/// UndoKit makes that moment a call: ``tick(mode:)``. Every registration between two ticks
/// forms one undo step.
///
/// ```swift
/// let loop = SimulatedRunLoop()
/// let manager = UndoManager(runLoop: loop)
/// manager.registerUndo(withTarget: item) { $0.restore() }
/// manager.registerUndo(withTarget: item) { $0.restoreColor() }
/// loop.tick()          // both registrations: one undo step
/// manager.undoCount    // 1
/// ```
///
/// A program with no ticks behaves like an Apple process with no event loop: the automatic
/// group stays open, collecting everything, until ``UndoManager/undo()`` closes it.
///
/// The loop holds its managers weakly; it never keeps one alive.
public final class SimulatedRunLoop {
    private struct WeakManager {
        weak var manager: UndoManager?
    }

    /// Managers with an automatic group waiting for the end of the event, in arming order.
    private var pending: [WeakManager] = []
    private var isTicking = false

    /// Creates a loop with no pending events.
    ///
    /// ```swift
    /// let loop = SimulatedRunLoop()
    /// let manager = UndoManager(runLoop: loop)
    /// ```
    public init() {}

    /// Ends the current pass of the loop in `mode`.
    ///
    /// Every manager on this loop that opened an automatic group during the pass, groups by
    /// event, and lists `mode` in its ``UndoManager/runLoopModes`` closes that group, exactly
    /// one level, as Apple's end-of-event processing does. A manager whose modes do not
    /// include `mode` keeps its group open until a tick in one of them. A tick made while
    /// another tick of the same loop is running does nothing.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.runLoop.tick()                 // closes the automatic group
    /// manager.runLoop.tick(mode: .common)   // nothing pending: does nothing
    /// ```
    ///
    /// - Precondition: No manager closed its automatic group by hand during the pass (Apple
    ///   raises then, spec R17); use ``UndoManager/endEventGroup()`` for that instead.
    public func tick(mode: RunLoop.Mode = .default) {
        guard !isTicking, !pending.isEmpty else { return }
        isTicking = true
        defer { isTicking = false }
        let due = pending
        pending.removeAll(keepingCapacity: true)
        for entry in due {
            guard let manager = entry.manager else { continue }
            manager.isScheduledOnRunLoop = false
            if !manager.endOfEvent(mode: mode) {
                schedule(manager)
            }
        }
    }

    /// Whether some manager is waiting for the end of the current pass.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.runLoop.hasPendingEvents   // true
    /// ```
    public var hasPendingEvents: Bool {
        pending.contains { $0.manager?.automaticGroupIsPending ?? false }
    }

    func schedule(_ manager: UndoManager) {
        manager.isScheduledOnRunLoop = true
        pending.append(WeakManager(manager: manager))
    }
}
