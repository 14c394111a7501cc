/// The entries of a manager's undo and redo stacks, in one allocation that both stacks grow
/// into from opposite ends: the undo stack's entries from the start, oldest first; the redo
/// stack's from the end, oldest last in memory, so that its entry `i` sits at
/// `capacity - 1 - i`. Each ``UndoStack`` reaches its side through a ``StackEntries`` view.
///
/// Why one allocation: an undo takes a step off the undo stack and writes its inverse onto the
/// redo stack. With a buffer per stack, undoing N steps writes into pages never touched, each
/// faulting on first touch, while the pages the undo stack vacated lie unused: about 20 of
/// W1's 94 ns per undo (a second pass, into touched memory, took 73 ns). Shared, the redo stack
/// grows into the vacated pages, and steps moving between the stacks grow nothing.
///
/// Growth is as ``StackBuffer``'s, by `realloc`; the redo stack's block then moves to the end.
struct TwinStackBuffer: ~Copyable {
    typealias Entry = UndoStack.Entry

    /// Where one stack's entries are: entry `i` at `origin + i * step`.
    struct Side {
        fileprivate(set) var origin: UnsafeMutablePointer<Entry>
        /// +1 for the undo stack, -1 for the redo stack.
        let step: Int
        fileprivate(set) var count = 0
        /// Entries past `count` of the group an undo or redo took off this stack and is running
        /// (see ``StackEntries/detachSuffix(from:)``): in place, and not free until taken.
        fileprivate(set) var detached = 0
        /// The index of the detached group's oldest entry (removals below it lower `count`
        /// since, not this).
        fileprivate(set) var detachedStart = 0
        /// Slots freed below the detached group while it runs: free only once it is gone, as the
        /// other stack grows towards them through it.
        fileprivate(set) var freedBelowDetached = 0
        /// Whether the detached group moved to a buffer of its own.
        fileprivate(set) var groupIsEvacuated = false

        /// Slots from the origin to the end of the detached group.
        var extent: Int { detached == 0 ? count : detachedStart + detached }
    }

    /// The undo stack's side, then the redo stack's; allocated apart, so that each view keeps
    /// the address of its own.
    fileprivate let sides: UnsafeMutablePointer<Side>
    private(set) var capacity = 0
    /// Slots neither stack uses; an append grows the buffer when there are none.
    fileprivate(set) var freeSlots = 0
    /// Where a side's detached group goes if something appends to that side while it runs
    /// (see ``StackEntries/evacuateDetached()``): undo side's, then redo side's.
    fileprivate let evacuatedGroups: UnsafeMutablePointer<StackBuffer<Entry>>

    init() {
        let base = StackMemory.allocate(Entry.self, capacity: 0)
        sides = .allocate(capacity: 2)
        sides.initialize(to: Side(origin: base, step: 1))
        (sides + 1).initialize(to: Side(origin: base - 1, step: -1))
        evacuatedGroups = .allocate(capacity: 2)
        evacuatedGroups.initialize(to: StackBuffer())
        (evacuatedGroups + 1).initialize(to: StackBuffer())
    }

    deinit {
        sides[0].origin.deinitialize(count: sides[0].extent)
        (sides[1].origin - (sides[1].extent - 1)).deinitialize(count: sides[1].extent)
        StackMemory.deallocate(sides[0].origin)
        sides.deallocate()
        evacuatedGroups.deinitialize(count: 2)
        evacuatedGroups.deallocate()
    }

    /// Moves the origin of a redo stack of at most `limit` entries (the begin mark of the group
    /// an undo opened) down to `headroom` slots above the undo stack's end, entries included.
    /// An undo then writes its redo group into the slots its own group leaves, not the end of
    /// the buffer, which appends never touched (W2: 2 MB, 485 page faults, for 200,000 steps).
    /// The slots above are out of reach until the redo stack is empty (``sinkEmptyRedoSide()``).
    mutating func floatRedoSide(holdingAtMost limit: Int, headroom: Int) {
        let count = sides[1].count
        guard count <= limit && sides[1].detached == 0 else { return }
        let origin = sides[0].origin + sides[0].extent + headroom - 1
        guard origin < sides[1].origin else { return }
        // Entry `i` of the redo stack is at `origin - i`: the block is its `count` slots
        // ending at the origin.
        (origin - (count - 1)).moveInitialize(from: sides[1].origin - (count - 1), count: count)
        freeSlots -= sides[1].origin - origin
        sides[1].origin = origin
    }

