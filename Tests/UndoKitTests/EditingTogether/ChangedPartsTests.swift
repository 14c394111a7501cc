import Testing
@testable import UndoKit

/// A run that changed less than its step declared (possibly nothing) notes only that on
/// the other members.
@Suite struct ChangedPartsTests {
    /// Removes an item if it is still there; its undo puts it back. Another person may have
    /// removed the item already: then this run changes nothing.
    struct RemoveField: UndoableCommand {
        var field: String
        var old: String?
        var changedNothing = false
        mutating func execute(on document: SharedDocument) {
            old = document.fields[field]
            changedNothing = old == nil
            document.fields[field] = nil
        }
        func undo(on document: SharedDocument) {
            if let old {
                document.fields[field] = old
            }
        }
        var actionName: String { "Remove \(field)" }
        var undoParts: [UndoPart] { [UndoPart("field", field)] }
        var changedParts: [UndoPart]? { changedNothing ? [] : nil }
    }

    private func makePeople() -> (UndoCoordinator, alice: UndoManager, bob: UndoManager) {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = UndoManager(), bob = UndoManager()
        for (manager, name) in [(alice, "Alice"), (bob, "Bob")] {
            manager.groupsByEvent = false
            manager.staleStepPolicy = .refuse
            coordinator.attach(manager, origin: name)
        }
        return (coordinator, alice, bob)
    }

    private func perform(_ command: RemoveField, by manager: UndoManager, on document: SharedDocument) {
        manager.beginUndoGrouping()
        manager.perform(command, on: document)
        manager.endUndoGrouping()
    }

    @Test("a command whose run changed nothing makes nobody's step stale; one that changed its part does")
    func commandThatChangedNothing() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "A", by: alice)
        // Bob removes a field nobody set: his run changes nothing.
        perform(RemoveField(field: "title2"), by: bob, on: document)
        #expect(bob.undoActionParts == [UndoPart("field", "title2")])
        #expect(alice.staleUndoStep == nil && alice.canUndo)
        // A field that is there: Alice's step on it goes stale.
        perform(RemoveField(field: "title"), by: bob, on: document)
        #expect(alice.staleUndoStep?.origins == ["Bob"])
        withExtendedLifetime(coordinator) {}
    }

    @Test("an action that changed nothing, said from inside an undo, notes nothing on the others")
    func undoThatChangedNothing() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        alice.beginUndoGrouping()
        document.fields["title"] = "A"
        alice.registerUndo(withTarget: document) { [unowned alice] document in
            if document.fields["title"] == nil {
                // Removed meanwhile: this undo changes nothing.
                alice.setActionChangedParts([])
            }
            document.fields["title"] = nil
        }
        alice.addActionParts(UndoPart("field", "title"))
        alice.endUndoGrouping()
        // Bob's step on the title comes after; then the title is removed by a third party.
        document.set("title", to: "B", by: bob)
        document.fields["title"] = nil
        // Alice's step is stale; she undoes it anyway, and the run changes nothing.
        alice.undoStaleStep()
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        withExtendedLifetime(coordinator) {}
    }

    @Test("changed parts narrower than the declared ones: the others hear only those, the step keeps its parts")
    func narrowerChange() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "B", by: bob)
        document.set("body", to: "B", by: bob)
        alice.beginUndoGrouping()
        document.write("title", to: "A", by: alice)
        alice.addActionParts(UndoPart("field", "body"))
        alice.setActionChangedParts([UndoPart("field", "title")])
        alice.endUndoGrouping()
        #expect(alice.undoActionParts == [UndoPart("field", "title"), UndoPart("field", "body")])
        // Bob's body step was not touched; his title step was.
        #expect(bob.staleUndoSteps.map(\.actionName) == ["Set title"])
        bob.undo()
        #expect(document.fields["body"] == nil)
        #expect(bob.staleUndoStep?.actionName == "Set title" && !bob.canUndo)
        withExtendedLifetime(coordinator) {}
    }

    @Test("noting a change to no part notes nothing: no log, nothing stale")
    func emptyNote() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = .refuse
        SharedDocument().set("title", to: "A", by: manager, declaring: false)
        manager.noteChanges(to: [UndoPart]())
        #expect(manager.canUndo && manager.staleUndoStep == nil && manager.state.partLog == nil)
    }
}

