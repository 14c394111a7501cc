import Testing
import UndoKit
@testable import TODOKit

@Suite struct EditingSessionTests {
    static let milk = TODOItem(title: "Buy milk")
    static let eggs = TODOItem(title: "Buy eggs", priority: .low)
    static let bread = TODOItem(title: "Bread", detail: "rye")

    // MARK: The Core Data article's scenarios, with explicit groups

    @Test(arguments: CoreDataScenario.allCases)
    func coreDataScenarioWithExplicitGroups(scenario: CoreDataScenario) throws {
        let session = EditingSession(list: scenario.start, groupsByEvent: false)
        #expect(!session.undoManager.groupsByEvent)
        #expect(!session.canUndo && !session.canRedo)

        session.beginGroup()
        try scenario.perform(on: session)
        try session.endGroup()
        #expect(scenario.isChanged(session.list))
        let changed = session.list
        #expect(session.canUndo)
        #expect(!session.canRedo)
        #expect(session.undoManager.undoActionName == scenario.actionName)

        #expect(try session.undo() == "Undo \(scenario.actionName)")
        #expect(session.list == scenario.start)
        #expect(!session.canUndo)
        #expect(session.canRedo)

        #expect(try session.redo() == "Redo \(scenario.actionName)")
        #expect(session.list == changed)
        #expect(session.canUndo)
        #expect(!session.canRedo)
    }

    @Test func withoutGroupsByEventAnEditOutsideAGroupIsAStepOfItsOwn() throws {
        let session = EditingSession(list: [Self.milk], groupsByEvent: false)
        try session.add("Buy eggs")
        _ = try session.remove(at: 0)
        #expect(session.list.items.map(\.title) == ["Buy eggs"])
        #expect(session.undoManager.undoActionNames == ["Remove \"Buy milk\"", "Add \"Buy eggs\""])
        #expect(try session.undo() == "Undo Remove \"Buy milk\"")
        #expect(try session.undo() == "Undo Add \"Buy eggs\"")
        #expect(session.list == [Self.milk])
    }

    @Test func withoutGroupsByEventOneGroupIsOneStep() throws {
        let session = EditingSession(groupsByEvent: false)
        session.beginGroup()
        try session.add("Buy milk")
        session.endEvent()   // no effect without groupsByEvent
        try session.add("Buy eggs")
        try session.endGroup()
        #expect(try session.undo() == "Undo Add \"Buy eggs\"")
        #expect(session.list.isEmpty)
        #expect(!session.canUndo)
    }

    // MARK: Exact restoration

    @Test func undoingARemovalPutsTheSameItemBackInItsPlace() throws {
        let session = EditingSession(list: [Self.milk, Self.eggs, Self.bread])
        #expect(try session.remove(at: 1) == Self.eggs)
        session.endEvent()
        #expect(session.list == [Self.milk, Self.bread])
        try session.undo()
        #expect(session.list == [Self.milk, Self.eggs, Self.bread])
    }

    @Test func undoAndRedoWorkIndefinitely() throws {
        let session = EditingSession(list: [Self.milk, Self.eggs, Self.bread])
        try session.setTitle("Buy oat milk", at: 0)
        session.endEvent()
        try session.move(from: 2, to: 0)
        session.endEvent()
        try session.remove(at: 1)
        session.endEvent()
        let edited = session.list
        for _ in 0..<10 {
            for _ in 0..<3 { try session.undo() }
            #expect(session.list == [Self.milk, Self.eggs, Self.bread])
            #expect(!session.canUndo)
            for _ in 0..<3 { try session.redo() }
            #expect(session.list == edited)
            #expect(!session.canRedo)
        }
    }

    @Test func editsKeepTheItemsIdentity() throws {
        let session = EditingSession(list: [Self.milk])
        try session.setTitle("Buy oat milk", at: 0)
        try session.setDetail("2 litres", at: 0)
        try session.setPriority(.high, at: 0)
        try session.setDone(true, at: 0)
        #expect(session.list == [TODOItem(id: Self.milk.id, title: "Buy oat milk", detail: "2 litres", isDone: true, priority: .high)])
    }

    // MARK: Names

    @Test(arguments: [
        ("setTitle", "Edit \"Buy oat milk\""),
        ("setDetail", "Edit Detail of \"Buy milk\""),
        ("setPriority", "Set Priority of \"Buy milk\""),
        ("done", "Mark \"Buy milk\" Done"),
        ("remove", "Remove \"Buy milk\""),
        ("move", "Move \"Buy milk\""),
        ("add", "Add \"Call Mum\""),
    ])
    func everyEditNamesItsStep(edit: String, name: String) throws {
        let session = EditingSession(list: [Self.milk, Self.eggs])
        switch edit {
        case "setTitle": try session.setTitle("  Buy oat milk ", at: 0)
        case "setDetail": try session.setDetail("2 litres", at: 0)
        case "setPriority": try session.setPriority(.high, at: 0)
        case "done": try session.setDone(true, at: 0)
        case "remove": try session.remove(at: 0)
        case "move": try session.move(from: 0, to: 1)
        default: try session.add("Call Mum")
        }
        session.endEvent()
        #expect(session.undoManager.undoActionName == name)
        #expect(session.undoManager.undoMenuItemTitle == "Undo \(name)")
        try session.undo()
        #expect(session.undoManager.redoMenuItemTitle == "Redo \(name)")
    }

    @Test func markingNotDoneIsNamedToo() throws {
        let session = EditingSession(list: [TODOItem(title: "Buy milk", isDone: true)])
        try session.setDone(false, at: 0)
        #expect(session.undoManager.undoActionName == "Mark \"Buy milk\" Not Done")
    }

