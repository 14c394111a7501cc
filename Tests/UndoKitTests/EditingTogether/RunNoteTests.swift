import Testing
@testable import UndoKit

/// Spec K2 for the step an undo or redo builds on the other stack: it is recorded from the
/// run's first registration, so a change noted during the run after it, to a part it
/// declares, makes the resulting redo (undo) step stale.
@Suite struct RunNoteTests {
    private let title = UndoPart("field", "title")

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = .refuse
        return manager
    }

    /// Sets the title as one step whose undo (and each later run) registers its inverse and
    /// then, if `noteDuringRun` says so, notes a change to the title by Bob.
    private func setTitle(
        _ value: String?, in document: SharedDocument, by manager: UndoManager, noteDuringRun: @escaping () -> Bool
    ) {
        manager.beginUndoGrouping()
        let old = document.fields["title"]
        document.fields["title"] = value
        register(old, in: document, by: manager, noteDuringRun: noteDuringRun)
        manager.endUndoGrouping()
    }

    private func register(
        _ value: String?, in document: SharedDocument, by manager: UndoManager, noteDuringRun: @escaping () -> Bool
    ) {
        manager.registerUndo(withTarget: document) { [unowned manager] document in
            let current = document.fields["title"]
            document.fields["title"] = value
            register(current, in: document, by: manager, noteDuringRun: noteDuringRun)
            if noteDuringRun() {
                // A callback the action triggers: Bob changed the title meanwhile.
                manager.noteChanges(to: [title], origin: "Bob")
            }
        }
        manager.addActionParts(title)
    }

    @Test("a note during an undo, after its first registration, makes the redo step stale")
    func noteDuringUndo() {
        let manager = makeManager()
        let document = SharedDocument()
        var notes = false
        setTitle("Alice's", in: document, by: manager) { notes }
        notes = true
        manager.undo()
        notes = false
        #expect(manager.staleRedoStep?.changes == [UndoChange(part: title, origin: "Bob")])
        #expect(!manager.canRedo)
    }

    @Test("a note during a redo, after its first registration, makes the undo step stale")
    func noteDuringRedo() {
        let manager = makeManager()
        let document = SharedDocument()
        var notes = false
        setTitle("Alice's", in: document, by: manager) { notes }
        manager.undo()
        #expect(manager.staleRedoStep == nil && manager.canRedo)
        notes = true
        manager.redo()
        notes = false
        #expect(manager.staleUndoStep?.changes == [UndoChange(part: title, origin: "Bob")])
        #expect(!manager.canUndo)
    }

    @Test("a note during an undo before its first registration leaves the redo step fresh")
    func noteBeforeTheRunRegisters() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.fields["title"] = "Alice's"
        manager.registerUndo(withTarget: document) { [unowned manager] document in
            // Bob's change is noted before this run reads and registers anything.
            manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
            let current = document.fields["title"]
            document.fields["title"] = nil
            manager.registerUndo(withTarget: document) { $0.fields["title"] = current }
        }
        manager.addActionParts(title)
        manager.endUndoGrouping()
        manager.undo()
        #expect(manager.staleRedoStep == nil && manager.canRedo)
        // The note is not held against a later step either.
        manager.redo()
        #expect(manager.staleUndoStep == nil && manager.canUndo)
    }

    @Test("a note during an undo to a part the step does not declare leaves the redo step fresh")
    func noteToAnotherPart() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.fields["title"] = "Alice's"
        manager.registerUndo(withTarget: document) { [unowned manager] document in
            document.fields["title"] = nil
            manager.registerUndo(withTarget: document) { $0.fields["title"] = "Alice's" }
            manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        }
        manager.addActionParts(title)
        manager.endUndoGrouping()
        manager.undo()
        #expect(manager.staleRedoStep == nil && manager.canRedo)
    }
}
