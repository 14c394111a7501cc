import Foundation
import Testing
import UndoKit

/// A list whose edits suspend and can be made to fail, with a heading set synchronously.
private final class AsyncSavedList {
    var items: [String]
    var heading = ""
    /// Titles whose next write (either way) throws ``InjectedFailure``, once.
    var failingTitles: Set<String> = []
    var log: [String] = []

    init(_ items: [String] = [], heading: String = "") {
        self.items = items
        self.heading = heading
    }

    /// Where a write suspends, then fails if asked to.
    func write(_ title: String, isolation: isolated (any Actor)? = #isolation) async throws {
        await Task.yield()
        if failingTitles.remove(title) != nil {
            log.append("fail \(title)")
            throw InjectedFailure(value: items.count)
        }
    }
}

/// The asynchronous edits of the list; `removed` is filled by execute and read by undo, state
/// a save must keep.
private enum AsyncListEdit: AsyncUndoableCommand, Codable, Equatable {
    case insert(String, at: Int)
    case remove(at: Int, removed: String?)

    var actionName: String {
        switch self {
        case .insert(let title, _): "Add \(title)"
        case .remove(_, let removed): removed.map { "Delete \($0)" } ?? "Delete"
        }
    }

    nonisolated(nonsending) mutating func execute(on list: AsyncSavedList) async throws {
        switch self {
        case .insert(let title, let index):
            try await list.write(title)
            list.items.insert(title, at: index)
            list.log.append("insert \(title)")
        case .remove(let index, _):
            try await list.write(list.items[index])
            let removed = list.items.remove(at: index)
            list.log.append("remove \(removed)")
            self = .remove(at: index, removed: removed)
        }
    }

    nonisolated(nonsending) mutating func undo(on list: AsyncSavedList) async throws {
        switch self {
        case .insert(let title, let index):
            try await list.write(title)
            list.items.remove(at: index)
            list.log.append("remove \(title)")
        case .remove(let index, let removed):
            try await list.write(removed!)
            list.items.insert(removed!, at: index)
            list.log.append("insert \(removed!)")
            self = .remove(at: index, removed: nil)
        }
    }
}

/// The synchronous edit of the list, for histories of both kinds.
private struct SetHeading: UndoableCommand, Codable, Equatable {
    let heading: String
    var previous: String?

    var actionName: String { "Rename to \(heading)" }

    mutating func execute(on list: AsyncSavedList) {
        previous = list.heading
        list.heading = heading
    }

    mutating func undo(on list: AsyncSavedList) {
        list.heading = previous!
    }
}

private typealias MixedEdit = SyncOrAsyncCommand<SetHeading, AsyncListEdit>

/// What a manager shows that a saved history must keep.
private struct SavedState: Equatable {
    var undoCount: Int
    var redoCount: Int
    var undoActionName: String
    var redoActionName: String
    var isClean: Bool
    var tree: UndoTree

    @MainActor
    init(_ manager: UndoManager) {
        undoCount = manager.undoCount
        redoCount = manager.redoCount
        undoActionName = manager.undoActionName
        redoActionName = manager.redoActionName
        isClean = manager.isClean
        tree = manager.historyTree
    }
}

@MainActor
private func makeManager() -> UndoManager {
    let manager = UndoManager(runLoop: SimulatedRunLoop())
    manager.notificationCenter = nil
    return manager
}

/// Three asynchronous steps (the last one removes the first item, and is undone, so it waits
/// on the redo stack with its removed title kept), clean after the second.
@MainActor
private func recordAsyncSteps(on list: AsyncSavedList, manager: UndoManager) async throws {
    for title in ["milk", "eggs"] {
        try await manager.performAsync(AsyncListEdit.insert(title, at: list.items.count), on: list)
        manager.runLoop.tick()
    }
    manager.markClean()
    try await manager.performAsync(AsyncListEdit.remove(at: 0, removed: nil), on: list)
    manager.runLoop.tick()
    try await manager.undoAsync()
}

