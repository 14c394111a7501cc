import Foundation
import UndoKit

/// W9: what the history tree costs when it is used (issue "A history you can walk").
///
/// - `step_off` / `step_on`: one step recorded, undone, and a new step recorded in its place,
///   with ``UndoManager/keepsRedoBranches`` off (Apple: the undone step is discarded) and on
///   (it becomes a branch). The difference per iteration is the cost of one branch point.
/// - `undo_redo_N` / `jump_N`: moving N steps back and forth along a path of N steps, by N
///   `undo()` and `redo()` calls, and by `go(to:)`; the difference per step is what a jump
///   adds to the undos and redos it is made of. Per step, with N = 1,000.
///
/// Variants alternate inside each repetition, so machine noise lands on both alike.
enum TreeWorkload {
    static let path = 1_000

    static func w9(n: Int) throws(BenchmarkFailure) -> RepetitionResult {
        var result = RepetitionResult()
        for keepsBranches in [false, true] {
            let manager = Manager.forBenchmark()
            manager.keepsRedoBranches = keepsBranches
            let counter = Counter(manager: manager)
            let t0 = Measurement.now()
            for _ in 0..<n {
                manager.beginUndoGrouping()
                counter.increment()
                manager.endUndoGrouping()
                manager.undo()
                manager.beginUndoGrouping()
                counter.increment()
                manager.endUndoGrouping()
            }
            let t1 = Measurement.now()
            let nodes = manager.historyTree.nodes.count
            try check(counter.value == n && nodes == (keepsBranches ? 2 * n : n),
                      "W9 steps: value \(counter.value), \(nodes) nodes")
            result.record(keepsBranches ? "step_on" : "step_off", operations: n, nanoseconds: t1 - t0)
        }

        let manager = Manager.forBenchmark()
        manager.keepsRedoBranches = true
        let counter = Counter(manager: manager)
        for _ in 0..<path {
            manager.beginUndoGrouping()
            counter.increment()
            manager.endUndoGrouping()
        }
        let tree = manager.historyTree
        guard let last = tree.nodes.last else { throw BenchmarkFailure(description: "W9: the tree has no node") }
        let rounds = max(1, n / (2 * path))
        var plain: UInt64 = 0
        var jumps: UInt64 = 0
        for _ in 0..<rounds {
            let t0 = Measurement.now()
            for _ in 0..<path { manager.undo() }
            for _ in 0..<path { manager.redo() }
            let t1 = Measurement.now()
            manager.goToStart()
            manager.go(to: last)
            let t2 = Measurement.now()
            plain += t1 - t0
            jumps += t2 - t1
        }
        try check(counter.value == path && manager.historyTree.current == last.id,
                  "W9 jumps: value \(counter.value)")
        result.record("undo_redo_N", operations: 2 * path * rounds, nanoseconds: plain)
        result.record("jump_N", operations: 2 * path * rounds, nanoseconds: jumps)
        return result
    }
}
