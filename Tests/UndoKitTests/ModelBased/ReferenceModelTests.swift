import Testing
@testable import UndoKit

// The reference model checked on its own against rows of spec D and a few quirks of spec C,
// without UndoKit: when the randomized test and UndoKit disagree, these say whether the
// model at least reproduces the spec's literal examples.

extension ModelBased.Reference {
    /// A model with one living target (id 0) and no events recorded yet.
    static func withTarget() -> ModelBased.Reference {
        let model = ModelBased.Reference()
        model.targets[0] = ModelBased.TargetState()
        return model
    }

    /// Registers an action on target 0 that re-registers its inverse forever.
    func registerPingPong() {
        register(ModelBased.Action(targetID: 0, setTo: 1, remaining: nil, innerName: nil, innerDiscardable: nil))
    }

    /// The events since the last call, in spec D's notation ("CP[1]", "WU[0,undoing]").
    func takeEvents() -> [String] {
        defer { events = [] }
        return events.map(\.description)
    }
}

@Suite("ModelBased reference model follows spec D")
struct ModelBasedReferenceModelTests {
    @Test func registrationOpensTheAutomaticGroup() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        #expect(model.takeEvents() == ["DO[1]"])
        // R26 quirk: the open group counts for canUndo, not for undoCount.
        #expect(model.canUndo && model.undoStack.closedGroupCount == 0)
    }

    @Test func beginAtLevelZeroOpensTwoLevels() {
        let model = ModelBased.Reference.withTarget()
        model.beginUndoGrouping()
        #expect(model.takeEvents() == ["DO[1]", "CP[1]", "DO[2]"])
        #expect(model.undoStack.nesting == 2)
    }

    @Test func beginAfterManualCloseOfTheAutomaticGroup() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        model.endUndoGrouping()
        #expect(model.takeEvents() == ["DO[1]", "CP[1]", "WC[1]", "DC[0]"])
        #expect(model.skipReason(for: .tick(.standard)) != nil)  // R17
        #expect(model.skipReason(for: .setName("x")) != nil)
        model.beginUndoGrouping()
        #expect(model.takeEvents() == ["DO[1]"])
        #expect(model.skipReason(for: .tick(.standard)) == nil)  // closes this group instead
    }

    @Test func undoClosesTheAutomaticGroupThenUndoesIt() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        _ = model.takeEvents()
        model.undo()
        #expect(
            model.takeEvents() == [
                "CP[1]", "CP[1]", "WC[1]", "DC[0]", "CP[0]", "WU[0,undoing]", "CP[1,undoing]", "DU[0,undoing]",
            ])
        #expect(model.targets[0]?.value == 1)
        #expect(model.redoStack.closedGroupCount == 1 && model.undoStack.isEmpty)
    }

    @Test func undoAndRedoWithoutGroupsByEvent() {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.beginUndoGrouping()
        model.registerPingPong()
        model.endUndoGrouping()
        #expect(model.takeEvents() == ["CP[0]", "DO[1]", "CP[1]", "WC[1]", "DC[0]"])
        model.undo()
        #expect(
            model.takeEvents() == [
                "CP[0]", "CP[0]", "WU[0,undoing]", "CP[0,undoing]", "CP[1,undoing]", "DU[0,undoing]",
            ])
        model.redo()
        #expect(
            model.takeEvents() == [
                "CP[0]", "WR[0,redoing]", "CP[0,redoing]", "CP[1,redoing]", "CP[1,redoing]", "DR[0,redoing]",
            ])
    }

    @Test func redoWithGroupsByEvent() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        model.tick(.standard)
        model.undo()
        _ = model.takeEvents()
        model.redo()
        #expect(model.takeEvents() == ["CP[0]", "WR[0,redoing]", "CP[1,redoing]", "CP[1,redoing]", "DR[0,redoing]"])
    }

    @Test func undoAndRedoWhileDisabled() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        model.tick(.standard)
        model.undo()
        _ = model.takeEvents()
        model.disableUndoRegistration()
        model.redo()
        #expect(model.takeEvents() == ["CP[0]", "WR[0,redoing]", "CP[0,redoing]", "DR[0,redoing]"])
        #expect(!model.canUndo)  // nothing recorded while disabled
    }

    @Test func emptyGroupsAreKeptAndClearRedo() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        model.tick(.standard)
        model.undo()
        #expect(model.redoStack.count == 1)
        model.setActionName("Empty")  // R37: opens the automatic group
        model.tick(.standard)
        #expect(model.redoStack.count == 0)
        #expect(model.undoStack.closedGroupCount == 1 && model.undoActionName == "Empty")
    }

    @Test func removalByTargetKeepsPreexistingEmptyAndOpenGroups() {
        let model = ModelBased.Reference.withTarget()
        model.targets[1] = ModelBased.TargetState()
        model.groupsByEvent = false
        model.beginUndoGrouping()  // A: keeps a pre-existing empty child, loses its action
        model.beginUndoGrouping()
        model.endUndoGrouping()
        model.registerPingPong()
        model.endUndoGrouping()
        model.beginUndoGrouping()  // B: only target 0, emptied: removed
        model.registerPingPong()
        model.endUndoGrouping()
        model.beginUndoGrouping()  // C: open, emptied: kept
        model.registerPingPong()
        model.removeAllActions(targetID: 0)
        #expect(model.undoStack.count == 2 && model.undoStack.nesting == 1)
        model.endUndoGrouping()
        #expect(model.undoStack.closedGroupCount == 2)
    }

    @Test func levelsOfUndoTrimsOnlyTheUndoStack() {
        let model = ModelBased.Reference.withTarget()
        for _ in 0..<3 {
            model.registerPingPong()
            model.tick(.standard)
        }
        model.undo()
        model.undo()
        model.setLevelsOfUndo(1)
        #expect(model.undoStack.count == 1 && model.redoStack.count == 2)
        model.redo()  // the redone group pushes the oldest one out
        #expect(model.undoStack.count == 1 && model.redoStack.count == 1)
        #expect(model.targets[0]?.log.map(\.value) == [1, 1, 1])
    }
}

