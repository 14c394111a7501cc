import Testing
@testable import UndoKit

/// ``StackBuffer``, the non-copyable buffer the stacks keep their open groups and parked
/// entries in: it grows with `realloc`, moves elements by hand and frees them itself, so each
/// operation is checked against an array doing the same, with elements whose lifetimes are
/// counted.
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

    @Test(arguments: [0, 1, 3, 20])
    func appendingUninitializedSlotsGrowsAndKeepsOrder(extra: Int) {
        let census = Census()
        do {
            var buffer = StackBuffer<Tracked>(minimumCapacity: 2)
            buffer.append(Tracked(-1, census))
            buffer.append(uninitializedCount: extra) { slots in
                for offset in 0..<extra {
                    (slots + offset).initialize(to: Tracked(offset, census))
                }
            }
            #expect(Self.values(buffer) == [-1] + Array(0..<extra))
            #expect(census.alive == extra + 1)
        }
        #expect(census.alive == 0, "the appended elements are released with the buffer")
    }

    @Test func subscriptReadsAndWritesInPlace() {
        var buffer = StackBuffer([10, 20, 30])
        buffer[1] += 5
        #expect(buffer[1] == 25)
        #expect(buffer.first == 10)
        #expect(Array(buffer.indices) == [0, 1, 2])
        #expect(buffer.elements == [10, 25, 30])
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

    @Test func anIndexPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let buffer = StackBuffer([1, 2])
            _ = buffer[2]
        }
    }
}
