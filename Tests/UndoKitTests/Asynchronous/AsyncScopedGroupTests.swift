import Foundation
import Testing
import UndoKit

/// Spec K5 with J2: `withUndoGroupAsync(named:_:)`.
@Suite("Asynchronous scoped groups", .timeLimit(.minutes(1)))
@MainActor
struct AsyncScopedGroupTests {
    @Test("a scope whose body awaits makes one named step, which undoes as a whole")
    func scopeMakesOneStep() async throws {
        let manager = UndoManager.explicit()
        let document = TitleDocument()
        let titles = try await manager.withUndoGroupAsync(named: "Import") {
            for title in ["A", "B", "C"] {
                try await manager.performAsync(AddTitle(title: title), on: document)
            }
            return await document.store.titles
        }
        #expect(titles == ["A", "B", "C"])
        #expect(manager.undoCount == 1)
        #expect(manager.undoActionName == "Import")
        try await manager.undoAsync()
        #expect(await document.store.titles == [])
        try await manager.redoAsync()
        #expect(await document.store.titles == ["A", "B", "C"])
    }

    @Test("a scope whose body throws rolls back, awaiting its actions newest first, and leaves redo as it was")
    func scopeRollsBack() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Kept") { insert(1, into: model, manager: manager) }
        manager.step("Undone") { insert(2, into: model, manager: manager) }
        try await manager.undoAsync()
        model.log = []
        await #expect(throws: InjectedFailure(value: 9)) {
            try await manager.withUndoGroupAsync(named: "Scope") {
                insert(3, into: model, manager: manager)
                await Task.yield()
                insert(4, into: model, manager: manager)
                throw InjectedFailure(value: 9)
            }
        }
        #expect(model.log == ["insert 3", "insert 4", "remove 4", "remove 3"])
        #expect(model.values == [1])
        #expect(manager.undoActionNames == ["Kept"])
        #expect(manager.redoActionName == "Undone")
        try await manager.redoAsync()
        #expect(model.values == [1, 2])
    }

    @Test("a cancelled scope rolls back, its asynchronous inverses included")
    func cancelledScopeRollsBack() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        let started = AsyncStream<Void>.makeStream()
        let scope = Task {
            try await manager.withUndoGroupAsync(named: "Long") {
                insert(1, into: model, manager: manager)
                started.continuation.yield()
                try await Task.sleep(for: .seconds(60))
            }
        }
        for await _ in started.stream {
            break
        }
        scope.cancel()
        await #expect(throws: CancellationError.self) {
            try await scope.value
        }
        #expect(model.values == [])
        #expect(model.log == ["insert 1", "remove 1"])
        #expect(!manager.canUndo)
    }

    @Test("an inner scope that throws rolls back only its part")
    func nestedScopes() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        try await manager.withUndoGroupAsync(named: "Outer") {
            insert(1, into: model, manager: manager)
            do {
                try await manager.withUndoGroupAsync(named: "Inner") {
                    insert(2, into: model, manager: manager)
                    await Task.yield()
                    throw InjectedFailure(value: 2)
                }
            } catch {}
            insert(3, into: model, manager: manager)
        }
        #expect(model.values == [1, 3])
        #expect(manager.undoActionNames == ["Outer"])
        try await manager.undoAsync()
        #expect(model.values == [])
    }

    @Test("an asynchronous undo asked for during a scope waits for the scope to end")
    func undoWaitsForScope() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Before") { insert(1, into: model, manager: manager) }
        let (gate, opener) = AsyncStream<Void>.makeStream()
        let scope = Task {
            try await manager.withUndoGroupAsync(named: "Scope") {
                insert(2, into: model, manager: manager)
                for await _ in gate {
                    break
                }
            }
        }
        await Task.yield()
        let undo = Task { try await manager.undoAsync() }
        for _ in 0..<10 {
            await Task.yield()
        }
        #expect(model.values == [1, 2])
        opener.yield()
        try await scope.value
        try await undo.value
        // The undo took back the scope's step, which closed first.
        #expect(model.values == [1])
        #expect(manager.redoActionName == "Scope")
    }
}
