import Foundation
import Synchronization
import UndoKit

/// W11 (issue 34): what an asynchronous undo adds to the action it runs.
///
/// The action is the same closure in every phase: it awaits the counter's `async` method
/// (which changes the value and does not suspend, so the timing is UndoKit's and not the
/// scheduler's) and registers its inverse, as an app's action registers the redo. Phases, per
/// step or call:
///
/// - `action_direct`: the closure called directly, `N` times, its inverses registered into
///   one open group: the action itself, with the same await and the same work;
/// - `undo_async` / `redo_async`: `N` steps of that one action, each undone (then redone)
///   with the asynchronous undo call; the `overhead_ns` note on each line is its time per
///   step less `action_direct`'s in the same repetition: issue 34's "≤ 2 µs more than the
///   action itself";
/// - every phase also notes `cpu_ns`, the CPU time of the thread that ran the loop per
///   operation (the task never suspends, so one thread runs each loop whole), and the two
///   asynchronous phases `cpu_overhead_ns`: on a machine shared with other work the wall
///   clock counts the time the thread waited for a core, the thread's CPU time does not;
/// - `undo_sync`: the synchronous counterpart for scale (W1's undo: one closure step,
///   `undo()`).
enum AsyncWorkload {
    /// The target: an integer that an `async` method changes. The method is not inlined, so
    /// that each phase calls through the closure and the method as a real action does.
    final class AsyncCounter {
        var value = 0
        /// Strong: the manager holds its targets weakly, so there is no cycle.
        let manager: Manager

        init(manager: Manager) {
            self.manager = manager
        }

        @inline(never)
        nonisolated(nonsending) func add(_ amount: Int) async {
            value += amount
        }

        /// Changes the value synchronously: the edits that make the steps, and `undo_sync`.
        @inline(never)
        func addNow(_ amount: Int) {
            value += amount
        }

        /// `undo_sync`'s action: ``decrement(_:)`` without the await.
        func decrementNow() {
            addNow(-1)
            manager.registerUndo(withTarget: self) { $0.incrementNow() }
        }

        func incrementNow() {
            addNow(1)
            manager.registerUndo(withTarget: self) { $0.decrementNow() }
        }
    }

    /// The undo action of every step: take one away, and register the redo (add one back).
    /// A function rather than a closure literal, so that every phase calls the same code.
    nonisolated(nonsending) static func decrement(_ counter: AsyncCounter) async throws {
        await counter.add(-1)
        counter.manager.registerUndo(withTarget: counter, asyncHandler: increment)
    }

    /// The redo action: add one, and register the undo again.
    nonisolated(nonsending) static func increment(_ counter: AsyncCounter) async throws {
        await counter.add(1)
        counter.manager.registerUndo(withTarget: counter, asyncHandler: decrement)
    }

    /// Runs the workload on the global executor and waits for it: the bench's runner is
    /// synchronous, and the main thread it blocks is not one the task needs (nothing here is
    /// bound to the main actor, and the manager has no event driver to schedule).
    static func w11(n: Int) throws(BenchmarkFailure) -> RepetitionResult {
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Task {
            let result: Result<RepetitionResult, BenchmarkFailure>
            do throws(BenchmarkFailure) {
                result = .success(try await measure(n: n))
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            finished.signal()
        }
        finished.wait()
        guard let result = outcome.result.withLock({ $0 }) else {
            throw BenchmarkFailure(description: "W11: the workload's task ended without a result")
        }
        return try result.get()
    }

    /// Where the task leaves its result for the blocked caller: a mutex, so handing it over
    /// needs no unchecked sendability.
    private final class Outcome: Sendable {
        let result = Mutex<Result<RepetitionResult, BenchmarkFailure>?>(nil)
    }

    private static func measure(n: Int) async throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let direct = try await directPhase(n: n)
        let (undo, redo) = try await undoRedoPhases(n: n)
        let synchronous = try synchronousUndoPhase(n: n)
        for (phase, timing) in [("action_direct", direct), ("undo_async", undo), ("redo_async", redo),
                                ("undo_sync", synchronous)] {
            result.record(phase, operations: n, nanoseconds: timing.wall)
            result.note(phase, "cpu_ns", Double(timing.cpu) / Double(n))
        }
        for (phase, timing) in [("undo_async", undo), ("redo_async", redo)] {
            result.note(phase, "overhead_ns", Double(timing.wall) / Double(n) - Double(direct.wall) / Double(n))
            result.note(phase, "cpu_overhead_ns", Double(timing.cpu) / Double(n) - Double(direct.cpu) / Double(n))
        }
        return result
    }

