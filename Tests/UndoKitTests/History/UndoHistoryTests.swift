import Foundation
import Testing
import UndoKit

/// A list and the one command type that edits it, `Codable` so its history can be saved.
private final class SavedList {
    var items: [String]

    init(_ items: [String] = []) {
        self.items = items
    }
}

private enum ListEdit: UndoableCommand, Codable, Equatable {
    case insert(String, at: Int)
    /// `removed` is filled by execute and read by undo: state that must survive a save.
    case remove(at: Int, removed: String?)

    var actionName: String {
        switch self {
        case .insert(let title, _): "Add \(title)"
        case .remove(_, let removed): removed.map { "Delete \($0)" } ?? "Delete"
        }
    }

    mutating func execute(on list: SavedList) {
        switch self {
        case .insert(let title, let index):
            list.items.insert(title, at: index)
        case .remove(let index, _):
            self = .remove(at: index, removed: list.items.remove(at: index))
        }
    }

    mutating func undo(on list: SavedList) {
        switch self {
        case .insert(_, let index):
            list.items.remove(at: index)
        case .remove(let index, let removed):
            list.items.insert(removed!, at: index)
            self = .remove(at: index, removed: nil)
        }
    }
}

private func makeManager() -> UndoManager {
    let manager = UndoManager(runLoop: SimulatedRunLoop())
    manager.notificationCenter = nil
    return manager
}

@Suite("UndoHistory: taking, saving and restoring command history")
struct UndoHistoryTests {
    @Test func aRestoredManagerUndoesAndRedoesAsTheOriginal() throws {
        let list = SavedList()
        let manager = makeManager()
        for title in ["milk", "eggs", "tea"] {
            manager.perform(ListEdit.insert(title, at: list.items.count), on: list)
            manager.runLoop.tick()
        }
        manager.perform(ListEdit.remove(at: 0, removed: nil), on: list)
        manager.runLoop.tick()
        manager.undo()
        let history = try manager.undoHistory(of: ListEdit.self)
        #expect(history.undoSteps.map(\.actionName) == ["Add milk", "Add eggs", "Add tea"])
        #expect(history.redoSteps.map(\.actionName) == ["Delete milk"])

        let data = try history.encoded()
        let copy = SavedList(list.items)
        let restored = makeManager()
        try restored.restoreUndoHistory(try UndoHistory<ListEdit>(encoded: data), on: copy)
        #expect(ManagerState(restored) == ManagerState(manager))
        #expect(restored.redoMenuItemTitle == "Redo Delete milk")

        restored.redo()
        #expect(copy.items == ["eggs", "tea"])
        restored.undo()
        restored.undo()
        #expect(copy.items == ["milk", "eggs"])
        restored.redo()
        #expect(copy.items == ["milk", "eggs", "tea"])
    }

    @Test func groupingNestingNamesAndDiscardableFlagsSurvive() throws {
        let list = SavedList()
        let manager = makeManager()
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        manager.beginUndoGrouping()
        manager.perform(ListEdit.insert("b", at: 1), on: list)
        manager.perform(ListEdit.insert("c", at: 2), on: list)
        manager.endUndoGrouping()
        manager.setActionName("Paste")
        manager.setActionIsDiscardable(true)
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        manager.endUndoGrouping()   // an empty group is a step too

        let history = try manager.undoHistory(of: ListEdit.self)
        #expect(history.undoSteps.count == 2)
        #expect(history.undoSteps[0].actionName == "Paste" && history.undoSteps[0].isDiscardable)
        #expect(history.undoSteps[0].commands.count == 3)
        #expect(history.undoSteps[1].items.isEmpty)
        let decoded = try UndoHistory<ListEdit>(encoded: try history.encoded())
        #expect(decoded == history)

        let copy = SavedList(list.items)
        let restored = makeManager()
        restored.groupsByEvent = false
        try restored.restoreUndoHistory(decoded, on: copy)
        #expect(try restored.undoHistory(of: ListEdit.self) == history)
        #expect(ManagerState(restored) == ManagerState(manager))
        restored.undo()   // the empty step
        restored.undo()
        #expect(copy.items.isEmpty)
    }

