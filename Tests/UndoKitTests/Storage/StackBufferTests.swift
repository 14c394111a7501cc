import Testing
@testable import UndoKit

/// ``StackBuffer``, the non-copyable buffer the stacks keep their entries in: it grows with
/// `realloc`, moves elements by hand and frees them itself, so each operation is checked
/// against an array doing the same, with elements whose lifetimes are counted.
@Suite struct StackBufferTests {
    /// Counts the instances alive, so a test sees every element released exactly once.
    final class Tracked {
        let value: Int
        let census: Census
        init(_ value: Int, _ census: Census) {
            self.value = value
            self.census = census
            census.alive += 1
        }
        deinit { census.alive -= 1 }
    }

    final class Census {
        var alive = 0
    }

    static func values(_ buffer: borrowing StackBuffer<Tracked>) -> [Int] {
        buffer.elements.map(\.value)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 1_000, 100_000])
    func appendingGrowsAndKeepsOrder(count: Int) {
        let census = Census()
        do {
            var buffer = StackBuffer<Tracked>()
            for value in 0..<count {
                buffer.append(Tracked(value, census))
            }
            #expect(buffer.count == count)
            #expect(Self.values(buffer) == Array(0..<count))
            #expect(census.alive == count)
        }
        #expect(census.alive == 0, "the buffer's deinit releases every element")
    }

    @Test func removeLastAndPopLastHandOutTheNewest() {
        let census = Census()
        var buffer = StackBuffer<Tracked>()
        for value in 0..<3 { buffer.append(Tracked(value, census)) }
        #expect(buffer.removeLast().value == 2)
        #expect(buffer.popLast()?.value == 1)
        #expect(buffer.popLast()?.value == 0)
        #expect(buffer.popLast() == nil)
        #expect(buffer.isEmpty && census.alive == 0)
    }

    @Test(arguments: [0..<0, 0..<2, 3..<5, 8..<10, 0..<10, 4..<5])
    func removeSubrangeMatchesAnArray(range: Range<Int>) {
        let census = Census()
        var buffer = StackBuffer<Tracked>()
        var expected = Array(0..<10)
        for value in expected { buffer.append(Tracked(value, census)) }
        buffer.removeSubrange(range)
        expected.removeSubrange(range)
        #expect(Self.values(buffer) == expected)
        #expect(census.alive == expected.count)
    }

    @Test func subscriptReadsAndWritesInPlace() {
        var buffer = StackBuffer([10, 20, 30])
        buffer[1] += 5
        #expect(buffer[1] == 25)
        #expect(buffer.first == 10 && buffer.last == 30)
        #expect(Array(buffer.indices) == [0, 1, 2])
        #expect(buffer.elements(in: 1..<3) == [25, 30])
    }

    @Test func movingASuffixAppendsItElsewhere() {
        let census = Census()
        var source = StackBuffer<Tracked>()
        var destination = StackBuffer<Tracked>()
        for value in 0..<5 { source.append(Tracked(value, census)) }
        destination.append(Tracked(-1, census))
        source.moveSuffix(from: 3, appendingTo: &destination)
        #expect(Self.values(source) == [0, 1, 2])
        #expect(Self.values(destination) == [-1, 3, 4])
        #expect(census.alive == 6, "moved, not copied or released")
    }

    @Test func movingEverythingIntoAnEmptyBufferSwapsStorage() {
        let census = Census()
        var source = StackBuffer<Tracked>()
        var destination = StackBuffer<Tracked>()
        for value in 0..<4 { source.append(Tracked(value, census)) }
        source.moveSuffix(from: 0, appendingTo: &destination)
        #expect(source.count == 0)
        #expect(Self.values(destination) == [0, 1, 2, 3])
        source.append(Tracked(9, census))
        #expect(Self.values(source) == [9], "the emptied buffer is usable")
        #expect(census.alive == 5)
    }

    @Test func movingASuffixOutThroughAPointer() {
        let census = Census()
        var buffer = StackBuffer<Tracked>()
        for value in 0..<4 { buffer.append(Tracked(value, census)) }
        let outside = UnsafeMutablePointer<Tracked>.allocate(capacity: 2)
        defer { outside.deallocate() }
        buffer.moveSuffix(from: 2, to: outside)
        #expect(Self.values(buffer) == [0, 1])
        #expect(outside[0].value == 2 && outside[1].value == 3)
        outside.deinitialize(count: 2)
        #expect(census.alive == 2)
    }

    @Test func removeAllReleasesEverythingAndCanKeepCapacity() {
        let census = Census()
        var buffer = StackBuffer<Tracked>()
        for value in 0..<20 { buffer.append(Tracked(value, census)) }
        buffer.removeAll(keepingCapacity: true)
        #expect(buffer.isEmpty && census.alive == 0)
        for value in 0..<3 { buffer.append(Tracked(value, census)) }
        buffer.removeAll()
        #expect(buffer.isEmpty && census.alive == 0)
        buffer.append(Tracked(1, census))
        #expect(Self.values(buffer) == [1])
    }

    @Test func aMovedOutLastSlotIsForgottenWithoutARelease() {
        let census = Census()
        var buffer = StackBuffer<Tracked>()
        buffer.append(Tracked(0, census))
        buffer.append(Tracked(1, census))
        let moved = buffer.pointer(at: 1).move()
        buffer.forgetMovedOutLast()
        #expect(Self.values(buffer) == [0])
        #expect(moved.value == 1 && census.alive == 2)
    }

    @Test func anIndexPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let buffer = StackBuffer([1, 2])
            _ = buffer[2]
        }
    }
}
