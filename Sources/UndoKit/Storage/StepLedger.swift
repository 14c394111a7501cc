/// A step's identity: given when a top-level group closes as a step, kept while the step
/// moves between the stacks and onto a branch, and never given twice by one manager.
///
/// The history tree's node ids (``UndoTree/NodeID``), the clean mark, a coordinator's order
/// and saved histories all name steps by it (see ARCHITECTURE.md, "The step ledger").
struct StepID: Hashable, Comparable, CustomStringConvertible {
    let rawValue: UInt64

    static func < (lhs: StepID, rhs: StepID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    var description: String { "#\(rawValue)" }
}

/// A list of step ids, run-length encoded: the current path of a manager's history (see
/// ``SharedLedger/path``).
///
/// Steps close in order, so the ids along a path come in long runs of consecutive numbers:
/// one run is 24 bytes whatever its length, and the common step costs no memory of its own.
/// The ends are O(1); reaching an id by its place, or inserting and removing inside, walks
/// the runs.
struct StepLedger: ~Copyable {
    /// `count` ids up to `last`, each `delta` (1 or -1, as a wrapping `UInt64`; 0 while
    /// `count` is 1) from the one before.
    struct Run {
        var last: UInt64
        var delta: UInt64
        var count: Int

        /// The id `offset` places after the run's first one.
        func id(at offset: Int) -> UInt64 {
            last &- delta &* UInt64(count &- 1 &- offset)
        }
    }

    private var runs = StackBuffer<Run>()
    /// The number of ids.
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    var last: StepID? {
        runs.count == 0 ? nil : StepID(rawValue: runs.unsafeLast.pointee.last)
    }

    /// Every id, in order. O(count).
    var ids: [StepID] {
        var ids: [StepID] = []
        ids.reserveCapacity(count)
        for index in runs.indices {
            let run = runs[index]
            for offset in 0..<run.count {
                ids.append(StepID(rawValue: run.id(at: offset)))
            }
        }
        return ids
    }

    /// The id at `index`. O(runs), walking from the nearer end.
    subscript(index: Int) -> StepID {
        precondition(index >= 0 && index < count, "StepLedger: no id at \(index) of \(count)")
        let (run, offset) = locate(index)
        return StepID(rawValue: runs[run].id(at: offset))
    }

    /// The run holding the id at `index`, and its offset there.
    private func locate(_ index: Int) -> (run: Int, offset: Int) {
        if index >= count / 2 {
            var end = count
            for run in runs.indices.reversed() {
                end -= runs[run].count
                if index >= end { return (run, index - end) }
            }
        } else {
            var start = 0
            for run in runs.indices {
                if index < start + runs[run].count { return (run, index - start) }
                start += runs[run].count
            }
        }
        preconditionFailure("StepLedger: runs do not add up to the count")
    }

    /// Where `id` is, or `nil`. O(runs).
    func index(of id: StepID) -> Int? {
        var passed = 0
        for index in runs.indices {
            let run = runs[index]
            // How many ids back from the run's newest `id` is.
            let back = run.last &- id.rawValue
            let offset = run.delta == 0 ? (back == 0 ? 0 : -1) : Int(truncatingIfNeeded: back &* run.delta)
            if offset >= 0 && offset < run.count {
                return passed + run.count - 1 - offset
            }
            passed += run.count
        }
        return nil
    }

    func contains(_ id: StepID) -> Bool {
        index(of: id) != nil
    }

    // MARK: Changing

    /// Adds `id` at the end.
    @inline(__always)
    mutating func append(_ id: StepID) {
        count &+= 1
        if runs.count != 0 {
            let run = runs.unsafeLast
            if id.rawValue &- run.pointee.last == run.pointee.delta {
                run.pointee.last = id.rawValue
                run.pointee.count &+= 1
                return
            }
        }
        startRun(with: id)
    }

