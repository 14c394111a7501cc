/// A step's identity: given when a top-level group closes as a step, kept wherever the step
/// moves, never given twice by one manager. One type inside and out: the history tree's node
/// id is the step id, so nothing converts between them.
typealias StepID = UndoTree.NodeID

/// A list of step ids (``StepLedger/path``), run-length encoded: steps close in order, so
/// ids come in long consecutive runs of 16 bytes each. The newest run is kept in the ledger
/// itself, so a new step that continues it (nearly every one) is two additions. The ends are
/// O(1); reaching an id by its place, or inserting and removing inside, walks the runs.
struct StepIDRuns: ~Copyable {
    /// The `count` consecutive ids from `first` up.
    struct Run {
        var first: UInt64
        var count: Int

        /// The id just past the run's last one: an id that continues it.
        var end: UInt64 { first &+ UInt64(count) }
    }

    /// The runs before the newest.
    private var runs = StackBuffer<Run>()
    /// The newest run; empty only when the list is.
    private var tail = Run(first: 0, count: 0)
    /// The number of ids.
    private(set) var count = 0

    init() {}

    var last: StepID? {
        count == 0 ? nil : StepID(rawValue: tail.end &- 1)
    }

    /// The runs, oldest first, the newest included.
    private var allRuns: [Run] {
        runs.elements + (tail.count == 0 ? [] : [tail])
    }

    /// Every id, in order. O(count).
    var ids: [StepID] {
        var ids: [StepID] = []
        ids.reserveCapacity(count)
        for run in allRuns {
            ids.append(contentsOf: (run.first..<run.end).lazy.map(StepID.init(rawValue:)))
        }
        return ids
    }

    /// The id at `index`. O(runs), from the newest run back: the places asked for are near
    /// the end (the undo and redo stacks meet there).
    subscript(index: Int) -> StepID {
        precondition(index >= 0 && index < count, "StepIDRuns: no id at \(index) of \(count)")
        var start = count - tail.count
        if index >= start {
            return StepID(rawValue: tail.first &+ UInt64(index - start))
        }
        for run in runs.indices.reversed() {
            start -= runs[run].count
            if index >= start {
                return StepID(rawValue: runs[run].first &+ UInt64(index - start))
            }
        }
        preconditionFailure("StepIDRuns: runs do not add up to the count")
    }

    /// Where `id` is, or `nil`. O(runs).
    func index(of id: StepID) -> Int? {
        var passed = 0
        for run in allRuns {
            if id.rawValue >= run.first && id.rawValue < run.end {
                return passed + Int(id.rawValue &- run.first)
            }
            passed += run.count
        }
        return nil
    }

    // MARK: Changing

    /// Adds `id` at the end.
    @inline(__always)
    mutating func append(_ id: StepID) {
        count &+= 1
        if tail.end == id.rawValue {
            tail.count &+= 1
        } else {
            startRun(with: id)
        }
    }

    /// Out of line: a new run is rare, and the append that continues one is on the hot path.
    @inline(never)
    private mutating func startRun(with id: StepID) {
        if tail.count != 0 {
            runs.append(tail)
        }
        tail = Run(first: id.rawValue, count: 1)
    }

    mutating func append(contentsOf ids: some Sequence<StepID>) {
        for id in ids {
            append(id)
        }
    }

    /// Inserts `id` at `index`: O(1) at the end, O(count) inside (a new step while redo
    /// steps remain).
    @inline(__always)
    mutating func insert(_ id: StepID, at index: Int) {
        if index == count {
            append(id)
        } else {
            insertInside(id, at: index)
        }
    }

    @inline(never)
    private mutating func insertInside(_ id: StepID, at index: Int) {
        var all = ids
        all.insert(id, at: index)
        removeAll()
        append(contentsOf: all)
    }

    /// Removes the ids at `indices` (ascending) and returns them. O(runs + indices).
    @discardableResult
    mutating func remove(at indices: [Int]) -> [StepID] {
        guard !indices.isEmpty else { return [] }
        var removedIDs: [StepID] = []
        removedIDs.reserveCapacity(indices.count)
        var kept: [Run] = []
        var next = 0
        var runStart = 0
        for run in allRuns {
            var offset = 0
            // The ids of this run before each removed one, then after the last.
            while next < indices.count && indices[next] < runStart + run.count {
                let removed = indices[next] - runStart
                removedIDs.append(StepID(rawValue: run.first &+ UInt64(removed)))
                if removed > offset {
                    kept.append(Run(first: run.first &+ UInt64(offset), count: removed - offset))
                }
                offset = removed + 1
                next += 1
            }
            if offset < run.count {
                kept.append(Run(first: run.first &+ UInt64(offset), count: run.count - offset))
            }
            runStart += run.count
        }
        tail = kept.popLast() ?? Run(first: 0, count: 0)
        runs = StackBuffer(kept)
        count -= removedIDs.count
        return removedIDs
    }

    /// Removes the ids in `range` and returns them. A suffix (the redo steps a new edit
    /// clears) is O(its length), not O(runs): after each undo and new edit the ids fall into
    /// runs of one, and rebuilding every run made W9's `step_off` quadratic (270 µs an
    /// iteration at N = 2 × 10⁴).
    @discardableResult
    mutating func removeSubrange(_ range: Range<Int>) -> [StepID] {
        if range == 0..<count {
            let all = ids
            removeAll()
            return all
        }
        if range.upperBound == count {
            var removed: [StepID] = []
            removed.reserveCapacity(range.count)
            for _ in range {
                removed.append(removeLast())
            }
            return removed.reversed()
        }
        return remove(at: Array(range))
    }

    /// Removes the id at `index` and returns it.
    @discardableResult
    mutating func remove(at index: Int) -> StepID {
        guard index != count - 1 else { return removeLast() }
        return remove(at: [index])[0]
    }

    /// Removes the last id. O(1).
    @discardableResult @inline(__always)
    mutating func removeLast() -> StepID {
        count &-= 1
        tail.count &-= 1
        let id = tail.end
        if tail.count == 0, let previous = runs.popLast() {
            tail = previous
        }
        return StepID(rawValue: id)
    }

    /// Removes the first id (the limits trim the oldest step). O(1) but for a run of one.
    @discardableResult @inline(__always)
    mutating func removeFirst() -> StepID {
        count &-= 1
        guard runs.count != 0 else {
            tail.first &+= 1
            tail.count &-= 1
            return StepID(rawValue: tail.first &- 1)
        }
        let run = runs.pointer(at: 0)
        let id = run.pointee.first
        run.pointee.first &+= 1
        run.pointee.count &-= 1
        if run.pointee.count == 0 {
            _ = runs.removeFirst()
        }
        return StepID(rawValue: id)
    }

    mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
        tail = Run(first: 0, count: 0)
        count = 0
    }

    /// Checks that the runs are well formed, add up to the count and hold no id twice.
    func checkInvariants() {
        let all = ids
        precondition(all.count == count, "StepIDRuns: runs hold \(all.count) ids, the count is \(count)")
        precondition(Set(all).count == all.count, "StepIDRuns: an id twice in \(all)")
        precondition(runs.indices.allSatisfy { runs[$0].count > 0 }, "StepIDRuns: an empty run in \(runs.elements)")
        precondition(tail.count > 0 || runs.isEmpty, "StepIDRuns: runs \(runs.elements) before an empty newest run")
    }
}