    /// Moves the origin of an empty redo stack back to the end of the buffer, where all free
    /// slots are in reach again; `false` if the redo stack holds entries.
    @discardableResult
    mutating func sinkEmptyRedoSide() -> Bool {
        guard sides[1].count == 0 && sides[1].detached == 0 else { return false }
        let end = sides[0].origin + capacity - 1
        freeSlots += end - sides[1].origin
        sides[1].origin = end
        return true
    }

    /// Checks that the free slots are the gap between the stacks (while a group runs, at most
    /// the gap: slots it freed count once it is done).
    func checkInvariants() {
        let gap = (sides[1].origin - sides[0].origin) - (sides[1].extent - 1) - sides[0].extent
        let running = sides[0].detached + sides[1].detached > 0 || sides[0].groupIsEvacuated || sides[1].groupIsEvacuated
            || sides[0].freedBelowDetached + sides[1].freedBelowDetached > 0
        precondition(running ? freeSlots <= gap : freeSlots == gap,
                     "TwinStackBuffer: \(freeSlots) free slots counted, \(gap) between the stacks")
        precondition(gap >= 0 && sides[1].origin - sides[0].origin < capacity, "TwinStackBuffer: the stacks overlap or overrun")
    }

    /// Makes `extra` slots free: those above a floating empty redo stack first, else by
    /// reallocating. Out of line: growing is rare, and the appends are hot.
    @inline(never)
    mutating func grow(forAdding extra: Int) {
        if sinkEmptyRedoSide() && freeSlots >= extra {
            return
        }
        let newCapacity = Swift.max(capacity - freeSlots + extra, 2 * capacity, 16)
        // The redo stack's block, detached group included, ends at its origin.
        let redoExtent = sides[1].extent
        let redoEnd = sides[1].origin - sides[0].origin
        let base = StackMemory.reallocate(sides[0].origin, capacity: newCapacity)
        // Copied where it was; moved to the new end (moveInitialize allows the overlap).
        (base + newCapacity - redoExtent).moveInitialize(from: base + redoEnd - redoExtent + 1, count: redoExtent)
        freeSlots += (newCapacity - 1) - redoEnd
        sides[0].origin = base
        sides[1].origin = base + newCapacity - 1
        capacity = newCapacity
    }
}

/// One stack's side of a ``TwinStackBuffer``, indexed oldest first whichever end it grows from
/// (``UndoStack/entries``). A view: the manager owns the buffer. An address from
/// ``pointer(at:)`` is valid until the next append to either side, which may grow it.
struct StackEntries {
    typealias Entry = UndoStack.Entry

    private let buffer: UnsafeMutablePointer<TwinStackBuffer>
    /// This stack's ``TwinStackBuffer/Side``, inside `buffer`.
    private let side: UnsafeMutablePointer<TwinStackBuffer.Side>

    init(_ buffer: UnsafeMutablePointer<TwinStackBuffer>, redoSide: Bool) {
        self.buffer = buffer
        side = buffer.pointee.sides + (redoSide ? 1 : 0)
    }

    var count: Int {
        @inline(__always) get { side.pointee.count }
    }

    /// A copy of the entries, oldest first.
    var elements: [Entry] { elements(in: 0..<count) }

    /// A copy of the entries in `range`, oldest first.
    func elements(in range: Range<Int>) -> [Entry] {
        checkRange(range)
        return range.map { self[$0] }
    }

    /// The slot of entry `index`, unchecked.
    @inline(__always)
    private func slot(_ index: Int) -> UnsafeMutablePointer<Entry> {
        side.pointee.origin + index &* side.pointee.step
    }

    /// Sets this side's count and the free slots (those freed below a detached group wait for
    /// it to go).
    @inline(__always)
    private func setCount(_ newCount: Int) {
        let change = newCount - side.pointee.count
        if side.pointee.detached != 0 {
            // Appends evacuate the group first, so only removals get here.
            side.pointee.freedBelowDetached -= change
        } else {
            buffer.pointee.freeSlots -= change
        }
        side.pointee.count = newCount
    }

    subscript(index: Int) -> Entry {
        unsafeAddress {
            checkIndex(index)
            return UnsafePointer(slot(index))
        }
        nonmutating unsafeMutableAddress {
            checkIndex(index)
            return slot(index)
        }
    }

    /// The address of entry `index`, for moving entries in and out of place.
    @inline(__always)
    func pointer(at index: Int) -> UnsafeMutablePointer<Entry> {
        checkIndex(index)
        return slot(index)
    }

