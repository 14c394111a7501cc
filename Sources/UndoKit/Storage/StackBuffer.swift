/// A growable, contiguous buffer with one owner (open groups' begin indices, parked entries).
/// Not a `ContiguousArray`: an array asks the runtime whether its storage is shared before
/// every mutation, and a non-copyable buffer never is (callgrind, W1: those checks and their
/// branches were about a sixth of an undo). Growth doubles the capacity, by `realloc`.
struct StackBuffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    /// The initialized elements are `base[0..<count]`.
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 0
        base = StackMemory.allocate(Element.self, capacity: 0)
    }

    /// An empty buffer with room for `minimumCapacity` elements before it grows.
    init(minimumCapacity: Int) {
        capacity = minimumCapacity
        base = StackMemory.allocate(Element.self, capacity: minimumCapacity)
    }

    init(_ elements: some Collection<Element>) {
        self.init(minimumCapacity: elements.count)
        _ = UnsafeMutableBufferPointer(start: base, count: capacity).initialize(fromContentsOf: elements)
        count = capacity
    }

    deinit {
        base.deinitialize(count: count)
        StackMemory.deallocate(base)
    }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    var first: Element? { count == 0 ? nil : base.pointee }

    /// A copy of the elements, for tests and messages.
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    subscript(index: Int) -> Element {
        unsafeAddress {
            checkIndex(index)
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            checkIndex(index)
            return base + index
        }
    }

    // MARK: Adding

    mutating func append(_ element: consuming Element) {
        if count == capacity {
            grow(toAtLeast: count + 1)
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `extra` elements, which `initialize` writes into the uninitialized slots from
    /// the address it is handed.
    mutating func append(uninitializedCount extra: Int, initializingWith initialize: (UnsafeMutablePointer<Element>) -> Void) {
        reserveCapacity(count + extra)
        initialize(base + count)
        count += extra
    }

    mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity {
            grow(toAtLeast: minimumCapacity)
        }
    }

    // Out of line: growing is rare, and the appends that may grow are on the hot path.
    @inline(never)
    private mutating func grow(toAtLeast minimumCapacity: Int) {
        let newCapacity = Swift.max(minimumCapacity, 2 * capacity, 8)
        base = StackMemory.reallocate(base, capacity: newCapacity)
        capacity = newCapacity
    }

    // MARK: Removing

    /// Removes and returns the last element, which must exist.
    mutating func removeLast() -> Element {
        precondition(count > 0, "StackBuffer: removeLast() on an empty buffer")
        count -= 1
        return (base + count).move()
    }

    mutating func popLast() -> Element? {
        count == 0 ? nil : removeLast()
    }

    /// Removes and returns the first element, which must exist, moving the rest down: O(count).
    mutating func removeFirst() -> Element {
        precondition(count > 0, "StackBuffer: removeFirst() on an empty buffer")
        let first = base.move()
        base.moveInitialize(from: base + 1, count: count - 1)
        count -= 1
        return first
    }

    /// The address of element `index`, for moving it out (see ``forgetAll()``).
    func pointer(at index: Int) -> UnsafeMutablePointer<Element> {
        checkIndex(index)
        return base + index
    }

    /// Frees the storage, the caller having moved every element out.
    mutating func forgetAll() {
        count = 0
        removeAll()
    }

    /// Removes every element; keeps the capacity only if asked to.
    mutating func removeAll(keepingCapacity: Bool = false) {
        base.deinitialize(count: count)
        count = 0
        if !keepingCapacity {
            StackMemory.deallocate(base)
            base = StackMemory.allocate(Element.self, capacity: 0)
            capacity = 0
        }
    }

    // MARK: Checks

    @inline(__always)
    private func checkIndex(_ index: Int) {
        // One unsigned comparison covers both a negative index and one past the end.
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StackBuffer: index \(index) out of range 0..<\(count)")
    }
}

extension StackBuffer where Element == UndoStack.Entry {
    /// Whether the newest entry is a step on `targetID`, read in place: where a run of
    /// commands on one model goes on.
    @inline(__always)
    func lastIsStep(on targetID: ObjectIdentifier) -> Bool {
        count > 0 && self[count - 1].isStep(on: targetID)
    }
}
