import Testing
@testable import UndoKit

@Suite struct PatternsUndoableValueTests {
    /// The value-type TODO article's model: the whole list is one value.
    struct Todo: Equatable, Sendable {
        var title: String
        var done = false
    }

    struct RenameError: Error, Equatable {}

    // MARK: The article's scenario

    @Test func snapshotUndoAndRedoAfterSeveralSteps() {
        let manager = UndoManager()
        let todos = UndoableValue([Todo](), undoManager: manager)
        var states: [[Todo]] = [todos.value]
        func step(_ name: String, _ change: (inout [Todo]) -> Void) {
            Patterns.event(manager) { todos.modify(actionName: name, change) }
            states.append(todos.value)
        }
        step("Add") { $0.append(Todo(title: "Milk")) }
        step("Add") { $0.append(Todo(title: "Eggs")) }
        step("Complete") { $0[0].done = true }
        step("Rename") { $0[1].title = "Free-range eggs" }
        step("Delete") { $0.remove(at: 0) }
        #expect(manager.undoCount == 5)

        for expected in states.dropLast().reversed().prefix(3) {
            manager.undo()
            #expect(todos.value == expected)
        }
        #expect(manager.undoMenuItemTitle == "Undo Add")
        #expect(manager.redoMenuItemTitle == "Redo Complete")
        manager.redo()
        #expect(todos.value == states[3])
        manager.redo()
        #expect(todos.value == states[4])
        #expect(manager.redoMenuItemTitle == "Redo Delete")

        step("Add") { $0.append(Todo(title: "Tea")) }
        #expect(!manager.canRedo, "a new change clears redo")
        manager.undo()
        #expect(todos.value == states[4])
    }

    /// Undo restores the snapshot itself, not an equal reconstruction: references inside the
    /// value come back identical.
    @Test func undoAndRedoRestoreExactSnapshots() {
        let first = Patterns.Payload(1)
        let second = Patterns.Payload(2)
        let manager = UndoManager()
        let payloads = UndoableValue([first], undoManager: manager)
        Patterns.event(manager) { payloads.modify { $0 = [second, Patterns.Payload(1)] } }
        let changed = payloads.value
        manager.undo()
        #expect(payloads.value.count == 1 && payloads.value[0] === first)
        manager.redo()
        #expect(payloads.value.count == 2)
        #expect(zip(payloads.value, changed).allSatisfy { $0 === $1 })
    }

    @Test func modifyReturnsWhatTheBodyReturns() {
        let manager = UndoManager()
        let todos = UndoableValue([Todo(title: "a"), Todo(title: "b")], undoManager: manager)
        let removed = todos.modify { $0.removeFirst() }
        #expect(removed == Todo(title: "a"))
        #expect(todos.value == [Todo(title: "b")])
    }

    // MARK: Throwing bodies