// Issue 20: the reference model's history tree on the examples of NavigatingTheHistory.md and
// of the history-tree API's doc comments, without UndoKit.

extension ModelBased.Reference {
    /// A model with one target, branches kept and explicit groups only.
    static func withBranches() -> ModelBased.Reference {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.setKeepsRedoBranches(true)
        return model
    }

    /// One step named `name`: a group around one action on target 0.
    func step(_ name: String) {
        beginUndoGrouping()
        registerPingPong()
        setActionName(name)
        endUndoGrouping()
    }

    /// The node named `name`.
    func node(named name: String) -> UInt64? {
        treeRecord.nodes.first { $0.actionName == name }?.id
    }

    func names(_ ids: [UInt64]) -> [String] {
        ids.map { id in treeRecord.nodes.first { $0.id == id }!.actionName }
    }
}

@Suite("ModelBased reference model follows the history tree docs")
struct ModelBasedReferenceTreeTests {
    @Test func newEditAfterUndoKeepsTheRedoStepsAsABranch() {
        let model = ModelBased.Reference.withBranches()
        model.step("Hello")
        model.step(", world")
        model.undo()
        model.step(" there")
        let tree = model.treeRecord
        #expect(tree.nodes.map(\.actionName) == ["Hello", ", world", " there"])
        #expect(tree.roots == [1] && tree.nodes[0].children == [2, 3])
        #expect(tree.current == 3 && tree.redoPath.isEmpty)
    }

    @Test func withoutBranchesTheTreeIsTheStacks() {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.step("1")
        model.step("2")
        model.step("3")
        model.undo()
        model.undo()
        #expect(model.treeRecord.current == 1 && model.treeRecord.redoPath == [2, 3])
        model.step("4")  // Apple: the redo steps are gone
        #expect(model.names(model.treeRecord.nodes.map(\.id)) == ["1", "4"])
    }

