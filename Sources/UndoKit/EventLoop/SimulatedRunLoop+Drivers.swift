import Dispatch
import Foundation

/// What a ``SimulatedRunLoop`` tells the event loop that drives it, synchronously, from
/// wherever its managers register; each driver checks that is where it was started.
protocol SimulatedRunLoopDriver: AnyObject {
    /// The current event needs an end.
    func loopDidArm()
    /// Managers may still be waiting (for other modes), or may have armed during the tick.
    func loopDidEndTick()
    /// The driver must not tick the loop again.
    func stop()
}

extension SimulatedRunLoop {
    /// A Foundation run loop as the source of event ends; see
    /// ``SimulatedRunLoop/drive(with:)-(RunLoopDriver)``.
    ///
    /// ```swift
    /// loop.drive(with: .currentRunLoop)
    /// ```
    public struct RunLoopDriver: Sendable {
        /// The run loop of the thread that calls ``SimulatedRunLoop/drive(with:)-(RunLoopDriver)``.
        ///
        /// ```swift
        /// Thread {
        ///     let loop = SimulatedRunLoop()
        ///     loop.drive(with: .currentRunLoop)
        ///     RunLoop.current.run()
        /// }.start()
        /// ```
        public static var currentRunLoop: RunLoopDriver { RunLoopDriver() }
    }

    /// The main dispatch queue or the main actor as the source of event ends; see
    /// ``SimulatedRunLoop/drive(with:)-(MainDriver)``.
    ///
    /// ```swift
    /// loop.drive(with: .mainActor)
    /// ```
    public struct MainDriver: Sendable {
        enum Hop: Sendable {
            case mainQueue
            case mainActor
        }

        let hop: Hop

        /// Ends the event after the current `DispatchQueue.main` work item: the tick is a
        /// main-queue block enqueued when the event's first registration arms.
        ///
        /// ```swift
        /// loop.drive(with: .mainQueue)
        /// DispatchQueue.main.async {
        ///     manager.registerUndo(withTarget: item) { $0.restore() }
        /// }   // the tick runs after this block: one undo step
        /// ```
        public static var mainQueue: MainDriver { MainDriver(hop: .mainQueue) }

        /// Ends the event after the current main-actor job: the tick is a main-actor task
        /// enqueued when the event's first registration arms, so every `await` that suspends
        /// ends the event.
        ///
        /// ```swift
        /// @MainActor func rename(_ item: Item, to name: String) async {
        ///     item.setName(name, using: manager)   // step 1
        ///     await save(item)                     // suspends: the tick closes step 1
        ///     item.touch(using: manager)           // step 2
        /// }
        /// ```
        public static var mainActor: MainDriver { MainDriver(hop: .mainActor) }
    }

    /// Ticks the loop at the end of each pass of the calling thread's Foundation run loop, in
    /// the pass's mode (a default-mode pass also counts as `.common`).
    ///
    /// So what one input event registers is one undo step; a manager whose modes the run loop
    /// never enters stays open, as on Apple platforms. The run loop has to run (on Linux an
    /// `async` `main` never runs the main thread's: use ``drive(with:)-(MainDriver)``). The
    /// loop and its managers then belong to this thread: a registration on another stops the
    /// program. Driving replaces the previous driver; see <doc:GroupingAndTheEventLoop>.
    ///
    /// ```swift
    /// Thread {
    ///     let editor = Editor()   // owns a SimulatedRunLoop and the managers on it
    ///     editor.loop.drive(with: .currentRunLoop)
    ///     editor.listen()         // input arrives through run-loop sources and timers;
    ///                             // what each one registers becomes one undo step
    ///     RunLoop.current.run()
    /// }.start()
    /// ```
    @available(*, noasync, message: "an async function can resume on another thread, so it has no current run loop to drive with")
    public func drive(with driver: RunLoopDriver) {
        install(FoundationRunLoopDriver(loop: self, runLoop: RunLoop.current))
    }