@Suite("Asynchronous commands in a saved UndoHistory", .timeLimit(.minutes(1)))
@MainActor
struct AsyncUndoHistoryTests {
    @Test("a history of asynchronous commands round-trips, and undoes and redoes as the original")
    func asyncRoundTrip() async throws {
        let list = AsyncSavedList()
        let manager = makeManager()
        try await recordAsyncSteps(on: list, manager: manager)
        let history = try manager.undoHistory(ofAsync: AsyncListEdit.self)
        #expect(history.undoSteps.map(\.actionName) == ["Add milk", "Add eggs"])
        #expect(history.redoSteps.map(\.actionName) == ["Delete milk"])
        // The redo step's command keeps what its execute removed, as its last undo left it.
        #expect(history.redoSteps.first?.commands == [.remove(at: 0, removed: nil)])

        let saved = try UndoHistory<AsyncListEdit>(encoded: try history.encoded())
        #expect(saved == history)
        let copy = AsyncSavedList(list.items)
        let restored = makeManager()
        try restored.restoreUndoHistory(async: saved, on: copy)
        #expect(SavedState(restored) == SavedState(manager))
        #expect(restored.redoMenuItemTitle == "Redo Delete milk")
        #expect(restored.isClean)

        // The same calls on both, in the same order, do the same thing.
        for step in ["redo", "undo", "undo", "undo", "redo", "redo", "redo"] {
            for each in [manager, restored] {
                if step == "undo" {
                    try await each.undoAsync()
                } else {
                    try await each.redoAsync()
                }
            }
            #expect(copy.items == list.items)
            #expect(SavedState(restored) == SavedState(manager))
        }
        #expect(copy.items == ["eggs"])
        #expect(copy.log == list.log.suffix(copy.log.count))
        // Taken again, both histories agree: the commands kept their state and direction.
        #expect(try restored.undoHistory(ofAsync: AsyncListEdit.self) == manager.undoHistory(ofAsync: AsyncListEdit.self))
    }

