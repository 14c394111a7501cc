import Foundation
import Testing
import UndoKit

/// What an injected failure throws.
struct InjectedFailure: Error, Equatable {
    let value: Int
}

/// A model whose undo actions are asynchronous: a list of values, a log of what ran, and
/// knobs for the tests: values whose next action throws, and a gate an action can wait at.
final class AsyncModel {
    var values: [Int] = []
    var log: [String] = []
    /// Values whose next action (either way) throws ``InjectedFailure``, once.
    var failingValues: Set<Int> = []
    /// Values whose actions wait at ``gate`` until the test opens it.
    var gatedValues: Set<Int> = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// How many actions are waiting at the gate.
    var waitingCount: Int { waiting.count }

    /// Lets every action waiting at the gate go on.
    func openGate() {
        let released = waiting
        waiting = []
        for continuation in released {
            continuation.resume()
        }
    }

    /// Where an action suspends: a yield, the gate for gated values, then the injected
    /// failure if any.
    func pause(for value: Int, isolation: isolated (any Actor)? = #isolation) async throws {
        await Task.yield()
        if gatedValues.contains(value) {
            await withCheckedContinuation { waiting.append($0) }
        }
        if failingValues.remove(value) != nil {
            log.append("fail \(value)")
            throw InjectedFailure(value: value)
        }
    }
}

/// Appends `value` and registers its asynchronous undo, which removes it and registers the
/// asynchronous redo, and so on.
func insert(_ value: Int, into model: AsyncModel, manager: UndoManager) {
    model.values.append(value)
    model.log.append("insert \(value)")
    manager.registerUndo(withTarget: model) { model in
        try await model.pause(for: value)
        remove(value, from: model, manager: manager)
    }
}

/// Removes `value` and registers the asynchronous undo that inserts it again.
func remove(_ value: Int, from model: AsyncModel, manager: UndoManager) {
    model.values.removeAll { $0 == value }
    model.log.append("remove \(value)")
    manager.registerUndo(withTarget: model) { model in
        try await model.pause(for: value)
        insert(value, into: model, manager: manager)
    }
}

/// A store kept in an actor, as a database would be: its writes are asynchronous.
actor TitleStore {
    private(set) var titles: [String] = []
    var failsNextWrite = false

    func append(_ title: String) throws {
        try failIfAsked()
        titles.append(title)
    }

    func removeLast() throws {
        try failIfAsked()
        titles.removeLast()
    }

    func failNextWrite() {
        failsNextWrite = true
    }

    private func failIfAsked() throws {
        if failsNextWrite {
            failsNextWrite = false
            throw InjectedFailure(value: -1)
        }
    }
}

/// A document whose titles live in a ``TitleStore``.
final class TitleDocument {
    let store = TitleStore()
}

/// Adds a title to the document's store.
struct AddTitle: AsyncUndoableCommand {
    let title: String
    var actionName: String { "Add \(title)" }

    func execute(on document: TitleDocument) async throws {
        try await document.store.append(title)
    }

    func undo(on document: TitleDocument) async throws {
        try await document.store.removeLast()
    }
}

extension UndoManager {
    /// A manager that groups explicitly, as most of these tests do.
    static func explicit() -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        return manager
    }

    /// Registers `body`'s actions as one step.
    func step(_ name: String = "", _ body: () -> Void) {
        beginUndoGrouping()
        body()
        if !name.isEmpty {
            setActionName(name)
        }
        endUndoGrouping()
    }
}
