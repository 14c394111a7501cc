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
/// A program that has a real event loop can let it tick: ``drive(with:)-(MainDriver)``
/// ticks after each main-queue work item or main-actor job, and
/// ``drive(with:)-(RunLoopDriver)`` at the end of each pass of a Foundation
/// run loop. See <doc:GroupingAndTheEventLoop>.
///
/// ```swift
/// @MainActor func makeEditor() -> Editor {
///     let loop = SimulatedRunLoop()
///     loop.drive(with: .mainActor)   // every main-actor job is one event
///     return Editor(undoManager: UndoManager(runLoop: loop))
/// }
/// ```
///
/// The loop holds its managers weakly; it never keeps one alive.
public final class SimulatedRunLoop {
    private struct WeakManager {
        weak var manager: UndoManager?
    }

    /// Managers with an automatic group waiting for the end of the event, in arming order.
    private var pending: [WeakManager] = []
    /// The list a tick works through; empty between ticks.
    private var due: [WeakManager] = []
    /// Set while ``tick(mode:)`` runs; a driver defers to it rather than tick inside a tick.
    private(set) var isTicking = false
    /// What turns arms into ticks when the loop is driven by a real event loop (see
    /// ``drive(with:)-(RunLoopDriver)``); `nil` when ticked by hand.
    var driver: (any SimulatedRunLoopDriver)?

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
        endPass { _ in mode }
    }

    /// Ends the current pass in all of `modes` at once: a manager closes its group if it lists
    /// any of them. Drivers need it because a Foundation pass in the default mode is also a
    /// pass in `.common`.
    func tick(modes: [RunLoop.Mode]) {
        guard let fallbackMode = modes.first else { return }
        endPass { manager in manager.state.runLoopModes.first(where: modes.contains) ?? fallbackMode }
    }

    /// The end of a pass, with the mode each manager's close is asked for.
    ///
    /// Ticks happen once per event, so this path allocates nothing: the pending list and a
    /// spare buffer trade places each pass.
    private func endPass(mode modeFor: (UndoManager) -> RunLoop.Mode) {
        guard !isTicking, !pending.isEmpty else { return }
        isTicking = true
        defer {
            isTicking = false
            driver?.loopDidEndTick()
        }
        swap(&pending, &due)
        for index in due.indices {
            guard let manager = due[index].manager else { continue }
            manager.isScheduledOnRunLoop = false
            if !manager.endOfEvent(mode: modeFor(manager)) {
                // Still waiting (another mode, or grouping by event switched off): not a new
                // arm, so the driver is not told.
                manager.isScheduledOnRunLoop = true
                pending.append(due[index])
            }
        }
        due.removeAll(keepingCapacity: true)
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

    /// Puts a manager that just opened its automatic group on the list for the end of the
    /// pass, and lets the driver, if any, arrange a tick.
    func schedule(_ manager: UndoManager) {
        manager.isScheduledOnRunLoop = true
        pending.append(WeakManager(manager: manager))
        driver?.loopDidArm()
    }

    /// Moves a manager already on the list to its end: it opened another automatic group in
    /// this pass, after ending the one it had early, so it closes behind the managers whose
    /// groups opened since.
    func moveToEndOfPass(_ manager: UndoManager) {
        guard let index = pending.firstIndex(where: { $0.manager === manager }) else { return }
        pending.append(pending.remove(at: index))
    }

    /// The modes in which a tick would close some pending automatic group: the union of the
    /// ``UndoManager/runLoopModes`` of the managers still waiting that group by event.
    var closableModes: Set<RunLoop.Mode> {
        var modes: Set<RunLoop.Mode> = []
        for entry in pending {
            guard let manager = entry.manager, manager.automaticGroupIsPending, manager.state.groupsByEvent else { continue }
            modes.formUnion(manager.state.runLoopModes)
        }
        return modes
    }
}
