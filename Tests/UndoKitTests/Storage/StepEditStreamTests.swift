import Testing
@testable import UndoKit

/// The ledger's edit stream (ARCHITECTURE.md, "The edit stream"): every way a step appears,
/// moves or leaves records one `StepEdit`. Read here with recording on and no listener, so the
/// edits stay in the ledger instead of being handed over at the settle.
@Suite("The edit stream")
struct StepEditStreamTests {
    struct Failure: Error {}

    /// Sets the document's value; its undo sets the old one back the same way, so an undo
    /// leaves a redo step.
    private static func set(_ document: Document, to value: Int, in manager: UndoManager) {
        let old = document.value
        document.value = value
        manager.registerUndo(withTarget: document) { set($0, to: old, in: manager) }
    }

    /// A manager with steps "1" and "2" closed and "2" undone, recording edits from now on.
    private func managerWithOneRedoStep(on document: Document) -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        for value in 1...2 {
            manager.beginUndoGrouping()
            Self.set(document, to: value, in: manager)
            manager.setActionName("\(value)")
            manager.endUndoGrouping()
        }
        manager.undo()
        manager.ledger.recordsEdits = true
        manager.ledger.edits.removeAll()
        return manager
    }

    @Test("a new edit removes the redo step; the scope's rollback puts it back, with its id")
    func rollbackPutsTheRedoStepBack() throws {
        let document = Document()
        let manager = managerWithOneRedoStep(on: document)
        let redoStep = try #require(manager.redoStack.steps.last)

        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: "Failing") {
                Self.set(document, to: 5, in: manager)
                throw Failure()
            }
        }

        let edits = manager.ledger.edits
        let removal = try #require(edits.firstIndex(of: .removed(redoStep)))
        let putBack = try #require(edits.firstIndex(of: .putBack(redoStep)))
        #expect(removal < putBack)
        #expect(manager.redoStack.steps.last == redoStep)
        #expect(manager.redoActionName == "2")
        #expect(document.value == 1)
    }

    @Test("a scope that succeeds leaves the redo step removed: nothing is put back")
    func successfulScopePutsNothingBack() throws {
        let document = Document()
        let manager = managerWithOneRedoStep(on: document)
        let redoStep = try #require(manager.redoStack.steps.last)

        manager.withUndoGroup(named: "Kept") {
            Self.set(document, to: 5, in: manager)
        }

        #expect(manager.ledger.edits.contains(.removed(redoStep)))
        #expect(!manager.ledger.edits.contains(.putBack(redoStep)))
        #expect(manager.canRedo == false)
    }
}
