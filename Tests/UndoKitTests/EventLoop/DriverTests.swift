import Dispatch
import Foundation
import Testing
@testable import UndoKit

/// Drivers that tick a `SimulatedRunLoop` from the event loops a Swift program really runs.
///
/// How the tests get a real event loop on Linux: Swift Testing's entry point is `async`, so
/// the test process runs the main queue with `dispatchMain()`, and main-actor work (including
/// `@MainActor` tests) runs there. The main thread's Foundation run loop never runs, so the
/// run-loop driver is tested on a thread of its own that runs its own run loop.
///
/// No test waits for time to pass. The main queue and the main actor are FIFO, so work
/// enqueued after a driver's tick runs after it: awaiting such work is a deterministic "the
/// event is over". The run-loop tests chain their events with `RunLoop.perform`, so each event
/// queues the next behind the tick the driver queued, and they end when the run loop runs out
/// of work, which the driver failing to schedule a tick would also cause (failing the test,
/// not hanging it).
@Suite("SimulatedRunLoop drivers: main actor, main queue, Foundation run loop")
struct CoordinationDriverTests {
    /// Returns once everything enqueued on the main actor so far has run.
    @MainActor
    private func afterPendingMainActorJobs() async {
        await Task { @MainActor in }.value
    }

    /// Returns once everything enqueued on the main queue so far has run.
    @MainActor
    private func afterPendingMainQueueWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                continuation.resume()
            }
        }
    }

    // MARK: Main actor

    @MainActor
    @Test("Main actor: registrations in one job form one step; separate jobs form separate steps")
    func mainActorGroupsByJob() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        loop.drive(with: .mainActor)

        counter.add(1, using: manager)
        counter.add(2, using: manager)
        #expect(manager.groupingLevel == 1)   // this job is still running
        await afterPendingMainActorJobs()      // the job ended; the tick ran after it
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)

        let secondEvent = Task { @MainActor in
            counter.add(4, using: manager)
            counter.add(8, using: manager)
        }
        await secondEvent.value
        await afterPendingMainActorJobs()
        let thirdEvent = Task { @MainActor in
            counter.add(16, using: manager)
        }
        await thirdEvent.value
        await afterPendingMainActorJobs()
        #expect(manager.undoCount == 3)

        manager.undo()
        #expect(counter.value == 15)
        manager.undo()
        #expect(counter.value == 3)
        manager.undo()
        #expect(counter.value == 0)
        loop.stopDriving()
    }

    @MainActor
    @Test("Main actor: an await that suspends ends the event")
    func mainActorAwaitEndsEvent() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        loop.drive(with: .mainActor)
        counter.add(1, using: manager)
        await afterPendingMainActorJobs()
        counter.add(2, using: manager)
        await afterPendingMainActorJobs()
        #expect(manager.undoCount == 2)
        loop.stopDriving()
    }

    @MainActor
    @Test("Main actor: a registration made during a tick is closed by a later tick, not inside it")
    func mainActorRegistrationDuringTick() async {
        let loop = SimulatedRunLoop()
        let first = UndoManager(runLoop: loop)
        let second = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        var secondLevelAfterTick: Int?
        let observation = first.addEventObserver { event in
            guard case .didCloseUndoGroup = event, secondLevelAfterTick == nil else { return }
            counter.add(10, using: second)   // arms `second` while the tick runs
            secondLevelAfterTick = second.groupingLevel
        }
        loop.drive(with: .mainActor)
        counter.add(1, using: first)
        await afterPendingMainActorJobs()
        #expect(first.undoCount == 1)
        #expect(secondLevelAfterTick == 1)
        await afterPendingMainActorJobs()
        #expect(second.groupingLevel == 0 && second.undoCount == 1)
        observation.cancel()
        loop.stopDriving()
    }

    @MainActor
    @Test("Main actor: stopping leaves groups for the next manual tick; a tick already enqueued does nothing")
    func mainActorStop() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        loop.drive(with: .mainActor)
        #expect(loop.driver != nil)
        counter.add(1, using: manager)   // enqueues a tick
        loop.stopDriving()
        #expect(loop.driver == nil)
        await afterPendingMainActorJobs()
        #expect(manager.groupingLevel == 1)
        counter.add(2, using: manager)
        await afterPendingMainActorJobs()
        #expect(manager.groupingLevel == 1)
        loop.tick()
        #expect(manager.undoCount == 1)
        loop.stopDriving()   // not driven: does nothing
    }

    @MainActor
    @Test("Main actor: driving a loop with an open group closes it at the end of the current job")
    func mainActorDriveWhileArmed() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        loop.drive(with: .mainActor)
        await afterPendingMainActorJobs()
        #expect(manager.undoCount == 1 && manager.groupingLevel == 0)
        loop.stopDriving()
    }

    @MainActor
    @Test("Main drivers close managers listing the default mode or .common, and leave others")
    func mainDriverModes() async {
        let loop = SimulatedRunLoop()
        let plain = UndoManager(runLoop: loop)
        let common = UndoManager(runLoop: loop)
        common.runLoopModes = [.common]
        let tracking = UndoManager(runLoop: loop)
        tracking.runLoopModes = [RunLoop.Mode("tracking")]
        let counter = CoordinationCounter()
        loop.drive(with: .mainQueue)
        for manager in [plain, common, tracking] {
            counter.add(1, using: manager)
        }
        await afterPendingMainQueueWork()
        #expect(plain.undoCount == 1 && common.undoCount == 1)
        #expect(tracking.groupingLevel == 1)
        loop.tick(mode: RunLoop.Mode("tracking"))
        #expect(tracking.undoCount == 1)
        loop.stopDriving()
    }

    // MARK: Main queue

    @MainActor
    @Test("Main queue: registrations in one work item form one step; separate items, separate steps")
    func mainQueueGroupsByWorkItem() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        loop.drive(with: .mainQueue)
        var levelsAtEndOfItems: [Int] = []

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                counter.add(1, using: manager)
                counter.add(2, using: manager)
                levelsAtEndOfItems.append(manager.groupingLevel)
                // The next event is enqueued behind the tick the first registration enqueued.
                DispatchQueue.main.async {
                    counter.add(4, using: manager)
                    levelsAtEndOfItems.append(manager.groupingLevel)
                    continuation.resume()
                }
            }
        }
        await afterPendingMainQueueWork()
        #expect(levelsAtEndOfItems == [1, 1])
        #expect(manager.undoCount == 2 && manager.groupingLevel == 0)
        manager.undo()
        #expect(counter.value == 3)
        manager.undo()
        #expect(counter.value == 0)
        loop.stopDriving()
    }

    @MainActor
    @Test("Driving again replaces the previous driver")
    func driveReplaces() async {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        loop.drive(with: .mainQueue)
        let firstDriver = loop.driver
        loop.drive(with: .mainActor)
        #expect(loop.driver !== firstDriver)
        counter.add(1, using: manager)
        await afterPendingMainActorJobs()
        #expect(manager.undoCount == 1)
        loop.stopDriving()
    }

    @MainActor
    @Test("A coordinator follows managers whose loop a driver ticks")
    func coordinatorWithDriver() async {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let views = (0..<2).map { _ in CoordinationTextView(runLoop: loop) }
        views.forEach { coordinator.attach($0.undoManager) }
        loop.drive(with: .mainActor)
        views[0].type("a")
        await afterPendingMainActorJobs()
        views[1].type("b")
        await afterPendingMainActorJobs()
        views[0].type("c")
        await afterPendingMainActorJobs()
        #expect(coordinator.order() == CoordinationOrder(undo: ["Type a", "Type b", "Type c"], redo: []))
        coordinator.undo()
        coordinator.undo()
        #expect(views.map(\.text) == ["a", ""])
        coordinator.checkInvariants()
        loop.stopDriving()
    }

    // MARK: Foundation run loop

    /// The state of a run-loop test, confined to the test's thread.
    private final class RunLoopScenario {
        let loop = SimulatedRunLoop()
        let manager: UndoManager
        let counter = CoordinationCounter()
        var log: [String] = []

        init() {
            manager = UndoManager(runLoop: loop)
        }

        /// Bodies of posted events, by id: the `@Sendable` timer block cannot carry them, so
        /// it carries the id.
        private var events: [Int: (RunLoopScenario) -> Void] = [:]
        private var nextEventID = 0

        /// Delivers `body` as an input event: a timer due now on the current run loop, in
        /// `mode`. Timer blocks are `@Sendable`; the block reaches the scenario through a
        /// reference that checks, each time, that it runs on this thread.
        func post(in mode: RunLoop.Mode = .default, _ body: @escaping (RunLoopScenario) -> Void) {
            let id = nextEventID
            nextEventID += 1
            events[id] = body
            let reference = ConfinedReference(self, runLoop: RunLoop.current)
            let timer = Timer(timeInterval: 0, repeats: false) { _ in
                guard let scenario = reference.object, let body = scenario.events.removeValue(forKey: id) else { return }
                body(scenario)
            }
            RunLoop.current.add(timer, forMode: mode)
        }

        /// Runs the current run loop in `mode` until it has nothing left to do in that mode.
        ///
        /// The deadline only turns a broken driver (a tick block the loop never runs) into a
        /// failed expectation instead of a hung test; a passing run never gets near it.
        func run(mode: RunLoop.Mode = .default) {
            let deadline = Date(timeIntervalSinceNow: 30)
            while Date() < deadline && RunLoop.current.run(mode: mode, before: deadline) {}
        }
    }

    /// Runs `body` on a new thread with a run loop of its own, and hands back what it returns.
    private func onRunLoopThread(_ body: @escaping @Sendable () -> [String]) async -> [String] {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: body())
            }
            thread.start()
        }
    }

    @Test("Run loop: registrations in one event form one step; separate events, separate steps")
    func runLoopGroupsByEvent() async {
        let log = await onRunLoopThread {
            let scenario = RunLoopScenario()
            scenario.loop.drive(with: .currentRunLoop)
            scenario.post { scenario in
                scenario.counter.add(1, using: scenario.manager)
                scenario.counter.add(2, using: scenario.manager)
                scenario.log.append("first event: level \(scenario.manager.groupingLevel)")
                scenario.post { scenario in
                    scenario.log.append("second event: \(scenario.manager.undoCount) step")
                    scenario.counter.add(4, using: scenario.manager)
                    scenario.post { scenario in
                        scenario.log.append("third event: \(scenario.manager.undoCount) steps")
                        scenario.manager.undo()
                        scenario.log.append("undo: \(scenario.counter.value)")
                        scenario.manager.undo()
                        scenario.log.append("undo: \(scenario.counter.value)")
                    }
                }
            }
            scenario.run()
            scenario.loop.stopDriving()
            return scenario.log
        }
        #expect(log == ["first event: level 1", "second event: 1 step", "third event: 2 steps", "undo: 3", "undo: 0"])
    }

    @Test("Run loop: a registration made in a run-loop block still ends with its pass")
    func runLoopRegistrationInBlock() async {
        let log = await onRunLoopThread {
            let scenario = RunLoopScenario()
            scenario.loop.drive(with: .currentRunLoop)
            let reference = ConfinedReference(scenario, runLoop: RunLoop.current)
            RunLoop.current.perform {
                guard let scenario = reference.object else { return }
                // Inside a block the loop runs before it sleeps: the driver's own block would
                // wait for the next wake-up without its timer.
                scenario.counter.add(1, using: scenario.manager)
                scenario.post { scenario in
                    scenario.log.append("next event: \(scenario.manager.undoCount) step, level \(scenario.manager.groupingLevel)")
                }
            }
            scenario.run()
            scenario.loop.stopDriving()
            return scenario.log
        }
        #expect(log == ["next event: 1 step, level 0"])
    }

    @Test("Run loop: each manager closes in its own modes; .common closes in the default mode")
    func runLoopModes() async {
        let log = await onRunLoopThread {
            let scenario = RunLoopScenario()
            let tracking = RunLoop.Mode("tracking")
            let trackingManager = UndoManager(runLoop: scenario.loop)
            trackingManager.runLoopModes = [tracking]
            let commonManager = UndoManager(runLoop: scenario.loop)
            commonManager.runLoopModes = [.common]
            scenario.loop.drive(with: .currentRunLoop)
            scenario.post { scenario in
                for manager in [scenario.manager, trackingManager, commonManager] {
                    scenario.counter.add(1, using: manager)
                }
                scenario.post { scenario in
                    scenario.log.append("default pass: \(scenario.manager.undoCount) \(trackingManager.undoCount) \(commonManager.undoCount)")
                }
            }
            scenario.run()
            // The driver's block for `trackingManager` has waited since the first pass.
            scenario.post(in: tracking) { scenario in
                scenario.log.append("tracking pass: \(trackingManager.undoCount)")
            }
            scenario.run(mode: tracking)
            scenario.loop.stopDriving()
            return scenario.log
        }
        #expect(log == ["default pass: 1 0 1", "tracking pass: 1"])
    }

    @Test("Run loop: a driver block that runs inside a tick does not tick; the tick's end reschedules")
    func runLoopNeverTicksInsideTick() async {
        let log = await onRunLoopThread {
            let scenario = RunLoopScenario()
            let second = UndoManager(runLoop: scenario.loop)
            var reacted = false
            let observation = scenario.manager.addEventObserver { event in
                guard case .didCloseUndoGroup = event, !reacted else { return }
                reacted = true
                // Arms `second` during the tick, then spins the run loop, as a modal session
                // would: the driver's block for `second` runs in there, inside the tick.
                scenario.counter.add(10, using: second)
                scenario.post { scenario in
                    scenario.log.append("nested: ticking \(scenario.loop.isTicking), second level \(second.groupingLevel)")
                }
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 30))
                scenario.log.append("tick ends: second level \(second.groupingLevel)")
            }
            scenario.loop.drive(with: .currentRunLoop)
            scenario.post { scenario in
                scenario.counter.add(1, using: scenario.manager)
            }
            scenario.run()
            scenario.log.append("end: second steps \(second.undoCount), level \(second.groupingLevel)")
            observation.cancel()
            scenario.loop.stopDriving()
            return scenario.log
        }
        #expect(log == [
            "nested: ticking true, second level 1",
            "tick ends: second level 1",
            "end: second steps 1, level 0",
        ])
    }

    @Test("Run loop: stopping leaves groups open; the driver's pending block does nothing")
    func runLoopStop() async {
        let log = await onRunLoopThread {
            let scenario = RunLoopScenario()
            scenario.loop.drive(with: .currentRunLoop)
            scenario.post { scenario in
                scenario.counter.add(1, using: scenario.manager)   // queues the driver's block
                scenario.loop.stopDriving()
                scenario.post { scenario in
                    scenario.log.append("next event: level \(scenario.manager.groupingLevel)")
                    scenario.loop.tick()
                    scenario.log.append("manual tick: \(scenario.manager.undoCount) step")
                }
            }
            scenario.run()
            return scenario.log
        }
        #expect(log == ["next event: level 1", "manual tick: 1 step"])
    }
}
