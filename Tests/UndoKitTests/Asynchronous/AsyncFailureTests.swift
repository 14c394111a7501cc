import Foundation
import Testing
import UndoKit

/// Spec K5's "nothing half-done": a failing step is reverted and stays where it was.
@Suite("Asynchronous failure and cancellation", .timeLimit(.minutes(1)))
@MainActor
struct AsyncFailureTests {
    @Test("a cancelled undo stops before the next action and reverts the ones that ran")
    func cancellationReverts() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Both") {
            insert(1, into: model, manager: manager)
            insert(2, into: model, manager: manager)
        }
        model.gatedValues = [2]
        var failures: [AsyncStepFailure] = []
        let observation = manager.addEventObserver { event in
            if case .didFailAsyncStep(let failure) = event {
                failures.append(failure)
            }
        }
        let undo = Task { try await manager.undoAsync() }
        while model.waitingCount == 0 {
            await Task.yield()
        }
        undo.cancel()
        // Ungated first: the revert runs 2's inverse, which would wait at the gate again.
        model.gatedValues = []
        model.openGate()
        await #expect(throws: CancellationError.self) {
            try await undo.value
        }
        // 2 was removed, then the cancellation stopped the undo before 1, and 2 came back,
        // although the task was cancelled (its action awaits).
        #expect(model.log.suffix(2) == ["remove 2", "insert 2"])
        #expect(model.values == [1, 2])
        #expect(manager.undoActionName == "Both")
        #expect(manager.redoCount == 0)
        #expect(failures.count == 1)
        #expect(failures.first?.wasCancelled == true)
        withExtendedLifetime(observation) {}
    }

    @Test("a failing redo reverts and leaves the step on the redo stack")
    func failingRedo() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Pair") {
            insert(1, into: model, manager: manager)
            insert(2, into: model, manager: manager)
        }
        try await manager.undoAsync()
        #expect(model.values == [])
        // The redo runs the inverses newest first: insert 1, then insert 2, which fails.
        model.failingValues = [2]
        await #expect(throws: InjectedFailure(value: 2)) {
            try await manager.redoAsync()
        }
        #expect(model.values == [])
        #expect(manager.redoActionName == "Pair")
        #expect(manager.undoCount == 0)
        try await manager.redoAsync()
        #expect(model.values == [1, 2])
    }

    @Test("a revert that fails too is reported with both errors, and the step is marked")
    func failingRevert() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Broken") {
            // Runs last, and fails.
            manager.registerUndo(withTarget: model) { _ in throw InjectedFailure(value: 1) }
            // Runs first; its inverse, which the revert runs, fails too.
            manager.registerUndo(withTarget: model) { model in
                model.log.append("undo B")
                manager.registerUndo(withTarget: model) { model in
                    model.log.append("revert B")
                    throw InjectedFailure(value: 2)
                }
            }
        }
        var failures: [AsyncStepFailure] = []
        let observation = manager.addEventObserver { event in
            if case .didFailAsyncStep(let failure) = event {
                failures.append(failure)
            }
        }
        let stepID = manager.historyTree.current
        do {
            try await manager.undoAsync()
            Issue.record("the undo succeeded")
        } catch let error as AsyncRevertError {
            #expect(error.error as? InjectedFailure == InjectedFailure(value: 1))
            #expect(error.revertErrors.compactMap { $0 as? InjectedFailure } == [InjectedFailure(value: 2)])
            #expect(error.stepID == stepID)
        }
        #expect(model.log == ["undo B", "revert B"])
        #expect(manager.stepsWithFailedRevert == [stepID].compactMap { $0 })
        #expect(failures.first?.revertFailed == true)
        #expect(manager.undoActionName == "Broken")
        withExtendedLifetime(observation) {}
    }

    @Test("a failed step leaves the clean state, the history tree and the counts as they were")
    func failureChangesNothingObservable() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("One") { insert(1, into: model, manager: manager) }
        manager.markClean()
        manager.step("Two") { insert(2, into: model, manager: manager) }
        let nodesBefore = manager.historyTree.nodes.map(\.id)
        let currentBefore = manager.historyTree.current
        var cleanReports: [Bool] = []
        let observation = manager.addCleanStateObserver { cleanReports.append($0) }
        model.failingValues = [2]
        await #expect(throws: InjectedFailure(value: 2)) {
            try await manager.undoAsync()
        }
        #expect(!manager.isClean)
        #expect(cleanReports.isEmpty)
        #expect(manager.historyTree.nodes.map(\.id) == nodesBefore)
        #expect(manager.historyTree.current == currentBefore)
        try await manager.undoAsync()
        #expect(manager.isClean)
        #expect(cleanReports == [true])
        withExtendedLifetime(observation) {}
    }
}
