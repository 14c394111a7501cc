import Testing
@testable import UndoKit

@Suite struct PatternsCommandTests {
    typealias TodoList = Patterns.TodoList
    typealias AddTodo = Patterns.AddTodo
    typealias RemoveTodo = Patterns.RemoveTodo

    // MARK: The article's scenario

    @Test func createAndDeleteUndoAndRedoInOrder() {
        let manager = UndoManager()
        let list = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list) }
        Patterns.event(manager) { manager.perform(AddTodo(title: "Eggs", index: 1), on: list) }
        Patterns.event(manager) { manager.perform(AddTodo(title: "Tea", index: 2), on: list) }
        Patterns.event(manager) { manager.perform(RemoveTodo(at: 1), on: list) }
        #expect(list.items == ["Milk", "Tea"])
        #expect(manager.undoCount == 4)

        manager.undo()
        #expect(list.items == ["Milk", "Eggs", "Tea"])
        manager.undo()
        #expect(list.items == ["Milk", "Eggs"])
        manager.redo()
        #expect(list.items == ["Milk", "Eggs", "Tea"])
        manager.redo()
        #expect(list.items == ["Milk", "Tea"])
        #expect(!manager.canRedo && manager.undoCount == 4)
    }

    @Test func removeRestoresTheItemItRemovedAcrossManyCycles() {
        let manager = UndoManager()
        let list = TodoList(["Milk", "Eggs", "Tea"])
        Patterns.event(manager) { manager.perform(RemoveTodo(at: 1), on: list) }
        for cycle in 1...200 {
            manager.undo()
            #expect(list.items == ["Milk", "Eggs", "Tea"], "undo of cycle \(cycle)")
            manager.redo()
            #expect(list.items == ["Milk", "Tea"], "redo of cycle \(cycle)")
        }
        #expect(manager.undoCount == 1 && manager.redoCount == 0)
    }

    /// Three removals at the same index each remember a different item; undoing them all and
    /// redoing them all, many times over, must put each item back where it was.
    @Test func successiveRemovalsEachRememberTheirOwnItem() {
        let manager = UndoManager()
        let list = TodoList(["a", "b", "c", "d"])
        for _ in 0..<3 {
            Patterns.event(manager) { manager.perform(RemoveTodo(at: 0), on: list) }
        }
        #expect(list.items == ["d"])
        for cycle in 1...50 {
            manager.undo()
            #expect(list.items == ["c", "d"], "cycle \(cycle)")
            manager.undo()
            #expect(list.items == ["b", "c", "d"], "cycle \(cycle)")
            manager.undo()
            #expect(list.items == ["a", "b", "c", "d"], "cycle \(cycle)")
            manager.redo()
            manager.redo()
            manager.redo()
            #expect(list.items == ["d"], "cycle \(cycle)")
        }
    }

    /// Each step keeps its own copy of the command, so a step sees exactly one execute and no
    /// more undos than executes, however many cycles went before.
    @Test func eachRecordedStepCarriesTheCommandStateOfTheStepBefore() {
        final class Log { var seen: [(executions: Int, undos: Int)] = [] }
        struct Probe: UndoableCommand {
            let log: Log
            var executions = 0
            var undos = 0
            mutating func execute(on list: TodoList) {
                executions += 1
                log.seen.append((executions, undos))
            }
            mutating func undo(on list: TodoList) {
                undos += 1
                log.seen.append((executions, undos))
            }
        }
        let manager = UndoManager()
        let list = TodoList()
        let log = Log()
        Patterns.event(manager) { manager.perform(Probe(log: log), on: list) }
        for _ in 0..<3 {
            manager.undo()
            manager.redo()
        }
        #expect(log.seen.map(\.executions) == [1, 1, 2, 2, 3, 3, 4])
        #expect(log.seen.map(\.undos) == [0, 1, 1, 2, 2, 3, 3])
    }

    @Test func performingTheSameCommandValueTwiceRecordsTwoIndependentSteps() {
        let manager = UndoManager()
        let list = TodoList(["a", "b", "c"])
        let removeFirst = RemoveTodo(at: 0)
        Patterns.event(manager) { manager.perform(removeFirst, on: list) }
        Patterns.event(manager) { manager.perform(removeFirst, on: list) }
        #expect(list.items == ["c"])
        #expect(removeFirst.removed == nil, "perform works on a copy; the caller's value is untouched")
        manager.undo()
        #expect(list.items == ["b", "c"])
        manager.undo()
        #expect(list.items == ["a", "b", "c"])
    }

    @Test func aClassCommandWorksAcrossCycles() {
        final class RemoveLast: UndoableCommand {
            var removed: String?
            func execute(on list: TodoList) { removed = list.items.removeLast() }
            func undo(on list: TodoList) { list.items.append(removed!) }
        }
        let manager = UndoManager()
        let list = TodoList(["a", "b"])
        let command = RemoveLast()
        Patterns.event(manager) { manager.perform(command, on: list) }
        for _ in 0..<20 {
            manager.undo()
            #expect(list.items == ["a", "b"])
            manager.redo()
            #expect(list.items == ["a"])
        }
        #expect(command.removed == "b", "a class command is shared by every step it recorded")
    }

    // MARK: Undo manager integration

    @Test func actionNameIsReadAfterExecuteAndTravelsThroughUndoAndRedo() {
        let manager = UndoManager()
        let list = TodoList(["Milk"])
        Patterns.event(manager) { manager.perform(RemoveTodo(at: 0), on: list) }
        #expect(manager.undoMenuItemTitle == "Undo Delete \"Milk\"")
        manager.undo()
        #expect(manager.redoMenuItemTitle == "Redo Delete \"Milk\"")
        #expect(manager.undoMenuItemTitle == "Undo")
        manager.redo()
        #expect(manager.undoMenuItemTitle == "Undo Delete \"Milk\"")
    }

    @Test func anEmptyActionNameLeavesTheGroupNameAlone() {
        struct Unnamed: UndoableCommand {
            func execute(on list: TodoList) { list.items.append("x") }
            func undo(on list: TodoList) { list.items.removeLast() }
        }
        #expect(Unnamed().actionName == "")
        let manager = UndoManager()
        let list = TodoList()
        Patterns.event(manager) {
            manager.perform(AddTodo(title: "Milk", index: 0), on: list)
            manager.perform(Unnamed(), on: list)
        }
        #expect(manager.undoActionName == "Add \"Milk\"")
    }

    @Test func commandsPerformedInOneEventUndoAsOneStepNewestFirst() {
        let manager = UndoManager()
        let list = TodoList(["a"])
        Patterns.event(manager) {
            manager.perform(AddTodo(title: "b", index: 1), on: list)
            manager.perform(RemoveTodo(at: 0), on: list)
            manager.perform(AddTodo(title: "c", index: 0), on: list)
        }
        #expect(list.items == ["c", "b"])
        #expect(manager.undoCount == 1)
        // The last name set wins, as for any group.
        #expect(manager.undoActionName == "Add \"c\"")
        manager.undo()
        #expect(list.items == ["a"])
        manager.redo()
        #expect(list.items == ["c", "b"])
    }

    @Test func explicitGroupsNestCommandsLikeAnyRegistration() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let list = TodoList()
        manager.beginUndoGrouping()
        manager.perform(AddTodo(title: "a", index: 0), on: list)
        manager.beginUndoGrouping()
        manager.perform(AddTodo(title: "b", index: 1), on: list)
        manager.endUndoGrouping()
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        manager.perform(AddTodo(title: "c", index: 2), on: list)
        manager.endUndoGrouping()
        manager.undo()
        #expect(list.items == ["a", "b"])
        manager.undo()
        #expect(list.items == [])
        manager.redo()
        #expect(list.items == ["a", "b"])
    }

    @Test func aNewCommandClearsRedo() {
        let manager = UndoManager()
        let list = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "a", index: 0), on: list) }
        manager.undo()
        #expect(manager.canRedo)
        Patterns.event(manager) { manager.perform(AddTodo(title: "b", index: 0), on: list) }
        #expect(!manager.canRedo)
        manager.redo()
        #expect(list.items == ["b"])
    }

    @Test func levelsOfUndoDropsTheOldestCommands() {
        let manager = UndoManager()
        manager.levelsOfUndo = 2
        let list = TodoList()
        for (index, title) in ["a", "b", "c", "d"].enumerated() {
            Patterns.event(manager) { manager.perform(AddTodo(title: title, index: index), on: list) }
        }
        #expect(manager.undoCount == 2)
        manager.undo()
        manager.undo()
        manager.undo()
        #expect(list.items == ["a", "b"])
        #expect(manager.redoCount == 2)
    }

    @Test func undoAndRedoPostTheUsualEvents() {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let list = TodoList()
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        defer { observation.cancel() }
        Patterns.event(manager) { manager.perform(AddTodo(title: "a", index: 0), on: list) }
        #expect(events.first == .didOpenUndoGroup)
        #expect(events.contains(.didCloseUndoGroup(isDiscardable: false)))
        events.removeAll()
        manager.undo()
        #expect(events.contains(.willUndoChange) && events.contains(.didUndoChange(isDiscardable: false)))
        events.removeAll()
        manager.redo()
        #expect(events.contains(.willRedoChange) && events.contains(.didRedoChange(isDiscardable: false)))
    }

    @Test func withRegistrationDisabledTheCommandExecutesButIsNotRecorded() {
        let manager = UndoManager()
        let list = TodoList()
        manager.disableUndoRegistration()
        manager.perform(AddTodo(title: "a", index: 0), on: list)
        manager.enableUndoRegistration()
        manager.runLoop.tick()
        #expect(list.items == ["a"])
        #expect(!manager.canUndo)
    }

    @Test func removeAllActionsWithTheModelForgetsItsCommands() {
        let manager = UndoManager()
        let list = TodoList()
        let other = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "a", index: 0), on: list) }
        Patterns.event(manager) { manager.perform(AddTodo(title: "x", index: 0), on: other) }
        manager.removeAllActions(withTarget: list)
        #expect(manager.undoCount == 1)
        manager.undo()
        #expect(list.items == ["a"] && other.items == [])
    }

    // MARK: Tables

    /// Removing any index, then cycling, restores the item at that index.
    @Test(arguments: 0..<5)
    func removingAnyIndexUndoesToTheSameList(index: Int) {
        let original = ["a", "b", "c", "d", "e"]
        let manager = UndoManager()
        let list = TodoList(original)
        Patterns.event(manager) { manager.perform(RemoveTodo(at: index), on: list) }
        var expected = original
        expected.remove(at: index)
        for _ in 0..<10 {
            #expect(list.items == expected)
            manager.undo()
            #expect(list.items == original)
            manager.redo()
        }
    }

    /// A script of performs and undos/redos, each as its own event, against the list it
    /// should leave.
    @Test(arguments: [
        (["+a0", "+b1", "-0"], ["b"]),
        (["+a0", "+b1", "-0", "u"], ["a", "b"]),
        (["+a0", "+b1", "-0", "u", "u"], ["a"]),
        (["+a0", "+b1", "-0", "u", "u", "r", "r"], ["b"]),
        (["+a0", "u", "+b0", "r"], ["b"]),
        (["+a0", "+b0", "+c0", "-1", "-1", "u", "u", "r"], ["c", "a"]),
        (["u", "r", "+a0", "r", "u", "u"], []),
    ] as [([String], [String])])
    func scripts(script: [String], expected: [String]) {
        let manager = UndoManager()
        let list = TodoList()
        for step in script {
            let argument = step.dropFirst()
            switch step.first {
            case "+":
                let title = String(argument.prefix(1))
                let index = Int(argument.dropFirst())!
                Patterns.event(manager) { manager.perform(AddTodo(title: title, index: index), on: list) }
            case "-":
                Patterns.event(manager) { manager.perform(RemoveTodo(at: Int(argument)!), on: list) }
            case "u":
                manager.undo()
            case "r":
                manager.redo()
            default:
                Issue.record("bad script step \(step)")
            }
        }
        #expect(list.items == expected)
    }

    // MARK: Scopes name their steps (issue 25)

    @Test("A named scope names its step, whatever the commands it performs are called", arguments: [true, false])
    func aNamedScopeWinsOverItsCommandsNames(groupsByEvent: Bool) {
        let manager = UndoManager()
        manager.groupsByEvent = groupsByEvent
        let list = TodoList()
        manager.withUndoGroup(named: "Import") {
            manager.perform(AddTodo(title: "Milk", index: 0), on: list)
            manager.perform(AddTodo(title: "Eggs", index: 1), on: list)
        }
        manager.endEventGroup()
        #expect(manager.undoCount == 1)
        #expect(manager.undoActionName == "Import")
        manager.undo()
        #expect(list.items.isEmpty && manager.redoActionName == "Import")
        manager.redo()
        #expect(list.items == ["Milk", "Eggs"] && manager.undoActionName == "Import")
    }

    @Test("An unnamed scope keeps the name its last command set")
    func anUnnamedScopeKeepsTheCommandsName() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let list = TodoList()
        manager.withUndoGroup {
            manager.perform(AddTodo(title: "Milk", index: 0), on: list)
        }
        #expect(manager.undoActionName == "Add \"Milk\"")
    }

    @Test("Nested named scopes: the outermost scope's name is the step's")
    func theOutermostScopeNamesTheStep() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let list = TodoList()
        manager.withUndoGroup(named: "Import") {
            manager.withUndoGroup(named: "Import Fruit") {
                manager.perform(AddTodo(title: "Apple", index: 0), on: list)
            }
            #expect(manager.undoActionName == "Import Fruit")
            manager.perform(AddTodo(title: "Milk", index: 1), on: list)
        }
        #expect(manager.undoCount == 1 && manager.undoActionName == "Import")
    }
}
