import Foundation
import Testing
import UndoKit
@testable import TODOKit

/// A session whose list another process changes (``EditingSession/takeOutsideChanges(to:origins:otherwise:)``):
/// it keeps undoing its own steps wherever their items went, and refuses a step whose item was
/// changed since, changing nothing, until it is run anyway or dropped.
@Suite struct EditingSessionOwnStepsTests {
    /// A session that added "Mine" to a list of two, as one step.
    static func sessionWithMyItem() throws -> (EditingSession, mine: TODOItem) {
        let session = EditingSession(list: [TODOItem(title: "One"), TODOItem(title: "Two")])
        let mine = try session.add("Mine")
        session.endEvent()
        _ = session.takeChanges()
        return (session, mine)
    }

    /// What another process made of `list`: `change` applied to a copy.
    static func elsewhere(_ list: TODOList, _ change: (inout [TODOItem]) -> Void) -> TODOList {
        var items = list.items
        change(&items)
        return TODOList(items: items)
    }

    @Test func undoTakesTheSessionsOwnStepWhateverOthersAddedOrRemovedAroundIt() throws {
        let (session, mine) = try Self.sessionWithMyItem()
        let theirs = TODOItem(title: "Theirs")
        // Another process removed "One" and added an item before "Mine".
        let list = Self.elsewhere(session.list) { $0.remove(at: 0); $0.insert(theirs, at: 0) }
        session.takeOutsideChanges(to: list, origins: [theirs.id: "Bob"], otherwise: "someone")
        #expect(session.list == list)
        #expect(session.takeChanges().isEmpty, "taking another process's list is no change to save")

        #expect(try session.undo() == "Undo Add \"Mine\"", "not stale: nobody touched Mine")
        #expect(session.list.items.map(\.title) == ["Theirs", "Two"])
        #expect(session.takeChanges() == [.remove(at: 2)], "found where it is now, not where it was added")
        #expect(try session.redo() == "Redo Add \"Mine\"")
        #expect(session.list.items.map(\.title) == ["Theirs", "Two", "Mine"])
        #expect(session.list.items[2] == mine, "the same item, back")
    }

    @Test func aMoveIsUndoneOnTheMovedItemWhereverItIsNow() throws {
        let session = EditingSession(list: TODOList(items: ["a", "b", "c", "d"].map { TODOItem(title: $0) }))
        try session.move(from: 3, to: 0)   // d a b c
        session.endEvent()
        let list = Self.elsewhere(session.list) { $0.insert(TODOItem(title: "new"), at: 0) }   // new d a b c
        session.takeOutsideChanges(to: list, origins: [list.items[0].id: "Bob"], otherwise: "someone")
        #expect(try session.undo() == "Undo Move \"d\"")
        #expect(session.list.items.map(\.title) == ["new", "a", "b", "d", "c"], "d goes back to position 4")
    }

