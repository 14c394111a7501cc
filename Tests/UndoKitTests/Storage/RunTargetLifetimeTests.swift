import Testing
import UndoKit

/// Spec H3: an undo loads the target of a run of consecutive steps once and holds it until the
/// run ends. A target released in the middle of its run is deallocated when the run ends, and
/// no step of a dead target runs.
@Suite("Targets held for a run of steps (H3)")
struct RunTargetLifetimeTests {
    final class Target {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        deinit { log.entries.append("deinit \(name)") }
    }

    final class Log { var entries: [String] = [] }

    @Test func aTargetReleasedInItsRunIsDeallocatedWhenTheRunEnds() {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        let log = Log()
        var holder: Target? = Target("A", log: log)
        manager.beginUndoGrouping()
        for step in ["a1", "a2", "a3"] {
            manager.registerUndo(withTarget: holder!) { target in
                log.entries.append("\(step) on \(target.name)")
                if step == "a3" { holder = nil }   // the last strong reference outside the manager
            }
        }
        manager.endUndoGrouping()
        manager.undo()
        #expect(log.entries == ["a3 on A", "a2 on A", "a1 on A", "deinit A"])
    }

    @Test func aDeadTargetsLaterRunDoesNotRun() {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        let log = Log()
        var a: Target? = Target("A", log: log)
        let b = Target("B", log: log)
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: a!) { _ in log.entries.append("a1") }
        manager.registerUndo(withTarget: b) { _ in log.entries.append("b1") }
        manager.registerUndo(withTarget: a!) { _ in
            log.entries.append("a2")
            a = nil
        }
        manager.endUndoGrouping()
        manager.undo()
        // A's run is a2 alone: A goes when B's run starts, so a1 finds it dead.
        #expect(log.entries == ["a2", "deinit A", "b1"])
        withExtendedLifetime(b) {}
    }

    @Test func stepsOnATargetThatIsAliveAllRunAndItStaysAlive() {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let log = Log()
        let target = Target("T", log: log)
        for index in 1...5 {
            manager.registerUndo(withTarget: target) { _ in log.entries.append("\(index)") }
        }
        manager.undo()
        #expect(log.entries == ["5", "4", "3", "2", "1"])
        withExtendedLifetime(target) {}
    }
}