    /// A phase's wall-clock time and the CPU time of the thread that ran it, in nanoseconds.
    struct Timing {
        var wall: UInt64 = 0
        var cpu: UInt64 = 0
    }

    /// Reads both clocks at the start of a loop; `stop()` gives the time since.
    struct Stopwatch {
        private let wall = Measurement.now()
        private let cpu = Stopwatch.threadCPUTime()

        func stop() -> Timing {
            let cpuNow = Stopwatch.threadCPUTime()
            let wallNow = Measurement.now()
            // A loop that moved to another thread would read another thread's clock: the
            // workload never suspends, so it cannot, but a wrong reading must not trap.
            return Timing(wall: wallNow - wall, cpu: cpuNow >= cpu ? cpuNow - cpu : 0)
        }

        /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
        static func threadCPUTime() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
    }
}

extension AsyncWorkload {
    /// `action_direct`: the undo action called `n` times, as code that holds it would call it;
    /// its inverses go into one open group (W2's registration, the cheapest there is).
    private static func directPhase(n: Int) async throws(BenchmarkFailure) -> Timing {
        let manager = Manager.forBenchmark()
        let counter = AsyncCounter(manager: manager)
        let action: nonisolated(nonsending) (AsyncCounter) async throws -> Void = decrement
        manager.beginUndoGrouping()
        let stopwatch = Stopwatch()
        do {
            for _ in 0..<n {
                try await action(counter)
            }
        } catch {
            throw BenchmarkFailure(description: "W11 action_direct: the action threw \(error)")
        }
        let timing = stopwatch.stop()
        manager.endUndoGrouping()
        try check(counter.value == -n && manager.undoCount == 1,
                  "W11 action_direct: value \(counter.value), undoCount \(manager.undoCount), expected \(-n) and 1")
        manager.removeAllActions()
        return timing
    }

    /// `undo_async` and `redo_async`: `n` steps of one asynchronous action, undone one by one,
    /// then redone one by one.
    private static func undoRedoPhases(n: Int) async throws(BenchmarkFailure) -> (undo: Timing, redo: Timing) {
        let manager = Manager.forBenchmark()
        let counter = AsyncCounter(manager: manager)
        for _ in 0..<n {
            manager.beginUndoGrouping()
            counter.addNow(1)
            manager.registerUndo(withTarget: counter, asyncHandler: decrement)
            manager.endUndoGrouping()
        }
        try check(counter.value == n && manager.undoCount == n,
                  "W11 register: value \(counter.value), undoCount \(manager.undoCount), expected \(n)")

        let undoStopwatch = Stopwatch()
        do {
            for _ in 0..<n {
                try await manager.undoAsync()
            }
        } catch {
            throw BenchmarkFailure(description: "W11 undo_async: an undo threw \(error)")
        }
        let undo = undoStopwatch.stop()
        try check(counter.value == 0 && manager.undoCount == 0 && manager.redoCount == n && !manager.canUndo,
                  "W11 undo_async: value \(counter.value), undoCount \(manager.undoCount), redoCount \(manager.redoCount)")

        let redoStopwatch = Stopwatch()
        do {
            for _ in 0..<n {
                try await manager.redoAsync()
            }
        } catch {
            throw BenchmarkFailure(description: "W11 redo_async: a redo threw \(error)")
        }
        let redo = redoStopwatch.stop()
        try check(counter.value == n && manager.undoCount == n && manager.redoCount == 0 && !manager.canRedo,
                  "W11 redo_async: value \(counter.value), undoCount \(manager.undoCount), redoCount \(manager.redoCount)")
        return (undo, redo)
    }

    /// `undo_sync`: the same steps with a synchronous action, undone with `undo()`.
    private static func synchronousUndoPhase(n: Int) throws(BenchmarkFailure) -> Timing {
        let manager = Manager.forBenchmark()
        let counter = AsyncCounter(manager: manager)
        for _ in 0..<n {
            manager.beginUndoGrouping()
            counter.addNow(1)
            manager.registerUndo(withTarget: counter) { $0.decrementNow() }
            manager.endUndoGrouping()
        }
        let stopwatch = Stopwatch()
        for _ in 0..<n {
            manager.undo()
        }
        let timing = stopwatch.stop()
        try check(counter.value == 0 && manager.undoCount == 0 && manager.redoCount == n,
                  "W11 undo_sync: value \(counter.value), undoCount \(manager.undoCount), redoCount \(manager.redoCount)")
        return timing
    }
}