    // MARK: Adding

    @inline(__always)
    func append(_ entry: consuming Entry) {
        if side.pointee.detached != 0 {
            evacuateDetached()
        }
        if buffer.pointee.freeSlots == 0 {
            buffer.pointee.grow(forAdding: 1)
        }
        let count = self.count
        slot(count).initialize(to: entry)
        // No group is detached here any more: the slot comes out of the free ones, of which
        // there is one (wrapping: neither count can overflow, and the tests cost every push).
        buffer.pointee.freeSlots &-= 1
        side.pointee.count = count &+ 1
    }

    func append(contentsOf entries: some Collection<Entry>) {
        if side.pointee.detached != 0 {
            evacuateDetached()
        }
        if entries.count > buffer.pointee.freeSlots {
            buffer.pointee.grow(forAdding: entries.count)
        }
        for entry in entries {
            append(entry)
        }
    }

    // MARK: Removing

    /// Removes and returns the newest entry, which must exist.
    @inline(__always)
    func removeLast() -> Entry {
        let count = self.count
        precondition(count > 0, "StackEntries: removeLast() on an empty stack")
        setCount(count - 1)
        return slot(count - 1).move()
    }

    /// Removes the entries in `range`, moving the newer ones down.
    func removeSubrange(_ range: Range<Int>) {
        checkRange(range)
        let count = self.count
        for index in range {
            slot(index).deinitialize(count: 1)
        }
        for index in range.upperBound..<count {
            slot(index - range.count).moveInitialize(from: slot(index), count: 1)
        }
        setCount(count - range.count)
    }

    /// Moves the entries from `start` on to the end of `destination`, oldest first.
    func moveSuffix(from start: Int, appendingTo destination: inout StackBuffer<Entry>) {
        checkRange(start..<count)
        let moved = count - start
        destination.append(uninitializedCount: moved) { move(moved, from: start, to: $0) }
        setCount(start)
    }

    /// Moves the `moved` slots from index `start` on to `slots`, oldest first: a block move
    /// for the undo side, one by one for the redo side, reversed in memory.
    private func move(_ moved: Int, from start: Int, to slots: UnsafeMutablePointer<Entry>) {
        if side.pointee.step < 0 {
            for offset in 0..<moved {
                (slots + offset).moveInitialize(from: slot(start + offset), count: 1)
            }
        } else {
            slots.moveInitialize(from: slot(start), count: moved)
        }
    }

    // MARK: A group taken off in place

    /// Takes the entries from `start` on off the stack, in place, for an undo or redo to take
    /// newest first with ``popDetached()`` while the other stack grows into their slots.
    /// Everything else goes on as if the group were gone; an append to this stack meanwhile
    /// first moves the rest of the group to a buffer of its own (``evacuateDetached()``).
    func detachSuffix(from start: Int) {
        precondition(side.pointee.detached == 0 && !side.pointee.groupIsEvacuated, "StackEntries: a group is already detached")
        checkRange(start..<count)
        side.pointee.detached = count - start
        side.pointee.detachedStart = start
        side.pointee.count = start
    }

    /// This side's evacuated group.
    private var evacuatedGroup: StackBuffer<Entry> {
        unsafeAddress { UnsafePointer(buffer.pointee.evacuatedGroups + (side.pointee.step > 0 ? 0 : 1)) }
        nonmutating unsafeMutableAddress { buffer.pointee.evacuatedGroups + (side.pointee.step > 0 ? 0 : 1) }
    }

    /// The slot of the newest entry of the group detached in place.
    @inline(__always)
    private var newestDetachedSlot: UnsafeMutablePointer<Entry> {
        // Wrapping: an entry index, far from overflowing.
        slot(side.pointee.detachedStart &+ side.pointee.detached &- 1)
    }

    /// Takes the newest entry of the detached group if it is a step on `targetID`, read in
    /// place first (retaining nothing); `nil`, the group untouched, if it is not or none is
    /// left. One computation of the slot for the test and the move: W2's loop runs it once an
    /// action.
    @inline(__always)
    func popDetachedStep(on targetID: ObjectIdentifier) -> Entry? {
        let detached = side.pointee.detached
        if detached == 0 {
            guard side.pointee.groupIsEvacuated && evacuatedGroup.lastIsStep(on: targetID) else { return nil }
            return evacuatedGroup.popLast()
        }
        // Wrapping, as in newestDetachedSlot.
        let newest = slot(side.pointee.detachedStart &+ detached &- 1)
        switch newest.pointee {
        case .action(let id, _, _), .singleton(let id, _, _):
            guard id == targetID else { return nil }
        case .begin, .end:
            return nil
        }
        side.pointee.detached = detached &- 1
        buffer.pointee.freeSlots &+= 1
        return newest.move()
    }

