import Testing
@testable import UndoKit

/// Releasing an action runs whatever `deinit`s its handler's captures have, and Apple's
/// advice is to call `removeAllActions(withTarget:)` from a `deinit`. Every way the manager
/// drops entries must tolerate that call arriving while it works.
@Suite("Re-entrant release")
struct ReentrantReleaseTests {
    /// An object whose `deinit` removes its actions from the manager, as Apple recommends.
    final class Note {
        let manager: UndoManager
        init(_ manager: UndoManager) { self.manager = manager }
        deinit { manager.removeAllActions(withTarget: self) }
    }

    /// Registers, on `board`, an action whose handler holds the only strong reference to a
    /// `Note`, and an action on the note itself; returns nothing, so the note lives only in
    /// the stack.
    static func registerNoteActions(_ manager: UndoManager, board: Document) {
        let note = Note(manager)
        manager.registerUndo(withTarget: board) { _ in _ = note }
        manager.registerUndo(withTarget: note) { _ in }
    }

    @Test("Trimming by levelsOfUndo")
    func trimming() {
        let fixture = Fixture()
        let board = Document()
        fixture.manager.levelsOfUndo = 1
        Self.registerNoteActions(fixture.manager, board: board)
        fixture.manager.runLoop.tick()
        fixture.change(board, to: 1)
        fixture.manager.runLoop.tick()       // drops the oldest group, releasing the note
        #expect(fixture.state.undoCount == 1)
        fixture.manager.undo()
        #expect(board.value == 0)
    }

    @Test("Lowering levelsOfUndo")
    func loweringLimit() {
        let fixture = Fixture()
        let board = Document()
        Self.registerNoteActions(fixture.manager, board: board)
        fixture.manager.runLoop.tick()
        fixture.change(board, to: 1)
        fixture.manager.runLoop.tick()
        fixture.manager.levelsOfUndo = 1
        #expect(fixture.state.undoCount == 1)
    }

    @Test("removeAllActions()")
    func removeAll() {
        let fixture = Fixture()
        let board = Document()
        Self.registerNoteActions(fixture.manager, board: board)
        fixture.manager.runLoop.tick()
        fixture.manager.removeAllActions()
        #expect(fixture.state == ManagerState())
    }

    @Test("removeAllActions(withTarget:)")
    func removeByTarget() {
        let fixture = Fixture()
        let board = Document()
        Self.registerNoteActions(fixture.manager, board: board)
        fixture.change(board, to: 1)
        fixture.manager.runLoop.tick()
        fixture.manager.removeAllActions(withTarget: board)
        #expect(!fixture.state.canUndo)
    }

    @Test("A registration clearing the redo stack")
    func redoClearing() {
        let fixture = Fixture()
        let board = Document()
        fixture.manager.registerUndo(withTarget: board) { [unowned fixture] board in
            Self.registerNoteActions(fixture.manager, board: board)
        }
        fixture.manager.runLoop.tick()
        fixture.manager.undo()                // the redo group now holds the note's actions
        #expect(fixture.state.canRedo)
        fixture.change(board, to: 5)          // clears redo, releasing the note
        #expect(!fixture.state.canRedo)
        fixture.manager.runLoop.tick()
        fixture.manager.undo()
        #expect(board.value == 0)
    }

    @Test("User info replaced while undo carries metadata")
    func userInfoRelease() {
        let fixture = Fixture(groupsByEvent: false)
        let board = Document()
        fixture.step(board, to: 1)
        fixture.manager.undo()
        fixture.manager.beginUndoGrouping()
        fixture.manager.setActionUserInfoValue(Note(fixture.manager), forKey: "note")
        fixture.manager.redo()                // overwrites the open group's metadata
        fixture.manager.endUndoGrouping()
        #expect(fixture.manager.undoActionUserInfoValue(forKey: "note") == nil)
        #expect(board.value == 1)
    }
}