    @Test func aThrowingBodyChangesNothingAndRegistersNothing() {
        let manager = UndoManager()
        let todos = UndoableValue([Todo(title: "a")], undoManager: manager)
        var changes = 0
        todos.onChange = { _ in changes += 1 }
        #expect(throws: RenameError()) {
            try todos.modify(actionName: "Rename") { todos in
                todos[0].title = "half-done"   // mutated before the throw: must not leak out
                todos.append(Todo(title: "extra"))
                throw RenameError()
            }
        }
        #expect(todos.value == [Todo(title: "a")])
        #expect(changes == 0)
        #expect(!manager.canUndo)
        #expect(!manager.runLoop.hasPendingEvents, "not even an automatic group was opened")
        todos.modify { $0[0].done = true }
        #expect(changes == 1, "the value still works after a throw")
    }

    @Test func aThrowingBodyKeepsTheRedoStack() throws {
        let manager = UndoManager()
        let counter = UndoableValue(0, undoManager: manager)
        Patterns.event(manager) { counter.modify { $0 += 1 } }
        manager.undo()
        #expect(throws: RenameError.self) {
            try counter.modify { _ in throw RenameError() }
        }
        #expect(manager.canRedo)
        manager.redo()
        #expect(counter.value == 1)
    }

    // MARK: Action names

    @Test(arguments: [
        (preset: nil, actionName: "Rename", expected: "Rename"),
        (preset: "Batch", actionName: nil, expected: "Batch"),
        (preset: "Batch", actionName: "", expected: ""),
        (preset: nil, actionName: nil, expected: ""),
    ] as [(preset: String?, actionName: String?, expected: String)])
    func actionNames(preset: String?, actionName: String?, expected: String) {
        let manager = UndoManager()
        let text = UndoableValue("", undoManager: manager)
        Patterns.event(manager) {
            if let preset { manager.setActionName(preset) }
            text.modify(actionName: actionName) { $0 = "changed" }
        }
        #expect(manager.undoActionName == expected)
        manager.undo()
        #expect(manager.redoActionName == expected)
        manager.redo()
        #expect(manager.undoActionName == expected)
    }

    // MARK: Change callback

    @Test func onChangeReportsEveryChangeWithItsKind() {
        let manager = UndoManager()
        let counter = UndoableValue(0, undoManager: manager)
        var changes: [UndoableValue<Int>.Change] = []
        counter.onChange = { change in
            #expect(change.newValue == counter.value, "the callback runs after the value changed")
            changes.append(change)
        }
        Patterns.event(manager) { counter.modify { $0 = 5 } }
        Patterns.event(manager) { counter.modify { $0 += 1 } }
        manager.undo()
        manager.undo()
        manager.redo()
        #expect(changes == [
            .init(oldValue: 0, newValue: 5, kind: .modify),
            .init(oldValue: 5, newValue: 6, kind: .modify),
            .init(oldValue: 6, newValue: 5, kind: .undo),
            .init(oldValue: 5, newValue: 0, kind: .undo),
            .init(oldValue: 0, newValue: 5, kind: .redo),
        ])
        counter.onChange = nil
    }

    @Test func onChangeSeesTheStepAlreadyNamed() {
        let manager = UndoManager()
        let text = UndoableValue("", undoManager: manager)
        var titleSeen = ""
        text.onChange = { _ in titleSeen = manager.undoMenuItemTitle }
        text.modify(actionName: "Typing") { $0 = "hello" }
        #expect(titleSeen == "Undo Typing")
    }

    // MARK: Undo manager integration

    @Test func severalModifiesInOneEventUndoToTheFirstSnapshot() {
        let manager = UndoManager()
        let text = UndoableValue("", undoManager: manager)
        Patterns.event(manager) {
            text.modify { $0 += "a" }
            text.modify { $0 += "b" }
            text.modify { $0 += "c" }
        }
        #expect(manager.undoCount == 1)
        manager.undo()
        #expect(text.value == "")
        manager.redo()
        #expect(text.value == "abc")
    }

    @Test func valuesSharingAManagerUndoInTheOrderTheyChanged() {
        let manager = UndoManager()
        let title = UndoableValue("Untitled", undoManager: manager)
        let count = UndoableValue(0, undoManager: manager)
        Patterns.event(manager) { title.modify { $0 = "Groceries" } }
        Patterns.event(manager) { count.modify { $0 = 3 } }
        Patterns.event(manager) { title.modify { $0 = "Shopping" } }
        manager.undo()
        #expect(title.value == "Groceries" && count.value == 3)
        manager.undo()
        #expect(title.value == "Groceries" && count.value == 0)
        manager.undo()
        #expect(title.value == "Untitled" && count.value == 0)
    }

    @Test func levelsOfUndoDropsTheOldestSnapshots() {
        let manager = UndoManager()
        manager.levelsOfUndo = 3
        let counter = UndoableValue(0, undoManager: manager)
        for _ in 0..<10 {
            Patterns.event(manager) { counter.modify { $0 += 1 } }
        }
        while manager.canUndo { manager.undo() }
        #expect(counter.value == 7)
    }

    @Test func withRegistrationDisabledTheValueChangesButNothingIsRecorded() {
        let manager = UndoManager()
        let counter = UndoableValue(0, undoManager: manager)
        var kinds: [UndoableValue<Int>.Change.Kind] = []
        counter.onChange = { kinds.append($0.kind) }
        manager.disableUndoRegistration()
        counter.modify(actionName: "Load") { $0 = 42 }
        manager.enableUndoRegistration()
        manager.runLoop.tick()
        #expect(counter.value == 42)
        #expect(!manager.canUndo)
        #expect(kinds == [.modify])
    }

    @Test func creatingAValueRecordsNothing() {
        let manager = UndoManager()
        let value = UndoableValue([1, 2, 3], undoManager: manager)
        #expect(value.undoManager === manager)
        #expect(!manager.canUndo && !manager.runLoop.hasPendingEvents)
    }

    @Test func aNestedModifyOfTheSameValueStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            let counter = UndoableValue(0, undoManager: manager)
            counter.modify { outer in
                outer += 1
                counter.modify { $0 += 10 }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("UndoableValue.modify(actionName:_:) called from inside the body of a modify of the same value"))
    }

    /// Modifying another value from inside a body is fine: only the same value is guarded.
    @Test func aBodyMayModifyAnotherValue() {
        let manager = UndoManager()
        let total = UndoableValue(0, undoManager: manager)
        let items = UndoableValue([Int](), undoManager: manager)
        Patterns.event(manager) {
            items.modify { items in
                items.append(5)
                total.modify { $0 += 5 }
            }
        }
        #expect(items.value == [5] && total.value == 5)
        manager.undo()
        #expect(items.value == [] && total.value == 0)
    }
}
