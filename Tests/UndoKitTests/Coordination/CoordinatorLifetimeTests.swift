import Testing
@testable import UndoKit

/// Spec K4: an attached member's protection never depends on the caller keeping the
/// coordinator alive. Each attached manager holds its coordinator; the coordinator holds its
/// managers weakly, so there is no cycle.
@Suite struct CoordinatorLifetimeTests {
    /// A set-up function that makes a coordinator and does not return it.
    private static func attachPeople(mode: UndoCoordinator.Mode, policy: StaleStepPolicy = .refuse) -> (UndoManager, UndoManager) {
        let coordinator = UndoCoordinator(mode: mode)
        let alice = UndoManager(), bob = UndoManager()
        for (manager, name) in [(alice, "Alice"), (bob, "Bob")] {
            manager.groupsByEvent = false
            manager.staleStepPolicy = policy
            coordinator.attach(manager, origin: name)
        }
        return (alice, bob)
    }

    @Test("per member: a coordinator nobody keeps still notes one person's steps on the other")
    func perMemberCoordinatorNobodyKeeps() {
        let (alice, bob) = Self.attachPeople(mode: .perMember)
        let document = SharedDocument()
        document.set("title", to: "Alice's", by: alice)
        document.set("title", to: "Bob's", by: bob)
        #expect(alice.staleUndoStep?.origins == ["Bob"] && !alice.canUndo)
        alice.undo()
        #expect(document.fields["title"] == "Bob's")
    }

    @Test("single order: a coordinator nobody keeps still ends the other managers' redo on a new edit")
    func singleOrderCoordinatorNobodyKeeps() {
        let (first, second) = Self.attachPeople(mode: .singleOrder, policy: .run)
        let document = SharedDocument()
        document.set("title", to: "A", by: first)
        first.undo()
        #expect(first.canRedo)
        document.set("body", to: "B", by: second)
        #expect(!first.canRedo)
        #expect(first.coordinator === second.coordinator && first.coordinator != nil)
    }

    @Test("the coordinator goes away with its last manager, in both modes: no cycle", arguments: [UndoCoordinator.Mode.singleOrder, .perMember])
    func noCycle(mode: UndoCoordinator.Mode) {
        weak var coordinator: UndoCoordinator?
        weak var firstManager: UndoManager?
        do {
            let (first, second) = Self.attachPeople(mode: mode, policy: .run)
            coordinator = first.coordinator
            firstManager = first
            SharedDocument().set("title", to: "A", by: first)
            #expect(coordinator != nil)
            withExtendedLifetime(second) {}
        }
        #expect(firstManager == nil)
        #expect(coordinator == nil)
    }

    @Test("detaching one manager keeps the coordinator for the others; detaching the last lets it go")
    func detaching() {
        let (alice, bob) = Self.attachPeople(mode: .perMember)
        weak let coordinator = alice.coordinator
        coordinator?.detach(alice)
        #expect(coordinator != nil && alice.coordinator == nil)
        coordinator?.detach(bob)
        #expect(coordinator == nil)
    }
}
