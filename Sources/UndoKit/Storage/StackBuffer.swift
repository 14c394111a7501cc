import Foundation

/// A growable, contiguous buffer with one owner: what ``UndoStack`` keeps its entries, its
/// open groups' begin indices and its parked entries in.
///
/// Not a `ContiguousArray`, because an array is copy-on-write: every mutation first asks
/// the runtime whether its storage is shared (`swift_isUniquelyReferenced`), and undoing a
/// one-action group mutates the stacks six or seven times (pop the step, push the redo
/// group's begin mark and its index, push the inverse, pop the index, collapse the group).
/// A non-copyable buffer cannot be shared, so it needs no such check: profiled with
/// callgrind, W1, that check and its branches were about a sixth of an undo.
///
/// Indices are checked (a bad index traps, as an array's would); growth doubles the
/// capacity, as an array's does, but with `realloc`: a large buffer grows in place or by
/// remapping its pages, where an array allocates anew, copies everything and touches twice
/// the memory. Undoing W1's 10⁶ steps builds a 32 MB redo stack from nothing, and that
/// growth was what made an undo cost more than a redo of the same instructions.
///
/// `realloc` moves elements as bytes, which is sound for the elements this buffer holds:
/// stack entries (class references, closure contexts, integers) and integers are bitwise
/// movable. (Types that are not, such as Objective-C weak references or some C++ types, must
/// not be stored here.)
struct StackBuffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    /// The number of initialized elements, which occupy `base[0..<count]`.
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 0
        base = Self.allocate(capacity: 0)
    }

    init(_ elements: some Collection<Element>) {
        capacity = elements.count
        base = Self.allocate(capacity: capacity)
        _ = UnsafeMutableBufferPointer(start: base, count: capacity).initialize(fromContentsOf: elements)
        count = capacity
    }

    deinit {
        base.deinitialize(count: count)
        free(base)
    }

    /// Memory for `capacity` elements from `malloc`, so that ``grow(toAtLeast:)`` can
    /// `realloc` it; `malloc` aligns for any scalar type, which covers every element here.
    private static func allocate(capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Swift.max(byteCount(capacity), 1)
        guard let memory = malloc(bytes) else { fatalError("StackBuffer: out of memory allocating \(bytes) bytes") }
        return memory.bindMemory(to: Element.self, capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    var first: Element? { count == 0 ? nil : base.pointee }
    var last: Element? { count == 0 ? nil : base[count - 1] }

    /// A copy of the elements, for tests and messages.
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// A copy of the elements in `range`.
    func elements(in range: Range<Int>) -> ContiguousArray<Element> {
        checkRange(range)
        return ContiguousArray(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

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

    /// The address of the element at `index`, for moving elements in and out of place; valid
    /// until the next mutation that may grow the buffer.
    mutating func pointer(at index: Int) -> UnsafeMutablePointer<Element> {
        checkIndex(index)
        return base + index
    }

    /// Calls `body` with the initialized elements, which it may rearrange but must leave
    /// initialized.
    mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (UnsafeMutableBufferPointer<Element>) -> Result
    ) -> Result {
        body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    // MARK: Adding

    mutating func append(_ element: consuming Element) {
        if count == capacity {
            grow(toAtLeast: count + 1)
        }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: some Collection<Element>) {
        reserveCapacity(count + elements.count)
        _ = UnsafeMutableBufferPointer(start: base + count, count: elements.count).initialize(fromContentsOf: elements)
        count += elements.count
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
        let bytes = Self.byteCount(newCapacity)
        guard let grown = realloc(base, bytes) else { fatalError("StackBuffer: out of memory growing to \(bytes) bytes") }
        base = grown.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }

    private static func byteCount(_ capacity: Int) -> Int {
        let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        precondition(!overflow, "StackBuffer: \(capacity) elements do not fit in memory")
        return bytes
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

    /// Removes the elements in `range`, moving the later ones down.
    mutating func removeSubrange(_ range: Range<Int>) {
        checkRange(range)
        (base + range.lowerBound).deinitialize(count: range.count)
        (base + range.lowerBound).moveInitialize(from: base + range.upperBound, count: count - range.upperBound)
        count -= range.count
    }

    /// Removes every element; keeps the capacity only if asked to.
    mutating func removeAll(keepingCapacity: Bool = false) {
        base.deinitialize(count: count)
        count = 0
        if !keepingCapacity {
            free(base)
            base = Self.allocate(capacity: 0)
            capacity = 0
        }
    }

    /// Moves the elements from `start` on to the end of `destination`; when they are all
    /// the elements and `destination` is empty, by exchanging the two buffers' storage.
    mutating func moveSuffix(from start: Int, appendingTo destination: inout StackBuffer<Element>) {
        checkRange(start..<count)
        if start == 0 && destination.isEmpty {
            swap(&base, &destination.base)
            swap(&count, &destination.count)
            swap(&capacity, &destination.capacity)
            return
        }
        let moved = count - start
        destination.reserveCapacity(destination.count + moved)
        (destination.base + destination.count).moveInitialize(from: base + start, count: moved)
        destination.count += moved
        count = start
    }

    /// Moves the elements from `start` on to `destination`, oldest first, and removes them.
    mutating func moveSuffix(from start: Int, to destination: UnsafeMutablePointer<Element>) {
        checkRange(start..<count)
        destination.moveInitialize(from: base + start, count: count - start)
        count = start
    }

    /// Forgets the last element, whose value the caller has already moved out through
    /// ``pointer(at:)``.
    mutating func forgetMovedOutLast() {
        precondition(count > 0, "StackBuffer: forgetMovedOutLast() on an empty buffer")
        count -= 1
    }

    // MARK: Checks

    @inline(__always)
    private func checkIndex(_ index: Int) {
        // One unsigned comparison covers both a negative index and one past the end.
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StackBuffer: index \(index) out of range 0..<\(count)")
    }

    private func checkRange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "StackBuffer: range \(range) out of range 0..<\(count)")
    }
}
