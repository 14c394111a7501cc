import Foundation
import Testing
import UndoKit

@Suite("Asynchronous undo and redo", .timeLimit(.minutes(1)))
@MainActor
struct AsyncUndoRedoTests {
    @Test("an asynchronous closure step undoes and redoes, awaiting its action")
    func closureRoundTrip() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("One") { insert(1, into: model, manager: manager) }
        manager.step("Two") { insert(2, into: model, manager: manager) }
        #expect(model.values == [1, 2])

        try await manager.undoAsync()
        #expect(model.values == [1])
        #expect(manager.undoCount == 1)
        #expect(manager.redoCount == 1)
        #expect(manager.redoActionName == "Two")
        #expect(!manager.isUndoing)

        try await manager.undoAsync()
        #expect(model.values == [])
        #expect(!manager.canUndo)

        try await manager.redoAsync()
        try await manager.redoAsync()
        #expect(model.values == [1, 2])
        #expect(manager.undoActionName == "Two")
        #expect(!manager.canRedo)
    }

    @Test("an asynchronous command performs, undoes and redoes on an actor's store")
    func commandRoundTrip() async throws {
        let manager = UndoManager()
        let document = TitleDocument()
        try await manager.performAsync(AddTitle(title: "Milk"), on: document)
        manager.runLoop.tick()
        try await manager.performAsync(AddTitle(title: "Eggs"), on: document)
        manager.runLoop.tick()
        #expect(await document.store.titles == ["Milk", "Eggs"])
        #expect(manager.undoMenuItemTitle == "Undo Add Eggs")

        try await manager.undoAsync()
        #expect(await document.store.titles == ["Milk"])
        #expect(manager.redoMenuItemTitle == "Redo Add Eggs")
        try await manager.redoAsync()
        #expect(await document.store.titles == ["Milk", "Eggs"])
        try await manager.undoAsync()
        try await manager.undoAsync()
        #expect(await document.store.titles == [])
        #expect(manager.redoCount == 2)
    }

    @Test("a command whose execute throws records nothing")
    func failedExecuteRecordsNothing() async throws {
        let manager = UndoManager()
        let document = TitleDocument()
        await document.store.failNextWrite()
        await #expect(throws: InjectedFailure(value: -1)) {
            try await manager.performAsync(AddTitle(title: "Milk"), on: document)
        }
        manager.runLoop.tick()
        #expect(!manager.canUndo)
        #expect(await document.store.titles == [])
    }

    @Test("synchronous and asynchronous actions of one step run newest first, as undo() runs them")
    func mixedStepOrder() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step {
            insert(1, into: model, manager: manager)
            model.values.append(2)
            manager.registerUndo(withTarget: model) { model in
                model.values.removeAll { $0 == 2 }
                model.log.append("sync remove 2")
            }
            insert(3, into: model, manager: manager)
        }
        model.log = []
        try await manager.undoAsync()
        #expect(model.values == [])
        #expect(model.log == ["remove 3", "sync remove 2", "remove 1"])
        // The redo step holds the inverses the async actions registered (the sync action
        // registered none).
        model.log = []
        try await manager.redoAsync()
        #expect(model.log == ["insert 1", "insert 3"])
        #expect(model.values == [1, 3])
    }

    @Test("undoAsync() runs a step with only synchronous actions as undo() would")
    func synchronousStep() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Sync") {
            model.values.append(7)
            manager.registerUndo(withTarget: model) { model in
                model.values.removeLast()
                manager.registerUndo(withTarget: model) { $0.values.append(7) }
            }
        }
        try await manager.undoAsync()
        #expect(model.values == [])
        #expect(manager.redoActionName == "Sync")
        manager.redo()
        #expect(model.values == [7])
    }

    @Test("undo() and redo() stop the program on an asynchronous step, naming the asynchronous calls",
          arguments: ["undo()", "redo()", "undoNestedGroup()"])
    func synchronousCallTraps(call: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [call] in
            let manager = UndoManager.explicit()
            let model = AsyncModel()
            manager.step { insert(1, into: model, manager: manager) }
            switch call {
            case "undo()":
                manager.undo()
            case "redo()":
                try? await manager.undoAsync()
                manager.redo()
            default:
                manager.undoNestedGroup()
            }
        }
        #expect(result.standardErrorText.contains("undoAsync()"))
        #expect(result.standardErrorText.contains("redoAsync()"))
    }

    @Test("while an asynchronous undo is in flight the manager is busy, and says so")
    func busyWhileInFlight() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step { insert(1, into: model, manager: manager) }
        manager.step { insert(2, into: model, manager: manager) }
        model.gatedValues = [2]
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        let undo = Task { try await manager.undoAsync() }
        while model.waitingCount == 0 {
            await Task.yield()
        }
        #expect(manager.isUndoing)
        #expect(!manager.canUndo)
        #expect(!manager.canRedo)
        #expect(events.contains(.willUndoChange))
        #expect(!events.contains(.didUndoChange(isDiscardable: false)))
        model.openGate()
        try await undo.value
        #expect(!manager.isUndoing)
        #expect(manager.canUndo)
        #expect(manager.canRedo)
        // (Reading canRedo posted a checkpoint after it.)
        #expect(events.contains(.didUndoChange(isDiscardable: false)))
        withExtendedLifetime(observation) {}
    }

    @Test("requests made while one is in flight wait their turn, in order")
    func requestsWaitInOrder() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        for value in 1...3 {
            manager.step { insert(value, into: model, manager: manager) }
        }
        model.gatedValues = [3]
        let first = Task { try await manager.undoAsync() }
        while model.waitingCount == 0 {
            await Task.yield()
        }
        let second = Task { try await manager.undoAsync() }
        let third = Task { try await manager.redoAsync() }
        for _ in 0..<20 {
            await Task.yield()
        }
        // Nothing ran: the first still waits at the gate, before its removal, holding the turn.
        #expect(model.values == [1, 2, 3])
        #expect(model.log.last == "insert 3")
        model.openGate()
        try await first.value
        try await second.value
        try await third.value
        // Undo 3, undo 2, redo 2: in the order asked.
        #expect(model.values == [1, 2])
        #expect(model.log.suffix(3) == ["remove 3", "remove 2", "insert 2"])
        #expect(manager.redoCount == 1)
    }

    @Test("an action that throws reverts the actions that ran, leaves both stacks as they were, reports and rethrows")
    func failureRevertsStep() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Earlier") { insert(9, into: model, manager: manager) }
        try await manager.undoAsync()
        manager.step("Three") {
            insert(1, into: model, manager: manager)
            insert(2, into: model, manager: manager)
            insert(3, into: model, manager: manager)
        }
        // The new edit ended redo; make a redo step again to see it kept.
        manager.step("Four") { insert(4, into: model, manager: manager) }
        try await manager.undoAsync()
        #expect(manager.redoActionName == "Four")
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        model.failingValues = [1]
        model.log = []
        await #expect(throws: InjectedFailure(value: 1)) {
            try await manager.undoAsync()
        }
        // 3 and 2 were removed, 1 failed, then 2 and 3 came back, newest first.
        #expect(model.log == ["remove 3", "remove 2", "fail 1", "insert 2", "insert 3"])
        #expect(model.values == [1, 2, 3])
        #expect(manager.undoActionName == "Three")
        #expect(manager.undoCount == 1)
        #expect(manager.redoActionName == "Four")
        #expect(manager.redoCount == 1)
        #expect(!manager.isUndoing)
        guard case .didFailAsyncStep(let failure)? = events.last else {
            Issue.record("no failure event: \(events)")
            return
        }
        #expect(failure.wasUndo)
        #expect(!failure.revertFailed)
        #expect(failure.stepID == manager.historyTree.nodes.first { $0.actionName == "Three" }?.id)
        #expect(!events.contains(.didUndoChange(isDiscardable: false)))
        // The step still undoes.
        try await manager.undoAsync()
        #expect(model.values == [])
        withExtendedLifetime(observation) {}
    }

    @Test("in an async context, the synchronous calls still resolve to the synchronous overloads")
    func synchronousCallsStaySynchronous() async {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        // None of these needs `await`: no new overload is preferred in an async context.
        manager.withUndoGroup(named: "Sync") {
            model.values.append(1)
            manager.registerUndo(withTarget: model) { model in
                model.values.removeLast()
                manager.registerUndo(withTarget: model) { $0.values.append(1) }
            }
        }
        manager.undo()
        manager.redo()
        #expect(model.values == [1])
        #expect(manager.undoActionName == "Sync")
    }

    @Test("an asynchronous undo works from an actor that owns the manager")
    func actorOwnedManager() async throws {
        actor Editor {
            let manager = UndoManager.explicit()
            let model = AsyncModel()

            func edit() {
                manager.step { insert(5, into: model, manager: manager) }
            }

            func undoThenRedo() async throws -> ([Int], [Int]) {
                try await manager.undoAsync()
                let afterUndo = model.values
                try await manager.redoAsync()
                return (afterUndo, model.values)
            }
        }
        let editor = Editor()
        await editor.edit()
        let (afterUndo, afterRedo) = try await editor.undoThenRedo()
        #expect(afterUndo == [])
        #expect(afterRedo == [5])
    }
}
