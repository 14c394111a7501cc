import Testing
@testable import TODOKit

@Suite struct EditingSessionGroupingTests {
    static let milk = TODOItem(title: "Buy milk")

    @Test func theEditsOfOneEventAreOneStep() throws {
        let session = EditingSession()
        try session.add("Buy milk")
        try session.add("Buy eggs")
        session.endEvent()
        try session.add("Bread")
        session.endEvent()
        #expect(session.historyNames == .init(undo: ["Add \"Bread\"", "Add \"Buy eggs\""], redo: []))

        #expect(try session.undo() == "Undo Add \"Bread\"")
        #expect(session.list.items.map(\.title) == ["Buy milk", "Buy eggs"])
        #expect(try session.undo() == "Undo Add \"Buy eggs\"")
        #expect(session.list.isEmpty)
        #expect(!session.canUndo)
        #expect(session.historyNames == .init(undo: [], redo: ["Add \"Buy eggs\"", "Add \"Bread\""]))
    }

    @Test func undoInTheSameEventUndoesThatEventsEdits() throws {
        let session = EditingSession(list: [Self.milk])
        try session.setDone(true, at: 0)
        session.endEvent()
        try session.add("Buy eggs")
        try session.add("Bread")
        #expect(session.history.inProgress?.name == "Add \"Bread\"")
        #expect(try session.undo() == "Undo Add \"Bread\"")
        session.endEvent()
        #expect(session.list == [TODOItem(id: Self.milk.id, title: "Buy milk", isDone: true)])
        #expect(session.historyNames == .init(undo: ["Mark \"Buy milk\" Done"], redo: ["Add \"Bread\""]))
        #expect(try session.redo() == "Redo Add \"Bread\"")
        #expect(session.list.count == 3)
    }

    @Test func aGroupSpansEventsAndTakesItsName() throws {
        let session = EditingSession()
        session.beginGroup(named: "Plan Week")
        session.endEvent()
        try session.add("Buy milk")
        session.endEvent()
        #expect(session.historyNames == .init(undo: [], redo: [], inProgress: "Plan Week"), "named as it will be")
        try session.add("Pay rent")
        session.endEvent()
        try session.endGroup()
        session.endEvent()
        #expect(session.undoManager.groupingLevel == 0)
        #expect(session.historyNames == .init(undo: ["Plan Week"], redo: []))

        #expect(try session.undo() == "Undo Plan Week")
        #expect(session.list.isEmpty)
        #expect(try session.redo() == "Redo Plan Week")
        #expect(session.list.items.map(\.title) == ["Buy milk", "Pay rent"])
    }

    @Test func anUnnamedGroupIsNamedAfterItsLastEdit() throws {
        let session = EditingSession()
        session.beginGroup()
        try session.add("Buy milk")
        session.endEvent()
        try session.add("Pay rent")
        try session.endGroup()
        session.endEvent()
        #expect(session.history.undo == ["Add \"Pay rent\""])
        try session.undo()
        #expect(session.list.isEmpty)
    }

    @Test func groupsNestAndOnlyTheOutermostCounts() throws {
        let session = EditingSession()
        session.beginGroup(named: "Outer")
        try session.add("a")
        session.endEvent()
        session.beginGroup(named: "Inner")
        try session.add("b")
        session.endEvent()
        try session.endGroup()
        session.endEvent()
        #expect(session.isGroupOpen)
        #expect(throws: EditingSessionError.groupOpen) { try session.undo() }
        try session.add("c")
        try session.endGroup()
        session.endEvent()
        #expect(!session.isGroupOpen)
        #expect(session.history.undo == ["Outer"])
        try session.undo()
        #expect(session.list.isEmpty)
    }

    @Test func editsBeforeBeginOnTheSameEventJoinTheGroup() throws {
        let session = EditingSession()
        try session.add("a")
        session.beginGroup()
        try session.add("b")
        session.endEvent()
        try session.add("c")
        session.endEvent()
        try session.endGroup()
        session.endEvent()
        #expect(session.history.undo == ["Add \"c\""])
        try session.undo()
        #expect(session.list.isEmpty)
    }

    @Test func anEmptyGroupLeavesNoStepAndKeepsRedo() throws {
        let session = EditingSession(list: [Self.milk])
        try session.remove(at: 0)
        session.endEvent()
        try session.undo()
        session.beginGroup(named: "Nothing")
        session.endEvent()
        try session.endGroup()
        session.endEvent()
        #expect(!session.canUndo)
        #expect(session.canRedo)
        #expect(try session.redo() == "Redo Remove \"Buy milk\"")
    }

    @Test func aNewEditClearsRedo() throws {
        let session = EditingSession()
        try session.add("Buy milk")
        session.endEvent()
        try session.add("Buy eggs")
        session.endEvent()
        try session.undo()
        #expect(session.canRedo)
        try session.add("Bread")
        #expect(!session.canRedo)
        #expect(session.history.redo.isEmpty)
        session.endEvent()
        #expect(try session.redo() == nil)
        #expect(session.historyNames == .init(undo: ["Add \"Bread\"", "Add \"Buy milk\""], redo: []))
    }

    @Test func anEditInsideAGroupClearsRedoToo() throws {
        let session = EditingSession()
        try session.add("Buy milk")
        session.endEvent()
        try session.undo()
        session.beginGroup()
        session.endEvent()
        #expect(session.canRedo)
        try session.add("Buy eggs")
        session.endEvent()
        #expect(!session.canRedo)
        try session.endGroup()
        session.endEvent()
        #expect(session.historyNames == .init(undo: ["Add \"Buy eggs\""], redo: []))
    }

    @Test func historyForgetsStepsTheManagerDropped() throws {
        let session = EditingSession()
        try session.add("Buy milk")
        session.endEvent()
        try session.add("Buy eggs")
        session.endEvent()
        try session.undo()
        session.undoManager.removeAllActions()
        #expect(try session.undo() == nil)
        #expect(try session.redo() == nil)
        #expect(session.historyNames == .init(undo: [], redo: []))
    }
}
