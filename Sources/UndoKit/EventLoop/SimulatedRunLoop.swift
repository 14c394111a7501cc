import Foundation

/// The end of an event, made explicit: what closes an ``UndoManager``'s automatic group.
///
/// On Apple platforms the end of each event closes the group its first registration opened,
/// so one user action is one undo step. UndoKit makes that moment a call, ``tick(mode:)``:
/// every registration between two ticks forms one undo step.
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
/// With no ticks, as in an Apple process with no event loop, the automatic group stays open
/// until ``UndoManager/undo()`` closes it. A real event loop can tick:
/// ``drive(with:)-(MainDriver)`` after each main-queue work item or main-actor job,
/// ``drive(with:)-(RunLoopDriver)`` after each pass of a Foundation run loop. See
/// <doc:GroupingAndTheEventLoop>.
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

    /// Managers waiting for the end of the event, in arming order.
    private var pending: [WeakManager] = []
    /// What a tick works through; swapped with `pending` so a tick allocates nothing.
    private var due: [WeakManager] = []
    /// A driver defers to a running tick rather than tick inside it.
    private(set) var isTicking = false
    /// `nil` when ticked by hand.
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
    /// Every manager on this loop that opened an automatic group during the pass and lists
    /// `mode` in its ``UndoManager/runLoopModes`` closes that group, one level, as Apple's end
    /// of event does; others wait for a tick in one of their modes. A tick inside a tick of
    /// the same loop does nothing.
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

    /// Ends the pass in all of `modes`: drivers need it, as a Foundation pass in the default
    /// mode is also one in `.common`.
    func tick(modes: [RunLoop.Mode]) {
        guard let fallbackMode = modes.first else { return }
        endPass { manager in manager.state.runLoopModes.first(where: modes.contains) ?? fallbackMode }
    }

    /// The end of a pass, with the mode each manager's close is asked for.
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
            manager.state.isScheduledOnRunLoop = false
            if !manager.endOfEvent(mode: modeFor(manager)) {
                // Still waiting (another mode, or grouping by event off): no new arm for the driver.
                manager.state.isScheduledOnRunLoop = true
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
        pending.contains { $0.manager?.state.automaticGroupIsPending ?? false }
    }

    /// A manager opened its automatic group: it waits for the end of the pass.
    func schedule(_ manager: UndoManager) {
        manager.state.isScheduledOnRunLoop = true
        pending.append(WeakManager(manager: manager))
        driver?.loopDidArm()
    }

    /// A waiting manager opened another automatic group in this pass (after ending one
    /// early): it closes behind the groups opened since.
    func moveToEndOfPass(_ manager: UndoManager) {
        guard let index = pending.firstIndex(where: { $0.manager === manager }) else { return }
        pending.append(pending.remove(at: index))
    }

    /// The modes in which a tick would close some pending automatic group.
    var closableModes: Set<RunLoop.Mode> {
        var modes: Set<RunLoop.Mode> = []
        for entry in pending {
            guard let manager = entry.manager, manager.state.automaticGroupIsPending, manager.state.groupsByEvent else { continue }
            modes.formUnion(manager.state.runLoopModes)
        }
        return modes
    }
}
