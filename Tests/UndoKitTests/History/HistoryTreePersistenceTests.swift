import Foundation
import Testing
import UndoKit

/// A list edited by one saveable command.
private final class NumberList {
    var items: [Int] = []
}

private struct AppendNumber: UndoableCommand, Codable, Equatable {
    var value: Int
    var actionName: String { "Add \(value)" }

    func execute(on list: NumberList) {
        list.items.append(value)
    }

    func undo(on list: NumberList) {
        list.items.removeLast()
    }
}

@Suite("History tree: saved and restored whole")
struct HistoryTreePersistenceTests {
    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        return manager
    }

    private func add(_ value: Int, to list: NumberList, in manager: UndoManager) {
        manager.beginUndoGrouping()
        manager.setActionName("Add \(value)")
        manager.perform(AppendNumber(value: value), on: list)
        manager.endUndoGrouping()
    }

    /// Builds a random tree by edits, undos and jumps.
    private func randomTree(seed: UInt64) -> (UndoManager, NumberList) {
        var random = SplitMix64(seed: seed)
        let manager = makeManager()
        let list = NumberList()
        for step in 0..<40 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0...2: add(step, to: list, in: manager)
            case 3: manager.undo()
            case 4: manager.go(toNodeOrStart: manager.historyTree.nodes.randomElement(using: &random))
            default:
                if Int.random(in: 0..<4, using: &random) == 0 { manager.markClean() }
            }
        }
        return (manager, list)
    }

    @Test("a random tree round-trips through JSON: ids, names, dates, branches, current, clean mark",
          arguments: [UInt64(21), 22, 23, 24, 25, 26])
    func roundTrip(seed: UInt64) throws {
        let (manager, list) = randomTree(seed: seed)
        let history = try manager.undoHistory(of: AppendNumber.self)
        let decoded = try UndoHistory<AppendNumber>(encoded: history.encoded())
        #expect(decoded.undoSteps == history.undoSteps)
        #expect(decoded.redoSteps == history.redoSteps)
        #expect(decoded.branches == history.branches)
        #expect(decoded.cleanMark == history.cleanMark)

        let restored = makeManager()
        let copy = NumberList()
        copy.items = list.items
        try restored.restoreUndoHistory(decoded, on: copy)
        let before = manager.historyTree
        let after = restored.historyTree
        #expect(after.current == before.current)
        #expect(after.nodes.map(\.id) == before.nodes.map(\.id))
        #expect(after.nodes.map(\.parent) == before.nodes.map(\.parent))
        #expect(after.nodes.map(\.actionName) == before.nodes.map(\.actionName))
        #expect(after.nodes.map { $0.date.map { Int($0.timeIntervalSince1970 * 1000) } }
            == before.nodes.map { $0.date.map { Int($0.timeIntervalSince1970 * 1000) } })
        #expect(restored.isClean == manager.isClean)
        #expect(restored.redoActionName == manager.redoActionName)

        // Both walk to every node and agree on the list and on isClean.
        for node in before.nodes {
            manager.go(to: node)
            restored.go(to: after[node.id])
            #expect(copy.items == list.items)
            #expect(restored.isClean == manager.isClean)
        }
        manager.goToStart()
        restored.goToStart()
        #expect(copy.items == list.items && list.items.isEmpty)
    }

    @Test("a manager without branches restores the path and leaves the branches out")
    func withoutBranches() throws {
        let (manager, list) = randomTree(seed: 31)
        let history = try manager.undoHistory(of: AppendNumber.self)
        let linear = UndoManager()
        linear.groupsByEvent = false
        let copy = NumberList()
        copy.items = list.items
        try linear.restoreUndoHistory(history, on: copy)
        #expect(linear.historyTree.nodes.count == history.undoSteps.count + history.redoSteps.count)
        #expect(linear.undoActionNames == manager.undoActionNames)
    }

    @Test("a step saved with a date but no id gets a new id and keeps its date; a version 1 step has none")
    func dateWithoutID() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        var history = UndoHistory<AppendNumber>()
        history.undoSteps = [UndoHistory.Group(actionName: "Add 1", items: [.command(AppendNumber(value: 1))])]
        history.undoSteps[0].date = date
        let manager = makeManager()
        let list = NumberList()
        list.items = [1]
        try manager.restoreUndoHistory(history, on: list)
        let node = try #require(manager.historyTree.nodes.first)
        #expect(node.date == date)
        #expect(try manager.undoHistory(of: AppendNumber.self).undoSteps[0].date == date)
    }

    @Test("a version 1 history still loads; its restored position is clean")
    func versionOne() throws {
        let text = #"{"formatVersion":1,"undo":[{"name":"Add 1","items":[{"command":{"value":1}}]}],"redo":[]}"#
        let history = try UndoHistory<AppendNumber>(encoded: Data(text.utf8))
        #expect(history.cleanMark == .current && history.branches.isEmpty)
        let manager = makeManager()
        let list = NumberList()
        list.items = [1]
        try manager.restoreUndoHistory(history, on: list)
        #expect(manager.isClean)
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 1"])
        manager.undo()
        #expect(list.items.isEmpty)
    }

    @Test("keepNewestUndoSteps drops the branches below what it drops, and a clean mark there")
    func trimmingASavedTree() throws {
        let manager = makeManager()
        let list = NumberList()
        add(1, to: list, in: manager)
        manager.markClean()
        add(2, to: list, in: manager)
        manager.undo()
        add(3, to: list, in: manager)      // 1 → {2, 3}
        var history = try manager.undoHistory(of: AppendNumber.self)
        #expect(history.branches.count == 1)
        history.keepNewestUndoSteps(1)
        #expect(history.branches.isEmpty)
        #expect(history.cleanMark == .unreachable)
        let restored = makeManager()
        try restored.restoreUndoHistory(history, on: list)
        #expect(!restored.isClean)
    }
}

@Suite("History tree: UndoableValue histories")
struct UndoableValueHistoryTests {
    @Test("an UndoableValue's history of Codable values saves and restores, branches included")
    func undoableValueHistory() throws {
        let manager = UndoManager()
        manager.keepsRedoBranches = true
        let text = UndoableValue("", undoManager: manager)
        text.modify(actionName: "Type a") { $0 += "a" }
        manager.runLoop.tick()
        text.modify(actionName: "Type b") { $0 += "b" }
        manager.runLoop.tick()
        manager.undo()
        text.modify(actionName: "Type c") { $0 += "c" }
        manager.runLoop.tick()
        #expect(text.value == "ac")

        let data = try manager.undoHistory(of: UndoableValue<String>.Snapshot.self).encoded()

        let restoredManager = UndoManager()
        restoredManager.keepsRedoBranches = true
        let restored = UndoableValue("ac", undoManager: restoredManager)
        var changes: [String] = []
        restored.onChange = { changes.append("\($0.kind): \($0.oldValue) → \($0.newValue)") }
        try restoredManager.restoreUndoHistory(UndoHistory<UndoableValue<String>.Snapshot>(encoded: data), on: restored)
        #expect(restoredManager.historyTree.nodes.map(\.actionName) == ["Type a", "Type b", "Type c"])
        restoredManager.go(to: restoredManager.historyTree.nodes[1])
        #expect(restored.value == "ab")
        #expect(changes == ["undo: ac → a", "redo: a → ab"])
        restoredManager.goToStart()
        #expect(restored.value == "")
    }
}
