import Foundation
import UndoKit

/// W1–W6: the shapes of undo history an app produces, each timed per action and each
/// ending with a check of the final state, so a fast wrong answer never becomes a number.
///
/// `api` chooses how the counter records its actions: closures registered with
/// `registerUndo(withTarget:handler:)`, or commands performed with `perform(_:on:)`. Groups,
/// phases and checks are the same for both.
enum GroupingWorkloads {
    /// W1: N groups of one action each; undo all; redo all. Also the basis of W7.
    ///
    /// `bytes_per_action` is the growth of the resident set across the register phase
    /// divided by N. Only the first repetition reports it: later ones reuse memory the
    /// previous repetition freed, and would report close to nothing.
    static func w1(
        n: Int, repetition: Int, api: API = .closures, postsNotifications: Bool = false, phaseSuffix: String = ""
    ) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let manager = Manager.forBenchmark(postsNotifications: postsNotifications)
        var counter = Counter(manager: manager, api: api)
        let register = "register" + phaseSuffix

        let residentBefore = Measurement.residentKiB()
        let t0 = Measurement.now()
        for _ in 0..<n {
            manager.beginUndoGrouping()
            counter.increment()
            manager.endUndoGrouping()
        }
        let t1 = Measurement.now()
        if repetition == 0, let before = residentBefore, let after = Measurement.residentKiB() {
            result.note(register, "bytes_per_action", Double(after - before) * 1024 / Double(n))
        }
        try check(counter.value == n && manager.undoCount == n,
                  "W1 register: value \(counter.value), undoCount \(manager.undoCount), expected \(n)")

