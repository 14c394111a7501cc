import Dispatch
import Foundation
import Testing
import UndoKit

/// A value used only on the thread that made it, carried into `@Sendable` blocks (timers,
/// threads) that run on that same thread.
///
/// Why `@unchecked Sendable` is safe here: every block that receives one is scheduled on the
/// run loop of the thread that created it, and that thread's run loop runs them one at a time.
final class ThreadConfined<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs `body` on a new thread and hands back what it returns.
func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread {
            continuation.resume(returning: body())
        }.start()
    }
}

/// Returns once every main-actor job enqueued so far has run (the main actor is FIFO).
@MainActor
func afterPendingMainActorJobs() async {
    await Task { @MainActor in }.value
}

/// What a plain `UndoManager()` ends on its own, with no tick: the main-actor job or the
/// Foundation run-loop pass in which the automatic group opened (ported code calls no tick).
@Suite("Ported code: automatic event ends of UndoManager()")
struct AutomaticEventEndTests {
    @MainActor
    @Test func aMainActorJobsRegistrationsCloseAfterTheJobAtTheNextYield() async {
        let manager = UndoManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        note.setText("b", using: manager)
        #expect(manager.groupingLevel == 1)
        await Task.yield()
        #expect(manager.groupingLevel == 0)
        #expect(manager.undoCount == 1)
    }

    @MainActor
    @Test func eachMainActorJobIsOneUndoStep() async {
        let manager = UndoManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        await afterPendingMainActorJobs()
        await Task { @MainActor in note.setText("b", using: manager) }.value
        await afterPendingMainActorJobs()
        #expect(manager.undoCount == 2)
        manager.undo()
        #expect(note.text == "a")
    }

    @Test func aRegistrationOnTheGlobalExecutorStaysOpenUntilUndo() async {
        let manager = UndoManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        await Task.yield()
        await Task.detached {}.value
        note.setText("b", using: manager)
        #expect(manager.groupingLevel == 1)
        #expect(manager.runLoop.hasPendingEvents)
        manager.undo()                 // closes and undoes the one group holding both
        #expect(note.text == "")
    }

    @Test func eachFireOfATimerOnAThreadsRunLoopIsOneUndoStep() async {
        let log = await timerFires(3) { UndoManager() }
        #expect(log == ["fire 1: 0 steps, level 0", "fire 2: 1 steps, level 0", "fire 3: 2 steps, level 0", "after: 3 steps, level 0", "undo: 2!"])
    }

    @Test func stopDrivingTurnsTheAutomaticEndsOff() async {
        let log = await timerFires(3) {
            let manager = UndoManager()
            manager.runLoop.stopDriving()
            return manager
        }
        #expect(log == ["fire 1: 0 steps, level 0", "fire 2: 0 steps, level 1", "fire 3: 0 steps, level 1", "after: 0 steps, level 1", "undo: 0"])
    }

    @Test func aManagerMadeWithALoopArgumentIsNotDriven() async {
        let log = await timerFires(2) { UndoManager(runLoop: SimulatedRunLoop()) }
        #expect(log == ["fire 1: 0 steps, level 0", "fire 2: 0 steps, level 1", "after: 0 steps, level 1", "undo: 0"])
    }
}

/// On a new thread: makes a manager, fires a repeating timer on the thread's run loop `fires`
/// times, each fire making two changes to a note, then undoes once. Returns what each fire
/// saw, what the end saw, the note after the undo, and the summary of the manager, if any.
func timerFires(
    _ fires: Int,
    makeManager: @escaping @Sendable () -> UndoManager,
    summary: @escaping @Sendable (UndoManager) -> String? = { _ in nil }
) async -> [String] {
    await onNewThread { () -> [String] in
        let manager = makeManager()
        let note = PortedNote("0")
        let state = ThreadConfined((manager: manager, note: note, log: LogBox()))
        let timer = Timer(timeInterval: 0.001, repeats: true) { timer in
            let (manager, note, log) = state.value
            log.lines.append("fire \(log.lines.count + 1): \(manager.undoCount) steps, level \(manager.groupingLevel)")
            note.setText("\(log.lines.count)", using: manager)
            note.setText("\(log.lines.count)!", using: manager)
            if log.lines.count == fires {
                timer.invalidate()
            }
        }
        RunLoop.current.add(timer, forMode: .default)
        // Bounded; a passing run leaves as soon as the last fire has run.
        let deadline = Date(timeIntervalSinceNow: 30)
        while timer.isValid, Date() < deadline {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))   // whatever the last pass left
        let log = state.value.log
        log.lines.append("after: \(manager.undoCount) steps, level \(manager.groupingLevel)")
        manager.undo()
        log.lines.append("undo: \(note.text)")
        if let summary = summary(manager) {
            log.lines.append(summary)
        }
        return log.lines
    }
}

/// Lines a thread's blocks append to.
final class LogBox {
    var lines: [String] = []
}
