import Testing
@testable import UndoKit

@Suite("Queries, limits, enabling and clearing (R24–R33)")
struct StateTests {
    @Test("R24: canUndo is true for an open top-level group, even an empty one")
    func canUndoWithOpenGroup() {
        let fixture = Fixture(groupsByEvent: false)
        fixture.manager.beginUndoGrouping()
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.groupingLevel = 1
        })
    }

    @Test("R25: reading canRedo posts a checkpoint, reading canUndo does not")
    func canRedoPostsCheckpoint() {
        let fixture = Fixture()
        _ = fixture.manager.canUndo
        #expect(fixture.takeEvents().isEmpty)
        _ = fixture.manager.canRedo
        #expect(fixture.takeEvents() == [CP])
        _ = fixture.manager.redoMenuItemTitle
        #expect(fixture.takeEvents() == [CP])
        _ = fixture.manager.undoMenuItemTitle
        #expect(fixture.takeEvents().isEmpty)
    }

    @Test("R26: undoCount counts closed groups; while a group is open, its closed children")
    func undoCountQuirk() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.step(doc, to: 2)
        #expect(fixture.state.undoCount == 2)
        fixture.change(doc, to: 3)                 // automatic group open
        #expect(fixture.state.undoCount == 0)
        fixture.manager.beginUndoGrouping()         // explicit inside it
        fixture.change(doc, to: 4)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)       // the closed explicit child
        fixture.manager.runLoop.tick()
        #expect(fixture.state.undoCount == 3)
    }

    @Test("R28: levelsOfUndo drops the oldest groups at once and on each close; never the redo stack")
    func levels() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        for value in 1...5 {
            fixture.step(doc, to: value, named: "Set \(value)")
        }
        fixture.manager.undo()
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(fixture.state.undoCount == 2)
        #expect(fixture.state.redoCount == 3)
        fixture.manager.levelsOfUndo = 1
        #expect(fixture.manager.levelsOfUndo == 1)
        #expect(fixture.state.undoCount == 1)
        #expect(fixture.state.undoActionName == "Set 2")
        #expect(fixture.state.redoCount == 3)
        fixture.manager.redo()
        #expect(fixture.state.undoCount == 1)
        #expect(fixture.state.undoActionName == "Set 3")
        fixture.manager.undo()
        #expect(doc.value == 2)
        fixture.manager.undo()                      // "Set 2" was dropped
        #expect(doc.value == 2)
        #expect(fixture.state.canUndo == false)
    }

    @Test("R28: with a limit, an open top-level group counts and is never the one dropped")
    func levelsWithOpenGroup() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.step(doc, to: 2)
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 3)
        fixture.manager.levelsOfUndo = 2
        #expect(fixture.state.canUndo)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 2)
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(doc.value == 1)
    }

    @Test("R28: a limit of 0, or a negative one, means no limit", arguments: [0, -1])
    func noLimit(limit: Int) {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.levelsOfUndo = limit
        for value in 1...30 {
            fixture.step(doc, to: value)
        }
        #expect(fixture.state.undoCount == 30)
        #expect(fixture.manager.levelsOfUndo == limit)
    }

    @Test("R28: trimming many groups keeps the newest, in order")
    func trimmingAtScale() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.levelsOfUndo = 10
        for value in 1...1_000 {
            fixture.step(doc, to: value)
        }
        #expect(fixture.state.undoCount == 10)
        for expected in stride(from: 999, through: 990, by: -1) {
            fixture.manager.undo()
            #expect(doc.value == expected)
        }
        #expect(!fixture.state.canUndo)
    }

    @Test("R29: disable/enable nest")
    func nestedDisable() {
        let fixture = Fixture()
        fixture.manager.disableUndoRegistration()
        fixture.manager.disableUndoRegistration()
        fixture.manager.enableUndoRegistration()
        #expect(!fixture.manager.isUndoRegistrationEnabled)
        fixture.manager.enableUndoRegistration()
        #expect(fixture.manager.isUndoRegistrationEnabled)
        #expect(fixture.takeEvents().isEmpty)
    }

    @Test("R30: while disabled, begin, end and the setters are no-ops that post nothing")
    func disabledNoOps() {
        let fixture = Fixture(groupsByEvent: false)
        fixture.manager.disableUndoRegistration()
        fixture.manager.beginUndoGrouping()
        fixture.manager.endUndoGrouping()
        fixture.manager.endUndoGrouping()           // not even misuse while disabled
        fixture.manager.setActionName("Ignored")
        fixture.manager.setActionIsDiscardable(true)
        fixture.manager.setActionUserInfoValue(1, forKey: "k")
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state == ManagerState().with { $0.isUndoRegistrationEnabled = false })
    }

    @Test("R30/D: undo and redo while disabled run the actions but record no inverse")
    func undoRedoWhileDisabled() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1, named: "One")
        fixture.step(doc, to: 2, named: "Two")
        fixture.manager.undo()
        _ = fixture.takeEvents()
        fixture.manager.disableUndoRegistration()
        fixture.manager.undo()
        #expect(fixture.takeEvents() == [CP, CP, WU, DU])
        #expect(doc.value == 0)
        fixture.manager.redo()
        #expect(fixture.takeEvents() == [CP, WR, CP, DR])
        #expect(doc.value == 2)
        #expect(fixture.state == ManagerState().with {
            $0.isUndoRegistrationEnabled = false
        })
    }

    @Test("R31: removeAllActions empties both stacks and open groups, re-enables, keeps settings")
    func removeAll() {
        let fixture = Fixture()
        let doc = Document()
        fixture.manager.levelsOfUndo = 7
        fixture.step(doc, to: 1)
        fixture.step(doc, to: 2)
        fixture.manager.undo()
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 3)
        fixture.manager.disableUndoRegistration()
        _ = fixture.takeEvents()
        fixture.manager.removeAllActions()
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state == ManagerState())
        #expect(fixture.manager.levelsOfUndo == 7)
        #expect(fixture.manager.groupsByEvent)
    }

    @Test("R33: removal by target removes its actions and the groups it empties, recursively")
    func removeByTarget() {
        let fixture = Fixture(groupsByEvent: false)
        let a = Document("a")
        let b = Document("b")
        // Group 1: only a (emptied → removed). Group 2: a inside a nested group, plus b
        // (nested group emptied → removed, group 2 stays). Group 3: pre-existing empty.
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(a, "a1")
        fixture.manager.endUndoGrouping()
        fixture.manager.beginUndoGrouping()
        fixture.manager.setActionName("Two")
        fixture.registerOneWay(b, "b2")
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(a, "a2")
        fixture.manager.endUndoGrouping()
        fixture.manager.endUndoGrouping()
        fixture.manager.beginUndoGrouping()
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 3)
        _ = fixture.takeEvents()
        fixture.manager.removeAllActions(withTarget: a)
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state.undoCount == 2)
        fixture.manager.undo()                      // the empty group
        #expect(fixture.state.undoActionName == "Two")
        fixture.manager.undo()
        #expect(b.log == ["b2"])
        #expect(a.log.isEmpty)
        #expect(!fixture.state.canUndo)
    }

    @Test("R33: open groups survive removal even when emptied; the disable count is kept")
    func removeByTargetKeepsOpenGroups() {
        let fixture = Fixture(groupsByEvent: false)
        let a = Document("a")
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(a, "a")
        fixture.manager.disableUndoRegistration()
        fixture.manager.removeAllActions(withTarget: a)
        #expect(!fixture.manager.isUndoRegistrationEnabled)
        fixture.manager.enableUndoRegistration()
        #expect(fixture.state.groupingLevel == 1)
        #expect(fixture.state.canUndo)
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)
    }

    @Test("R33: removal reaches the redo stack too")
    func removeByTargetOnRedo() {
        let fixture = Fixture()
        let a = Document("a")
        let b = Document("b")
        fixture.step(a, to: 1)
        fixture.step(b, to: 1)
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(fixture.state.redoCount == 2)
        fixture.manager.removeAllActions(withTarget: a)
        #expect(fixture.state.redoCount == 1)
        fixture.manager.redo()
        #expect(b.value == 1)
        #expect(a.value == 0)
        #expect(!fixture.state.canRedo)
    }
}
