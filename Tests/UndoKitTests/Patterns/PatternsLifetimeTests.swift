import Testing
@testable import UndoKit

/// Weak references must go nil once the last strong reference outside the manager is gone:
/// the manager holds targets weakly, the patterns capture no owner of themselves, and
/// nothing forms a cycle between manager, commands, values and models.
///
/// Objects are made inside `do` blocks so that their owning references end there, whatever
/// the optimizer does with local lifetimes.
@Suite struct PatternsLifetimeTests {
    // MARK: Commands

    final class RemoveLast: UndoableCommand {
        var removed: String?
        func execute(on list: Patterns.TodoList) { removed = list.items.removeLast() }
        func undo(on list: Patterns.TodoList) { removed.map { list.items.append($0) } }
    }

    @Test func droppingTheManagerFreesItAndItsCommandsButNotTheModel() {
        var manager: Patterns.Weak<UndoManager>?
        var command: Patterns.Weak<RemoveLast>?
        let list = Patterns.TodoList(["a", "b", "c"])
        do {
            let undoManager = UndoManager()
            let removeLast = RemoveLast()
            manager = .init(undoManager)
            command = .init(removeLast)
            Patterns.event(undoManager) { undoManager.perform(removeLast, on: list) }
            Patterns.event(undoManager) { undoManager.perform(Patterns.RemoveTodo(at: 0), on: list) }
            undoManager.undo()
            undoManager.undo()
            undoManager.redo()
            #expect(undoManager.canUndo && undoManager.canRedo)
        }
        #expect(manager?.object == nil, "the recorded handlers must not own the manager")
        #expect(command?.object == nil, "the manager owned the command, and nothing else did")
        #expect(list.items == ["a", "b"])
    }

    @Test func theManagerDoesNotKeepTheModelAliveAndSkipsItsStepsOnceItIsGone() {
        let manager = UndoManager()
        let survivor = Patterns.TodoList()
        var model: Patterns.Weak<Patterns.TodoList>?
        do {
            let list = Patterns.TodoList(["a"])
            model = .init(list)
            Patterns.event(manager) { manager.perform(Patterns.RemoveTodo(at: 0), on: list) }
            Patterns.event(manager) { manager.perform(Patterns.AddTodo(title: "x", index: 0), on: survivor) }
        }
        #expect(model?.object == nil)
        manager.undo()
        manager.undo()   // the dead model's step: skipped, no crash
        #expect(survivor.items == [])
        manager.redo()
        #expect(manager.undoCount == 1, "the skipped step registered no redo")
    }

    @Test func removingTheModelsActionsFreesItsCommands() {
        let manager = UndoManager()
        let list = Patterns.TodoList(["a", "b"])
        var command: Patterns.Weak<RemoveLast>?
        do {
            let removeLast = RemoveLast()
            command = .init(removeLast)
            Patterns.event(manager) { manager.perform(removeLast, on: list) }
            manager.undo()
        }
        #expect(command?.object != nil, "the redo step still needs it")
        manager.removeAllActions(withTarget: list)
        #expect(command?.object == nil)
    }

    // MARK: Undoable values

    @Test func droppingEveryOwnerFreesTheValueTheManagerAndTheSnapshots() {
        var value: Patterns.Weak<UndoableValue<[Patterns.Payload]>>?
        var manager: Patterns.Weak<UndoManager>?
        var payloads: [Patterns.Weak<Patterns.Payload>] = []
        do {
            let undoManager = UndoManager()
            let undoable = UndoableValue([Patterns.Payload](), undoManager: undoManager)
            value = .init(undoable)
            manager = .init(undoManager)
            undoable.onChange = { [weak undoable] _ in _ = undoable?.value.count }
            for id in 0..<5 {
                let payload = Patterns.Payload(id)
                payloads.append(.init(payload))
                Patterns.event(undoManager) { undoable.modify { $0.append(payload) } }
            }
            undoManager.undo()
            undoManager.undo()
            #expect(undoable.value.count == 3)
        }
        #expect(value?.object == nil)
        #expect(manager?.object == nil)
        #expect(payloads.allSatisfy { $0.object == nil }, "no snapshot outlived the manager")
    }

    @Test func aDroppedValueIsFreedWhileItsManagerLivesOn() {
        let manager = UndoManager()
        let other = UndoableValue(0, undoManager: manager)
        var value: Patterns.Weak<UndoableValue<String>>?
        do {
            let text = UndoableValue("", undoManager: manager)
            value = .init(text)
            Patterns.event(manager) { text.modify { $0 = "typed" } }
            Patterns.event(manager) { other.modify { $0 = 1 } }
        }
        #expect(value?.object == nil, "the manager must not keep its targets alive")
        #expect(manager.undoCount == 1, "a freed value removes its steps")
        manager.undo()
        #expect(other.value == 0)
        #expect(!manager.canUndo)
    }

    @Test func removingTheValuesActionsFreesItsSnapshots() {
        let manager = UndoManager()
        let holder = UndoableValue([Patterns.Payload](), undoManager: manager)
        var payload: Patterns.Weak<Patterns.Payload>?
        do {
            let object = Patterns.Payload(1)
            payload = .init(object)
            Patterns.event(manager) { holder.modify { $0.append(object) } }
            Patterns.event(manager) { holder.modify { $0.removeAll() } }
        }
        #expect(payload?.object != nil, "the undo step's snapshot holds it")
        manager.removeAllActions(withTarget: holder)
        #expect(payload?.object == nil)
        #expect(!manager.canUndo)
    }

    @Test func aCallbackThatCapturesItsValueStronglyKeepsItAlive() {
        // The pitfall the onChange documentation warns about, shown so that a change to the
        // design that makes it safe is noticed.
        var value: Patterns.Weak<UndoableValue<Int>>?
        let manager = UndoManager()
        do {
            let counter = UndoableValue(0, undoManager: manager)
            value = .init(counter)
            counter.onChange = { _ in _ = counter.value }
        }
        #expect(value?.object != nil)
        value?.object?.onChange = nil
        #expect(value?.object == nil, "clearing the callback breaks the cycle")
    }

    // MARK: Value history

    @Test func valuesDroppedByTheLimitOrByTruncationAreFreed() {
        var history = ValueHistory(Patterns.Payload(0), limit: 3)
        var dropped: [Patterns.Weak<Patterns.Payload>] = []
        var kept: [Patterns.Weak<Patterns.Payload>] = []
        do {
            let first = Patterns.Payload(1)
            dropped.append(.init(first))
            history.add(first)
            let second = Patterns.Payload(2)
            kept.append(.init(second))
            history.add(second)
            let third = Patterns.Payload(3)
            kept.append(.init(third))
            history.add(third)   // drops Payload(0)
            let fourth = Patterns.Payload(4)
            dropped.append(.init(fourth))
            history.add(fourth)  // drops Payload(1)
            history.previous()
            let fifth = Patterns.Payload(5)
            kept.append(.init(fifth))
            history.add(fifth)   // truncates Payload(4)
        }
        #expect(dropped.allSatisfy { $0.object == nil })
        #expect(kept.allSatisfy { $0.object != nil })
        #expect(history.undoCount == 2)
    }
}