    /// Ticks the loop after the current main-queue work item or main-actor job, in the
    /// default mode (which also counts as `.common`).
    ///
    /// The tick is a main-queue block (``MainDriver/mainQueue``) or a main-actor task
    /// (``MainDriver/mainActor``) enqueued when a manager opens its automatic group; work
    /// already waiting joins the event. The loop and its managers become main-actor state; a
    /// registration off the main actor stops the program. Driving replaces the previous
    /// driver; see <doc:GroupingAndTheEventLoop> for when the main queue runs on Linux.
    ///
    /// ```swift
    /// @MainActor final class NotesWindow {
    ///     let loop = SimulatedRunLoop()
    ///     lazy var manager = UndoManager(runLoop: loop)
    ///     init() { loop.drive(with: .mainActor) }
    ///
    ///     func keyDown(_ character: Character) {
    ///         text.insert(character, using: manager)   // each key press: one undo step
    ///     }
    /// }
    /// ```
    @MainActor
    public func drive(with driver: MainDriver) {
        install(MainExecutorDriver(loop: self, hop: driver.hop))
    }

    /// Stops the driver started by `drive(with:)`, including a tick it scheduled; automatic
    /// groups then wait for ``tick(mode:)`` again. Does nothing when the loop is not driven.
    ///
    /// ```swift
    /// loop.drive(with: .mainQueue)
    /// // …
    /// loop.stopDriving()
    /// loop.tick()   // ticking by hand again
    /// ```
    public func stopDriving() {
        driver?.stop()
        driver = nil
    }

    func install(_ newDriver: any SimulatedRunLoopDriver) {
        stopDriving()
        driver = newDriver
        if !closableModes.isEmpty {
            newDriver.loopDidArm()
        }
    }
}

/// Ticks from the main queue or the main actor. The loop calls it from nonisolated code, so
/// each entry point checks at run time that it is on the main actor.
@MainActor
final class MainExecutorDriver: SimulatedRunLoopDriver {
    private weak var loop: SimulatedRunLoop?
    private let hop: SimulatedRunLoop.MainDriver.Hop
    private var tickIsScheduled = false
    /// A scheduled tick found one running (the event loop spun inside a tick): its end reschedules.
    private var tickWasDeferred = false
    private var isStopped = false

    init(loop: SimulatedRunLoop, hop: SimulatedRunLoop.MainDriver.Hop) {
        self.loop = loop
        self.hop = hop
    }

    nonisolated func loopDidArm() {
        onMainActor(
            "an UndoManager on a loop driven by the main queue or main actor registered off the main actor",
            fix: "use the manager only on the main actor (from other code, await MainActor.run { … }), or give "
                + "the thread a loop of its own driven with .currentRunLoop"
        ) { self.scheduleTick() }
    }

    nonisolated func loopDidEndTick() {
        onMainActor(
            "a SimulatedRunLoop driven by the main queue or main actor ticked off the main actor",
            fix: "tick the loop on the main actor, or leave the ticks to the driver"
        ) {
            if self.tickWasDeferred {
                self.tickWasDeferred = false
                self.scheduleTick()
            }
        }
    }

    nonisolated func stop() {
        onMainActor(
            "stopDriving() called off the main actor on a loop driven by the main queue or main actor",
            fix: "call stopDriving() on the main actor (from other code, await MainActor.run { loop.stopDriving() })"
        ) { self.isStopped = true }
    }

    /// Runs `body`, having stopped the program with `message` and `fix` unless the caller is on
    /// the main actor. `MainActor.preconditionIsolated` alone would stop inside libdispatch
    /// without printing its message on Linux (Swift 6.3.1), so the main queue, where the main
    /// actor runs, is checked first.
    private nonisolated func onMainActor(
        _ message: @autoclosure () -> String, fix: @autoclosure () -> String, _ body: @MainActor () -> Void
    ) {
        if !MainQueue.isCurrent {
            fatalError("\(message())\nFix: \(fix())")
        }
        MainActor.preconditionIsolated(message())
        MainActor.assumeIsolated { body() }
    }

    private func scheduleTick() {
        guard !tickIsScheduled && !isStopped else { return }
        tickIsScheduled = true
        // Only the driver (Sendable as main-actor state) crosses into the enqueued work.
        switch hop {
        case .mainQueue:
            DispatchQueue.main.async { [weak self] in
                self?.fire()
            }
        case .mainActor:
            Task { @MainActor [weak self] in
                self?.fire()
            }
        }
    }

    private func fire() {
        tickIsScheduled = false
        guard !isStopped, let loop else { return }
        guard !loop.isTicking else {
            tickWasDeferred = true
            return
        }
        loop.tick(modes: [.default, .common])
    }
}

/// Ticks from a Foundation run loop, confined, with its loop and managers, to that run loop's
/// thread, which its entry points check.
final class FoundationRunLoopDriver: SimulatedRunLoopDriver {
    private let ticks: RunLoopTicks

