import Testing
@testable import UndoKit

@Suite struct SmokeTests {
    final class Counter { var value = 0 }

    func increment(_ c: Counter, _ m: UndoManager) {
        c.value += 1
        m.registerUndo(withTarget: c) { [unowned m] c in self.decrement(c, m) }
    }
    func decrement(_ c: Counter, _ m: UndoManager) {
        c.value -= 1
        m.registerUndo(withTarget: c) { [unowned m] c in self.increment(c, m) }
    }

    @Test func counterUndoRedo() {
        let m = UndoManager()
        var events: [UndoManager.Event] = []
        m.addEventObserver { events.append($0) }
        let c = Counter()
        increment(c, m)
        #expect(events == [.didOpenUndoGroup])
        m.runLoop.tick()
        increment(c, m)
        m.runLoop.tick()
        #expect(m.undoCount == 2)
        m.undo(); #expect(c.value == 1)
        m.undo(); #expect(c.value == 0)
        #expect(m.canRedo && m.redoCount == 2)
        m.redo(); m.redo(); #expect(c.value == 2)
        m.undo(); #expect(c.value == 1)
        increment(c, m)
        #expect(!m.canRedo)
        m.checkInvariants()
    }
}