/// An undo or redo run of a command reports the command's `changedParts`, as `perform` does.
@Suite struct CommandRunChangedPartsTests {
    /// A small plain command, kept in its step: sets a counter to `value` if it is not there.
    struct SetCount: UndoableCommand {
        var value: Int8
        var old: Int8 = 0
        var changedNothing = false
        mutating func execute(on counter: Counter) {
            old = counter.count
            changedNothing = old == value
            counter.count = value
        }
        func undo(on counter: Counter) { counter.count = old }
        var undoParts: [UndoPart] { [UndoPart("counter", "count")] }
        var changedParts: [UndoPart]? { changedNothing ? [] : nil }
    }

    final class Counter { var count: Int8 = 0 }

    enum Way: CaseIterable { case weakly, retaining }

    private func makePeople() -> (UndoCoordinator, alice: UndoManager, bob: UndoManager) {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = UndoManager(), bob = UndoManager()
        for (manager, name) in [(alice, "Alice"), (bob, "Bob")] {
            manager.groupsByEvent = false
            manager.staleStepPolicy = .refuse
            coordinator.attach(manager, origin: name)
        }
        return (coordinator, alice, bob)
    }

    private func perform<Command: UndoableCommand>(
        _ command: Command, by manager: UndoManager, on model: Command.Model, _ way: Way
    ) where Command.Model: AnyObject {
        manager.beginUndoGrouping()
        switch way {
        case .weakly: manager.perform(command, on: model)
        case .retaining: manager.perform(command, retaining: model)
        }
        manager.endUndoGrouping()
    }

    @Test("the undo and redo of a command whose run changed nothing note nothing on the others", arguments: Way.allCases)
    func runsThatChangedNothing(_ way: Way) {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        // Bob's step on the title; a third party then removes the title, unnoted.
        document.set("title", to: "B", by: bob)
        document.fields["title"] = nil
        // Alice removes the title, already gone: her run, its undo and its redo change nothing.
        perform(ChangedPartsTests.RemoveField(field: "title"), by: alice, on: document, way)
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        alice.undo()
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        alice.redo()
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        withExtendedLifetime(coordinator) {}
    }

    @Test("SetCount is kept in its step")
    func setCountFitsInStep() {
        #expect(commandFitsInStep(SetCount.self))
    }

    @Test("a command kept in its step: its undo and redo that changed nothing note nothing", arguments: Way.allCases)
    func inlineCommandRuns(_ way: Way) {
        let (coordinator, alice, bob) = makePeople()
        let counter = Counter()
        perform(SetCount(value: 0), by: alice, on: counter, way)
        #expect(bob.staleUndoStep == nil)
        // Bob's step on the counter comes after; Alice's undo and redo change nothing.
        bob.beginUndoGrouping()
        bob.registerUndo(withTarget: counter) { _ in }
        bob.addActionParts(UndoPart("counter", "count"))
        bob.endUndoGrouping()
        alice.undoStaleStep()
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        alice.redo()
        #expect(bob.staleUndoStep == nil && bob.canUndo)
        withExtendedLifetime(coordinator) {}
    }

    @Test("the undo of a command whose run changed its part notes it on the others")
    func runThatChanged() {
        let (coordinator, alice, bob) = makePeople()
        let counter = Counter()
        perform(SetCount(value: 5), by: alice, on: counter, .weakly)
        bob.beginUndoGrouping()
        bob.registerUndo(withTarget: counter) { _ in }
        bob.addActionParts(UndoPart("counter", "count"))
        bob.endUndoGrouping()
        alice.undoStaleStep()
        #expect(counter.count == 0)
        #expect(bob.staleUndoStep?.origins == ["Alice"])
        withExtendedLifetime(coordinator) {}
    }
}
