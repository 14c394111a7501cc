import Testing
@testable import UndoKit

/// Spec K2: a step is recorded from its first action, not from its close. A change noted
/// while its group is open, to a part it declares, makes it stale when it closes.
@Suite struct OpenStepNoteTests {
    private let title = UndoPart("field", "title")

    private func makeManager(policy: StaleStepPolicy = .refuse) -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = policy
        return manager
    }

    @Test("a note after the group's first action, to a part it declares, makes the step stale when it closes")
    func noteInsideAnOpenGroup() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.write("title", to: "Alice's", by: manager)
        // Bob changes the same field while Alice's step is still open.
        document.fields["title"] = "Bob's"
        manager.noteChanges(to: [title], origin: "Bob")
        manager.setActionName("Set title")
        manager.endUndoGrouping()
        #expect(manager.staleUndoStep?.changes == [UndoChange(part: title, origin: "Bob")])
        #expect(!manager.canUndo)
        manager.undo()
        #expect(document.fields["title"] == "Bob's")
    }

    @Test("a note before the group's first action does not: the action captured the noted value")
    func noteBeforeTheFirstAction() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.fields["title"] = "Bob's"
        manager.noteChanges(to: [title], origin: "Bob")
        document.write("title", to: "Alice's", by: manager)
        manager.endUndoGrouping()
        #expect(manager.staleUndoStep == nil && manager.canUndo)
        manager.undo()
        #expect(document.fields["title"] == "Bob's")
    }

    @Test("parts declared after the note count: a step's parts are known only when it closes")
    func partsDeclaredAfterTheNote() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: document) { $0.fields["title"] = nil }
        manager.noteChanges(to: [title], origin: "Bob")
        manager.addActionParts(title)
        manager.endUndoGrouping()
        #expect(manager.staleUndoStep != nil)
        // A note to a part the step does not declare leaves it fresh.
        let other = makeManager()
        other.beginUndoGrouping()
        other.registerUndo(withTarget: document) { _ in }
        other.noteChanges(to: [UndoPart("field", "body")])
        other.addActionParts(title)
        other.endUndoGrouping()
        #expect(other.staleUndoStep == nil && other.canUndo)
    }

    @Test("nested groups: a note while an inner group is open counts for the step")
    func nestedGroups() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        manager.beginUndoGrouping()
        document.write("title", to: "A", by: manager)
        manager.noteChanges(to: [title])
        manager.endUndoGrouping()
        manager.endUndoGrouping()
        #expect(manager.staleUndoStep != nil)
    }

    @Test("automatic grouping: a note between a registration and the end of the event")
    func automaticGroup() {
        let manager = UndoManager()
        manager.staleStepPolicy = .refuse
        let document = SharedDocument()
        document.write("title", to: "A", by: manager)
        manager.noteChanges(to: [title], origin: "Bob")
        manager.runLoop.tick()
        #expect(manager.staleUndoStep?.origins == ["Bob"])
        #expect(!manager.canUndo)
        // The next event's step is fresh: the note was consumed by the step it fell in.
        document.write("body", to: "B", by: manager)
        manager.runLoop.tick()
        #expect(manager.staleUndoStep == nil && manager.canUndo)
    }

    @Test("coalescing: a group merging into the step below after such a note makes the merged step stale")
    func coalescing() {
        let manager = makeManager()
        let document = SharedDocument()
        func type(_ field: String, _ text: String, noting: Bool) {
            manager.beginUndoGrouping()
            document.write(field, to: text, by: manager)
            if noting {
                manager.noteChanges(to: [UndoPart("field", field)], origin: "Bob")
            }
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
        }
        // The step below does not touch the title, so it is not stale and takes the group.
        type("body", "a", noting: false)
        type("title", "b", noting: true)
        #expect(manager.undoCount == 1)
        #expect(manager.staleUndoStep != nil)
    }

    @Test("a scope: a note inside withUndoGroup, after the body's first action")
    func scope() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.withUndoGroup(named: "Rename") {
            document.write("title", to: "A", by: manager)
            manager.noteChanges(to: [title], origin: "Bob")
        }
        #expect(manager.staleUndoStep?.actionName == "Rename")
    }

    @Test("a command: a note after it is performed in an open group")
    func command() {
        struct Retitle: UndoableCommand {
            var text: String
            var old: String?
            mutating func execute(on document: SharedDocument) {
                old = document.fields["title"]
                document.fields["title"] = text
            }
            func undo(on document: SharedDocument) {
                document.fields["title"] = old
            }
            var undoParts: [UndoPart] { [UndoPart("field", "title")] }
        }
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        manager.perform(Retitle(text: "A"), on: document)
        manager.noteChanges(to: [title], origin: "Bob")
        manager.endUndoGrouping()
        #expect(manager.staleUndoStep != nil)
    }

    @Test("per member: another person's step closing while mine is open makes mine stale when it closes")
    func perMember() {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = makeManager(), bob = makeManager()
        coordinator.attach(alice, origin: "Alice")
        coordinator.attach(bob, origin: "Bob")
        let document = SharedDocument()
        alice.beginUndoGrouping()
        document.write("title", to: "Alice's", by: alice)
        document.set("title", to: "Bob's", by: bob)
        alice.endUndoGrouping()
        #expect(alice.staleUndoStep?.origins == ["Bob"])
        alice.undo()
        #expect(document.fields["title"] == "Bob's")
    }

    @Test("removing every action with a group open forgets the note: the next step is fresh")
    func removeAllForgetsTheNote() {
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.write("title", to: "A", by: manager)
        manager.noteChanges(to: [title])
        manager.removeAllActions()
        document.set("title", to: "B", by: manager)
        #expect(manager.staleUndoStep == nil)
    }
}