    init(loop: SimulatedRunLoop, runLoop: RunLoop) {
        ticks = RunLoopTicks(loop: loop, runLoop: runLoop)
    }

    func loopDidArm() {
        checkThread("an UndoManager on a loop driven by a run loop registered on another thread")
        ticks.schedule()
    }

    func loopDidEndTick() {
        checkThread("a SimulatedRunLoop driven by a run loop ticked on another thread")
        // Managers waiting for other modes, armed during the tick, or deferred by it.
        ticks.schedule()
    }

    func stop() {
        checkThread("stopDriving() called on another thread than the run loop driving the loop")
        ticks.cancel()
    }

    private func checkThread(_ message: @autoclosure () -> String) {
        if RunLoop.current !== ticks.runLoop {
            fatalError(  // not precondition: release builds keep the message
                "\(message())\nFix: use the loop and its managers only on the thread that called "
                    + "drive(with: .currentRunLoop); from another thread, send the work there with that run loop's "
                    + "perform(_:)"
            )
        }
    }
}

/// The ticks scheduled on one Foundation run loop for one ``SimulatedRunLoop``, shared by the
/// run-loop and automatic drivers; confined to the run loop's thread.
final class RunLoopTicks {
    private weak var loop: SimulatedRunLoop?
    let runLoop: RunLoop
    /// Ticks not yet run, by id, with the timer that also runs each.
    private var outstanding: [Int: (modes: Set<RunLoop.Mode>, timer: Timer)] = [:]
    private var nextPerformID = 0
    private var isCancelled = false

    init(loop: SimulatedRunLoop, runLoop: RunLoop) {
        self.loop = loop
        self.runLoop = runLoop
    }

    /// Makes sure a tick is scheduled in every mode in which some manager waits: only modes
    /// no outstanding tick covers get one, so an idle mode costs one block and timer in all.
    func schedule() {
        guard !isCancelled, let loop else { return }
        var covered: Set<RunLoop.Mode> = []
        for scheduled in outstanding.values {
            covered.formUnion(scheduled.modes)
        }
        let missing = loop.closableModes.subtracting(covered)
        guard !missing.isEmpty else { return }
        let id = nextPerformID
        nextPerformID += 1
        let modes = missing.sorted { $0.rawValue < $1.rawValue }
        let reference = ConfinedReference(self, runLoop: runLoop)
        // Two ways to one tick. The block runs when the current timer or source is handled:
        // the end of the event. But a block queued from inside another block would wait for
        // the next event, merging the two; the timer, due now, wakes the loop.
        let timer = Timer(timeInterval: 0, repeats: false) { _ in
            reference.object?.fire(id)
        }
        outstanding[id] = (missing, timer)
        runLoop.perform(inModes: modes) {
            reference.object?.fire(id)
        }
        for mode in modes {
            runLoop.add(timer, forMode: mode)
        }
    }

    /// Drops every scheduled tick; none runs, and none is scheduled again.
    func cancel() {
        isCancelled = true
        for scheduled in outstanding.values {
            scheduled.timer.invalidate()
        }
        outstanding.removeAll()
    }

    private func fire(_ id: Int) {
        guard let scheduled = outstanding.removeValue(forKey: id) else { return }
        scheduled.timer.invalidate()
        // Inside a tick (a nested run loop spun by an observer), the tick's end reschedules.
        guard !isCancelled, let loop, !loop.isTicking else { return }
        let mode = runLoop.currentMode ?? .default
        loop.tick(modes: mode == .default ? [.default, .common] : [mode])
    }
}

/// Carries a weak reference to an object confined to one run loop's thread, or to the main
/// queue (`runLoop` `nil`), into the `@Sendable` blocks that run there.
///
/// `@unchecked Sendable` is safe: `_object` is written only by `init`, and read only through
/// ``object``, which traps anywhere else (the runtime zeroes a weak reference atomically, so
/// deallocation is no race either); `runLoop` is immutable.
final class ConfinedReference<Object: AnyObject>: @unchecked Sendable {
    private weak var _object: Object?
    private let runLoop: RunLoop?

    init(_ object: Object, runLoop: RunLoop?) {
        self._object = object
        self.runLoop = runLoop
    }

    var object: Object? {
        precondition(runLoop.map { RunLoop.current === $0 } ?? MainQueue.isCurrent, "a confined reference was used elsewhere")
        return _object
    }
}
