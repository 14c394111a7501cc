import Testing
@testable import UndoKit

/// The command path of ``UndoManager/perform(_:on:)`` on a plain manager: one
/// ``CommandEntry`` per performed command, which moves between the stacks, and the internal
/// API that history code reads and rebuilds stacks with.
@Suite struct CommandEntryTests {
    typealias TodoList = Patterns.TodoList
    typealias AddTodo = Patterns.AddTodo
    typealias RemoveTodo = Patterns.RemoveTodo

    /// The command entries of a stack, oldest first.
    static func commands(_ stack: borrowing UndoStack) -> [CommandEntry] {
        stack.entries.elements[stack.head...].compactMap(\.commandEntry)
    }

    @Test func theSameEntryMovesBetweenTheStacks() throws {
        let manager = UndoManager()
        let list = TodoList()
        Patterns.event(manager) { manager.perform(RemoveTodo(at: 0), on: TodoList(["x"])) }
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list) }
        let recorded = try #require(Self.commands(manager.undoStack).last)
        #expect(!recorded.runsExecute)
        #expect(recorded.model === list)
        #expect((recorded.command as? AddTodo)?.title == "Milk")

        manager.undo()
        #expect(list.items.isEmpty)
        let redo = try #require(Self.commands(manager.redoStack).last)
        #expect(redo === recorded && redo.runsExecute)

        manager.redo()
        #expect(list.items == ["Milk"])
        #expect(Self.commands(manager.undoStack).last === recorded && !recorded.runsExecute)
        let redoIsEmpty = manager.redoStack.entries.isEmpty
        #expect(redoIsEmpty)
    }

    @Test func entryKeepsWhatTheLastRunRecorded() throws {
        let manager = UndoManager()
        let list = TodoList(["Milk", "Eggs"])
        Patterns.event(manager) { manager.perform(RemoveTodo(at: 1), on: list) }
        let entry = try #require(Self.commands(manager.undoStack).last)
        #expect((entry.command as? RemoveTodo)?.removed == "Eggs")
        manager.undo()
        #expect(list.items == ["Milk", "Eggs"])
        manager.redo()
        #expect(list.items == ["Milk"])
        #expect((entry.command as? RemoveTodo)?.removed == "Eggs")
    }

    @Test func entriesPushedOnAFreshManagerUndoAndRedo() {
        let manager = UndoManager()
        let list = TodoList(["Milk"])
        manager.undoStack.pushBegin()
        manager.undoStack.pushCommand(CommandEntry.make(AddTodo(title: "Milk", index: 0), on: ModelReference(list), runsExecute: false))
        manager.undoStack.closeGroup(discardIfEmpty: false)
        manager.redoStack.pushBegin()
        manager.redoStack.pushCommand(CommandEntry.make(AddTodo(title: "Eggs", index: 1), on: ModelReference(list), runsExecute: true))
        manager.redoStack.closeGroup(discardIfEmpty: false)
        manager.checkInvariants()
        #expect(manager.undoCount == 1 && manager.redoCount == 1)

        manager.redo()
        #expect(list.items == ["Milk", "Eggs"])
        manager.undo()
        manager.undo()
        #expect(list.items.isEmpty)
        #expect(manager.redoCount == 2)
    }

    @Test func deadModelSkipsTheStepAndDropsIt() {
        let manager = UndoManager()
        var list: TodoList? = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list!) }
        list = nil
        manager.undo()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test func disabledRegistrationDuringUndoDropsTheStep() {
        let manager = UndoManager()
        let list = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list) }
        manager.disableUndoRegistration()
        manager.undo()
        manager.enableUndoRegistration()
        #expect(list.items.isEmpty)
        #expect(!manager.canRedo)
    }

    @Test func removeAllActionsWithTheModelRemovesCommandSteps() {
        let manager = UndoManager()
        let list = TodoList()
        let other = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list) }
        Patterns.event(manager) { manager.perform(AddTodo(title: "Tea", index: 0), on: other) }
        manager.undo()
        manager.removeAllActions(withTarget: other)
        #expect(manager.undoCount == 1 && !manager.canRedo)
        manager.undo()
        #expect(list.items.isEmpty)
    }

    /// Overrides see every registration, and the step is still the command (so a subclass's
    /// history can be saved), moving between the stacks.
    @Test func subclassInstancesRecordCommandsThroughRegisterUndo() {
        final class Counting: UndoManager {
            var registrations = 0
            override func registerUndo<TargetType: AnyObject>(
                withTarget target: TargetType, handler: @escaping (TargetType) -> Void
            ) {
                registrations += 1
                super.registerUndo(withTarget: target, handler: handler)
            }
        }
        let manager = Counting()
        let list = TodoList()
        Patterns.event(manager) { manager.perform(AddTodo(title: "Milk", index: 0), on: list) }
        #expect(manager.registrations == 1)
        let recorded = Self.commands(manager.undoStack)
        #expect(recorded.count == 1)
        manager.undo()
        #expect(list.items.isEmpty && manager.registrations == 2)
        #expect(Self.commands(manager.redoStack).count == 1 && Self.commands(manager.redoStack)[0] === recorded.first)
        manager.redo()
        #expect(list.items == ["Milk"] && manager.registrations == 3)
    }
}
