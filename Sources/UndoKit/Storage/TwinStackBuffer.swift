/// The entries of a manager's undo and redo stacks, in one allocation that both stacks grow
/// into from opposite ends: the undo stack's entries from the start, oldest first; the redo
/// stack's from the end, oldest last in memory, so that its entry `i` sits at
/// `capacity - 1 - i`. Each ``UndoStack`` reaches its side through a ``StackEntries`` view.
///
/// Why one allocation: an undo takes a step off the undo stack and writes its inverse onto
/// the redo stack (a redo, the other way round). With a buffer per stack, undoing N steps
/// writes N entries into memory the process has never touched, and every new page faults on
/// first touch while the pages the undo stack just vacated lie unused. On the development
/// machine that was about 20 of W1's 94 ns per undo: a second pass of undos, into memory
/// already touched, took 73 ns. Sharing one allocation, the redo stack grows into the
/// undo stack's vacated pages, and neither stack reallocates while steps only move between
/// them (W4's undos no longer grow anything).
///
/// Growth is as ``StackBuffer``'s, by `realloc` (see ``StackMemory``), after which the redo
/// stack's block moves to the new end.
struct TwinStackBuffer: ~Copyable {
    typealias Entry = UndoStack.Entry

    /// Where one stack's entries are: entry `i` at `origin + i * step`.
    struct Side {
        fileprivate(set) var origin: UnsafeMutablePointer<Entry>
        /// +1 for the undo stack, -1 for the redo stack.
        let step: Int
        fileprivate(set) var count = 0
    }

    /// The undo stack's side (from the first slot up), then the redo stack's (from the last
    /// slot down); allocated apart, so that each view can keep the address of its own.
    fileprivate let sides: UnsafeMutablePointer<Side>
    private var undoSide: Side {
        get { sides[0] }
        set { sides[0] = newValue }
    }
    private var redoSide: Side {
        get { sides[1] }
        set { sides[1] = newValue }
    }
    private(set) var capacity = 0
    /// Slots neither stack uses; an append grows the buffer when there are none.
    fileprivate(set) var freeSlots = 0
    /// Where an undo or redo puts the group it takes off a stack while its steps run (see
    /// `UndoManager.invokeNewestGroup(ofRedoStack:)`): kept with its capacity from one group to
    /// the next, because a buffer allocated anew for each large group is fresh memory, and
    /// the page faults of its first touch cost more than the steps (W2: 8,000 faults, more
    /// than half of the undo's time, for 200,000 steps). It holds at most the largest group
    /// taken off so far, as large as that group is on its stack.
    private var invocationScratch = StackBuffer<Entry>()

    init() {
        let base = StackMemory.allocate(Entry.self, capacity: 0)
        sides = .allocate(capacity: 2)
        sides.initialize(to: Side(origin: base, step: 1))
        (sides + 1).initialize(to: Side(origin: base - 1, step: -1))
    }

    deinit {
        undoSide.origin.deinitialize(count: undoSide.count)
        (redoSide.origin - (redoSide.count - 1)).deinitialize(count: redoSide.count)
        StackMemory.deallocate(undoSide.origin)
        sides.deallocate()
    }

    /// Makes room for at least `extra` more entries on either side.
    mutating func reserveCapacity(forAdding extra: Int) {
        if extra > freeSlots {
            grow(toAtLeast: capacity - freeSlots + extra)
        }
    }

    /// The scratch buffer for a group taken off a stack, empty; a new one if it is in use (a
    /// step's handler undoing another group of this manager's is a programmer error, but the
    /// buffer must not be shared even then).
    mutating func takeInvocationScratch() -> StackBuffer<Entry> {
        var taken = StackBuffer<Entry>()
        swap(&taken, &invocationScratch)
        return taken
    }

    /// Gives the scratch buffer back, emptied, keeping its capacity.
    mutating func returnInvocationScratch(_ scratch: consuming StackBuffer<Entry>) {
        scratch.removeAll(keepingCapacity: true)
        if scratch.capacity >= invocationScratch.capacity {
            swap(&scratch, &invocationScratch)
        }
    }

    // Out of line: growing is rare, and the appends that may grow are on the hot path.
    @inline(never)
    mutating func grow(toAtLeast minimumCapacity: Int) {
        let newCapacity = Swift.max(minimumCapacity, 2 * capacity, 16)
        let base = StackMemory.reallocate(undoSide.origin, capacity: newCapacity)
        // The redo stack's block was copied where it was, at the old end; move it to the
        // new end (the regions may overlap, which moveInitialize allows).
        let redoCount = redoSide.count
        (base + newCapacity - redoCount).moveInitialize(from: base + capacity - redoCount, count: redoCount)
        undoSide.origin = base
        redoSide.origin = base + newCapacity - 1
        freeSlots += newCapacity - capacity
        capacity = newCapacity
    }
}

/// One stack's side of a ``TwinStackBuffer``, indexed oldest first whichever end it grows
/// from: what ``UndoStack/entries`` is.
///
/// A view, not an owner: the buffer belongs to the manager, which frees it after both
/// stacks. An address taken with ``pointer(at:)`` is valid until the next append to either
/// side, since either may grow the shared buffer.
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

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    var last: Entry? { isEmpty ? nil : self[count - 1] }

    /// A copy of the entries, oldest first, for tests and messages.
    var elements: [Entry] { indices.map { self[$0] } }

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

    /// Sets this side's count, keeping the buffer's free slots in step.
    @inline(__always)
    private func setCount(_ newCount: Int) {
        buffer.pointee.freeSlots -= newCount - side.pointee.count
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

    /// The address of entry `index`, for moving entries in and out of place; valid until the
    /// next append to either stack.
    @inline(__always)
    func pointer(at index: Int) -> UnsafeMutablePointer<Entry> {
        checkIndex(index)
        return slot(index)
    }

    func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        let first = pointer(at: i), second = pointer(at: j)
        let held = first.move()
        first.moveInitialize(from: second, count: 1)
        second.initialize(to: held)
    }

    // MARK: Adding

    @inline(__always)
    func append(_ entry: consuming Entry) {
        if buffer.pointee.freeSlots == 0 {
            buffer.pointee.grow(toAtLeast: buffer.pointee.capacity + 1)
        }
        let count = self.count
        slot(count).initialize(to: entry)
        setCount(count + 1)
    }

    func append(contentsOf entries: some Collection<Entry>) {
        buffer.pointee.reserveCapacity(forAdding: entries.count)
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

    /// Removes every entry, releasing them here (callers park what may run a `deinit`).
    func removeAll() {
        removeSubrange(indices)
    }

    /// Moves the entries from `start` on to the end of `destination`, oldest first, and
    /// removes them: a block move for the undo side, one by one (reversing) for the redo
    /// side, whose oldest entry is last in memory.
    func moveSuffix(from start: Int, appendingTo destination: inout StackBuffer<Entry>) {
        let count = self.count
        checkRange(start..<count)
        let moved = count - start
        destination.append(uninitializedCount: moved) { slots in
            if side.pointee.step < 0 {
                for offset in 0..<moved {
                    (slots + offset).moveInitialize(from: slot(start + offset), count: 1)
                }
            } else {
                slots.moveInitialize(from: slot(start), count: moved)
            }
        }
        setCount(start)
    }

    /// Forgets the newest entry, whose value the caller has already moved out through
    /// ``pointer(at:)``.
    @inline(__always)
    func forgetMovedOutLast() {
        let count = self.count
        precondition(count > 0, "StackEntries: forgetMovedOutLast() on an empty stack")
        setCount(count - 1)
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
