import Foundation
import Observation
import Synchronization
import Testing
import UndoKit

/// Spec K5's order: calls other code makes while an asynchronous operation is suspended are
/// held and made after it settles, as if made then; grouping by event, each keeps its event.
@Suite("Asynchronous order and held calls", .timeLimit(.minutes(1)))
@MainActor
struct AsyncOrderTests {
    /// Waits until an action waits at the model's gate.
    private func untilGated(_ model: AsyncModel) async {
        while model.waitingCount == 0 {
            await Task.yield()
        }
    }

    @Test("a step other code records during an undo's suspension lands after it, as a step of its own")
    func heldStepLandsAfter() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("One") { insert(1, into: model, manager: manager) }
        manager.step("Two") {
            insert(2, into: model, manager: manager)
            insert(3, into: model, manager: manager)
        }
        model.gatedValues = [3]
        let undo = Task { try await manager.undoAsync() }
        await untilGated(model)
        // Other code, in a task of its own, records a step while the undo is suspended.
        await Task {
            manager.step("Other") { insert(10, into: model, manager: manager) }
            // Held: not on the stack yet, and the undo's step is still the next undo.
            #expect(manager.undoCount == 2)
        }.value
        model.openGate()
        try await undo.value
        #expect(model.values == [1, 10])
        #expect(manager.undoActionNames == ["Other", "One"])
        // The held step is a new edit made after the undo: it ended redo.
        #expect(manager.redoCount == 0)
        // The undone step's redo held nothing of the other code's: undoing "Other" removes 10 only.
        try await manager.undoAsync()
        #expect(model.values == [1])
        try await manager.undoAsync()
        #expect(model.values == [])
    }

    @Test("grouping by event, edits other code makes in two events during an undo land as two steps")
    func heldEditsKeepTheirEvents() async throws {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let model = AsyncModel()
        insert(1, into: model, manager: manager)
        manager.setActionName("Step")
        manager.runLoop.tick()
        model.gatedValues = [1]
        let undo = Task { try await manager.undoAsync() }
        await untilGated(model)
        for name in ["A", "B"] {
            await Task {
                model.values.append(0)
                manager.registerUndo(withTarget: model) { $0.values.removeLast() }
                manager.setActionName(name)
                manager.runLoop.tick()
            }.value
        }
        model.openGate()
        try await undo.value
        manager.runLoop.tick()
        #expect(manager.undoActionNames == ["B", "A"])
    }

    @Test("grouping by event, an edit other code makes during a scope's body is a step of its own after the scope's")
    func heldEditBesideScope() async throws {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let model = AsyncModel()
        try await manager.withUndoGroupAsync(named: "Scope") {
            insert(1, into: model, manager: manager)
            // Detached: a task the body starts inherits its task-locals, so counts as its code.
            await Task.detached { @MainActor in
                manager.registerUndo(withTarget: model) { $0.log.append("other undone") }
                manager.setActionName("Other")
                manager.runLoop.tick()
            }.value
        }
        manager.runLoop.tick()
        #expect(manager.undoActionNames == ["Other", "Scope"])
    }

    @Test("grouping by event, a scope that throws after its event ended rolls back, and other code's edit stays")
    func scopeRollsBackAcrossEventEnd() async throws {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let model = AsyncModel()
        await #expect(throws: InjectedFailure(value: 0)) {
            try await manager.withUndoGroupAsync(named: "Scope") {
                insert(1, into: model, manager: manager)
                // Detached: a task the body starts inherits its task-locals, so counts as its code.
                await Task.detached { @MainActor in
                    manager.registerUndo(withTarget: model) { $0.log.append("other undone") }
                    manager.setActionName("Other")
                    manager.runLoop.tick()
                }.value
                throw InjectedFailure(value: 0)
            }
        }
        manager.runLoop.tick()
        #expect(model.values == [])
        #expect(manager.undoActionNames == ["Other"])
        // And with no other code, the event's end during the body is no trouble either.
        await #expect(throws: InjectedFailure(value: 0)) {
            try await manager.withUndoGroupAsync(named: "Alone") {
                insert(2, into: model, manager: manager)
                manager.runLoop.tick()
                await Task.yield()
                throw InjectedFailure(value: 0)
            }
        }
        manager.runLoop.tick()
        #expect(model.values == [])
        #expect(manager.undoActionNames == ["Other"])
    }

    @Test("an edit other code makes while a failed step's revert starts is held, and lands as its own step")
    func editDuringRevertStartIsHeld() async throws {
        let manager = UndoManager.explicit()
        let box = AsyncModel()
        manager.step("Step") {
            // Runs second, and throws without suspending.
            manager.registerUndo(withTarget: box) { _ in throw InjectedFailure(value: 1) }
            // Runs first; its inverse is what the revert runs.
            manager.registerUndo(withTarget: box) { box in
                manager.registerUndo(withTarget: box) { _ in }
            }
        }
        // Queued on the main actor: runs at the undo's first suspension, where the revert starts.
        let other = Task {
            manager.step("Other") {
                manager.registerUndo(withTarget: box) { $0.log.append("other undone") }
            }
        }
        await #expect(throws: InjectedFailure(value: 1)) {
            try await manager.undoAsync()
        }
        await other.value
        #expect(manager.undoActionNames == ["Other", "Step"])
        #expect(manager.redoActionNames == [])
    }

    @Test("a request cancelled while waiting for its turn throws CancellationError and runs nothing")
    func cancelledWhileWaiting() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step { insert(1, into: model, manager: manager) }
        manager.step { insert(2, into: model, manager: manager) }
        model.gatedValues = [2]
        let first = Task { try await manager.undoAsync() }
        await untilGated(model)
        let second = Task { try await manager.undoAsync() }
        await Task.yield()
        second.cancel()
        model.openGate()
        try await first.value
        await #expect(throws: CancellationError.self) {
            try await second.value
        }
        #expect(model.values == [1])
        #expect(manager.undoCount == 1)
        #expect(manager.redoCount == 1)
    }

    @Test("an undo called from an action of a running undo stops the program, naming the call")
    func reentrantUndoTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager.explicit()
            let model = AsyncModel()
            manager.step {
                manager.registerUndo(withTarget: model) { _ in try await manager.undoAsync() }
            }
            try? await manager.undoAsync()
        }
        #expect(result.standardErrorText.contains("undoAsync() was called from inside an asynchronous undo or redo action"))
    }

    @Test("Observation hears the manager become busy when an asynchronous undo starts")
    func observationSeesBusy() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step { insert(1, into: model, manager: manager) }
        model.gatedValues = [1]
        final class Flag: Sendable {
            let isSet = Mutex(false)
        }
        let changed = Flag()
        withObservationTracking {
            _ = manager.canUndo
        } onChange: {
            changed.isSet.withLock { $0 = true }
        }
        let undo = Task { try await manager.undoAsync() }
        await untilGated(model)
        #expect(changed.isSet.withLock { $0 })
        #expect(!manager.canUndo)
        model.openGate()
        try await undo.value
    }
}
