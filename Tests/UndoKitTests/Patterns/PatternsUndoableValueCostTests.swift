import Testing
@testable import UndoKit

@Suite struct PatternsUndoableValueCostTests {
    @Test func snapshotsReportTheirSizeAndTheBudgetBoundsThem() {
        let manager = UndoManager()
        manager.actionCostLimit = 3_000
        let buffer = UndoableValue([UInt8](), undoManager: manager)
        buffer.snapshotCost = { $0.count }
        for step in 1...10 {
            Patterns.event(manager) {
                buffer.modify { $0 = [UInt8](repeating: UInt8(step), count: step * 100) }
            }
            #expect(manager.totalActionCost <= 3_000)
        }
        // Snapshots of 900, 800, 700 and 600 bytes fit; the 500-byte one did not.
        #expect(manager.undoCount == 4)
        #expect(manager.totalActionCost == 900 + 800 + 700 + 600)
        manager.undo()
        #expect(buffer.value.count == 900)
        #expect(manager.totalActionCost == 800 + 700 + 600)
        manager.redo()
        // Redo brings the step back with the cost it was recorded with.
        #expect(manager.totalActionCost == 900 + 800 + 700 + 600)
        #expect(buffer.value.count == 1_000)
    }

    @Test func withoutACostFunctionNothingIsReported() {
        let manager = UndoManager()
        let value = UndoableValue(0, undoManager: manager)
        Patterns.event(manager) { value.modify { $0 += 1 } }
        #expect(manager.totalActionCost == 0)
    }
}