    // MARK: Edits that change nothing

    @Test func editsThatChangeNothingRecordNothing() throws {
        let session = EditingSession(list: [Self.milk, Self.eggs])
        #expect(try session.setTitle("Buy milk", at: 0) == false)
        #expect(try session.setDetail("", at: 0) == false)
        #expect(try session.setPriority(.low, at: 1) == false)
        #expect(try session.setDone(false, at: 0) == false)
        #expect(try session.move(from: 1, to: 1) == false)
        session.endEvent()
        #expect(!session.canUndo)
        #expect(session.changeCount == 0)
    }

    // MARK: Refused requests change nothing

    @Test(arguments: [
        ("remove 3", EditingSessionError.noSuchItem(position: 3, count: 2)),
        ("remove -1", .noSuchItem(position: -1, count: 2)),
        ("setTitle 2", .noSuchItem(position: 2, count: 2)),
        ("setDone 5", .noSuchItem(position: 5, count: 2)),
        ("move 0 2", .noSuchItem(position: 2, count: 2)),
        ("move 2 0", .noSuchItem(position: 2, count: 2)),
        ("add empty", .emptyTitle),
        ("add tab", .controlCharacter(0x09, position: 4)),
        ("add newline", .multipleLines),
        ("setTitle blank", .emptyTitle),
        ("setDetail newline", .multipleLines),
    ])
    func invalidEditsThrowAndChangeNothing(request: String, error: EditingSessionError) throws {
        let session = EditingSession(list: [Self.milk, Self.eggs])
        try session.add("Bread")
        session.endEvent()
        try session.undo()
        let list = session.list
        #expect(throws: error) {
            switch request {
            case "remove 3": try session.remove(at: 3)
            case "remove -1": try session.remove(at: -1)
            case "setTitle 2": try session.setTitle("x", at: 2)
            case "setDone 5": try session.setDone(true, at: 5)
            case "move 0 2": try session.move(from: 0, to: 2)
            case "move 2 0": try session.move(from: 2, to: 0)
            case "add empty": try session.add("   ")
            case "add tab": try session.add("Buy\tmilk")
            case "add newline": try session.add("Buy\nmilk")
            case "setTitle blank": try session.setTitle("  ", at: 0)
            default: try session.setDetail("a\r\nb", at: 0)
            }
        }
        session.endEvent()
        #expect(session.list == list)
        #expect(!session.canUndo)
        #expect(session.canRedo, "a refused edit registers nothing, so redo survives")
    }

    @Test(arguments: [
        (EditingSessionError.noSuchItem(position: 0, count: 0), "no item 1; the list is empty"),
        (.noSuchItem(position: 1, count: 1), "no item 2; the list has 1 item"),
        (.noSuchItem(position: 7, count: 3), "no item 8; the list has 3 items"),
        (.emptyTitle, "the title is empty"),
        (.noGroupOpen, "no group is open (\"end\" must follow \"begin\")"),
        (.groupOpen, "a group is open; type \"end\" first"),
        (.controlCharacter(0x09, position: 4), "titles and details cannot contain tabs (U+0009 at character 4); use spaces"),
        (.controlCharacter(0x9B, position: 1), "titles and details cannot contain control characters (U+009B at character 1)"),
    ])
    func errorDescriptions(error: EditingSessionError, description: String) {
        #expect(error.description == description)
    }

    @Test func endWithoutBeginIsRefused() throws {
        let session = EditingSession(list: [Self.milk])
        #expect(throws: EditingSessionError.noGroupOpen) { try session.endGroup() }
        try session.remove(at: 0)
        // The automatic group is open now; closing it by hand would make the next edit trap.
        #expect(throws: EditingSessionError.noGroupOpen) { try session.endGroup() }
        #expect(session.undoManager.groupingLevel == 1)
        try session.add("Buy eggs")
        session.endEvent()
        #expect(session.undoManager.groupingLevel == 0)
    }

    @Test func undoAndRedoAreRefusedWhileAGroupIsOpen() throws {
        let session = EditingSession(list: [Self.milk])
        try session.setDone(true, at: 0)
        session.endEvent()
        try session.undo()
        session.beginGroup()
        #expect(throws: EditingSessionError.groupOpen) { try session.undo() }
        #expect(throws: EditingSessionError.groupOpen) { try session.redo() }
        try session.remove(at: 0)
        session.endEvent()
        #expect(throws: EditingSessionError.groupOpen) { try session.undo() }
        #expect(session.list.isEmpty)
        try session.endGroup()
        #expect(try session.undo() == "Undo Remove \"Buy milk\"")
        #expect(session.list == [Self.milk])
    }

    @Test func nothingToUndoOrRedoIsNotAnError() throws {
        let session = EditingSession()
        #expect(try session.undo() == nil)
        #expect(try session.redo() == nil)
        #expect(session.historyNames == HistoryNames(undo: [], redo: []))
    }

    // MARK: Lifetime

    @Test func theUndoManagerDoesNotKeepTheSessionAlive() throws {
        weak var weakSession: EditingSession?
        var manager: UndoManager?
        do {
            let session = EditingSession()
            try session.add("Buy milk")
            session.endEvent()
            weakSession = session
            manager = session.undoManager
        }
        #expect(weakSession == nil)
        // The manager outlived the session: undoing skips the dead target instead of crashing.
        manager?.undo()
        #expect(manager?.canUndo == false)
    }
}