    @Test func goToUndoesToTheSharedNodeThenRedoes() {
        let model = ModelBased.Reference.withBranches()
        model.step("Hello")
        model.step(", world")
        model.undo()
        model.step(" there")
        _ = model.takeEvents()
        model.go(to: model.node(named: ", world"))
        let kinds = model.takeEvents().filter { $0.hasPrefix("W") || $0.hasPrefix("D") }
        #expect(kinds == ["WU[0,undoing]", "DU[0,undoing]", "WR[0,redoing]", "DR[0,redoing]"])
        #expect(model.treeRecord.current == 2)
        model.undo()
        #expect(model.redoActionName == ", world")  // redo follows the branch go(to:) took
        model.go(to: nil)
        #expect(model.treeRecord.current == nil && model.names(model.treeRecord.redoPath) == ["Hello", ", world"])
    }

    @Test func chronologicalStepsFollowTheIDs() {
        // UndoManager+HistoryTree.swift: "a, b; undo; c: the states in time are start, a, a+b, a+c".
        let model = ModelBased.Reference.withBranches()
        model.step("a")
        model.step("b")
        model.undo()
        model.step("c")
        model.goToEarlierState()
        #expect(model.treeRecord.current == model.node(named: "b"))
        model.goToEarlierState()
        #expect(model.treeRecord.current == model.node(named: "a"))
        model.goToLaterState()
        model.goToLaterState()
        #expect(model.treeRecord.current == model.node(named: "c"))
        model.goToLaterState()  // nothing later
        #expect(model.treeRecord.current == model.node(named: "c"))
    }

    @Test func levelsOfUndoTrimsTheLeastRecentlyVisitedLeafFirst() {
        // HistoryTreeInteractionTests.levelsCountTheTree, step by step.
        let model = ModelBased.Reference.withBranches()
        model.setLevelsOfUndo(4)
        model.step("1")
        model.step("2")
        model.undo()
        model.step("3")
        model.undo()
        model.step("4")
        model.step("5")  // five nodes: 2, the least recently visited leaf, goes
        #expect(model.treeRecord.nodes.map(\.actionName) == ["1", "3", "4", "5"])
        model.step("6")  // 3 next; never 1, 4 or 5, the path
        #expect(model.treeRecord.nodes.map(\.actionName) == ["1", "4", "5", "6"])
        model.step("7")  // only the path is left: its oldest step goes
        #expect(model.treeRecord.nodes.map(\.actionName) == ["4", "5", "6", "7"])
    }

    @Test func theCleanMarkOnABranchComesBackWithGoTo() {
        let model = ModelBased.Reference.withBranches()
        model.step("1")
        model.markClean()
        model.undo()
        model.step("2")  // step 1 and the mark on a branch
        #expect(!model.isClean && model.cleanBranchNode == 1)
        model.go(to: 1)
        #expect(model.isClean)
    }

    @Test func turningBranchesOffDropsThemAndKeepsBothStacks() {
        let model = ModelBased.Reference.withBranches()
        model.step("1")
        model.step("2")
        model.undo()
        model.step("3")
        model.undo()
        model.setKeepsRedoBranches(false)
        #expect(model.treeRecord.nodes.map(\.actionName) == ["1", "3"])
        #expect(model.redoActionName == "3")
    }
}

// Issue 26: the reference model's costs, commands and endEventGroup() on the examples and rules
// of LimitingUndoMemory.md, CoalescingSteps.md, UsingCommands.md and GroupingAndTheEventLoop.md,
// without UndoKit.

extension ModelBased.Reference {
    /// One step: a group around one ping-pong action on target 0, with `cost`.
    func step(costing cost: Int, name: String = "", key: String? = nil) {
        beginUndoGrouping()
        registerPingPong()
        setActionCost(cost)
        if !name.isEmpty { setActionName(name) }
        if let key { setActionCoalescingKey(key) }
        endUndoGrouping()
    }
}

