import Foundation
import Testing
import UndoKit

/// Issue 34 item 6: asynchronous undo and redo compose with the rest of the manager.
@Suite("Asynchronous undo with everything else", .timeLimit(.minutes(1)))
@MainActor
struct AsyncCompositionTests {
    /// A counter whose undo actions are synchronous, for comparing undoAsync() with undo().
    final class Counter {
        var value = 0
    }

    /// Adds `amount`, registering the inverse, which registers its own.
    static func add(_ amount: Int, to counter: Counter, manager: UndoManager) {
        counter.value += amount
        manager.registerUndo(withTarget: counter) { counter in
            add(-amount, to: counter, manager: manager)
        }
    }

    /// What a test compares between two managers after each operation.
    struct Observed: Equatable {
        var value: Int
        var undoNames: [String]
        var redoNames: [String]
        var isClean: Bool
        var cost: Int
        var nodeCount: Int
        var current: UndoTree.NodeID?
        var events: [UndoManager.Event]
    }

    /// One manager, its counter and the events it posted.
    final class Subject {
        let manager = UndoManager.explicit()
        let counter = Counter()
        var events: [UndoManager.Event] = []
        var observation: UndoManager.EventObservation?

        init() {
            manager.actionCostLimit = 25
            manager.coalescingInterval = .seconds(3600)
            _ = manager.historyTree
            observation = manager.addEventObserver { [unowned self] in events.append($0) }
        }

        func observed() -> Observed {
            defer { events = [] }
            return Observed(
                value: counter.value, undoNames: manager.undoActionNames, redoNames: manager.redoActionNames,
                isClean: manager.isClean, cost: manager.totalActionCost, nodeCount: manager.historyTree.nodes.count,
                current: manager.historyTree.current, events: events)
        }
    }

    @Test("undoAsync() and redoAsync() do what undo() and redo() do: names, nesting, coalescing, costs, clean state, tree, events")
    func sameAsSynchronous() async throws {
        let sync = Subject()
        let async = Subject()
        // Each step: a name, a nested group or not, a cost, a coalescing key.
        let steps: [(String, Bool, Int, String?)] = [
            ("A", false, 10, nil), ("B", true, 5, nil), ("Type", false, 1, "typing"), ("Type", false, 1, "typing"),
            ("C", true, 12, nil),
        ]
        let script = ["step 0", "step 1", "undo", "redo", "clean", "step 2", "step 3", "undo", "undo", "redo",
                      "step 4", "undo", "undo", "undo", "redo", "redo", "undo", "step 0", "undo", "redo", "redo"]
        for operation in script {
            for subject in [sync, async] {
                let manager = subject.manager
                switch operation {
                case "undo":
                    if subject === sync { manager.undo() } else { try await manager.undoAsync() }
                case "redo":
                    if subject === sync { manager.redo() } else { try await manager.redoAsync() }
                case "clean":
                    manager.markClean()
                default:
                    let (name, nested, cost, key) = steps[Int(operation.dropFirst(5))!]
                    manager.beginUndoGrouping()
                    Self.add(1, to: subject.counter, manager: manager)
                    if nested {
                        manager.beginUndoGrouping()
                        Self.add(10, to: subject.counter, manager: manager)
                        manager.endUndoGrouping()
                    }
                    manager.setActionName(name)
                    manager.setActionCost(cost)
                    manager.setActionCoalescingKey(key)
                    manager.endUndoGrouping()
                }
            }
            #expect(sync.observed() == async.observed(), "after \(operation)")
        }
    }

    @Test("goAsync(to:) walks asynchronous steps, across a branch", arguments: [false, true])
    func goAsyncWalks(branches: Bool) async throws {
        let manager = UndoManager.explicit()
        manager.keepsRedoBranches = branches
        let model = AsyncModel()
        for value in 1...3 {
            manager.step("\(value)") { insert(value, into: model, manager: manager) }
        }
        let first = try #require(manager.historyTree.nodes.first { $0.actionName == "1" })
        try await manager.goAsync(to: first)
        #expect(model.values == [1])
        let third = try #require(manager.historyTree.nodes.first { $0.actionName == "3" })
        try await manager.goAsync(to: third)
        #expect(model.values == [1, 2, 3])
        try await manager.goToStartAsync()
        #expect(model.values == [])
        #expect(manager.redoCount == 3)
        if branches {
            // A new edit makes the redo path a branch; going to its end brings it back.
            manager.step("4") { insert(4, into: model, manager: manager) }
            let branchEnd = try #require(manager.historyTree.nodes.first { $0.actionName == "3" })
            try await manager.goAsync(to: branchEnd)
            #expect(model.values == [1, 2, 3])
        }
    }

