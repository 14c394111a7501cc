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
    /// `count` ids from `first`, each `delta` (+1 or -1; 0 while `count` is 1) from the one
    /// before.
    struct Run {
        var first: UInt64
        var count: UInt32
        var delta: Int32

        var last: UInt64 { first &+ UInt64(bitPattern: Int64(delta) &* Int64(count &- 1)) }

        func id(at offset: Int) -> UInt64 {
            first &+ UInt64(bitPattern: Int64(delta) &* Int64(offset))
        }
    }

    private var runs = StackBuffer<Run>()
    /// The number of ids.
    private(set) var count = 0

    init() {}

    init(_ ids: some Sequence<StepID>) {
        for id in ids {
            append(id)
        }
    }

    var isEmpty: Bool { count == 0 }

    /// The newest step's id.
    var last: StepID? {
        @inline(__always) get {
            guard runs.count > 0 else { return nil }
            return StepID(rawValue: runs[runs.count - 1].last)
        }
    }

    /// The oldest step's id.
    var first: StepID? {
        runs.first.map { StepID(rawValue: $0.first) }
    }

    /// Every id, oldest first. O(count).
    var ids: [StepID] {
        var ids: [StepID] = []
        ids.reserveCapacity(count)
        for index in runs.indices {
            let run = runs[index]
            for offset in 0..<Int(run.count) {
                ids.append(StepID(rawValue: run.id(at: offset)))
            }
        }
        return ids
    }

    /// The id at `ordinal` (0: the oldest step). O(runs).
    subscript(ordinal: Int) -> StepID {
        precondition(ordinal >= 0 && ordinal < count, "StepLedger: ordinal \(ordinal) of \(count)")
        var remaining = ordinal
        for index in runs.indices {
            let run = runs[index]
            if remaining < Int(run.count) {
                return StepID(rawValue: run.id(at: remaining))
            }
            remaining -= Int(run.count)
        }
        preconditionFailure("StepLedger: runs do not add up to the count")
    }

    /// Where `id` is (0: the oldest step), or `nil`. O(runs).
    func ordinal(of id: StepID) -> Int? {
        var passed = 0
        for index in runs.indices {
            let run = runs[index]
            let distance = Int64(bitPattern: id.rawValue &- run.first)
            let offset: Int64 = run.delta == 0 ? (distance == 0 ? 0 : -1) : distance / Int64(run.delta)
            if offset >= 0 && offset < Int64(run.count) && run.id(at: Int(offset)) == id.rawValue {
                return passed + Int(offset)
            }
            passed += Int(run.count)
        }
        return nil
    }

    func contains(_ id: StepID) -> Bool {
        ordinal(of: id) != nil
    }

    /// Adds the newest step.
    @inline(__always)
    mutating func append(_ id: StepID) {
        count += 1
        if runs.count > 0 {
            let last = runs.pointer(at: runs.count - 1)
            let step = Int64(bitPattern: id.rawValue &- last.pointee.last)
            if last.pointee.count == 1 && (step == 1 || step == -1) {
                last.pointee.delta = Int32(step)
                last.pointee.count = 2
                return
            }
            if last.pointee.count > 1 && step == Int64(last.pointee.delta) && last.pointee.count < UInt32.max {
                last.pointee.count += 1
                return
            }
        }
        runs.append(Run(first: id.rawValue, count: 1, delta: 0))
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
        let last = runs.pointer(at: runs.count - 1)
        let id = last.pointee.last
        count -= 1
        if last.pointee.count == 1 {
            _ = runs.removeLast()
        } else {
            last.pointee.count -= 1
            if last.pointee.count == 1 {
                last.pointee.delta = 0
            }
        }
        return StepID(rawValue: id)
    }

    /// Takes the oldest step's id off (the limits trim the oldest step).
    ///
    /// - Precondition: The ledger is not empty.
    @discardableResult
    mutating func removeFirst() -> StepID {
        let first = runs.pointer(at: 0)
        let id = first.pointee.first
        count -= 1
        if first.pointee.count == 1 {
            _ = runs.removeFirst()
        } else {
            first.pointee.first = first.pointee.id(at: 1)
            first.pointee.count -= 1
            if first.pointee.count == 1 {
                first.pointee.delta = 0
            }
        }
        return StepID(rawValue: id)
    }

    /// Removes the ids at `ordinals`, which are ascending; returns them, oldest first.
    mutating func remove(atOrdinals ordinals: [Int]) -> [StepID] {
        guard !ordinals.isEmpty else { return [] }
        let all = ids
        var removed: [StepID] = []
        removed.reserveCapacity(ordinals.count)
        var kept = StepLedger()
        var next = 0
        for (ordinal, id) in all.enumerated() {
            if next < ordinals.count && ordinals[next] == ordinal {
                removed.append(id)
                next += 1
            } else {
                kept.append(id)
            }
        }
        self = kept
        return removed
    }

    mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Checks that the runs add up to the count and hold no id twice; for the invariant check.
    func checkInvariants() {
        let all = ids
        precondition(all.count == count, "StepLedger: runs hold \(all.count) ids, count says \(count)")
        precondition(Set(all).count == all.count, "StepLedger: an id twice in \(all)")
    }
}