        result.record(register, operations: n, nanoseconds: t1 - t0)
        try undoAllThenRedoAll(
            manager, counter, groups: n, actions: n, workload: "W1", phaseSuffix: phaseSuffix, into: &result
        )
        try manager.endBenchmark(api, &counter)
        return result
    }

    /// W2: one group of N actions; undo it; redo it.
    static func w2(n: Int, api: API = .closures) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let manager = Manager.forBenchmark()
        var counter = Counter(manager: manager, api: api)

        let t0 = Measurement.now()
        manager.beginUndoGrouping()
        for _ in 0..<n { counter.increment() }
        manager.endUndoGrouping()
        let t1 = Measurement.now()
        try check(counter.value == n && manager.undoCount == 1,
                  "W2 register: value \(counter.value), undoCount \(manager.undoCount)")

        result.record("register", operations: n, nanoseconds: t1 - t0)
        try undoAllThenRedoAll(
            manager, counter, groups: 1, actions: n, workload: "W2", into: &result
        )
        try manager.endBenchmark(api, &counter)
        return result
    }

    /// W3: N/10 top-level groups, each nesting groups 10 deep with one action per level.
    static func w3(n: Int, api: API = .closures) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let depth = 10, groups = n / depth, actions = groups * depth
        let manager = Manager.forBenchmark()
        var counter = Counter(manager: manager, api: api)

        let t0 = Measurement.now()
        for _ in 0..<groups {
            for _ in 0..<depth {
                manager.beginUndoGrouping()
                counter.increment()
            }
            for _ in 0..<depth { manager.endUndoGrouping() }
        }
        let t1 = Measurement.now()
        try check(counter.value == actions && manager.undoCount == groups && manager.groupingLevel == 0,
                  "W3 register: value \(counter.value), undoCount \(manager.undoCount), level \(manager.groupingLevel)")

        result.record("register", operations: actions, nanoseconds: t1 - t0)
        try undoAllThenRedoAll(
            manager, counter, groups: groups, actions: actions, workload: "W3", into: &result
        )
        try manager.endBenchmark(api, &counter)
        return result
    }

    /// W4: `levelsOfUndo = 100`; a cycle registers 100 single-action groups past the limit
    /// (each trims the oldest kept group), undoes the 100 kept and redoes them. N/100 cycles,
    /// so each phase times N operations (10⁶ by default), not one 100-step phase.
    ///
    /// Before the first cycle, 100 untimed groups fill the history to the limit, so every
    /// timed registration trims. Each phase is timed per cycle and summed (two clock reads per
    /// 100 operations). The counter is checked after every phase, the manager's counts in the
    /// last cycle only: reading them arms Observation's comparison for the operation after
    /// (see "What Observation costs when nothing observes" in Benchmarks/README.md), which a
    /// read per cycle would add to every hundredth operation.
    static func w4(n: Int, api: API = .closures) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let kept = 100
        let cycles = max(1, n / kept)
        let manager = Manager.forBenchmark()
        manager.levelsOfUndo = kept
        var counter = Counter(manager: manager, api: api)

        for _ in 0..<kept {
            manager.beginUndoGrouping()
            counter.increment()
            manager.endUndoGrouping()
        }
        var registerNanoseconds: UInt64 = 0, undoNanoseconds: UInt64 = 0, redoNanoseconds: UInt64 = 0
        for cycle in 0..<cycles {
            let isLast = cycle == cycles - 1
            let base = kept * (cycle + 1)
            let t0 = Measurement.now()
            for _ in 0..<kept {
                manager.beginUndoGrouping()
                counter.increment()
                manager.endUndoGrouping()
            }
            let t1 = Measurement.now()
            try check(counter.value == base + kept && (!isLast || manager.undoCount == kept),
                      "W4 register, cycle \(cycle): value \(counter.value), undoCount \(manager.undoCount), expected \(kept) kept")

            let t2 = Measurement.now()
            for _ in 0..<kept { manager.undo() }
            let t3 = Measurement.now()
            try check(counter.value == base && (!isLast || (!manager.canUndo && manager.redoCount == kept)),
                      "W4 undo, cycle \(cycle): value \(counter.value), canUndo \(manager.canUndo), redoCount \(manager.redoCount)")

            let t4 = Measurement.now()
            for _ in 0..<kept { manager.redo() }
            let t5 = Measurement.now()
            try check(counter.value == base + kept && (!isLast || (!manager.canRedo && manager.undoCount == kept)),
                      "W4 redo, cycle \(cycle): value \(counter.value), canRedo \(manager.canRedo)")
            registerNanoseconds += t1 - t0
            undoNanoseconds += t3 - t2
            redoNanoseconds += t5 - t4
        }

        result.record("register", operations: kept * cycles, nanoseconds: registerNanoseconds)
        result.record("undo", operations: kept * cycles, nanoseconds: undoNanoseconds)
        result.record("redo", operations: kept * cycles, nanoseconds: redoNanoseconds)
        try manager.endBenchmark(api, &counter)
        return result
    }

    /// W5: N single-action groups round-robin over 1,000 targets; undo half; then
    /// `removeAllActions(withTarget:)` for every target.
    ///
    /// Removal is reported per stored action (`remove_per_stored`): the calls' time divided
    /// by the actions still held (undo and redo stacks) when each call started, summed over
    /// the calls, about N × 500 with all 1,000 timed. A call scans every stored action, so
    /// that is the operation it repeats; the mean time per call (`ns_per_call`, over
    /// `calls_timed` calls) is a note on that line, not a cell of its own: 1,000 calls is what
    /// the workload makes, and 10⁵ calls on a history of this size would take minutes.
    /// `maxCalls` times only the first calls, for implementations too slow to time all
    /// 1,000; the rest are then removed untimed so the final check still covers every target.
    static func w5(n: Int, maxCalls: Int?, api: API = .closures) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let targetCount = 1_000, undone = n / 2
        let timedCalls = min(maxCalls ?? targetCount, targetCount)
        let manager = Manager.forBenchmark()
        var targets = (0..<targetCount).map { _ in Counter(manager: manager, api: api) }

        let t0 = Measurement.now()
        for i in 0..<n {
            manager.beginUndoGrouping()
            targets[i % targetCount].increment()
            manager.endUndoGrouping()
        }
        let t1 = Measurement.now()
        for _ in 0..<undone { manager.undo() }
        let t2 = Measurement.now()
        let total = targets.reduce(0) { $0 + $1.value }
        try check(total == n - undone && manager.undoCount == n - undone && manager.redoCount == undone,
                  "W5 undo: total \(total), undoCount \(manager.undoCount), redoCount \(manager.redoCount)")

        // Undo moved every undone action to the redo stack, so all N are stored at the start.
        var stored = n, storedAtCalls = 0
        var removalNanoseconds: UInt64 = 0
        for (index, target) in targets.enumerated() {
            let actionsOfTarget = n / targetCount + (index < n % targetCount ? 1 : 0)
            if index < timedCalls {
                storedAtCalls += stored
                let start = Measurement.now()
                manager.removeAllActions(withTarget: target)
                removalNanoseconds += Measurement.now() - start
            } else {
                manager.removeAllActions(withTarget: target)
            }
            stored -= actionsOfTarget
            if index == targetCount / 2 && n >= targetCount {
                try check(manager.canUndo || manager.canRedo,
                          "W5 remove: actions of targets not yet removed are gone")
            }
        }
        try check(!manager.canUndo && !manager.canRedo && manager.undoCount == 0 && manager.redoCount == 0,
                  "W5 remove: undoCount \(manager.undoCount), redoCount \(manager.redoCount) after removing every target")
        let after = targets.reduce(0) { $0 + $1.value }
        try check(after == n - undone, "W5 remove changed the targets: total \(after)")

        result.record("register", operations: n, nanoseconds: t1 - t0)
        result.record("undo", operations: undone, nanoseconds: t2 - t1)
        result.record("remove_per_stored", operations: storedAtCalls, nanoseconds: removalNanoseconds)
        result.note("remove_per_stored", "ns_per_call", Double(removalNanoseconds) / Double(max(timedCalls, 1)))
        result.note("remove_per_stored", "calls_timed", Double(timedCalls))
        try manager.endBenchmark(api, &targets)
        return result
    }

    /// W6: `groupsByEvent = true`; N events, each one registration followed by a run-loop
    /// tick that closes the automatic group; undo all; redo all.
    static func w6(n: Int, api: API = .closures) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let manager = Manager.forBenchmark(groupsByEvent: true)
        let runLoop = manager.runLoop
        var counter = Counter(manager: manager, api: api)

        let t0 = Measurement.now()
        for _ in 0..<n {
            counter.increment()
            runLoop.tick()
        }
        let t1 = Measurement.now()
        try check(counter.value == n && manager.undoCount == n && manager.groupingLevel == 0,
                  "W6 register: value \(counter.value), undoCount \(manager.undoCount), level \(manager.groupingLevel)")

        result.record("register", operations: n, nanoseconds: t1 - t0)
        try undoAllThenRedoAll(
            manager, counter, groups: n, actions: n, workload: "W6", into: &result
        )
        try manager.endBenchmark(api, &counter)
        return result
    }

    /// The undo and redo phases W1, W2, W3 and W6 share: `groups` undos take the counter
    /// from `actions` to 0, as many redos take it back; each phase checked, and timed per
    /// action.
    private static func undoAllThenRedoAll(
        _ manager: Manager, _ counter: Counter, groups: Int, actions: Int, workload: String,
        phaseSuffix: String = "", into result: inout RepetitionResult
    ) throws(BenchmarkFailure) {
        let t0 = Measurement.now()
        for _ in 0..<groups { manager.undo() }
        let t1 = Measurement.now()
        try check(counter.value == 0 && !manager.canUndo && manager.redoCount == groups,
                  "\(workload) undo: value \(counter.value), canUndo \(manager.canUndo), redoCount \(manager.redoCount)")

        let t2 = Measurement.now()
        for _ in 0..<groups { manager.redo() }
        let t3 = Measurement.now()
        try check(counter.value == actions && !manager.canRedo && manager.undoCount == groups,
                  "\(workload) redo: value \(counter.value), canRedo \(manager.canRedo), undoCount \(manager.undoCount)")

        result.record("undo" + phaseSuffix, operations: actions, nanoseconds: t1 - t0)
        result.record("redo" + phaseSuffix, operations: actions, nanoseconds: t3 - t2)
    }
}
