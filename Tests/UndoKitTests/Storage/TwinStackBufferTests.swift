import Testing
@testable import UndoKit

/// ``TwinStackBuffer``, the one allocation both stacks keep their entries in, growing towards
/// each other, seen through each stack's ``StackEntries``: every operation is checked against
/// an array per side, including across the growth that moves the redo side to the new end.
@Suite struct TwinStackBufferTests {
    /// A buffer and its two views, freed with the pair.
    final class Pair {
        let buffer: UnsafeMutablePointer<TwinStackBuffer>
        let undo: StackEntries
        let redo: StackEntries

        init() {
            buffer = .allocate(capacity: 1)
            buffer.initialize(to: TwinStackBuffer())
            undo = StackEntries(buffer, redoSide: false)
            redo = StackEntries(buffer, redoSide: true)
        }

        deinit {
            buffer.deinitialize(count: 1)
            buffer.deallocate()
        }
    }

    /// An entry that carries a number, and one that holds an object (to watch releases).
    static func mark(_ value: Int) -> UndoStack.Entry { .end(length: value) }

    static func marks(_ side: StackEntries) -> [Int] {
        marks(side.elements)
    }

    static func marks(_ entries: [UndoStack.Entry]) -> [Int] {
        entries.map { entry in
            guard case .end(let length) = entry else { return -1 }
            return length
        }
    }

    @Test(arguments: [0, 1, 15, 16, 17, 1_000])
    func bothSidesGrowInterleavedAndKeepTheirOrder(count: Int) {
        let pair = Pair()
        for value in 0..<count {
            pair.undo.append(Self.mark(value))
            pair.redo.append(Self.mark(-value - 10))
        }
        #expect(Self.marks(pair.undo) == Array(0..<count))
        #expect(Self.marks(pair.redo) == (0..<count).map { -$0 - 10 })
        #expect(pair.undo.count == count && pair.redo.count == count)
    }

    @Test func growingMovesTheRedoSideIntact() {
        let pair = Pair()
        for value in 0..<5 { pair.redo.append(Self.mark(value)) }
        for value in 0..<100 { pair.undo.append(Self.mark(100 + value)) }
        #expect(Self.marks(pair.redo) == [0, 1, 2, 3, 4])
        #expect(Self.marks(pair.undo) == Array(100..<200))
        #expect(pair.buffer.pointee.capacity >= 105)
    }

    @Test func stepsMovingBetweenTheSidesNeverGrowTheBuffer() {
        let pair = Pair()
        for value in 0..<64 { pair.undo.append(Self.mark(value)) }
        let capacity = pair.buffer.pointee.capacity
        for _ in 0..<64 { pair.redo.append(pair.undo.removeLast()) }
        for _ in 0..<64 { pair.undo.append(pair.redo.removeLast()) }
        #expect(pair.buffer.pointee.capacity == capacity)
        #expect(Self.marks(pair.undo) == Array(0..<64))
        #expect(pair.redo.isEmpty)
    }

    @Test(arguments: [false, true], [0..<0, 0..<2, 3..<5, 8..<10, 0..<10, 4..<5])
    func removeSubrangeMatchesAnArray(onRedoSide: Bool, range: Range<Int>) {
        let pair = Pair()
        let side = onRedoSide ? pair.redo : pair.undo
        let other = onRedoSide ? pair.undo : pair.redo
        var expected = Array(0..<10)
        for value in expected { side.append(Self.mark(value)) }
        other.append(Self.mark(99))
        side.removeSubrange(range)
        expected.removeSubrange(range)
        #expect(Self.marks(side) == expected)
        #expect(Self.marks(other) == [99])
    }

    @Test(arguments: [false, true])
    func movingASuffixOutKeepsOldestFirst(onRedoSide: Bool) {
        let pair = Pair()
        let side = onRedoSide ? pair.redo : pair.undo
        for value in 0..<6 { side.append(Self.mark(value)) }
        var group = StackBuffer<UndoStack.Entry>(minimumCapacity: 4)
        side.moveSuffix(from: 2, appendingTo: &group)
        #expect(Self.marks(side) == [0, 1])
        #expect(Self.marks(group.elements) == [2, 3, 4, 5])
    }

    @Test(arguments: [false, true])
    func movingASuffixIntoAParkingBuffer(onRedoSide: Bool) {
        let pair = Pair()
        let side = onRedoSide ? pair.redo : pair.undo
        for value in 0..<5 { side.append(Self.mark(value)) }
        var parked = StackBuffer<UndoStack.Entry>()
        parked.append(Self.mark(-1))
        side.moveSuffix(from: 3, appendingTo: &parked)
        #expect(Self.marks(side) == [0, 1, 2])
        #expect(Self.marks(parked.elements) == [-1, 3, 4])
    }

    @Test func swapAtAndSubscriptWorkOnTheRedoSide() {
        let pair = Pair()
        for value in 0..<4 { pair.redo.append(Self.mark(value)) }
        pair.redo.swapAt(0, 3)
        pair.redo[1] = Self.mark(7)
        #expect(Self.marks(pair.redo) == [3, 7, 2, 0])
        #expect(Self.marks(StackEntries(pair.buffer, redoSide: true)) == [3, 7, 2, 0], "a new view sees the same side")
    }

    @Test func aMovedOutNewestSlotIsForgottenWithoutARelease() {
        let pair = Pair()
        var metadata: GroupMetadata? = GroupMetadata()
        weak let watched = metadata
        pair.redo.append(.begin(metadata))
        metadata = nil
        let moved = pair.redo.pointer(at: 0).move()
        pair.redo.forgetMovedOutLast()
        #expect(pair.redo.isEmpty)
        #expect(watched != nil, "moved, not released")
        _ = consume moved
        #expect(watched == nil)
    }

    @Test func theBufferReleasesBothSides() {
        weak var onUndo: GroupMetadata?
        weak var onRedo: GroupMetadata?
        do {
            let pair = Pair()
            let first = GroupMetadata(), second = GroupMetadata()
            onUndo = first
            onRedo = second
            pair.undo.append(.begin(first))
            pair.redo.append(.begin(second))
            for value in 0..<40 { pair.redo.append(Self.mark(value)) }
        }
        #expect(onUndo == nil && onRedo == nil)
    }

    @Test func removingEverythingEmptiesOneSideOnly() {
        let pair = Pair()
        for value in 0..<3 {
            pair.undo.append(Self.mark(value))
            pair.redo.append(Self.mark(value))
        }
        pair.redo.removeSubrange(pair.redo.indices)
        #expect(pair.redo.isEmpty && Self.marks(pair.undo) == [0, 1, 2])
    }

    @Test func anIndexPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let pair = Pair()
            pair.redo.append(.end(length: 1))
            _ = pair.redo[1]
        }
    }
}