    @Test func closuresCannotBeSavedAndNothingChanges() {
        let list = SavedList()
        let manager = makeManager()
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        manager.runLoop.tick()
        manager.registerUndo(withTarget: list) { $0.items.removeAll() }
        manager.runLoop.tick()
        #expect(throws: UndoHistoryError.notACommand(stack: "undo", stepIndex: 1)) {
            try manager.undoHistory(of: ListEdit.self)
        }
        #expect(manager.undoCount == 2 && list.items == ["a"])
    }

    @Test func anOpenGroupMustBeClosedFirst() {
        let list = SavedList()
        let manager = makeManager()
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        #expect(throws: UndoHistoryError.groupOpen(groupingLevel: 1)) {
            try manager.undoHistory(of: ListEdit.self)
        }
        manager.runLoop.tick()
        #expect(throws: Never.self) { try manager.undoHistory(of: ListEdit.self) }
    }

    @Test func restoringNeedsAnEmptyManagerAndLeavesABusyOneUntouched() throws {
        let list = SavedList()
        let manager = makeManager()
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        manager.runLoop.tick()
        let history = try manager.undoHistory(of: ListEdit.self)
        #expect(throws: UndoHistoryError.managerNotEmpty(undoCount: 1, redoCount: 0)) {
            try manager.restoreUndoHistory(history, on: list)
        }
        #expect(manager.undoCount == 1 && list.items == ["a"])
    }

    /// Truncations of a real history, bytes that are not JSON, JSON that is not a history,
    /// and a newer format: each a typed error.
    @Test(arguments: [
        (#"{"formatVersion":1,"undo":[{"items":[{"command":{"insert":{"_0":"a","at":0}}}]}],"redo":[]"#, "corrupt"),
        ("", "corrupt"),
        ("\u{0}\u{1}garbage", "corrupt"),
        (#"{"formatVersion":1,"undo":[{"items":[{"nope":1}]}],"redo":[]}"#, "corrupt"),
        (#"{"formatVersion":1,"undo":"x","redo":[]}"#, "corrupt"),
        (#"{"formatVersion":0,"undo":[],"redo":[]}"#, "corrupt"),
        (#"{"formatVersion":7,"undo":[],"redo":[]}"#, "unsupportedVersion"),
        (#"{"formatVersion":2,"undo":[{"id":1,"items":[]},{"id":1,"items":[]}],"redo":[]}"#, "corrupt"),
        (#"{"formatVersion":2,"undo":[],"redo":[],"branches":[{"parent":9,"step":{"id":2,"items":[]}}]}"#, "corrupt"),
        (#"{"formatVersion":2,"undo":[],"redo":[],"branches":[{"parent":3,"step":{"id":2,"items":[]}},{"parent":2,"step":{"id":3,"items":[]}}]}"#, "corrupt"),
        (#"{"formatVersion":2,"undo":[],"redo":[],"clean":{"step":4}}"#, "corrupt"),
        (#"{"formatVersion":2,"undo":[],"redo":[],"clean":{"start":true,"current":true}}"#, "corrupt"),
    ])
    func badDataIsATypedError(text: String, kind: String) {
        let list = SavedList(["x"])
        let manager = makeManager()
        do {
            let history = try UndoHistory<ListEdit>(encoded: Data(text.utf8))
            try manager.restoreUndoHistory(history, on: list)
            Issue.record("\(text) was read as a history")
        } catch {
            switch (error, kind) {
            case (.corrupt, "corrupt"), (.unsupportedVersion(found: 7, supported: 2), "unsupportedVersion"):
                break
            default:
                Issue.record("\(text): \(error)")
            }
        }
        #expect(!manager.canUndo && !manager.canRedo && list.items == ["x"])
    }

    /// Pins the saved form of each part, so that the Codable conformances can change without
    /// changing the file format: a branch step without a parent writes no "parent".
    @Test func theSavedFormIsStable() throws {
        typealias History = UndoHistory<ListEdit>
        let root = History.Group(actionName: "Add a", items: [.command(.insert("a", at: 0))], id: UndoTree.NodeID(rawValue: 1))
        let branch = History.Group(
            isDiscardable: true, items: [.group(History.Group(items: []))],
            id: UndoTree.NodeID(rawValue: 2), date: Date(timeIntervalSinceReferenceDate: 0.5))
        let history = History(
            undoSteps: [root], redoSteps: [],
            branches: [
                History.BranchStep(parent: UndoTree.NodeID(rawValue: 1), step: branch),
                History.BranchStep(parent: nil, step: History.Group(items: [], id: UndoTree.NodeID(rawValue: 3))),
            ],
            cleanMark: .step(UndoTree.NodeID(rawValue: 2)))
        let json = #"{"branches":[{"parent":1,"step":{"date":0.5,"discardable":true,"id":2,"items":[{"group":{"items":[]}}]}},"#
            + #"{"step":{"id":3,"items":[]}}],"clean":{"step":2},"formatVersion":2,"#
            + #""redo":[],"undo":[{"id":1,"items":[{"command":{"insert":{"_0":"a","at":0}}}],"name":"Add a"}]}"#
        #expect(String(decoding: try history.encoded(), as: UTF8.self) == json)
        #expect(try History(encoded: Data(json.utf8)) == history)
        let unsorted = #"{"formatVersion":2,"undo":[],"redo":[],"branches":[{"step":{"items":[],"id":3}}],"clean":{"start":true}}"#
        let decoded = try History(encoded: Data(unsorted.utf8))
        #expect(decoded.branches == [History.BranchStep(parent: nil, step: History.Group(items: [], id: UndoTree.NodeID(rawValue: 3)))])
        #expect(decoded.cleanMark == .start)
    }

    @Test func everyTruncationOfAHistoryIsRejected() throws {
        let list = SavedList()
        let manager = makeManager()
        for title in ["a", "b"] {
            manager.perform(ListEdit.insert(title, at: 0), on: list)
            manager.runLoop.tick()
        }
        let data = try manager.undoHistory(of: ListEdit.self).encoded()
        for length in 0..<data.count {
            #expect(throws: UndoHistoryError.self) { try UndoHistory<ListEdit>(encoded: data.prefix(length)) }
        }
    }

    @Test func levelsOfUndoKeepsTheNewestRestoredSteps() throws {
        let list = SavedList()
        let manager = makeManager()
        for title in ["a", "b", "c"] {
            manager.perform(ListEdit.insert(title, at: list.items.count), on: list)
            manager.runLoop.tick()
        }
        let restored = makeManager()
        restored.levelsOfUndo = 2
        try restored.restoreUndoHistory(try manager.undoHistory(of: ListEdit.self), on: list)
        #expect(restored.undoCount == 2 && restored.undoActionName == "Add c")
    }

    @Test func aSubclassSeesPerformsRegistrationsAndTheStepStaysACommand() throws {
        final class CountingManager: UndoManager {
            var registrations = 0
            override func registerUndo<TargetType: AnyObject>(withTarget target: TargetType, handler: @escaping (TargetType) -> Void) {
                registrations += 1
                super.registerUndo(withTarget: target, handler: handler)
            }
        }
        let list = SavedList()
        let manager = CountingManager()
        manager.runLoop = SimulatedRunLoop()
        manager.notificationCenter = nil
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        manager.runLoop.tick()
        manager.undo()
        manager.redo()
        #expect(manager.registrations == 3)   // perform, the undo's redo step, the redo's undo step
        #expect(try manager.undoHistory(of: ListEdit.self).undoSteps.first?.commands == [.insert("a", at: 0)])
        #expect(list.items == ["a"])
    }

    @Test func commandsPerformedWhileDisabledRecordNothing() throws {
        let list = SavedList()
        let manager = makeManager()
        manager.disableUndoRegistration()
        manager.perform(ListEdit.insert("a", at: 0), on: list)
        manager.enableUndoRegistration()
        #expect(list.items == ["a"] && !manager.canUndo)
    }
}

/// Model-based: after any random sequence of performs, undos, redos and groups, a history
/// saved and restored into a fresh manager (on a copy of the list) behaves exactly like the
/// original under the same further operations.
@Suite("UndoHistory: restored managers behave as the original (randomized)")
struct UndoHistoryModelTests {
    private enum Operation: CaseIterable {
        case insert, remove, undo, redo, tick, beginGroup, endGroup, name
    }

    private struct Twin {
        let list: SavedList
        let manager: UndoManager
        var openGroups = 0

        mutating func apply(_ operation: Operation, _ random: inout SplitMix64) {
            switch operation {
            case .insert:
                let index = Int.random(in: 0...list.items.count, using: &random)
                manager.perform(ListEdit.insert("i\(random.next() % 100)", at: index), on: list)
            case .remove:
                guard !list.items.isEmpty else { return }
                manager.perform(ListEdit.remove(at: Int.random(in: 0..<list.items.count, using: &random), removed: nil), on: list)
            case .undo:
                manager.runLoop.tick()
                if openGroups == 0 && manager.groupingLevel == 0 && manager.canUndo { manager.undo() }
            case .redo:
                if manager.groupingLevel == 0 && manager.canRedo { manager.redo() }
            case .tick:
                manager.runLoop.tick()
            case .beginGroup:
                manager.beginUndoGrouping()
                openGroups += 1
            case .endGroup:
                guard openGroups > 0 else { return }
                manager.endUndoGrouping()
                openGroups -= 1
            case .name:
                if manager.groupingLevel > 0 { manager.setActionName("n\(random.next() % 10)") }
            }
        }

        mutating func closeEverything() {
            while openGroups > 0 {
                manager.endUndoGrouping()
                openGroups -= 1
            }
            manager.runLoop.tick()
        }
    }

    private static func makeTwin(_ items: [String] = []) -> Twin {
        Twin(list: SavedList(items), manager: makeManager())
    }

    @Test(arguments: [0, 1, 2, 3, 42, 0xC0FFEE, 0xDEAD_BEEF, 31_337] as [UInt64])
    func restoredManagersMatchTheOriginal(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<40 {
            var original = Self.makeTwin()
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                original.apply(Operation.allCases.randomElement(using: &random)!, &random)
            }
            original.closeEverything()

            let saved = try original.manager.undoHistory(of: ListEdit.self).encoded()
            var restored = Self.makeTwin(original.list.items)
            try restored.manager.restoreUndoHistory(try UndoHistory<ListEdit>(encoded: saved), on: restored.list)
            #expect(ManagerState(restored.manager) == ManagerState(original.manager))

            var continuation = random
            for _ in 0..<20 {
                let operation = Operation.allCases.randomElement(using: &random)!
                var replay = continuation
                original.apply(operation, &continuation)
                restored.apply(operation, &replay)
                #expect(restored.list.items == original.list.items)
                #expect(ManagerState(restored.manager) == ManagerState(original.manager))
            }
        }
    }
}
