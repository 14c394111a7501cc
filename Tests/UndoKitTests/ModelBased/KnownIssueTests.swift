import Testing
@testable import UndoKit

// Issue 26: disagreements between the reference model and UndoKit in which the docs side with
// the model. UndoKit is left as it is; each is reproduced here, minimally, as a known issue,
// and the randomized tests skip the steps that would hit it (`Reference.knownBugHit`,
// `SideBySide.apply(_:toModel:)`, and a skip reason for a bug the model predicts before the
// step), so that they keep checking everything else. When a fix lands, the known issue stops
// being recorded, Swift Testing reports that, and the wrapper and the model's steering go.

extension ModelBased {
    /// The known UndoKit bugs, by the name the randomized tests report.
    enum KnownBug {
        /// An undo whose redo group stays empty (the undone actions registered nothing, or
        /// their target is gone) discards that group, but the cost it copied from the undone
        /// step stays in the redo stack's running total. In debug builds UndoKit's own
        /// invariant check then stops the program inside `undo()` ("UndoStack: totalCost 5,
        /// groups say 0"); in release builds the redo stack's total stays too high, and that
        /// total is what `actionCostLimit` counts for a manager that keeps branches.
        static let discardedRedoGroupKeepsCost = "the cost of a discarded redo group stays in the redo stack's total"

        /// `endEventGroup()` closes an explicit group begun after the event's automatic group
        /// was closed by hand (`endUndoGrouping()` at level 1, then `beginUndoGrouping()`),
        /// and returns `true`; its documentation says it returns `false`, having done nothing,
        /// when no automatic group is open ("or the group was already closed").
        static let endEventGroupClosesAnExplicitGroup = "endEventGroup() closes an explicit group once the automatic group was closed by hand"

        /// With `keepsRedoBranches`, trimming by `actionCostLimit` counts a group still open as
        /// a node when it keeps "at least one": with one closed step and a group open, setting
        /// the limit (or any trim of the tree while the group is open) drops that step.
        /// LimitingUndoMemory.md: "setting the limit trims at once, keeping at least the newest
        /// closed step"; a single step over the budget "stays, alone".
        /// When a new edit in one coordinated manager makes the coordinator clear another
        /// member's redo stack, that member's clean mark, which needed those redos, is not made
        /// unreachable: UndoKit's debug invariant check stops the program ("clean mark -1 steps
        /// away, beyond the stacks"); in release builds the member can later report clean in a
        /// state it was never saved in.
        static let coordinatorClearingKeepsCleanMark = "a coordinator clearing a member's redo steps keeps the clean mark they led to"

        /// When a manager's automatic group is closed before the end of the event (by
        /// `endEventGroup()`, `undo()`, or the coordinator's own `undo()` and `redo()`) and the
        /// manager opens another one in the same event, the shared run loop's tick closes that
        /// new group where the manager's first group of the event would have closed, so a
        /// coordinator orders it before groups other managers opened in between: the coordinated
        /// order then differs from the order the groups opened, which `UndoCoordinator.undo()`
        /// follows when it ends the event itself ("oldest automatic group first"), and from the
        /// order the user edited.
        static let tickOrderFollowsFirstArming = "a tick closes a group opened again in the event at the place of the manager's first one"

        /// The coordinator's `undoActionName` and `undoMenuItemTitle` name the event group that
        /// opened last even when that group, once closed, merges into its manager's previous
        /// step by coalescing, which keeps its older place in the order
        /// (CoalescingSteps.md): `undo()` then reverts another step than the one named.
        static let coordinatorNameIgnoresCoalescing = "the coordinator names an open group that will merge into an older step"

        static let costTrimCountsTheOpenGroup = "with branches, the cost limit drops the last closed step while a group is open"
    }
}