    @Test("goAsync(to:) stops cleanly at a failing step")
    func goAsyncStopsAtFailure() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        for value in 1...3 {
            manager.step("\(value)") { insert(value, into: model, manager: manager) }
        }
        model.failingValues = [2]
        await #expect(throws: InjectedFailure(value: 2)) {
            try await manager.goToStartAsync()
        }
        // Step 3 was undone; step 2 failed, was reverted and is still the next undo.
        #expect(model.values == [1, 2])
        #expect(manager.undoActionNames == ["2", "1"])
        #expect(manager.redoActionNames == ["3"])
    }

    @Test("a stale asynchronous step is refused or skipped before anything runs, and undone anyway on request")
    func staleSteps() async throws {
        let manager = UndoManager.explicit()
        let model = AsyncModel()
        manager.step("Safe") {
            insert(1, into: model, manager: manager)
            manager.addActionParts(UndoPart("item", 1))
        }
        manager.step("Touched") {
            insert(2, into: model, manager: manager)
            manager.addActionParts(UndoPart("item", 2))
        }
        manager.noteChanges(to: [UndoPart("item", 2)], origin: "elsewhere")
        model.log = []

        manager.staleStepPolicy = .refuse
        #expect(!manager.canUndo)
        try await manager.undoAsync()
        #expect(model.log.isEmpty)
        #expect(manager.undoCount == 2)

        try await manager.undoStaleStepAsync()
        #expect(model.log == ["remove 2"])
        try await manager.redoAsync()
        #expect(model.values == [1, 2])

        manager.noteChanges(to: [UndoPart("item", 2)], origin: "elsewhere")
        manager.staleStepPolicy = .skip
        model.log = []
        try await manager.undoAsync()
        // "Touched" was dropped without running; "Safe" was undone.
        #expect(model.log == ["remove 1"])
        #expect(model.values == [2])
        #expect(manager.undoCount == 0)
    }

    @Test("a coordinator in one order undoes and redoes its members' asynchronous steps newest first")
    func singleOrderCoordinator() async throws {
        let coordinator = UndoCoordinator()
        let first = UndoManager.explicit()
        let second = UndoManager.explicit()
        coordinator.attach(first)
        coordinator.attach(second)
        let model = AsyncModel()
        first.step("1") { insert(1, into: model, manager: first) }
        second.step("2") { insert(2, into: model, manager: second) }
        first.step("3") { insert(3, into: model, manager: first) }
        try await coordinator.undoAsync()
        try await coordinator.undoAsync()
        #expect(model.values == [1])
        #expect(second.redoCount == 1)
        try await coordinator.redoAsync()
        #expect(model.values == [1, 2])
        // A new edit in one member ends redo in the others too.
        first.step("4") { insert(4, into: model, manager: first) }
        #expect(!coordinator.canRedo)
        #expect(second.redoCount == 0)
    }

    @Test("per member, an asynchronous undo by one member makes the other's overlapping step stale")
    func perMemberCoordinator() async throws {
        let coordinator = UndoCoordinator(mode: .perMember)
        let alice = UndoManager.explicit()
        let bob = UndoManager.explicit()
        coordinator.attach(alice, origin: "Alice")
        coordinator.attach(bob, origin: "Bob")
        let model = AsyncModel()
        alice.step("Alice's") {
            insert(1, into: model, manager: alice)
            alice.addActionParts(UndoPart("item", 1))
        }
        bob.step("Bob's") {
            model.values.append(10)
            bob.registerUndo(withTarget: model) { $0.values.removeAll { $0 == 10 } }
            bob.addActionParts(UndoPart("item", 1))
        }
        bob.staleStepPolicy = .refuse
        #expect(bob.canUndo)
        try await alice.undoAsync()
        #expect(model.values == [10])
        #expect(bob.staleUndoStep?.changes.contains { $0.origin == "Alice" } == true)
    }

    @Test("undoAsync() on a subclass runs the step and its overrides see the inverse registrations")
    func subclass() async throws {
        final class Recording: UndoManager {
            var registrations = 0
            override func registerUndo<TargetType: AnyObject>(
                withTarget target: TargetType, handler: @escaping (TargetType) -> Void
            ) {
                registrations += 1
                super.registerUndo(withTarget: target, handler: handler)
            }
        }
        let manager = Recording()
        manager.groupsByEvent = false
        let counter = Counter()
        manager.beginUndoGrouping()
        Self.add(1, to: counter, manager: manager)
        manager.endUndoGrouping()
        try await manager.undoAsync()
        #expect(counter.value == 0)
        #expect(manager.registrations == 2)
        manager.redo()
        #expect(counter.value == 1)
    }
}
