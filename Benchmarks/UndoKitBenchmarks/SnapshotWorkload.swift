import Foundation
import UndoKit

/// W8: the value-snapshot pattern. A document holds a struct model of `items` integers; each
/// step changes one item and registers the old whole model as the undo action.
///
/// The question is whether copy-on-write keeps memory proportional to the changes. It
/// cannot for a flat array: when the step mutates, the old model is still referenced (by the
/// document, then by the undo action that keeps it), so the mutation copies the whole
/// buffer and every step retains a full model. Two variants put that in context, measured
/// the same way:
/// - `chunked`: the same snapshot pattern over a model split into √items chunks, so a step
///   copies only the outer array and one chunk (structural sharing keeps the rest).
/// - `delta`: the classic alternative that registers the inverse of the one-item change.
///
/// `retained_bytes_per_step` is the resident-set growth over the steps divided by the steps
/// (first cycle of the first repetition only, as in W1). The variants run smallest first, so memory freed by
/// one can hide at most the previous, smaller variant's footprint in the next one's figure.
enum SnapshotWorkload {
    /// Every phase repeats its cycle until it has timed at least `operations` steps or undos
    /// (`--w8-operations`, 10⁵ by default): `steps` steps then as many undos for the
    /// unlimited variants (10 cycles with the default 10,000 steps); for `flat_budget`,
    /// `steps` steps and the 100 kept undone, then cycles of 200 steps (past the budget) and
    /// 100 undos. Between cycles, untimed, `removeAllActions()` frees what the undos left on
    /// the redo stack, so memory stays that of one cycle and no timed step pays for clearing
    /// it. Retained bytes are measured over the first cycle's steps of the first repetition.
    static func w8(items: Int, steps: Int, operations: Int, repetition: Int) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        let cycles = max(1, (operations + steps - 1) / steps)
        try measure(DeltaDocument.self, name: "delta", items: items, steps: steps, cycles: cycles, repetition: repetition, into: &result)
        // Second: its footprint is bounded by the budget (100 snapshots, 8 MB with the default
        // sizes), between delta's and chunked's.
        try measureBudget(items: items, steps: steps, operations: operations, repetition: repetition, into: &result)
        try measure(ChunkedSnapshotDocument.self, name: "chunked", items: items, steps: steps, cycles: cycles, repetition: repetition, into: &result)
        try measure(FlatSnapshotDocument.self, name: "flat", items: items, steps: steps, cycles: cycles, repetition: repetition, into: &result)
        return result
    }

    /// The snapshots a budget keeps in the `flat_budget` variant.
    static let budgetSnapshots = 100

    /// `flat_budget`: the `flat` pattern with each step reporting its snapshot's size
    /// (`setActionCost`) under an `actionCostLimit` of `budgetSnapshots` snapshots. The
    /// budget holds if the total cost never exceeds it (checked after every step), the oldest
    /// steps go, and the resident-set growth stays near the budget however many steps run.
    private static func measureBudget(
        items: Int, steps: Int, operations: Int, repetition: Int, into result: inout RepetitionResult
    ) throws(BenchmarkFailure) {
        let manager = Manager.forBenchmark()
        let snapshotBytes = items * MemoryLayout<Int>.stride
        let budget = snapshotBytes * budgetSnapshots
        manager.actionCostLimit = budget
        let document = BudgetedSnapshotDocument(items: items, manager: manager)

        var highestCost = 0
        var stepNanoseconds: UInt64 = 0, undoNanoseconds: UInt64 = 0
        var stepsTimed = 0, undosTimed = 0, nextStep = 0, expectedSum = 0
        var cycle = 0
        while stepsTimed < operations || undosTimed < operations || cycle == 0 {
            let cycleSteps = cycle == 0 ? steps : 2 * budgetSnapshots
            let residentBefore = Measurement.residentKiB()
            let t0 = Measurement.now()
            for _ in 0..<cycleSteps {
                manager.beginUndoGrouping()
                document.increment(at: (nextStep &* 7_919) % items)
                manager.endUndoGrouping()
                highestCost = max(highestCost, manager.totalActionCost)
                nextStep += 1
            }
            let t1 = Measurement.now()
            let residentAfter = Measurement.residentKiB()
            expectedSum += cycleSteps
            let kept = min(cycleSteps, budgetSnapshots)
            try check(highestCost <= budget && document.sum == expectedSum && manager.undoCount == kept
                      && manager.totalActionCost == kept * snapshotBytes,
                      "W8 flat_budget, cycle \(cycle): highest total cost \(highestCost) over the budget \(budget), sum \(document.sum), or \(manager.undoCount) steps kept, expected \(kept)")

            let t2 = Measurement.now()
            for _ in 0..<kept { manager.undo() }
            let t3 = Measurement.now()
            expectedSum -= kept
            try check(document.sum == expectedSum && !manager.canUndo && manager.redoCount == kept,
                      "W8 flat_budget undo, cycle \(cycle): sum \(document.sum), expected \(expectedSum)")

            manager.removeAllActions()
            if cycle == 0 && repetition == 0, let before = residentBefore, let after = residentAfter {
                result.note("flat_budget_step", "retained_bytes_per_step", Double(after - before) * 1024 / Double(steps))
                result.note("flat_budget_step", "retained_bytes_total", Double(after - before) * 1024)
                result.note("flat_budget_step", "budget_bytes", Double(budget))
            }
            stepNanoseconds += t1 - t0
            undoNanoseconds += t3 - t2
            stepsTimed += cycleSteps
            undosTimed += kept
            cycle += 1
        }
        result.record("flat_budget_step", operations: stepsTimed, nanoseconds: stepNanoseconds)
        result.record("flat_budget_undo", operations: undosTimed, nanoseconds: undoNanoseconds)
        if repetition == 0 {
            result.note("flat_budget_step", "highest_total_cost", Double(highestCost))
        }
    }

    private static func measure<Document: SteppedDocument>(
        _: Document.Type, name: String, items: Int, steps: Int, cycles: Int, repetition: Int,
        into result: inout RepetitionResult
    ) throws(BenchmarkFailure) {
        let manager = Manager.forBenchmark()
        let document = Document(items: items, manager: manager)

        var stepNanoseconds: UInt64 = 0, undoNanoseconds: UInt64 = 0
        for cycle in 0..<cycles {
            let residentBefore = Measurement.residentKiB()
            let t0 = Measurement.now()
            for step in 0..<steps {
                manager.beginUndoGrouping()
                // A stride coprime to the usual sizes spreads the changes over the whole model.
                document.increment(at: (step &* 7_919) % items)
                manager.endUndoGrouping()
            }
            let t1 = Measurement.now()
            let residentAfter = Measurement.residentKiB()
            try check(document.sum == steps && manager.undoCount == steps && manager.redoCount == 0,
                      "W8 \(name) steps, cycle \(cycle): sum \(document.sum), undoCount \(manager.undoCount), expected \(steps)")

            let t2 = Measurement.now()
            for _ in 0..<steps { manager.undo() }
            let t3 = Measurement.now()
            try check(document.isPristine && !manager.canUndo && manager.redoCount == steps,
                      "W8 \(name) undo, cycle \(cycle): model not back to its initial state, or history left over")

            manager.removeAllActions()
            if cycle == 0 && repetition == 0, let before = residentBefore, let after = residentAfter {
                result.note(name + "_step", "retained_bytes_per_step", Double(after - before) * 1024 / Double(steps))
                result.note(name + "_step", "model_bytes", Double(items * MemoryLayout<Int>.stride))
            }
            stepNanoseconds += t1 - t0
            undoNanoseconds += t3 - t2
        }
        result.record(name + "_step", operations: steps * cycles, nanoseconds: stepNanoseconds)
        result.record(name + "_undo", operations: steps * cycles, nanoseconds: undoNanoseconds)
    }
}

