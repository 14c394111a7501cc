import Testing
@testable import UndoKit

/// ``StepIDRuns``, a path of step ids run-length encoded: every operation is checked against
/// a plain array doing the same, on the shapes a history makes (one ascending run that undo
/// and redo only read) and on random ones.
@Suite struct StepIDRunsTests {
    private static func ids(_ values: [UInt64]) -> [StepID] {
        values.map(StepID.init(rawValue:))
    }

    @Test("a path of steps that closed in order is one run, read anywhere")
    func stepsClosedInOrderAreOneRun() {
        var path = StepIDRuns()
        for value in 1...1_000 as ClosedRange<UInt64> {
            path.append(StepID(rawValue: value))
        }
        #expect(path.count == 1_000 && path.last == StepID(rawValue: 1_000))
        #expect(path[0] == StepID(rawValue: 1) && path[999] == StepID(rawValue: 1_000) && path[499] == StepID(rawValue: 500))
        #expect(path.index(of: StepID(rawValue: 500)) == 499)
        #expect(path.index(of: StepID(rawValue: 1_001)) == nil)
        // Ids in another order (restored ones) read as well, a run each.
        var descending = StepIDRuns()
        descending.append(contentsOf: Self.ids(Array((1...10).reversed())))
        #expect(descending.ids == Self.ids(Array((1...10).reversed())) && descending.index(of: StepID(rawValue: 3)) == 7)
        path.checkInvariants()
        descending.checkInvariants()
    }

    @Test("random operations agree with an array", arguments: 0..<20 as Range<UInt64>)
    func agreesWithAnArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var ledger = StepIDRuns()
        var reference: [StepID] = []
        var next: UInt64 = 1
        for _ in 0..<2_000 {
            switch Int.random(in: 0..<12, using: &random) {
            case 0...3:
                // Mostly the next id, sometimes a jump, at the end or inside.
                let id = StepID(rawValue: Int.random(in: 0..<4, using: &random) == 0 ? next + 7 : next)
                next = id.rawValue + 1
                let index = Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 0...reference.count, using: &random) : reference.count
                ledger.insert(id, at: index)
                reference.insert(id, at: index)
            case 4 where !reference.isEmpty:
                #expect(ledger.removeLast() == reference.removeLast())
            case 5 where !reference.isEmpty:
                #expect(ledger.removeFirst() == reference.removeFirst())
            case 6 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                #expect(ledger.remove(at: index) == reference.remove(at: index))
            case 7 where !reference.isEmpty:
                let indices = reference.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                #expect(ledger.remove(at: indices) == indices.map { reference[$0] })
                for index in indices.reversed() {
                    reference.remove(at: index)
                }
            case 8 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                #expect(ledger[index] == reference[index])
                #expect(ledger.index(of: reference[index]) == index)
            case 9 where !reference.isEmpty:
                let start = Int.random(in: 0..<reference.count, using: &random)
                let range = start..<Int.random(in: start...reference.count, using: &random)
                #expect(ledger.removeSubrange(range) == Array(reference[range]))
                reference.removeSubrange(range)
            case 11 where !reference.isEmpty:
                // A suffix, as a new edit clears the redo steps: removed from the end.
                let range = Int.random(in: 0..<reference.count, using: &random)..<reference.count
                #expect(ledger.removeSubrange(range) == Array(reference[range]))
                reference.removeSubrange(range)
                ledger.checkInvariants()
            case 10 where Int.random(in: 0..<50, using: &random) == 0:
                ledger.removeAll()
                reference.removeAll()
            default:
                break
            }
            #expect(ledger.count == reference.count && ledger.last == reference.last)
        }
        #expect(ledger.ids == reference)
        ledger.checkInvariants()
    }
}