    /// ``append(_:)`` when `id` does not continue the last run: it makes a run of one a run
    /// of two, or starts a run.
    @inline(never)
    private mutating func startRun(with id: StepID) {
        if runs.count != 0 {
            let run = runs.unsafeLast
            let step = id.rawValue &- run.pointee.last
            if run.pointee.count == 1 && (step == 1 || step == UInt64.max) {
                run.pointee.delta = step
                run.pointee.last = id.rawValue
                run.pointee.count = 2
                return
            }
        }
        runs.append(Run(last: id.rawValue, delta: 0, count: 1))
    }

    mutating func append(contentsOf ids: some Sequence<StepID>) {
        for id in ids {
            append(id)
        }
    }

    /// Inserts `id` at `index`. O(1) at the end, O(count) inside (rare: a new step while
    /// redo steps remain).
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
        replace(with: all)
    }

    /// Removes the ids at `indices`, which are ascending, and returns them. O(runs +
    /// indices): a run is split only where an id leaves it.
    @discardableResult
    mutating func remove(at indices: [Int]) -> [StepID] {
        guard !indices.isEmpty else { return [] }
        var removedIDs: [StepID] = []
        removedIDs.reserveCapacity(indices.count)
        var kept = StackBuffer<Run>(minimumCapacity: runs.count + indices.count)
        var next = 0
        var runStart = 0
        for index in runs.indices {
            let run = runs[index]
            var offset = 0
            // The ids of this run before each removed one, then after the last.
            while next < indices.count && indices[next] < runStart + run.count {
                let removed = indices[next] - runStart
                removedIDs.append(StepID(rawValue: run.id(at: removed)))
                if removed > offset {
                    kept.append(Self.run(of: run, offsets: offset..<removed))
                }
                offset = removed + 1
                next += 1
            }
            if offset < run.count {
                kept.append(offset == 0 ? run : Self.run(of: run, offsets: offset..<run.count))
            }
            runStart += run.count
        }
        runs = kept
        count -= removedIDs.count
        return removedIDs
    }

    /// Removes the ids in `range` and returns them.
    @discardableResult
    mutating func removeSubrange(_ range: Range<Int>) -> [StepID] {
        if range == 0..<count {
            let all = ids
            removeAll()
            return all
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
    @discardableResult
    mutating func removeLast() -> StepID {
        let run = runs.unsafeLast
        let id = run.pointee.last
        count &-= 1
        if run.pointee.count == 1 {
            runs.dropLast()
        } else {
            run.pointee.last = id &- run.pointee.delta
            run.pointee.count &-= 1
            if run.pointee.count == 1 {
                run.pointee.delta = 0
            }
        }
        return StepID(rawValue: id)
    }

    /// Removes the first id (the limits trim the oldest step). O(1) but for a run of one.
    @discardableResult
    mutating func removeFirst() -> StepID {
        let run = runs.pointer(at: 0)
        let id = run.pointee.id(at: 0)
        count &-= 1
        if run.pointee.count == 1 {
            _ = runs.removeFirst()
        } else {
            run.pointee.count &-= 1
            if run.pointee.count == 1 {
                run.pointee.delta = 0
            }
        }
        return StepID(rawValue: id)
    }

    mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
        count = 0
    }

    /// The part of `run` at `offsets` (from its first id), as a run of its own.
    private static func run(of run: Run, offsets: Range<Int>) -> Run {
        Run(last: run.id(at: offsets.upperBound - 1), delta: offsets.count == 1 ? 0 : run.delta, count: offsets.count)
    }

    private mutating func replace(with ids: [StepID]) {
        removeAll()
        append(contentsOf: ids)
    }

    /// Checks that the runs are well formed, add up to the count and hold no id twice; for the
    /// invariant check.
    func checkInvariants() {
        let all = ids
        precondition(all.count == count, "StepLedger: runs hold \(all.count) ids, the count is \(count)")
        precondition(Set(all).count == all.count, "StepLedger: an id twice in \(all)")
        for index in runs.indices {
            let run = runs[index]
            precondition(run.count > 0 && (run.count == 1) == (run.delta == 0), "StepLedger: run \(run) is malformed")
        }
    }
}
