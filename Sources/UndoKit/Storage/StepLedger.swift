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

/// The ids of the closed top-level steps of one stack, oldest first: the stack's side of the
/// step ledger.
///
/// Run-length encoded. Steps close in order and undo and redo move them one at a time, so a
/// stack's ids come in long runs of consecutive numbers (ascending on the undo stack, and on
/// the redo stack descending, since undo pushes the newest step first): one run is 16 bytes
/// whatever its length, and the common step costs no memory of its own. The ends, which every
/// operation but removal touches, are O(1); reaching a step by its place walks the runs.
struct StepLedger: ~Copyable {
    /// `count` ids up to `last`, each `delta` (1 or -1, as a wrapping `UInt64`; 0 while
    /// `count` is 1) from the one before. The newest id is stored, not the oldest, so that
    /// the ends the hot paths touch are a load, a comparison and two stores.
    struct Run {
        var last: UInt64
        var delta: UInt64
        var count: Int

        /// The id `offset` places after the run's first one.
        func id(at offset: Int) -> UInt64 {
            last &- delta &* UInt64(count &- 1 &- offset)
        }

        var first: UInt64 { id(at: 0) }
    }

    private var runs = StackBuffer<Run>()

    init() {}

    init(_ ids: some Sequence<StepID>) {
        for id in ids {
            append(id)
        }
    }

    var isEmpty: Bool { runs.count == 0 }

    /// The number of ids. O(runs).
    var count: Int {
        var total = 0
        for index in runs.indices {
            total += runs[index].count
        }
        return total
    }

    /// The newest step's id.
    var last: StepID? {
        @inline(__always) get {
            runs.count == 0 ? nil : StepID(rawValue: runs.unsafeLast.pointee.last)
        }
    }

    /// The oldest step's id.
    var first: StepID? {
        runs.first.map { StepID(rawValue: $0.first) }
    }

    /// Every id, oldest first. O(count).
    var ids: [StepID] {
        var ids: [StepID] = []
        for index in runs.indices {
            let run = runs[index]
            for offset in 0..<run.count {
                ids.append(StepID(rawValue: run.id(at: offset)))
            }
        }
        return ids
    }

    /// The id at `ordinal` (0: the oldest step). O(runs).
    subscript(ordinal: Int) -> StepID {
        var remaining = ordinal
        for index in runs.indices {
            let run = runs[index]
            if remaining >= 0 && remaining < run.count {
                return StepID(rawValue: run.id(at: remaining))
            }
            remaining -= run.count
        }
        preconditionFailure("StepLedger: no step at ordinal \(ordinal)")
    }

    /// Where `id` is (0: the oldest step), or `nil`. O(runs).
    func ordinal(of id: StepID) -> Int? {
        var passed = 0
        for index in runs.indices {
            let run = runs[index]
            // How many steps back from the run's newest id `id` is.
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
        ordinal(of: id) != nil
    }

    /// Adds the newest step.
    @inline(__always)
    mutating func append(_ id: StepID) {
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

    /// Takes the newest step's id off.
    ///
    /// - Precondition: The ledger is not empty.
    @inline(__always)
    @discardableResult
    mutating func removeLast() -> StepID {
        let run = runs.unsafeLast
        let id = run.pointee.last
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

    /// Takes the oldest step's id off (the limits trim the oldest step).
    ///
    /// - Precondition: The ledger is not empty.
    @inline(__always)
    @discardableResult
    mutating func removeFirst() -> StepID {
        let run = runs.pointer(at: 0)
        let id = run.pointee.first
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

    /// Removes the ids at `ordinals`, which are ascending, and returns them. O(runs +
    /// ordinals): a run is split only where an id leaves it.
    @discardableResult
    mutating func remove(atOrdinals ordinals: [Int]) -> [StepID] {
        guard !ordinals.isEmpty else { return [] }
        var removedIDs: [StepID] = []
        removedIDs.reserveCapacity(ordinals.count)
        var kept = StackBuffer<Run>(minimumCapacity: runs.count + ordinals.count)
        var next = 0
        var runStart = 0
        for index in runs.indices {
            let run = runs[index]
            var offset = 0
            // The ids of this run before each removed one, then after the last.
            while next < ordinals.count && ordinals[next] < runStart + run.count {
                let removed = ordinals[next] - runStart
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
        return removedIDs
    }

    /// The part of `run` at `offsets` (from its first id), as a run of its own.
    private static func run(of run: Run, offsets: Range<Int>) -> Run {
        Run(last: run.id(at: offsets.upperBound - 1), delta: offsets.count == 1 ? 0 : run.delta, count: offsets.count)
    }

    mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
    }

    /// Checks that the runs add up to the count and hold no id twice; for the invariant check.
    func checkInvariants() {
        let all = ids
        precondition(Set(all).count == all.count, "StepLedger: an id twice in \(all)")
        for index in runs.indices {
            let run = runs[index]
            precondition(run.count > 0 && (run.count == 1) == (run.delta == 0), "StepLedger: run \(run) is malformed")
        }
    }
}