    @Test("a history of both kinds round-trips, each step running its own way")
    func mixedRoundTrip() async throws {
        let list = AsyncSavedList()
        let manager = makeManager()
        try await manager.performAsync(AsyncListEdit.insert("milk", at: 0), on: list)
        manager.runLoop.tick()
        manager.perform(SetHeading(heading: "Groceries"), on: list)
        manager.runLoop.tick()
        // One step of both kinds, a nested group inside.
        manager.beginUndoGrouping()
        manager.perform(SetHeading(heading: "Shopping"), on: list)
        manager.beginUndoGrouping()
        try await manager.performAsync(AsyncListEdit.insert("eggs", at: 1), on: list)
        manager.endUndoGrouping()
        manager.setActionName("Shop")
        manager.endUndoGrouping()
        manager.runLoop.tick()
        try await manager.undoAsync()
        #expect(list.items == ["milk"])
        #expect(list.heading == "Groceries")

        let history = try manager.undoHistory(of: SetHeading.self, async: AsyncListEdit.self)
        #expect(history.undoSteps.map(\.actionName) == ["Add milk", "Rename to Groceries"])
        #expect(history.redoSteps.map(\.actionName) == ["Shop"])
        #expect(history.undoSteps.flatMap(\.commands) == [
            .asynchronous(.insert("milk", at: 0)),
            .synchronous(SetHeading(heading: "Groceries", previous: "")),
        ])
        let data = try history.encoded()
        #expect(String(decoding: data, as: UTF8.self).contains(#"{"async":{"insert""#))
        let saved = try UndoHistory<MixedEdit>(encoded: data)
        #expect(saved == history)

        let copy = AsyncSavedList(list.items, heading: list.heading)
        let restored = makeManager()
        try restored.restoreUndoHistory(mixed: saved, on: copy)
        #expect(SavedState(restored) == SavedState(manager))
        let current = try #require(restored.historyTree.current)
        #expect(try restored.undoHistoryStep(current, of: SetHeading.self, async: AsyncListEdit.self) == history.undoSteps.last)
        let redoID = try #require(history.redoSteps.last?.id)
        #expect(try restored.undoHistoryStep(redoID, of: SetHeading.self, async: AsyncListEdit.self) == history.redoSteps.last)
        #expect(throws: UndoHistoryError.notACommand(stack: "undo", stepIndex: 0)) {
            try restored.undoHistoryStep(current, ofAsync: AsyncListEdit.self)
        }

        try await restored.redoAsync()
        #expect(copy.items == ["milk", "eggs"])
        #expect(copy.heading == "Shopping")
        try await restored.undoAsync()
        // A step of synchronous commands alone still runs with undo() and redo().
        restored.undo()
        #expect(copy.heading == "")
        restored.redo()
        #expect(copy.heading == "Groceries")
        try await restored.undoAsync()
        try await restored.undoAsync()
        #expect(copy.items == [])
        #expect(copy.heading == "")
        #expect(!restored.canUndo)
        try await restored.redoAsync()
        try await restored.redoAsync()
        try await restored.redoAsync()
        #expect(copy.items == ["milk", "eggs"])
        #expect(copy.heading == "Shopping")
        #expect(restored.undoActionName == "Shop")
    }

    @Test("a failing asynchronous action after a restore reverts the step and leaves it where it was")
    func failureAfterRestore() async throws {
        let list = AsyncSavedList()
        let manager = makeManager()
        manager.beginUndoGrouping()
        try await manager.performAsync(AsyncListEdit.insert("milk", at: 0), on: list)
        try await manager.performAsync(AsyncListEdit.insert("eggs", at: 1), on: list)
        manager.setActionName("Both")
        manager.endUndoGrouping()
        manager.runLoop.tick()
        let saved = try UndoHistory<AsyncListEdit>(encoded: try manager.undoHistory(ofAsync: AsyncListEdit.self).encoded())

        let copy = AsyncSavedList(list.items)
        let restored = makeManager()
        try restored.restoreUndoHistory(async: saved, on: copy)
        let before = SavedState(restored)
        // The undo removes eggs, then fails on milk: eggs comes back.
        copy.failingTitles = ["milk"]
        await #expect(throws: InjectedFailure.self) {
            try await restored.undoAsync()
        }
        #expect(copy.log == ["remove eggs", "fail milk", "insert eggs"])
        #expect(copy.items == ["milk", "eggs"])
        #expect(SavedState(restored) == before)
        #expect(!restored.isUndoing)
        // The revert ran eggs' command the other way again, so it is saved as it was.
        #expect(try restored.undoHistory(ofAsync: AsyncListEdit.self) == saved)

        // The step is whole again: it undoes and redoes as before.
        try await restored.undoAsync()
        #expect(copy.items == [])
        try await restored.redoAsync()
        #expect(copy.items == ["milk", "eggs"])
        #expect(restored.undoActionName == "Both")
    }

    @Test("a history saved as asynchronous refuses steps of other kinds")
    func otherStepsAreNotCommands() async throws {
        let list = AsyncSavedList()
        let manager = makeManager()
        try await manager.performAsync(AsyncListEdit.insert("milk", at: 0), on: list)
        manager.runLoop.tick()
        manager.perform(SetHeading(heading: "Groceries"), on: list)
        manager.runLoop.tick()
        #expect(throws: UndoHistoryError.notACommand(stack: "undo", stepIndex: 1)) {
            try manager.undoHistory(ofAsync: AsyncListEdit.self)
        }
        #expect(throws: UndoHistoryError.notACommand(stack: "undo", stepIndex: 0)) {
            try manager.undoHistory(of: SetHeading.self)
        }
        manager.registerUndo(withTarget: list) { _ in }
        manager.runLoop.tick()
        #expect(throws: UndoHistoryError.notACommand(stack: "undo", stepIndex: 2)) {
            try manager.undoHistory(of: SetHeading.self, async: AsyncListEdit.self)
        }
    }

    @Test("an unknown command in a saved history is a clear decoding error")
    func unknownCommandIsCorrupt() throws {
        let valid = #"{"formatVersion":2,"undo":[{"id":1,"items":[{"command":{"insert":{"_0":"milk","at":0}}}]}],"redo":[],"clean":{"current":true}}"#
        #expect(try UndoHistory<AsyncListEdit>(encoded: Data(valid.utf8)).undoSteps.count == 1)

        let unknown = valid.replacingOccurrences(of: #""insert""#, with: #""rename""#)
        #expect {
            try UndoHistory<AsyncListEdit>(encoded: Data(unknown.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? UndoHistoryError else { return false }
            return reason.contains("undo[0].items[0].command")
        }
        // In a mixed history, a command under neither key.
        let mixed = #"{"formatVersion":2,"undo":[{"id":1,"items":[{"command":{"later":{}}}]}],"redo":[],"clean":{"current":true}}"#
        #expect {
            try UndoHistory<MixedEdit>(encoded: Data(mixed.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? UndoHistoryError else { return false }
            return reason.contains("undo[0].items[0].command")
        }
    }

    @Test("a restored asynchronous step stops undo() and redo() with the same message",
          arguments: ["undo()", "redo()"])
    func restoredStepTraps(call: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [call] in
            let step = UndoHistory<AsyncListEdit>.Group(
                actionName: "Add milk", items: [.command(.insert("milk", at: 0))])
            // Kept alive to the end: a step whose model is gone is skipped.
            let list = AsyncSavedList(call == "undo()" ? ["milk"] : [])
            let manager = UndoManager(runLoop: SimulatedRunLoop())
            if call == "undo()" {
                try? manager.restoreUndoHistory(async: UndoHistory(undoSteps: [step]), on: list)
                manager.undo()
            } else {
                try? manager.restoreUndoHistory(async: UndoHistory(redoSteps: [step]), on: list)
                manager.redo()
            }
            withExtendedLifetime(list) {}
        }
        #expect(result.standardErrorText.contains("undoAsync()"))
        #expect(result.standardErrorText.contains("redoAsync()"))
    }
}
