import Foundation
import Testing
import UndoKit

// Found by the model-based test (issue 20): coalescing with branches kept. A group with a
// key merges into the step below "if nothing was undone, redone or removed in between
// (including levelsOfUndo or actionCostLimit trimming by their setters)"
// (CoalescingSteps.md); trimming done by a close does not end the run, as on Apple platforms.

@Suite("History tree: coalescing")
struct HistoryTreeCoalescingTests {
    private struct Failure: Error {}

    private static func makeManager() -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let now = ContinuousClock.now
        manager.coalescingClock = { now }  // every group closes within the interval
        return (manager, TreeDocument(manager: manager))
    }

    /// A keystroke: a group with the coalescing key "typing".
    private static func type(_ value: Int, into document: TreeDocument) {
        document.manager.beginUndoGrouping()
        document.manager.setActionCoalescingKey("typing")
        document.append(value)
        document.manager.endUndoGrouping()
    }

    /// The tree's trimming ended the run whenever it dropped the oldest step of the path,
    /// which with `levelsOfUndo` reached happens at every new step: typing stopped merging.
    @Test("a keystroke whose close trims the oldest step still merges the next one")
    func trimmingAtACloseKeepsTheRun() {
        let (manager, document) = Self.makeManager()
        manager.levelsOfUndo = 2
        document.add(1)
        document.add(2)
        Self.type(3, into: document)  // three steps: the oldest goes
        Self.type(4, into: document)  // merges into the step of 3
        #expect(manager.undoActionNames.count == 2)
        manager.undo()
        #expect(document.items == [1, 2])
    }

    @Test("removing actions from a branch step ends the run, as removing them from the stacks does")
    func removalFromABranchEndsTheRun() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        other.add(10)
        manager.undo()
        Self.type(1, into: document)  // other's step is now on a branch
        manager.removeAllActions(withTarget: other)
        Self.type(2, into: document)
        #expect(manager.undoCount == 2)
    }

    /// A rolled-back `withUndoGroup` restores the run unless its body removed or trimmed older
    /// steps; a branch step is older than the scope's group.
    @Test("removing actions from a branch step in a rolled-back withUndoGroup ends the run")
    func removalFromABranchInARolledBackScopeEndsTheRun() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        other.add(10)
        manager.undo()
        Self.type(1, into: document)
        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: nil) {
                manager.removeAllActions(withTarget: other)
                document.append(99)
                throw Failure()
            }
        }
        #expect(manager.historyTree.nodes.count == 1)  // the removal stays
        Self.type(2, into: document)
        #expect(manager.undoCount == 2)
    }

    /// The `levelsOfUndo` setter ended the run only when the undo stack lost a step, not when
    /// it trimmed only branch steps or the end of the redo path.
    @Test("the levelsOfUndo setter trimming a branch step ends the run")
    func setterTrimmingABranchEndsTheRun() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        other.add(10)
        manager.undo()
        Self.type(1, into: document)  // other's step is now on a branch
        manager.levelsOfUndo = 1  // which goes
        #expect(manager.historyTree.nodes.count == 1)
        Self.type(2, into: document)  // a step of its own; its close trims the step of 1
        #expect(manager.undoCount == 1)
        manager.undo()
        #expect(document.items == [1])  // merged, the undo would have taken 1 too
    }

    @Test("the actionCostLimit setter trimming a branch step ends the run")
    func costLimitSetterTrimmingABranchEndsTheRun() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        manager.beginUndoGrouping()
        other.append(10)
        manager.setActionCost(100)
        manager.endUndoGrouping()
        manager.undo()
        Self.type(1, into: document)  // other's step is now on a branch
        manager.actionCostLimit = 50  // which goes
        #expect(manager.historyTree.nodes.count == 1)
        Self.type(2, into: document)
        #expect(manager.undoCount == 2)
    }

    /// A rolled-back `withUndoGroup` restores the run unless its body removed or trimmed older
    /// steps; a branch step is older than the scope's group.
    @Test("the levelsOfUndo setter trimming a branch step in a rolled-back withUndoGroup ends the run")
    func setterTrimmingABranchInARolledBackScopeEndsTheRun() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        other.add(10)
        manager.undo()
        Self.type(1, into: document)  // other's step is now on a branch
        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: nil) {
                document.append(99)
                manager.levelsOfUndo = 2  // the scope's open group counts: the branch step goes
                throw Failure()
            }
        }
        #expect(manager.historyTree.nodes.count == 1)  // the trimming stays
        Self.type(2, into: document)
        #expect(manager.undoCount == 2)
    }
}