/// A document whose one-item changes are undoable.
protocol SteppedDocument: AnyObject {
    init(items: Int, manager: Manager)
    /// Adds one to an item, registering whatever undoes it.
    func increment(at index: Int)
    var sum: Int { get }
    /// Whether every item is back to zero.
    var isPristine: Bool { get }
}

/// The pattern under test: registers the old whole model, a flat array of items.
final class FlatSnapshotDocument: SteppedDocument {
    struct Model {
        var items: [Int]
    }

    private(set) var model: Model
    let manager: Manager

    init(items: Int, manager: Manager) {
        model = Model(items: Array(repeating: 0, count: items))
        self.manager = manager
    }

    func increment(at index: Int) {
        var next = model
        next.items[index] += 1
        replace(with: next)
    }

    private func replace(with next: Model) {
        let old = model
        model = next
        manager.registerUndo(withTarget: self) { $0.replace(with: old) }
    }

    var sum: Int { model.items.reduce(0, +) }
    var isPristine: Bool { model.items.allSatisfy { $0 == 0 } }
}

/// The flat snapshot pattern reporting each snapshot's size to the manager's byte budget.
final class BudgetedSnapshotDocument {
    private(set) var items: [Int]
    let manager: Manager

    init(items: Int, manager: Manager) {
        self.items = Array(repeating: 0, count: items)
        self.manager = manager
    }

