import Foundation
import Testing
@testable import UndoKit

@Suite("Automatic grouping and the end of the event (R15–R17, R46)")
struct EventGroupingTests {
    @Test("R15: the tick closes exactly one level with CP, WC, DC")
    func tickClosesOneLevel() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.change(doc, to: 2)
        _ = fixture.takeEvents()
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents() == [CP, WC, DC])
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.undoCount = 1
        })
        fixture.manager.undo()
        #expect(doc.value == 0)
    }

    @Test("R15: a tick with nothing pending posts nothing")
    func idleTick() {
        let fixture = Fixture()
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state == ManagerState())
    }

    @Test("R15: a tick while an explicit group is still open closes the innermost level only")
    func tickClosesInnermost() {
        let fixture = Fixture()
        let doc = Document()
        fixture.manager.beginUndoGrouping()   // automatic + explicit: level 2
        fixture.change(doc, to: 1)
        fixture.manager.runLoop.tick()
        #expect(fixture.state.groupingLevel == 1)
        // The close is spent; the outer group now waits for an explicit end.
        fixture.manager.runLoop.tick()
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)
    }

    @Test("R15/H4: ticks in a mode the manager does not list leave the group open")
    func modes() {
        let fixture = Fixture()
        let doc = Document()
        let tracking = RunLoop.Mode("tracking")
        fixture.change(doc, to: 1)
        fixture.manager.runLoop.tick(mode: tracking)
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.runLoop.tick(mode: .default)
        #expect(fixture.state.groupingLevel == 0)
        fixture.manager.runLoopModes = [tracking]
        fixture.change(doc, to: 2)
        fixture.manager.runLoop.tick(mode: .default)
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.runLoop.tick(mode: tracking)
        #expect(fixture.state.groupingLevel == 0)
        #expect(fixture.state.undoCount == 2)
    }

    @Test("H4: managers sharing a loop end their events together; the loop keeps none alive")
    func sharedLoop() {
        let loop = SimulatedRunLoop()
        let first = Fixture(manager: UndoManager(runLoop: loop))
        let doc = Document()
        weak var weakSecond: UndoManager?
        do {
            let second = Fixture(manager: UndoManager(runLoop: loop))
            weakSecond = second.manager
            first.change(doc, to: 1)
            second.change(doc, to: 2)
            #expect(loop.hasPendingEvents)
            loop.tick()
            #expect(first.state.undoCount == 1)
            #expect(second.state.undoCount == 1)
            second.change(doc, to: 3)
        }
        #expect(weakSecond == nil)
        first.change(doc, to: 4)
        loop.tick()
        #expect(first.state.undoCount == 2)
        #expect(!loop.hasPendingEvents)
    }

    @Test("R16: with no ticks, everything until undo() is one group")
    func noEventLoop() {
        let fixture = Fixture()
        let doc = Document()
        for value in 1...5 {
            fixture.change(doc, to: value)
        }
        #expect(fixture.state.undoCount == 0)   // R26: the open group's closed children
        #expect(fixture.state.canUndo)
        fixture.manager.undo()
        #expect(doc.value == 0)
        #expect(fixture.state.canUndo == false)
        fixture.manager.redo()
        #expect(doc.value == 5)
    }

    @Test("R17: after closing the automatic group by hand, the same event cannot register")
    func manualCloseKeepsPending() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.groupingLevel == 0)
        #expect(fixture.manager.runLoop.hasPendingEvents)
        // undo() still works and leaves the close pending (R17).
        fixture.manager.undo()
        #expect(doc.value == 0)
        #expect(fixture.manager.runLoop.hasPendingEvents)
        // Explicit groups still work inside the event: a begin is a plain level-1 group.
        fixture.manager.beginUndoGrouping()
        #expect(fixture.state.groupingLevel == 1)
        fixture.change(doc, to: 2)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)
    }

    @Test("R17: undo() with the automatic group open at level 1 clears the pending close")
    func undoCancelsPendingClose() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.undo()
        #expect(!fixture.manager.runLoop.hasPendingEvents)
        _ = fixture.takeEvents()
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents().isEmpty)
        // The next registration opens a fresh automatic group.
        fixture.change(doc, to: 2)
        #expect(fixture.takeEvents() == [DO])
    }

    @Test("R31: removeAllActions() cancels the pending close")
    func removeAllCancelsPendingClose() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.removeAllActions()
        #expect(!fixture.manager.runLoop.hasPendingEvents)
        _ = fixture.takeEvents()
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state == ManagerState())
    }

    @Test("A tick raised from inside a tick does nothing")
    func reentrantTick() {
        let fixture = Fixture()
        let doc = Document()
        var nestedTicks = 0
        let observation = fixture.manager.addEventObserver { [unowned fixture] event in
            if event == DC {
                nestedTicks += 1
                fixture.change(doc, to: 99)     // arms a new automatic group…
                fixture.manager.runLoop.tick()  // …which this nested tick must not close
            }
        }
        defer { observation.cancel() }
        fixture.change(doc, to: 1)
        fixture.manager.runLoop.tick()
        #expect(nestedTicks == 1)
        #expect(fixture.state.groupingLevel == 1)
        #expect(fixture.manager.runLoop.hasPendingEvents)
    }
}