@Suite("ModelBased reference model follows the cost and command docs")
struct ModelBasedReferenceCostAndCommandTests {
    @Test func aStepOverTheBudgetStaysAloneUntilTheNextCloses() {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.setActionCostLimit(10)
        model.step(costing: 4)
        model.step(costing: 20)  // over the budget: the older step goes, this one stays
        #expect(model.undoStack.count == 1 && model.totalActionCost == 20)
        model.step(costing: 1)
        #expect(model.undoStack.count == 1 && model.totalActionCost == 1)
    }

    @Test func settingTheLimitKeepsTheNewestClosedStep() {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.step(costing: 8)
        model.step(costing: 8)
        model.beginUndoGrouping()
        model.setActionCost(30)  // the open group counts in the total, but is never dropped
        #expect(model.totalActionCost == 46)
        model.setActionCostLimit(5)
        #expect(model.undoStack.closedCount == 1 && model.totalActionCost == 38)
    }

    @Test func theCostTravelsWithTheStepAndCallsWhileUndoingAreIgnored() {
        let model = ModelBased.Reference.withTarget()
        model.register(
            ModelBased.Action(targetID: 0, setTo: 1, remaining: nil, innerName: nil, innerDiscardable: nil, innerCost: 99))
        model.setActionCost(7)
        model.tick(.standard)
        model.undo()
        #expect(model.totalActionCost == 0 && model.redoStack.topInfo?.cost == 7)
        model.redo()
        #expect(model.totalActionCost == 7 && model.redoStack.isEmpty)
    }

    @Test func aMergedStepCostsTheSumOfBoth() {
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.step(costing: 3, key: "typing")
        model.step(costing: 4, key: "typing")
        #expect(model.undoStack.count == 1 && model.totalActionCost == 7)
    }

    @Test func commandsExecuteNowUndoAndRedoAndNameTheirGroup() {
        let model = ModelBased.Reference.withTarget()
        model.perform(.nudge(amount: 5), targetID: 0)
        model.perform(.assign(value: 40, name: "Set"), targetID: 0)
        #expect(model.targets[0]?.value == 40 && model.undoActionName == "Set")
        model.perform(.nudge(amount: 2), targetID: 0)  // no name: "Set" stays
        model.tick(.standard)
        #expect(model.targets[0]?.value == 42 && model.undoActionName == "Set")
        model.undo()  // newest first: -2, back to 5, -5
        #expect(model.targets[0]?.value == 0 && model.redoActionName == "Set")
        #expect(model.targets[0]?.log.map(\.value) == [5, 40, 42, 40, 5, 0])
        model.redo()
        #expect(model.targets[0]?.value == 42 && model.undoActionName == "Set")
    }

    @Test func aCommandRecordsAfreshInEachExecute() {
        // "Redo runs execute on the state that undo left": Assign records what it replaces
        // each time, so a change between undo and redo is what the next undo puts back.
        let model = ModelBased.Reference.withTarget()
        model.groupsByEvent = false
        model.beginUndoGrouping()
        model.perform(.assign(value: 10, name: ""), targetID: 0)
        model.endUndoGrouping()
        model.undo()
        model.targets[0]?.value = 3  // behind the manager's back
        model.redo()
        model.undo()
        #expect(model.targets[0]?.value == 3)
    }

    @Test func endEventGroupClosesOnlyTheAutomaticGroup() {
        let model = ModelBased.Reference.withTarget()
        model.registerPingPong()
        model.beginUndoGrouping()  // nested in the automatic group: nothing to close
        #expect(!model.endEventGroup())
        model.endUndoGrouping()
        #expect(model.endEventGroup() && !model.autoPending && model.undoStack.closedCount == 1)
        model.registerPingPong()
        model.endUndoGrouping()  // closed by hand: no automatic group open any more
        model.beginUndoGrouping()
        #expect(!model.endEventGroup() && model.undoStack.nesting == 1)
    }
}

