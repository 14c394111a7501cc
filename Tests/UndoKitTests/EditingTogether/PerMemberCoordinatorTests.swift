import Testing
@testable import UndoKit

/// ``UndoCoordinator/Mode/perMember``: one manager per person over one shared document.
@Suite struct PerMemberCoordinatorTests {
    private func makePeople(policy: StaleStepPolicy = .refuse) -> (UndoCoordinator, alice: UndoManager, bob: UndoManager) {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = UndoManager(), bob = UndoManager()
        for (manager, name) in [(alice, "Alice"), (bob, "Bob")] {
            manager.groupsByEvent = false
            manager.staleStepPolicy = policy
            coordinator.attach(manager, origin: name)
        }
        return (coordinator, alice, bob)
    }

    @Test("each person undoes only their own steps; a step of one on a part makes the other's step on it stale")
    func eachUndoesTheirOwn() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "Alice's title", by: alice)
        document.set("body", to: "Bob's body", by: bob)
        // Disjoint parts: both may undo, and undoing Alice's leaves Bob's.
        #expect(alice.canUndo && bob.canUndo)
        #expect(!coordinator.canUndo && coordinator.undoMenuItemTitle == "Undo")
        alice.undo()
        #expect(document.fields == ["body": "Bob's body"])
        // Alice's undo changed the title: nothing of Bob's touched it.
        #expect(bob.staleUndoStep == nil)
        // Bob now sets the title Alice could redo: her redo is stale, with Bob named.
        document.set("title", to: "Bob's title", by: bob)
        #expect(!alice.canRedo)
        #expect(alice.staleRedoStep?.changes == [UndoChange(part: UndoPart("field", "title"), origin: "Bob")])
        alice.redo()
        #expect(document.fields["title"] == "Bob's title")
    }

    @Test("a member's redo in its own history is not ended by another member's new edit")
    func redoIsPerMember() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "A", by: alice)
        alice.undo()
        document.set("body", to: "B", by: bob)
        #expect(alice.canRedo && alice.redoActionName == "Set title")
        withExtendedLifetime(coordinator) {}
    }

    @Test("a step that declared nothing changes every part for the others")
    func undeclaredStepsTouchEverything() {
        let (coordinator, alice, bob) = makePeople()
        let document = SharedDocument()
        document.set("title", to: "A", by: alice)
        document.set("body", to: "B", by: bob, declaring: false)
        #expect(alice.staleUndoStep?.changes == [UndoChange(part: nil, origin: "Bob")])
        withExtendedLifetime(coordinator) {}
    }

    @Test("members may keep redo branches; the single-order mode still refuses them")
    func branchesPerMember() {
        let (coordinator, alice, _) = makePeople()
        alice.keepsRedoBranches = true
        #expect(alice.keepsRedoBranches && alice.coordinator === coordinator)
    }

    @Test("a coordinator goes away once its managers are detached, and leaves them on their own")
    func coordinatorGoesAway() {
        let manager = UndoManager()
        weak var dropped: UndoCoordinator?
        do {
            let coordinator = UndoCoordinator()
            coordinator.attach(manager)
            dropped = coordinator
        }
        // The attached manager keeps it (spec K4).
        #expect(dropped != nil && manager.coordinator === dropped)
        dropped?.detach(manager)
        #expect(dropped == nil && manager.coordinator == nil)
        manager.keepsRedoBranches = true
        #expect(manager.keepsRedoBranches)
    }

    @Test("the coordinator's own undo stops the program with the fix")
    func coordinatorUndoTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = UndoCoordinator(mode: .perMember)
            coordinator.attach(UndoManager(), origin: "Alice")
            coordinator.undo()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("UndoCoordinator.undo()") && message.contains("Fix: call undo() or redo() on the member"))
    }
}
