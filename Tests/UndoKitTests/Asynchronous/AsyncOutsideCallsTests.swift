import Foundation
import Testing
import UndoKit

/// Spec K5, the calls other code makes during an asynchronous operation that are not edits:
/// a removal is held like an edit and made when the step settles (it never pulls the step in
/// flight from under it); a synchronous `undo()` or `redo()` cannot wait, so it stops the
/// program with a message naming the asynchronous calls, as does a removal from the step's
/// own action.
@Suite("Asynchronous operations and other code's removals and synchronous undos", .timeLimit(.minutes(1)))
@MainActor
struct AsyncOutsideCallsTests {
    private func untilGated(_ model: AsyncModel) async {
        while model.waitingCount == 0 {
            await Task.yield()
        }
    }

    /// Three steps inserting 1, 2, 3; the undo of 3 waits at the gate.
    private func managerUndoingThree() -> (UndoManager, AsyncModel) {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        for value in 1...3 {
            manager.step { insert(value, into: model, manager: manager) }
        }
        model.gatedValues = [3]
        return (manager, model)
    }

    @Test("removeAllActions() from other code during an undo is held and made when the undo settles")
    func removeAllIsHeld() async throws {
        let (manager, model) = managerUndoingThree()
        let undo = Task { try await manager.undoAsync() }
        await untilGated(model)
        await Task {
            manager.removeAllActions()
            // Held: the step in flight and the others are still there.
            #expect(manager.undoCount == 3)
        }.value
        model.openGate()
        try await undo.value
        #expect(model.values == [1, 2])
        #expect(manager.undoCount == 0 && manager.redoCount == 0, "the removal was made after the undo")
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test("removeAllActions(withTarget:) from other code during an undo is held and made when the undo settles")
    func removeWithTargetIsHeld() async throws {
        let (manager, model) = managerUndoingThree()
        let other = AsyncModel()
        manager.step { insert(9, into: other, manager: manager) }
        model.gatedValues = []
        other.gatedValues = [9]
        let undo = Task { try await manager.undoAsync() }
        await untilGated(other)
        await Task {
            manager.removeAllActions(withTarget: model)
            #expect(manager.undoCount == 4)
        }.value
        other.gatedValues = []
        other.openGate()
        try await undo.value
        #expect(other.values == [])
        #expect(manager.undoCount == 0, "model's three steps went after the undo of other's")
        #expect(manager.redoCount == 1, "other's redo step stays")
        try await manager.redoAsync()
        #expect(other.values == [9])
    }

    @Test("a synchronous undo() from other code during an asynchronous undo stops the program, naming undoAsync()")
    func synchronousUndoDuringAsyncUndoTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await undoWhileAnAsynchronousUndoWaits()
        }
        let text = result.standardErrorText
        #expect(text.contains("undo(): UndoManager"))
        #expect(text.contains("an asynchronous undo, redo or group (undoAsync(), redoAsync(), withUndoGroupAsync) is in flight"))
        #expect(text.contains("Fix: call `try await manager.undoAsync()` or `redoAsync()`, which wait their turn"))
    }

    @Test("removeAllActions() from an action of the running undo stops the program, naming the fix")
    func removalFromTheRunningStepTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager.explicit()
            let model = AsyncModel()
            manager.step {
                manager.registerUndo(withTarget: model) { _ in manager.removeAllActions() }
            }
            try? await manager.undoAsync()
        }
        let text = result.standardErrorText
        #expect(text.contains("removeAllActions(): UndoManager"))
        #expect(text.contains("may not remove actions while its step is in flight"))
    }
}

/// Two steps; while the undo of the newer waits at the gate, other code calls `undo()`.
@MainActor
private func undoWhileAnAsynchronousUndoWaits() async {
    let manager = UndoManager.explicit()
    let model = AsyncModel()
    for value in 1...2 {
        manager.step { insert(value, into: model, manager: manager) }
    }
    model.gatedValues = [2]
    let undo = Task { try await manager.undoAsync() }
    while model.waitingCount == 0 {
        await Task.yield()
    }
    await Task { manager.undo() }.value
    _ = try? await undo.value
}