// Issue 26: the reference coordinator on the examples of CoordinatingUndoManagers.md and
// UndoCoordinator's doc comments, without UndoKit.

extension ModelBased.CoordinatorReference {
    /// Three attached members with one target each (id 0).
    static func withMembers(_ count: Int) -> ModelBased.CoordinatorReference {
        let coordinator = ModelBased.CoordinatorReference(members: (0..<count).map { _ in .withTarget() })
        for slot in 0..<count {
            coordinator.attach(slot)
        }
        return coordinator
    }

    /// Member `slot` types: a ping-pong registration named `name`.
    func type(_ name: String, in slot: Int) {
        members[slot].registerPingPong()
        members[slot].setActionName(name)
    }
}

@Suite("ModelBased reference model follows the coordinator docs")
struct ModelBasedReferenceCoordinatorTests {
    @Test func undoAndRedoFollowTheOrderOfEditsAcrossManagers() {
        let coordinator = ModelBased.CoordinatorReference.withMembers(3)
        coordinator.type("Milk", in: 0)
        coordinator.tick()
        coordinator.type("Eggs", in: 1)
        coordinator.tick()
        coordinator.type(", tea", in: 0)
        coordinator.tick()
        #expect(coordinator.undoActionNames == [", tea", "Eggs", "Milk"])
        coordinator.undo()
        coordinator.undo()
        #expect(coordinator.members[0].undoActionName == "Milk" && coordinator.members[1].undoStack.isEmpty)
        #expect(coordinator.redoActionNames == ["Eggs", ", tea"] && coordinator.redoMenuItemTitle == "Redo Eggs")
        coordinator.redo()
        #expect(coordinator.undoActionName == "Eggs")
    }

    @Test func anEditStillOpenIsTheMostRecentStep() {
        let coordinator = ModelBased.CoordinatorReference.withMembers(2)
        coordinator.type("Hello", in: 0)
        coordinator.tick()
        coordinator.type("World", in: 1)  // still open
        #expect(coordinator.canUndo && coordinator.undoActionName == "World")
        #expect(coordinator.undoActionNames == ["Hello"])  // open groups are not listed
        coordinator.undo()
        #expect(coordinator.members[1].undoStack.isEmpty && coordinator.members[0].undoActionName == "Hello")
    }

    @Test func aNewEditInAnyManagerEndsRedoForAll() {
        let coordinator = ModelBased.CoordinatorReference.withMembers(2)
        coordinator.type("A", in: 0)
        coordinator.tick()
        coordinator.undo()
        #expect(coordinator.canRedo && coordinator.members[0].redoStack.count == 1)
        coordinator.type("B", in: 1)
        #expect(!coordinator.canRedo && coordinator.members[0].redoStack.count == 0)
    }

    @Test func aManagerUndoneDirectlyMovesItsStep() {
        let coordinator = ModelBased.CoordinatorReference.withMembers(2)
        coordinator.type("A", in: 0)
        coordinator.tick()
        coordinator.type("B", in: 1)
        coordinator.tick()
        coordinator.members[0].undo()  // not through the coordinator
        #expect(coordinator.undoActionNames == ["B"] && coordinator.redoActionNames == ["A"])
        coordinator.redo()
        #expect(coordinator.undoActionNames == ["A", "B"])
    }

    @Test func anAttachedHistoryIsOlderThanEverything() {
        let coordinator = ModelBased.CoordinatorReference(members: [.withTarget(), .withTarget()])
        coordinator.attach(0)
        coordinator.type("Later", in: 1)  // before member 1 is attached...
        coordinator.tick()
        coordinator.type("Earlier", in: 0)
        coordinator.tick()
        coordinator.attach(1)  // ...but its step joins as the oldest
        #expect(coordinator.undoActionNames == ["Earlier", "Later"])
        coordinator.detach(1)
        #expect(coordinator.undoActionNames == ["Earlier"] && coordinator.members[1].undoStack.count == 1)
    }
}