@Suite("ModelBased known UndoKit issues")
struct ModelBasedKnownIssueTests {
    /// LimitingUndoMemory.md: the cost "travels with the step through undo and redo"; a step
    /// whose undo leaves nothing to redo leaves both stacks ("it disappears from both lists",
    /// ListingTheHistory.md), so its cost must leave both totals.
    @Test("Undoing a costed step that leaves no redo step keeps the stacks' totals consistent")
    func undoingACostedStepThatLeavesNoRedoStep() async {
        await withKnownIssue(Comment(rawValue: ModelBased.KnownBug.discardedRedoGroupKeepsCost)) {
            await #expect(processExitsWith: .success) {
                final class Model {}
                let model = Model()
                let manager = UndoManager()
                manager.registerUndo(withTarget: model) { _ in }   // registers no redo
                manager.setActionCost(5)
                manager.runLoop.tick()
                manager.undo()   // debug builds: UndoKit's invariant check stops the program here
                manager.checkInvariants()
                precondition(manager.totalActionCost == 0 && !manager.canUndo && !manager.canRedo)
            }
        }
    }

    /// The same bug, reached through a rollback of ``UndoManager/withUndoGroup(named:_:)``
    /// ("the clean mark and the costs are as before", GroupingAndTheEventLoop.md): the
    /// rollback's undo copies the scope's cost to a redo group that stays empty.
    @Test("A rolled-back scope that set a cost leaves the costs as before")
    func rollingBackAScopeThatSetACost() async {
        await withKnownIssue(Comment(rawValue: ModelBased.KnownBug.discardedRedoGroupKeepsCost)) {
            await #expect(processExitsWith: .success) {
                struct Failure: Error {}
                let manager = UndoManager()
                manager.groupsByEvent = false
                try? manager.withUndoGroup(named: "Import") {
                    manager.setActionCost(5)
                    throw Failure()   // debug builds: the rollback stops the program
                }
                manager.checkInvariants()
                precondition(manager.totalActionCost == 0 && !manager.canUndo && !manager.canRedo)
            }
        }
    }

    /// `endEventGroup()`'s documentation: it returns `false`, having done nothing, "when no
    /// automatic group is open (nothing was registered in this event, or the group was
    /// already closed)".
    @Test("endEventGroup() leaves alone an explicit group begun after the automatic group was closed by hand")
    func endEventGroupAfterClosingTheAutomaticGroupByHand() {
        final class Model {}
        let model = Model()
        let manager = UndoManager()
        manager.registerUndo(withTarget: model) { _ in }   // opens the automatic group
        manager.endUndoGrouping()                          // closed by hand: the close stays armed
        manager.beginUndoGrouping()                        // an explicit group, level 1
        withKnownIssue(Comment(rawValue: ModelBased.KnownBug.endEventGroupClosesAnExplicitGroup)) {
            #expect(manager.endEventGroup() == false)
            #expect(manager.groupingLevel == 1)
            #expect(manager.undoCount == 1)
        }
    }

    /// LimitingUndoMemory.md: setting the limit "trims at once, keeping at least the newest
    /// closed step"; NavigatingTheHistory.md: with branches the limits count the tree's nodes.
    @Test("With branches, setting actionCostLimit while a group is open keeps the newest closed step")
    func costLimitWithBranchesAndAnOpenGroup() {
        final class Model {}
        let model = Model()
        let manager = UndoManager()
        manager.keepsRedoBranches = true
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: model) { _ in }
        manager.setActionCost(40)
        manager.endUndoGrouping()   // the only step, over the coming budget
        manager.beginUndoGrouping() // a group open, with nothing in it yet
        manager.actionCostLimit = 15
        withKnownIssue(Comment(rawValue: ModelBased.KnownBug.costTrimCountsTheOpenGroup)) {
            #expect(manager.historyTree.nodes.count == 1)
            #expect(manager.totalActionCost == 40)
        }
        manager.endUndoGrouping()
    }

    /// CoordinatingUndoManagers.md: the coordinator "acts as one manager spanning its
    /// members" and clears the other members' redo stacks on a new edit; TrackingTheCleanState
    /// .md: "a new edit after undoing past the mark (it clears the redo steps that led back to
    /// it)" makes the mark unreachable until the next markClean().
    @Test("A new edit in one coordinated manager makes a clean mark behind another's redo steps unreachable")
    func coordinatorClearingRedoStepsLosesTheirCleanMark() async {
        await withKnownIssue(Comment(rawValue: ModelBased.KnownBug.coordinatorClearingKeepsCleanMark)) {
            await #expect(processExitsWith: .success) {
                final class Model { var value = 0 }
                func set(_ model: Model, to value: Int, in manager: UndoManager) {
                    let old = model.value
                    model.value = value
                    manager.registerUndo(withTarget: model) { set($0, to: old, in: manager) }
                }
                let loop = SimulatedRunLoop()
                let first = UndoManager(runLoop: loop), second = UndoManager(runLoop: loop)
                let coordinator = UndoCoordinator()
                coordinator.attach(first)
                coordinator.attach(second)
                let a = Model(), b = Model()
                set(a, to: 1, in: first)
                loop.tick()
                first.markClean()   // saved with a == 1
                first.undo()        // a == 0: the mark needs the redo
                set(b, to: 1, in: second)   // debug builds: the coordinator's clearing stops the program
                loop.tick()
                set(a, to: 2, in: first)
                loop.tick()
                first.undo()        // a == 0 again, as after the first undo: not the saved state
                first.checkInvariants()
                precondition(!first.isClean, "a == \(a.value), never saved")
            }
        }
    }

    /// CoordinatingUndoManagers.md: the coordinator keeps the order in which the user edited;
    /// `UndoCoordinator.undo()` ends open event groups "in the order those groups opened, so
    /// the newest of them is what gets undone". A tick ending the same groups must give the
    /// same order. (The docs do not state a tick's order across managers; this is the
    /// reference model's reading of the coordinator's documented intent.)
    @Test("A tick closes the members' event groups in the order they opened")
    func tickClosesGroupsInTheOrderTheyOpened() {
        final class Model {}
        let model = Model()
        let loop = SimulatedRunLoop()
        let first = UndoManager(runLoop: loop), second = UndoManager(runLoop: loop)
        let coordinator = UndoCoordinator()
        coordinator.attach(first)
        coordinator.attach(second)
        first.registerUndo(withTarget: model) { _ in }
        first.setActionName("A1")
        first.endEventGroup()                 // first's step A1; its next group opens below
        second.registerUndo(withTarget: model) { _ in }
        second.setActionName("B")             // opens before A2
        first.registerUndo(withTarget: model) { _ in }
        first.setActionName("A2")             // opens last: the newest edit
        loop.tick()
        withKnownIssue(Comment(rawValue: ModelBased.KnownBug.tickOrderFollowsFirstArming)) {
            #expect(coordinator.undoActionNames == ["A2", "B", "A1"])
        }
    }

    /// UndoCoordinator.undoActionName: "The action name of the step undo() would revert";
    /// CoalescingSteps.md: the coordinator "keeps the merged step under the older group's
    /// place in its order".
    @Test("The coordinator names the step undo() reverts when an open group will merge into an older step")
    func coordinatorNameWithACoalescingGroupOpen() {
        final class Model {}
        let model = Model()
        let loop = SimulatedRunLoop()
        let first = UndoManager(runLoop: loop), second = UndoManager(runLoop: loop)
        let now = ContinuousClock.now
        first.coalescingClock = { now }
        let coordinator = UndoCoordinator()
        coordinator.attach(first)
        coordinator.attach(second)
        first.registerUndo(withTarget: model) { _ in }
        first.setActionName("Typing")
        first.setActionCoalescingKey("typing")
        second.registerUndo(withTarget: model) { _ in }
        second.setActionName("Move")
        loop.tick()                               // Typing, then Move
        first.registerUndo(withTarget: model) { _ in }
        first.setActionCoalescingKey("typing")    // will merge into Typing, below Move
        withKnownIssue(Comment(rawValue: ModelBased.KnownBug.coordinatorNameIgnoresCoalescing)) {
            #expect(coordinator.undoActionName == "Move")
            #expect(coordinator.undoMenuItemTitle == "Undo Move")
        }
        coordinator.undo()   // what it reverts is right: Move, the newest step
        #expect(second.undoCount == 0 && first.undoCount == 1)
    }
}
