// Regressions the randomized editing-together suites (SharedModelRandomTests,
// ReplicaSimulationTests) found in UndoKit, each reduced to the few calls that show it.

import Foundation
import Testing
import UndoKit

@Suite struct EditingTogetherRegressionTests {
    private struct Rollback: Error {}

    private func makeManager(_ policy: StaleStepPolicy) -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = policy
        return manager
    }

    private func makePeople(_ policy: StaleStepPolicy = .refuse) -> (UndoCoordinator, alice: UndoManager, bob: UndoManager) {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = makeManager(policy), bob = makeManager(policy)
        coordinator.attach(alice, origin: "Alice")
        coordinator.attach(bob, origin: "Bob")
        return (coordinator, alice, bob)
    }

    /// A keystroke: one group with the "typing" key, declaring the field unless told not to.
    private func type(_ text: String, into field: String, of document: SharedDocument, by manager: UndoManager, declaring: Bool = true) {
        manager.beginUndoGrouping()
        document.write(field, to: text, by: manager, declaring: declaring)
        manager.setActionName("Typing")
        manager.setActionCoalescingKey("typing")
        manager.endUndoGrouping()
    }

    @Test("noting a change to no parts makes nothing stale, not even a step that declared nothing")
    func notingNoPartsChangesNothing() {
        let manager = makeManager(.refuse)
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager, declaring: false)
        // An app's "the document changed" hook, after a remote operation that changed nothing.
        manager.noteChanges(to: [UndoPart](), origin: "Bob")
        // Was: canUndo false (the step counted as stale) while staleUndoStep was nil.
        #expect(manager.canUndo && manager.staleUndoStep == nil)
    }

    @Test("declaring an empty selection declares nothing: the step still counts as touching every part")
    func emptySelectionDeclaresNothing() {
        let manager = makeManager(.refuse)
        let document = SharedDocument()
        manager.beginUndoGrouping()
        document.write("title", to: "Draft", by: manager, declaring: false)
        manager.addActionParts([UndoPart]())
        manager.endUndoGrouping()
        // Was: parts [] (touching nothing), so the step was never stale.
        #expect(manager.undoActionParts == nil)
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        #expect(!manager.canUndo && manager.staleUndoStep?.origins == ["Bob"])
    }

    @Test("skip: with every step stale, undo does what canUndo says (nothing), as redo does")
    func skipWithEveryStepStaleDropsNothing() {
        let manager = makeManager(.skip)
        let document = SharedDocument()
        var dropped: [String] = []
        let observation = manager.addEventObserver { event in
            if case .didDropStaleStep(let step) = event { dropped.append(step.actionName) }
        }
        document.set("title", to: "Draft", by: manager)
        document.set("body", to: "Hello", by: manager)
        manager.noteChanges(to: [UndoPart("field", "title"), UndoPart("field", "body")], origin: "Bob")
        #expect(!manager.canUndo)
        manager.undo()
        // Was: both steps dropped, with two events, while canUndo said there was nothing to undo.
        #expect(manager.undoCount == 2 && dropped.isEmpty)
        #expect(document.fields == ["title": "Draft", "body": "Hello"])
        withExtendedLifetime(observation) {}
    }

    @Test("per member: a group merged into a member's step by coalescing is noted on the others")
    func coalescedGroupIsNoted() {
        let (coordinator, alice, bob) = makePeople()
        let instant = ContinuousClock.now
        alice.coalescingClock = { instant }
        let document = SharedDocument()
        type("a", into: "body", of: document, by: alice)
        document.set("title", to: "Bob's", by: bob)
        // Alice's next keystroke lands in the title and merges into her typing step.
        type("A", into: "title", of: document, by: alice)
        #expect(alice.undoCount == 1)
        // Was: Bob's step stayed fresh, and his undo wiped Alice's "A".
        #expect(!bob.canUndo && bob.staleUndoStep?.origins == ["Alice"])
        bob.undo()
        #expect(document.fields["title"] == "A")
        withExtendedLifetime(coordinator) {}
    }

    @Test("per member: a scope that rolls back notes nothing on the others")
    func rolledBackScopeNotesNothing() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "Bob's", by: bob)
        #expect(throws: Rollback.self) {
            try alice.withUndoGroup(named: "Retitle") {
                document.write("title", to: "Alice's", by: alice)
                throw Rollback()
            }
        }
        #expect(document.fields["title"] == "Bob's")
        // Was: Bob's step stale by Alice's change, which the rollback had undone.
        #expect(bob.canUndo && bob.staleUndoStep == nil)
        withExtendedLifetime(coordinator) {}
    }

    @Test("per member: a scope that rolls back with redo steps leaves them the member's own")
    func rolledBackScopeKeepsRedoPerMember() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "A", by: alice)
        alice.undo()
        // Was: the rollback put Alice's redo step in the coordinator's single-order redo list
        // (a precondition failure in debug builds); in release builds Bob's next edit then
        // ended Alice's redo.
        #expect(throws: Rollback.self) {
            try alice.withUndoGroup(named: "Retitle") {
                document.write("title", to: "B", by: alice)
                throw Rollback()
            }
        }
        document.set("body", to: "Bob's", by: bob)
        #expect(alice.canRedo && alice.redoActionName == "Set title")
        withExtendedLifetime(coordinator) {}
    }

    @Test("a scope that rolls back leaves the redo steps its body ended as fresh as they were")
    func rolledBackScopeKeepsRedoFresh() {
        let manager = makeManager(.run)
        let document = SharedDocument()
        // A step that declared nothing, stale by Bob's change, undone anyway: its redo step
        // is fresh, done after that change.
        document.set("title", to: "Draft", by: manager, declaring: false)
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        manager.undo()
        manager.staleStepPolicy = .refuse
        #expect(manager.canRedo)
        #expect(throws: Rollback.self) {
            try manager.withUndoGroup(named: "Edit") {
                document.write("tags", to: "new", by: manager)   // ends redo, until the rollback
                throw Rollback()
            }
        }
        // Was: the step came back as older than every note, stale by Bob's change to the body.
        #expect(manager.canRedo && manager.staleRedoStep == nil)
    }

    @Test("a coalesced step that counts as touching every part still does after its undo re-declares parts")
    func mergedStepTouchingEverythingStaysSo() {
        let manager = makeManager(.refuse)
        let instant = ContinuousClock.now
        manager.coalescingClock = { instant }
        let document = SharedDocument()
        type("T", into: "title", of: document, by: manager)
        type("b", into: "body", of: document, by: manager, declaring: false)
        #expect(manager.undoCount == 1 && manager.undoActionParts == nil)
        // The title's undo handler declares the title again, into the redo step.
        manager.undo()
        #expect(manager.redoActionParts == nil)
        // Was: the redo step declared only the title, so Bob's body stayed unprotected.
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        #expect(!manager.canRedo && manager.staleRedoStep?.origins == ["Bob"])
    }
}
