import Testing
@testable import UndoKit

@Suite("UndoManager byte budget")
struct CostTests {
    /// Records a step of `cost` bytes whose undo and redo keep registering the same cost.
    private static func step(_ manager: UndoManager, _ document: Document, cost: Int) {
        register(manager, document)
        manager.setActionCost(cost)
        manager.runLoop.tick()
    }

    private static func register(_ manager: UndoManager, _ document: Document) {
        manager.registerUndo(withTarget: document) { [unowned manager] document in
            document.log.append("run")
            register(manager, document)
            // Ignored: the step keeps the cost it was recorded with.
            manager.setActionCost(1_000_000)
        }
    }

    @Test("Costs add up per step, and the total follows undo and redo")
    func totals() {
        let manager = UndoManager()
        let document = Document()
        #expect(manager.totalActionCost == 0)
        #expect(manager.actionCostLimit == 0)
        manager.registerUndo(withTarget: document) { _ in }
        manager.setActionCost(10)
        manager.setActionCost(5)
        #expect(manager.totalActionCost == 15)
        manager.runLoop.tick()
        Self.step(manager, document, cost: 100)
        #expect(manager.totalActionCost == 115)
        manager.undo()
        #expect(manager.totalActionCost == 15)
        manager.redo()
        #expect(manager.totalActionCost == 115)
        manager.removeAllActions(withTarget: document)
        #expect(manager.totalActionCost == 0)
    }

    @Test("Closing drops the oldest steps until the total fits, never the one just closed",
          arguments: [
            // (limit, costs, steps kept)
            (250, [100, 100, 100], 2), (300, [100, 100, 100], 3), (50, [100, 100], 1), (150, [10, 10, 200], 1),
            (0, [100, 100, 100], 3),
          ])
    func trimming(limit: Int, costs: [Int], kept: Int) {
        let manager = UndoManager()
        manager.actionCostLimit = limit
        let document = Document()
        for cost in costs {
            Self.step(manager, document, cost: cost)
        }
        #expect(manager.undoCount == kept)
        #expect(manager.totalActionCost == costs.suffix(kept).reduce(0, +))
    }

    @Test("Redo steps are untouched; setting the limit trims at once, keeping the newest step")
    func redoUntouchedAndSetter() {
        let manager = UndoManager()
        let document = Document()
        for _ in 0..<4 {
            Self.step(manager, document, cost: 100)
        }
        manager.undo()
        manager.actionCostLimit = 150
        #expect(manager.undoCount == 1)
        #expect(manager.redoCount == 1)
        #expect(manager.totalActionCost == 100)
        manager.actionCostLimit = 1
        #expect(manager.undoCount == 1)
        manager.redo()
        #expect(manager.undoCount == 1)
        #expect(manager.totalActionCost == 100)
    }

    @Test("Dropped steps are released, and a deinit may call back into the manager")
    func releaseReentrancy() {
        final class Snapshot {
            let manager: UndoManager
            init(manager: UndoManager) { self.manager = manager }
            deinit { manager.removeAllActions(withTarget: self) }
        }
        let manager = UndoManager()
        manager.actionCostLimit = 100
        let document = Document()
        weak var first: Snapshot?
        do {
            let snapshot = Snapshot(manager: manager)
            first = snapshot
            manager.registerUndo(withTarget: document) { _ in _ = snapshot }
            manager.setActionCost(80)
            manager.runLoop.tick()
        }
        #expect(first != nil)
        Self.step(manager, document, cost: 80)
        #expect(first == nil)
        #expect(manager.undoCount == 1)
        manager.checkInvariants()
    }

    @Test("Setting a cost while registration is disabled does nothing; a negative cost traps")
    func disabledAndNegative() async {
        let manager = UndoManager()
        manager.disableUndoRegistration()
        manager.setActionCost(10)
        manager.enableUndoRegistration()
        #expect(manager.totalActionCost == 0)
        #expect(manager.groupingLevel == 0)
        await #expect(processExitsWith: .failure) {
            UndoManager().setActionCost(-1)
        }
    }

    @Test("Coalesced steps add their costs")
    func coalescedCost() {
        let manager = UndoManager()
        let document = Document()
        var now = ContinuousClock.now
        manager.coalescingClock = { now }
        manager.actionCostLimit = 1_000
        for _ in 0..<3 {
            now += .milliseconds(10)
            manager.registerUndo(withTarget: document) { _ in }
            manager.setActionCost(100)
            manager.setActionCoalescingKey("k")
            manager.runLoop.tick()
        }
        #expect(manager.undoCount == 1)
        #expect(manager.totalActionCost == 300)
    }
}
