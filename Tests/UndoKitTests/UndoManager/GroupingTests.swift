import Testing
@testable import UndoKit

@Suite("Groups (R9–R14)")
struct GroupingTests {
    @Test("R9: begin at level 0 while grouping by event opens two levels: DO, CP, DO")
    func beginOpensAutomaticGroupToo() {
        let fixture = Fixture()
        fixture.manager.beginUndoGrouping()
        #expect(fixture.takeEvents() == [DO, CP, DO])
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.groupingLevel = 2
        })
    }

    @Test("R9: begin with the automatic group pending but closed posts DO only")
    func beginAfterManualCloseOfAutomaticGroup() {
        let fixture = Fixture()
        fixture.manager.beginUndoGrouping()   // levels 2
        fixture.manager.endUndoGrouping()     // 1
        fixture.manager.endUndoGrouping()     // 0: automatic group closed by hand, still pending
        _ = fixture.takeEvents()
        fixture.manager.beginUndoGrouping()
        #expect(fixture.takeEvents() == [DO])
        #expect(fixture.state.groupingLevel == 1)
    }

    @Test("R9: begin at level ≥ 1, or with groupsByEvent off, posts CP then DO", arguments: [true, false])
    func beginNested(groupsByEvent: Bool) {
        let fixture = Fixture(groupsByEvent: groupsByEvent)
        fixture.manager.beginUndoGrouping()
        let level = fixture.state.groupingLevel
        _ = fixture.takeEvents()
        fixture.manager.beginUndoGrouping()
        #expect(fixture.takeEvents() == [CP, DO])
        #expect(fixture.observedLevels == [level, level + 1])
        #expect(fixture.state.groupingLevel == level + 1)
    }

    @Test("R10: end posts CP, WC, DC; observers see the level before and after")
    func endSequence() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 1)
        _ = fixture.takeEvents()
        fixture.manager.endUndoGrouping()
        #expect(fixture.takeEvents() == [CP, WC, DC])
        #expect(fixture.observedLevels == [1, 1, 0])
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.undoCount = 1
        })
    }

    @Test("R10: DC carries the discardable flag of the top-level group, even for a nested close")
    func endCarriesTopLevelDiscardable() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.beginUndoGrouping()
        fixture.manager.setActionIsDiscardable(true)
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 1)
        _ = fixture.takeEvents()
        fixture.manager.endUndoGrouping()
        #expect(fixture.takeEvents() == [CP, WC, DCdisc])
        fixture.manager.endUndoGrouping()
        #expect(fixture.takeEvents() == [CP, WC, DCdisc])
    }

    @Test("R10/R12: an empty group is kept, is undoable, and its close clears redo")
    func emptyGroupKept() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.manager.undo()
        #expect(fixture.state.canRedo)
        fixture.manager.beginUndoGrouping()
        fixture.manager.endUndoGrouping()
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.undoCount = 1
        })
        _ = fixture.takeEvents()
        fixture.manager.undo()
        #expect(fixture.takeEvents() == [CP, CP, WU, CP, CP, DU])
        #expect(fixture.state == ManagerState())
        #expect(doc.value == 0)
    }

    @Test("R10.6/R22: an empty group closed while redoing is kept and leaves the redo stack alone")
    func emptyCloseWhileBusyKeepsRedo() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.step(doc, to: 1)
        // A step whose undo registers a redo action that registers nothing back.
        fixture.manager.beginUndoGrouping()
        fixture.manager.registerUndo(withTarget: doc) { [unowned fixture] doc in
            fixture.registerOneWay(doc, "redone")
        }
        fixture.manager.endUndoGrouping()
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(fixture.state.redoCount == 2)
        fixture.manager.redo()   // redoes `to: 1`
        fixture.manager.redo()   // runs "redone", which registers nothing
        #expect(doc.log.last == "redone")
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.undoCount = 2      // the empty group stays (R22)
        })
        fixture.manager.undo()   // the empty group: nothing runs
        #expect(doc.value == 1)
        #expect(fixture.state.redoCount == 0)   // an empty undo leaves no redo group (R19.8)
    }

    @Test("R11: nested groups keep their structure and undo as one top-level step")
    func nestedStructure() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(doc, "1")
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(doc, "2")
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(doc, "3")
        fixture.manager.endUndoGrouping()
        fixture.manager.endUndoGrouping()
        fixture.registerOneWay(doc, "4")
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)
        fixture.manager.undo()
        #expect(doc.log == ["4", "3", "2", "1"])
        #expect(fixture.state == ManagerState())
    }

    @Test("R11: a group holding one closed single-action group keeps it when it closes")
    func groupOfOneNestedGroup() {
        // Regression: compacting single-action groups once dropped the nested group here.
        let fixture = Fixture()
        let doc = Document()
        fixture.manager.beginUndoGrouping()         // automatic + explicit
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 1)
        fixture.manager.endUndoGrouping()
        fixture.manager.runLoop.tick()              // closes the explicit group
        fixture.manager.endUndoGrouping()           // closes the automatic group by hand
        #expect(fixture.state.undoCount == 1)
        fixture.manager.undo()
        #expect(doc.value == 0)
        fixture.manager.redo()
        #expect(doc.value == 1)
    }

    @Test("R13: groupingLevel is the redo stack's level while undoing")
    func groupingLevelWhileUndoing() {
        let fixture = Fixture()
        let doc = Document()
        var levelsInside: [Int] = []
        fixture.manager.registerUndo(withTarget: doc) { [unowned fixture] _ in
            levelsInside.append(fixture.manager.groupingLevel)
        }
        fixture.manager.runLoop.tick()
        _ = fixture.takeEvents()
        fixture.manager.undo()
        #expect(levelsInside == [1])
        #expect(fixture.takeEvents() == [CP, CP, WU, CP, DU])
        #expect(fixture.observedLevels == [0, 0, 0, 1, 0])
    }

    @Test("R14: setting groupsByEvent opens, closes and cancels nothing")
    func groupsByEventSetter() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        _ = fixture.takeEvents()
        fixture.manager.groupsByEvent = false
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.runLoop.tick()
        // Switched off: the tick does nothing and the close stays pending (R15).
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.groupsByEvent = true
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents() == [CP, WC, DC])
        #expect(fixture.state.groupingLevel == 0)
    }
}