    /// Takes the newest entry of the detached group; `nil` once none is left.
    @inline(__always)
    func popDetached() -> Entry? {
        let detached = side.pointee.detached
        if detached == 0 {
            return side.pointee.groupIsEvacuated ? evacuatedGroup.popLast() : nil
        }
        let entry = newestDetachedSlot.move()
        // Wrapping, as in popDetachedStep(on:).
        side.pointee.detached = detached &- 1
        buffer.pointee.freeSlots &+= 1
        return entry
    }

    /// Puts back the entry ``popDetached()`` just returned.
    @inline(__always)
    func unpopDetached(_ entry: consuming Entry) {
        if side.pointee.groupIsEvacuated {
            evacuatedGroup.append(entry)
            return
        }
        buffer.pointee.freeSlots -= 1
        side.pointee.detached += 1
        newestDetachedSlot.initialize(to: entry)
    }

    /// Moves what is left of the group detached in place to a buffer of its own, so that
    /// this stack can grow over its slots.
    @inline(never)
    func evacuateDetached() {
        var group = StackBuffer<Entry>(minimumCapacity: side.pointee.detached)
        moveDetachedInPlace(appendingTo: &group)
        swap(&group, &evacuatedGroup)
        side.pointee.groupIsEvacuated = true
    }

    /// Ends a detached group: what a step that aborted the run left of it moves to the end of
    /// `remains`, oldest first, for the caller to release.
    func finishDetached(movingRemainsTo remains: inout StackBuffer<Entry>) {
        moveDetachedInPlace(appendingTo: &remains)
        if side.pointee.groupIsEvacuated {
            for index in evacuatedGroup.indices {
                remains.append(evacuatedGroup.pointer(at: index).move())
            }
            evacuatedGroup.forgetAll()
            side.pointee.groupIsEvacuated = false
        }
    }

    /// Moves the entries still detached in place to the end of `destination`, oldest first,
    /// and frees their slots and those freed below them.
    private func moveDetachedInPlace(appendingTo destination: inout StackBuffer<Entry>) {
        let detached = side.pointee.detached
        if detached > 0 {
            destination.append(uninitializedCount: detached) { move(detached, from: side.pointee.detachedStart, to: $0) }
        }
        buffer.pointee.freeSlots += detached + side.pointee.freedBelowDetached
        side.pointee.detached = 0
        side.pointee.freedBelowDetached = 0
    }

    /// Forgets the newest entry, which the caller moved out through ``pointer(at:)``.
    @inline(__always)
    func forgetMovedOutLast() {
        let count = self.count
        precondition(count > 0, "StackEntries: forgetMovedOutLast() on an empty stack")
        setCount(count - 1)
    }

    // MARK: Moving steps to the other side

    /// A ``StepTransfer`` from this side's group detached in place to the end of `other`;
    /// `nil` if the group is not in place (evacuated, or none left), its newest entry is not a
    /// step on `targetID` (a run of one step, common in nested groups, pays nothing more), or
    /// `other` has a group of its own detached.
    @inline(__always)
    func stepTransfer(to other: StackEntries, forStepsOn targetID: ObjectIdentifier) -> StepTransfer? {
        let source = side.pointee
        guard source.detached > 0 && newestDetachedSlot.pointee.isStep(on: targetID) else { return nil }
        let destination = other.side.pointee
        guard !source.groupIsEvacuated && destination.detached == 0 && !destination.groupIsEvacuated else { return nil }
        return StepTransfer(
            buffer: buffer, source: side, destination: other.side,
            sourceSlot: newestDetachedSlot, destinationSlot: other.slot(destination.count),
            towardsOlder: 0 &- source.step, destinationStep: destination.step,
            detached: source.detached, destinationCount: destination.count,
            sourceOrigin: source.origin, destinationOrigin: destination.origin)
    }

    // MARK: Checks

    @inline(__always)
    private func checkIndex(_ index: Int) {
        // One unsigned comparison covers both a negative index and one past the end.
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StackEntries: index \(index) out of range 0..<\(count)")
    }

    private func checkRange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "StackEntries: range \(range) out of range 0..<\(count)")
    }
}