    /// The scenario of issue 27: the item of the step undo would take was changed elsewhere.
    @Test func aStepWhoseItemWasChangedElsewhereIsRefusedAndNothingChanges() throws {
        let (session, mine) = try Self.sessionWithMyItem()
        let list = Self.elsewhere(session.list) { $0[2].title = "Mine, edited"; $0[2].isDone = true }
        session.takeOutsideChanges(to: list, origins: [mine.id: "another todo (pid 42) at 10:41"], otherwise: "someone")
        let before = (list: session.list, history: session.history)

        #expect(!session.canUndo)
        #expect(throws: EditingSessionError.changedElsewhere(step: "Add \"Mine\"", isUndo: true, changes: [
            "item 3 \"Mine, edited\" was edited and marked done by another todo (pid 42) at 10:41",
        ])) { try session.undo() }
        #expect(session.list == before.list && session.history == before.history)
        #expect(session.takeChanges().isEmpty, "nothing to save")
        #expect(EditingSessionError.changedElsewhere(step: "Add \"Mine\"", isUndo: true, changes: ["item 3 \"x\" was edited by Bob"]).description
            == "cannot undo Add \"Mine\": item 3 \"x\" was edited by Bob; nothing changed")

        // Undone anyway: the item goes, as it is now, and redo brings that back.
        #expect(try session.undo(anyway: true) == "Undo Add \"Mine\"")
        #expect(session.list.items.map(\.title) == ["One", "Two"])
        #expect(try session.redo() == "Redo Add \"Mine\"", "the undo ran after the change: not stale")
        #expect(session.list == list)
    }

    @Test func droppingTheRefusedStepKeepsItsChangeAndUndoGoesOnBeforeIt() throws {
        let (session, mine) = try Self.sessionWithMyItem()
        try session.setTitle("One, mine", at: 0)
        session.endEvent()
        try session.setDone(true, at: 2)
        session.endEvent()
        let list = Self.elsewhere(session.list) { $0.removeLast() }
        session.takeOutsideChanges(to: list, origins: [:], otherwise: "Bob")
        #expect(throws: EditingSessionError.changedElsewhere(step: "Mark \"Mine\" Done", isUndo: true, changes: [
            "\"Mine\" was removed by Bob",
        ])) { try session.undo() }

        #expect(try session.dropStep() == "Mark \"Mine\" Done")
        #expect(session.list == list, "dropping changes nothing")
        #expect(try session.undo() == "Undo Edit \"One, mine\"", "the step before it, on an item nobody touched")
        #expect(session.list.items.map(\.title) == ["One", "Two"])
        // The first step added Mine, which is gone: refused, and dropped too.
        #expect(throws: EditingSessionError.self) { try session.undo() }
        #expect(try session.dropStep() == "Add \"Mine\"")
        #expect(try session.dropStep() == nil)
        #expect(!session.canUndo)
        _ = mine
    }

    @Test func aRedoWhoseItemWasChangedElsewhereIsRefusedUntilRunAnywayOrDropped() throws {
        let (session, mine) = try Self.sessionWithMyItem()
        try session.setDone(true, at: 2)
        session.endEvent()
        try session.undo()
        let list = Self.elsewhere(session.list) { $0[2].priority = .high }
        session.takeOutsideChanges(to: list, origins: [mine.id: "Bob"], otherwise: "someone")
        #expect(!session.canRedo)
        #expect(throws: EditingSessionError.changedElsewhere(step: "Mark \"Mine\" Done", isUndo: false, changes: [
            "item 3 \"Mine\" was set to high priority by Bob",
        ])) { try session.redo() }
        #expect(session.list == list)

        // Run anyway, the step sets only the field it changed: done, and Bob's priority stays.
        #expect(try session.redo(anyway: true) == "Redo Mark \"Mine\" Done")
        #expect(session.list.items[2].isDone && session.list.items[2].priority == .high)

        try session.undo()
        session.takeOutsideChanges(to: Self.elsewhere(session.list) { $0[2].detail = "theirs" }, origins: [mine.id: "Bob"], otherwise: "someone")
        #expect(try session.dropStep(redo: true) == "Mark \"Mine\" Done")
        #expect(!session.canRedo)
        #expect(session.list.items[2].detail == "theirs")
    }

    @Test func aMovedItemIsNotedOnlyWhenTheDatabaseSaysAnotherProcessMovedIt() throws {
        let session = EditingSession(list: TODOList(items: ["a", "b", "c"].map { TODOItem(title: $0) }))
        try session.setDone(true, at: 0)
        try session.setDone(true, at: 2)
        session.endEvent()
        let (b, c) = (session.list.items[1].id, session.list.items[2].id)
        // Another process removed b (c shifts up) and moved a to the end.
        let list = Self.elsewhere(session.list) { $0.remove(at: 1); $0.append($0.removeFirst()) }
        session.takeOutsideChanges(to: list, origins: [list.items[1].id: "Bob"], otherwise: "someone")
        let stale = try #require(session.undoManager.staleUndoStep)
        #expect(session.changesSince(stale) == ["item 2 \"a\" was moved by Bob"], "the step did not touch b; c only shifted")
        #expect(session.outsideChanges[b]?.what == "removed" && session.outsideChanges[c] == nil)
    }

    @Test func anEditAfterAChangeFromElsewhereNeverMergesIntoAnEarlierStep() throws {
        let (session, _) = try Self.sessionWithMyItem()
        try session.setTitle("One!", at: 0)
        session.endEvent()
        session.takeOutsideChanges(to: Self.elsewhere(session.list) { $0.append(TODOItem(title: "Theirs")) }, origins: [:], otherwise: "Bob")
        try session.setTitle("One!!", at: 0)
        session.endEvent()
        #expect(session.history.undo == ["Edit \"One!!\"", "Edit \"One!\"", "Add \"Mine\""], "the earlier step is saved already")
    }

    @Test func aCommandDeclaresTheItemItChangesAsItsPart() throws {
        let list: TODOList = [TODOItem(title: "a"), TODOItem(title: "b")]
        for change in [TODOList.Change.insert(TODOItem(title: "c"), at: 2), .remove(at: 1), .replace(at: 0, with: list.items[0]), .move(from: 0, to: 1)] {
            let command = TODOCommand(applying: change, to: list, named: "x")
            let item = if case .insert(let item, _) = change { item.id } else { list.identified(change).itemID }
            #expect(command.undoParts == [UndoPart("item", try #require(item))])
            let decoded = try JSONDecoder().decode(TODOCommand.self, from: JSONEncoder().encode(command))
            #expect(decoded == command && decoded.item == item, "a move saves its item")
        }
    }
}
