import Testing
@testable import UndoKit

/// ``StepLedger``, a stack's step ids run-length encoded: every operation is checked against
/// a plain array doing the same, on the shapes the stacks make (ascending runs on the undo
/// stack, descending on the redo stack) and on random ones.
@Suite struct StepLedgerTests {
    private static func ids(_ values: [UInt64]) -> [StepID] {
        values.map(StepID.init(rawValue:))
    }

    @Test("the stacks' shapes stay in one run")
    func stackShapesAreOneRun() {
        var undo = StepLedger()
        var redo = StepLedger()
        for value in 1...1_000 as ClosedRange<UInt64> {
            undo.append(StepID(rawValue: value))
        }
        // Undo all: the redo stack gets the newest first.
        while let id = undo.last {
            undo.removeLast()
            redo.append(id)
        }
        #expect(redo.ids == Self.ids(Array((1...1_000).reversed())))
        #expect(redo.first == StepID(rawValue: 1_000) && redo.last == StepID(rawValue: 1))
        while let id = redo.last {
            redo.removeLast()
            undo.append(id)
        }
        #expect(undo.ids == Self.ids(Array(1...1_000)))
        #expect(undo[0] == StepID(rawValue: 1) && undo[999] == StepID(rawValue: 1_000))
        #expect(undo.ordinal(of: StepID(rawValue: 500)) == 499)
        #expect(undo.ordinal(of: StepID(rawValue: 1_001)) == nil)
    }

    @Test("random operations agree with an array", arguments: 0..<20 as Range<UInt64>)
    func agreesWithAnArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var ledger = StepLedger()
        var reference: [StepID] = []
        var next: UInt64 = 1
        for _ in 0..<2_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                // Mostly the next id, sometimes a jump, sometimes the previous one.
                let id: UInt64 = switch Int.random(in: 0..<4, using: &random) {
                case 0: next + UInt64.random(in: 2...5, using: &random)
                case 1: next > 2 ? next - 2 : 1
                default: next
                }
                next = max(next, id) + 1
                guard !reference.contains(StepID(rawValue: id)) else { continue }
                ledger.append(StepID(rawValue: id))
                reference.append(StepID(rawValue: id))
            case 4...5 where !reference.isEmpty:
                #expect(ledger.removeLast() == reference.removeLast())
            case 6 where !reference.isEmpty:
                #expect(ledger.removeFirst() == reference.removeFirst())
            case 7 where !reference.isEmpty:
                let ordinals = reference.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                ledger.remove(atOrdinals: ordinals)
                for ordinal in ordinals.reversed() {
                    reference.remove(at: ordinal)
                }
            case 8 where !reference.isEmpty:
                let ordinal = Int.random(in: 0..<reference.count, using: &random)
                #expect(ledger[ordinal] == reference[ordinal])
                #expect(ledger.ordinal(of: reference[ordinal]) == ordinal)
            case 9 where Int.random(in: 0..<50, using: &random) == 0:
                ledger.removeAll()
                reference.removeAll()
            default:
                break
            }
            #expect(ledger.count == reference.count)
            #expect(ledger.last == reference.last && ledger.first == reference.first)
        }
        #expect(ledger.ids == reference)
        ledger.checkInvariants()
    }
}
