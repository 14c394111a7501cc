import Foundation
import UndoKit

/// W10: noting changes made elsewhere (issue 27, "Free when unused"): what
/// ``UndoManager/noteChanges(to:origin:)`` costs on a long history, what the stale-step check
/// adds to an undo, and what declaring parts costs in memory.
///
/// A manager holds `steps` closed steps, each one counter increment that declares 1–3 distinct
/// parts out of `parts` (`UndoPart("item", i)`, drawn from a seeded generator). Then, per
/// history size (`steps`, then `steps / 10` with the same parts, each on a fresh manager):
///
/// - `undo_unnoted_S`: undo every step (per undo) before any note: no log yet, the baseline.
/// - `note_S`: `operations` calls of `noteChanges(to:origin:)`, each naming one random part
///   (per call). Notes cost a dictionary write per part, whatever the history's length: the two
///   sizes should read the same.
/// - `undo_run_S`, `undo_refuse_S`, `undo_skip_S`: undo every step (per undo), under the
///   policies `.run`, `.refuse` and `.skip`, with the log of noted changes in place and no step
///   stale (each cycle redoes the steps, untimed, which makes them fresh). `undo_run_S` less
///   `undo_unnoted_S` is the log's bookkeeping (when each step was done); the difference of
///   the other two to `undo_run_S` is the stale check of an undo that runs.
/// - `refused_S`: under `.refuse`, with every part changed since, `operations` undos that each
///   find the next step stale and run nothing (per undo).
/// - `skip_drop_S`: under `.skip`, with every part changed since, one undo drops every step
///   above a safe anchor step and undoes the anchor
///   (per dropped step); rebuilt untimed until `operations` steps are dropped.
///
/// `step_plain` and `step_parts` (the first size only) record the steps without and with parts
/// (per step). Memory, first size of the first repetition only (later ones reuse freed
/// memory), from the resident set's growth as in W1: `bytes_per_declared_part` is the growth
/// recording the steps with parts, less the growth recording them without (a manager kept
/// alive beside it), over the parts declared; `bytes_per_noted_part` is the growth over the
/// notes, over the distinct parts they named (the log's table of last changes);
/// `log_bytes_per_step` is the growth over one untimed undo and redo of every step before
/// `undo_run_S`, over the steps (the log's entry for when each step was last done).
///
/// Every phase checks the counter, so an undo that ran when it should not (or did not when it
/// should) stops the bench. Nothing reads the manager's observable properties between timed
/// phases: a read would make each later operation compare it (see "What Observation costs
/// when nothing observes" in Benchmarks/README.md).
enum NotingWorkload {
    static func w10(parts partCount: Int, steps: Int, operations: Int, repetition: Int) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let parts = (0..<partCount).map { UndoPart("item", $0) }
        for (index, size) in [steps, max(1, steps / 10)].enumerated() {
            try measure(
                parts: parts, steps: size, operations: operations, isFirstSize: index == 0,
                measuresMemory: index == 0 && repetition == 0, into: &result)
        }
        return result
    }

    /// `100k` for 100,000 steps: the suffix of the phases of one history size.
    static func label(_ steps: Int) -> String {
        steps % 1_000 == 0 ? "\(steps / 1_000)k" : "\(steps)"
    }

    private static func measure(
        parts: [UndoPart], steps: Int, operations: Int, isFirstSize: Bool, measuresMemory: Bool,
        into result: inout RepetitionResult
    ) throws(BenchmarkFailure) {
        let suffix = "_" + label(steps)
        var random = SplitMix64(seed: 27)
        // Drawn before anything is measured, so the timed loops and the memory readings hold
        // only the manager's work.
        let stepParts = (0..<steps).map { _ in distinctParts(count: 1 + Int(random.next() % 3), of: parts.count, &random) }
        let notedParts = (0..<operations).map { _ in Int(random.next() % UInt64(parts.count)) }
        let declared = stepParts.reduce(0) { $0 + $1.count }

        // Without parts first, kept alive, so both readings are of fresh memory.
        let plain = Manager.forBenchmark()
        let plainCounter = Counter(manager: plain)
        let plainBefore = Measurement.residentKiB()
        let t0 = Measurement.now()
        for _ in 0..<steps {
            plain.beginUndoGrouping()
            plainCounter.increment()
            plain.endUndoGrouping()
        }
        let t1 = Measurement.now()
        let plainAfter = Measurement.residentKiB()

        let manager = Manager.forBenchmark()
        let counter = Counter(manager: manager)
        let t2 = Measurement.now()
        record(stepParts, parts: parts, on: manager, counter)
        let t3 = Measurement.now()
        let partsAfter = Measurement.residentKiB()
        try check(plainCounter.value == steps && counter.value == steps,
                  "W10 steps: values \(plainCounter.value), \(counter.value), expected \(steps)")
        if isFirstSize {
            result.record("step_plain", operations: steps, nanoseconds: t1 - t0)
            result.record("step_parts", operations: steps, nanoseconds: t3 - t2)
        }
        if measuresMemory, let before = plainBefore, let middle = plainAfter, let after = partsAfter {
            let plainBytes = Double(middle - before) * 1024, partsBytes = Double(after - middle) * 1024
            result.note("step_parts", "bytes_per_step_plain", plainBytes / Double(steps))
            result.note("step_parts", "bytes_per_step_parts", partsBytes / Double(steps))
            result.note("step_parts", "bytes_per_declared_part", (partsBytes - plainBytes) / Double(declared))
            result.note("step_parts", "declared_parts_per_step", Double(declared) / Double(steps))
        }

        // Undoing every step, `cycles` times (timed), redoing them in between (untimed).
        let cycles = max(1, (operations + steps - 1) / steps)
        func undoCycles(_ name: String) throws(BenchmarkFailure) {
            var nanoseconds: UInt64 = 0
            for cycle in 0..<cycles {
                let start = Measurement.now()
                undo(manager, times: steps)
                nanoseconds += Measurement.now() - start
                try check(counter.value == 0, "W10 \(name)\(suffix), cycle \(cycle): value \(counter.value) after undoing every step")
                for _ in 0..<steps { manager.redo() }
                try check(counter.value == steps, "W10 \(name)\(suffix), cycle \(cycle): value \(counter.value) after redoing every step")
            }
            result.record(name + suffix, operations: steps * cycles, nanoseconds: nanoseconds)
        }

        // The same undos before any note: no log, nothing to check (the baseline of undo_run).
        try undoCycles("undo_unnoted")

        // Notes: one random part per call.
        let noteBefore = Measurement.residentKiB()
        let t4 = Measurement.now()
        noteEach(notedParts, of: parts, on: manager)
        let t5 = Measurement.now()
        let noteAfter = Measurement.residentKiB()
        result.record("note" + suffix, operations: notedParts.count, nanoseconds: t5 - t4)
        if measuresMemory, let before = noteBefore, let after = noteAfter {
            let distinct = Set(notedParts).count
            result.note("note" + suffix, "bytes_per_noted_part", Double(after - before) * 1024 / Double(distinct))
            result.note("note" + suffix, "distinct_parts_noted", Double(distinct))
        }
        withExtendedLifetime(plain) {}

        // One untimed cycle first: the log learns when each step was done (its first undo
        // adds an entry per step, which the timed cycles then only update).
        let cycleBefore = Measurement.residentKiB()
        for _ in 0..<steps { manager.undo() }
        for _ in 0..<steps { manager.redo() }
        let cycleAfter = Measurement.residentKiB()
        try check(counter.value == steps, "W10 first cycle\(suffix): value \(counter.value)")
        if measuresMemory, let before = cycleBefore, let after = cycleAfter {
            result.note("undo_run" + suffix, "log_bytes_per_step", Double(after - before) * 1024 / Double(steps))
        }

        // Undo every step under each policy; the untimed redos make every step fresh.
        for (policy, name) in [(StaleStepPolicy.run, "undo_run"), (.refuse, "undo_refuse"), (.skip, "undo_skip")] {
            manager.staleStepPolicy = policy
            try undoCycles(name)
        }

        // Every part changed: each refused undo finds the next step stale and runs nothing.
        manager.staleStepPolicy = .refuse
        manager.noteChanges(to: parts, origin: "peer")
        let t6 = Measurement.now()
        undo(manager, times: operations)
        let t7 = Measurement.now()
        try check(counter.value == steps, "W10 refused\(suffix): value \(counter.value), an undo ran a stale step")
        result.record("refused" + suffix, operations: operations, nanoseconds: t7 - t6)

        // Under .skip one undo drops every stale step and undoes the safe step below them (an
        // anchor declaring a part nobody changes: with no safe step, `.skip` drops nothing,
        // as `canUndo` is false). Rebuilt untimed until enough are dropped; the anchor's one
        // undo per cycle is timed with the drops it ends.
        manager.staleStepPolicy = .skip
        let anchor = UndoPart("anchor", 0)
        var dropNanoseconds: UInt64 = 0, dropped = 0
        while dropped < operations {
            manager.removeAllActions()
            manager.beginUndoGrouping()
            counter.increment()
            manager.addActionParts(anchor)
            manager.endUndoGrouping()
            record(stepParts, parts: parts, on: manager, counter)
            manager.noteChanges(to: parts, origin: "peer")
            let expected = counter.value - 1
            let start = Measurement.now()
            manager.undo()
            dropNanoseconds += Measurement.now() - start
            dropped += steps
            try check(counter.value == expected, "W10 skip_drop\(suffix): value \(counter.value), expected \(expected): an undo ran a stale step or not the anchor")
            try check(manager.undoCount == 0 && manager.redoCount == 1 && manager.staleUndoStep == nil,
                      "W10 skip_drop\(suffix): undoCount \(manager.undoCount), redoCount \(manager.redoCount) after dropping every stale step")
        }
        result.record("skip_drop" + suffix, operations: dropped, nanoseconds: dropNanoseconds)
    }

    /// The timed loops of the notes and the undos, out of line so that callgrind can count
    /// them alone (`--toggle-collect` and `--dump-after` on these two functions).
    @inline(never)
    static func noteEach(_ indices: [Int], of parts: [UndoPart], on manager: Manager) {
        for index in indices {
            manager.noteChanges(to: CollectionOfOne(parts[index]), origin: "peer")
        }
    }

    @inline(never)
    static func undo(_ manager: Manager, times: Int) {
        for _ in 0..<times { manager.undo() }
    }

    /// Records one step per element of `stepParts`, each an increment declaring those parts.
    private static func record(_ stepParts: [[Int]], parts: [UndoPart], on manager: Manager, _ counter: Counter) {
        for indices in stepParts {
            manager.beginUndoGrouping()
            counter.increment()
            manager.addActionParts(indices.map { parts[$0] })
            manager.endUndoGrouping()
        }
    }

    /// `count` distinct indices below `limit`.
    private static func distinctParts(count: Int, of limit: Int, _ random: inout SplitMix64) -> [Int] {
        var chosen: [Int] = []
        while chosen.count < min(count, limit) {
            let index = Int(random.next() % UInt64(limit))
            if !chosen.contains(index) { chosen.append(index) }
        }
        return chosen
    }
}

/// SplitMix64 (Steele, Lea and Flood): a seeded generator, so every run draws the same parts.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