    func increment(at index: Int) {
        var next = items
        next[index] += 1
        replace(with: next)
        manager.setActionCost(items.count * MemoryLayout<Int>.stride)
    }

    private func replace(with next: [Int]) {
        let old = items
        items = next
        manager.registerUndo(withTarget: self) { $0.replace(with: old) }
    }

    var sum: Int { items.reduce(0, +) }
}

/// The same snapshot pattern over a model stored as √items chunks, so that copy-on-write
/// copies one chunk and the outer array of chunk references, and shares the rest.
final class ChunkedSnapshotDocument: SteppedDocument {
    struct Model {
        let chunkSize: Int
        var chunks: [[Int]]

        init(items: Int) {
            let size = max(1, Int(Double(items).squareRoot()))
            chunkSize = size
            chunks = stride(from: 0, to: items, by: size).map { start in
                Array(repeating: 0, count: min(size, items - start))
            }
        }

        subscript(index: Int) -> Int {
            get { chunks[index / chunkSize][index % chunkSize] }
            set { chunks[index / chunkSize][index % chunkSize] = newValue }
        }
    }

    private(set) var model: Model
    let manager: Manager

    init(items: Int, manager: Manager) {
        model = Model(items: items)
        self.manager = manager
    }

    func increment(at index: Int) {
        var next = model
        next[index] += 1
        replace(with: next)
    }

    private func replace(with next: Model) {
        let old = model
        model = next
        manager.registerUndo(withTarget: self) { $0.replace(with: old) }
    }

    var sum: Int { model.chunks.reduce(0) { $0 + $1.reduce(0, +) } }
    var isPristine: Bool { model.chunks.allSatisfy { $0.allSatisfy { $0 == 0 } } }
}

/// The alternative to snapshots: the undo action restores the one item that changed.
final class DeltaDocument: SteppedDocument {
    private(set) var items: [Int]
    let manager: Manager

    init(items: Int, manager: Manager) {
        self.items = Array(repeating: 0, count: items)
        self.manager = manager
    }

    func increment(at index: Int) {
        set(index, to: items[index] + 1)
    }

    private func set(_ index: Int, to value: Int) {
        let old = items[index]
        items[index] = value
        manager.registerUndo(withTarget: self) { $0.set(index, to: old) }
    }

    var sum: Int { items.reduce(0, +) }
    var isPristine: Bool { items.allSatisfy { $0 == 0 } }
}