/// Moves steps one at a time from the newest end of one side's group detached in place (the
/// group an undo or redo is running) to the newest end of the other side: the loop that runs
/// a group's commands (`UndoManager.runCommands(on:from:executing:)`), which moves each step
/// to the other stack once its command ran.
///
/// The two slots are computed once and then stepped, where ``StackEntries/popDetachedStep(on:)``
/// and ``StackEntries/append(_:)`` compute each from the sides (callgrind, W2 with commands:
/// about 30 instructions a step). What a command runs may append to either side, remove from
/// it or grow the buffer, so ``isCurrent`` checks that the sides are where the transfer left
/// them before each ``put(_:)``; a caller that finds them moved stops using the transfer and
/// goes on through the sides. The counts are kept current at each step, so whatever runs
/// between a ``takeNewestStep(on:)`` and its ``put(_:)`` sees the stacks as
/// ``StackEntries/popDetached()`` and ``StackEntries/append(_:)`` would leave them.
struct StepTransfer {
    typealias Entry = UndoStack.Entry

    fileprivate let buffer: UnsafeMutablePointer<TwinStackBuffer>
    fileprivate let source: UnsafeMutablePointer<TwinStackBuffer.Side>
    fileprivate let destination: UnsafeMutablePointer<TwinStackBuffer.Side>
    /// The slot of the detached group's newest entry; valid while `detached > 0`.
    fileprivate var sourceSlot: UnsafeMutablePointer<Entry>
    /// The slot the next entry of the destination goes into.
    fileprivate var destinationSlot: UnsafeMutablePointer<Entry>
    /// From a source slot to the next older one, and from a destination slot to the next
    /// newer one: down or up, by side.
    fileprivate let towardsOlder: Int
    fileprivate let destinationStep: Int
    /// The source's detached count and the destination's count, as this transfer left them.
    fileprivate var detached: Int
    fileprivate var destinationCount: Int
    /// The sides' origins when the transfer began: growing the buffer moves them, as does
    /// sinking an emptied redo side. (A slot is its side's origin and an index, and the
    /// detached group's start changes only with a new group.)
    fileprivate let sourceOrigin: UnsafeMutablePointer<Entry>
    fileprivate let destinationOrigin: UnsafeMutablePointer<Entry>

    /// Whether the sides are as this transfer left them: nothing appended to the destination
    /// or removed from it, the detached group neither taken further nor evacuated nor ended,
    /// the buffer not grown, and a free slot for the next ``put(_:)``. (A removal below the
    /// detached group leaves its slots where they are.)
    var isCurrent: Bool {
        @inline(__always) get {
            source.pointee.detached == detached
                && destination.pointee.count == destinationCount
                && source.pointee.origin == sourceOrigin
                && destination.pointee.origin == destinationOrigin
                && buffer.pointee.freeSlots > 0
        }
    }

    /// Takes the newest entry of the detached group if it is a step on `targetID`, as
    /// ``StackEntries/popDetachedStep(on:)`` does; `nil`, the group untouched, if it is not or
    /// none is left. Only while ``isCurrent``.
    @inline(__always)
    mutating func takeNewestStep(on targetID: ObjectIdentifier) -> Entry? {
        guard detached > 0 && sourceSlot.pointee.isStep(on: targetID) else { return nil }
        let entry = sourceSlot.move()
        detached &-= 1
        source.pointee.detached = detached
        buffer.pointee.freeSlots &+= 1
        sourceSlot = sourceSlot.advanced(by: towardsOlder)
        return entry
    }

    /// Puts back the entry ``takeNewestStep(on:)`` just took. Only while ``isCurrent``.
    @inline(__always)
    mutating func putBack(_ entry: consuming Entry) {
        sourceSlot = sourceSlot.advanced(by: 0 &- towardsOlder)
        sourceSlot.initialize(to: entry)
        detached &+= 1
        source.pointee.detached = detached
        buffer.pointee.freeSlots &-= 1
    }

    /// Appends `entry` to the destination, as ``StackEntries/append(_:)`` would. Only while
    /// ``isCurrent``, which guarantees the free slot.
    @inline(__always)
    mutating func put(_ entry: consuming Entry) {
        destinationSlot.initialize(to: entry)
        destinationCount &+= 1
        destination.pointee.count = destinationCount
        buffer.pointee.freeSlots &-= 1
        destinationSlot = destinationSlot.advanced(by: destinationStep)
    }
}
