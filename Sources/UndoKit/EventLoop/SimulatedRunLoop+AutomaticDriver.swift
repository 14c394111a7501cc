import Dispatch
import Foundation

extension SimulatedRunLoop {
    /// Whatever real event loop the registering code runs in, as the source of event ends; see
    /// ``SimulatedRunLoop/drive(with:)-(AutomaticDriver)``.
    ///
    /// ```swift
    /// loop.drive(with: .automatic)
    /// ```
    public struct AutomaticDriver: Sendable {
        /// Ends each event where Apple's run loop would: at the end of the Foundation run-loop
        /// pass or the main-actor job in which the event's first registration ran.
        ///
        /// ```swift
        /// let loop = SimulatedRunLoop()
        /// loop.drive(with: .automatic)   // what UndoManager() does with its own loop
        /// ```
        public static var automatic: AutomaticDriver { AutomaticDriver() }
    }

    /// Ticks the loop at the end of the event in which a manager opened its automatic group,
    /// as Apple's schedules its close on the registering thread's run loop.
    /// ``UndoManager/init()`` drives its own loop this way.
    ///
    /// Inside a pass of the thread's Foundation run loop it ticks at the end of the pass, as
    /// ``drive(with:)-(RunLoopDriver)`` does; inside a main-actor job, after the job, as
    /// ``drive(with:)-(MainDriver)`` does; anywhere else never, so the group stays open until
    /// you tick, call ``UndoManager/endEventGroup()`` or undo (<doc:GroupingAndTheEventLoop>).
    ///
    /// The tick runs on the thread that registered, so a manager must stay on that thread (or
    /// actor) while its event is open. Driving replaces the previous driver; ``stopDriving()``
    /// ends it.
    ///
    /// ```swift
    /// let loop = SimulatedRunLoop()
    /// loop.drive(with: .automatic)
    /// let manager = UndoManager(runLoop: loop)
    /// Task { @MainActor in
    ///     model.rename(to: "Draft", using: manager)   // one step, closed after this job
    /// }
    /// ```
    public func drive(with driver: AutomaticDriver) {
        install(CallerEventLoopDriver(loop: self))
    }
}

/// Ticks from the event loop of whoever registers. Confined like its loop: the blocks and
/// timers it schedules run where it was called and reach it through references that check so.
final class CallerEventLoopDriver: SimulatedRunLoopDriver {
    private weak var loop: SimulatedRunLoop?
    /// The ticks on the run loop of the last registration made inside a run-loop pass.
    private var runLoopTicks: RunLoopTicks?
    private var mainQueueTickIsScheduled = false
    private var isStopped = false

    init(loop: SimulatedRunLoop) {
        self.loop = loop
    }

    func loopDidArm() {
        scheduleTick()
    }

    func loopDidEndTick() {
        // Only managers waiting for another mode are owed a tick, on the run loop.
        if let runLoopTicks, RunLoop.current === runLoopTicks.runLoop {
            runLoopTicks.schedule()
        }
    }

    func stop() {
        isStopped = true
        if let runLoopTicks, RunLoop.current === runLoopTicks.runLoop {
            runLoopTicks.cancel()
        }
        // Ticks scheduled elsewhere find the driver stopped (or gone).
        runLoopTicks = nil
    }

    private func scheduleTick() {
        guard !isStopped, let loop else { return }
        let runLoop = RunLoop.current
        if runLoop.currentMode != nil {
            // Inside a pass of this thread's run loop: tick at its end.
            if runLoopTicks?.runLoop !== runLoop {
                runLoopTicks = RunLoopTicks(loop: loop, runLoop: runLoop)
            }
            runLoopTicks?.schedule()
        } else if !mainQueueTickIsScheduled && Self.isRunningAsynchronousWork && MainQueue.isCurrent {
            // Inside a main-actor job: a main-queue block runs after it.
            mainQueueTickIsScheduled = true
            let reference = ConfinedReference(self, runLoop: nil)
            DispatchQueue.main.async {
                reference.object?.fireMainQueueTick()
            }
        }
    }

    private func fireMainQueueTick() {
        mainQueueTickIsScheduled = false
        guard !isStopped, let loop, !loop.isTicking else { return }
        loop.tick(modes: [.default, .common])
    }

    /// Whether the caller runs in a Swift task: on the main queue, a main-actor job, unlike
    /// straight-line code on the main thread (which libdispatch also counts as the main queue).
    private static var isRunningAsynchronousWork: Bool {
        // Not `!= nil`: the generic `Optional` comparison costs hundreds of instructions.
        withUnsafeCurrentTask { task in
            if case .some = task { true } else { false }
        }
    }
}
