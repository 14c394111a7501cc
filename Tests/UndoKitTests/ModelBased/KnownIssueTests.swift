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
}
