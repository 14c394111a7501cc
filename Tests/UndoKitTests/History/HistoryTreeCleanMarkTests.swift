import Testing
import UndoKit

// Found by the model-based test (issue 20): the clean mark while it lies on a branch. The
// docs: "isClean is true exactly when the manager is at the marked position", and a
// removal, trimming, or an undo or redo that leaves no way back makes the mark unreachable
// when it takes a step between the mark and the current position (TrackingTheCleanState.md);
// with branches, the mark on a branch "comes back when go(to:) reaches it".

@Suite("History tree: the clean mark on a branch")
struct HistoryTreeCleanMarkTests {
    private static func makeManager() -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        return (manager, TreeDocument(manager: manager))
    }

    private static func node(named name: String, in manager: UndoManager) throws -> UndoTree.Node {
        try #require(manager.historyTree.nodes.first { $0.actionName == name })
    }

    @Test("removing the step between the current node and a mark on a branch loses the mark")
    func removalBetweenTheCurrentNodeAndTheMark() throws {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        document.add(1)
        manager.markClean()  // saved: document [1], other []
        manager.undo()
        other.add(5)  // the marked step is now on a branch
        manager.removeAllActions(withTarget: other)  // its step goes, its change stays
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(other.items == [5])
        #expect(!manager.isClean)
    }

    /// `markClean()` set the mark on the stacks but left an earlier mark lying on a branch
    /// in place, and `go(to:)` brought that one back: there is one mark, and the new one
    /// replaces it.
    @Test("markClean() moves the mark: an earlier mark on a branch does not come back")
    func markCleanForgetsAnEarlierMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        manager.markClean()  // saved: [1]
        manager.undo()
        document.add(2)  // step 1 and its mark on a branch
        manager.goToStart()
        manager.markClean()  // saved: []
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(!manager.isClean)
        manager.goToStart()
        #expect(manager.isClean)
    }

    private struct Failure: Error {}

    /// A rolled-back `withUndoGroup` leaves the clean mark as it found it (spec J.2): a
    /// `markClean()` in its body does not take away a mark lying on a branch.
    @Test("a rolled-back withUndoGroup that marked clean puts the mark on the branch back")
    func rolledBackMarkCleanKeepsTheMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        manager.markClean()  // saved: [1]
        manager.undo()
        document.add(2)  // step 1 and its mark on a branch
        try? manager.withUndoGroup(named: nil) {
            document.append(3)
            manager.markClean()
            throw Failure()
        }
        #expect(document.items == [2])
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(manager.isClean)
    }

    /// What the body removed stays removed, and so does its effect on the mark.
    @Test("a rolled-back withUndoGroup whose removal cut the path to the mark on a branch keeps it lost")
    func rolledBackRemovalKeepsTheMarkLost() throws {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        document.add(1)
        manager.markClean()  // saved: document [1], other []
        manager.undo()
        other.add(5)  // the marked step is now on a branch
        try? manager.withUndoGroup(named: nil) {
            manager.removeAllActions(withTarget: other)  // "Add 5" goes, its change stays
            throw Failure()
        }
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(other.items == [5])
        #expect(!manager.isClean)
    }

    /// An empty group is a new edit too (spec R10.6): the steps it takes off the redo path
    /// become a branch, and a mark among them stays with them, as it does for a new edit
    /// with actions (HistoryTreeInteractionTests, "the clean mark on a branch comes back when
    /// go(to:) reaches it"). The close used to move the mark below the new step, losing it,
    /// before those steps became a branch; spec R10 ends redo (step 6) before the close
    /// (step 7).
    @Test("an empty step after undoing past the mark keeps the mark on the branch")
    func emptyStepKeepsTheMarkOnTheBranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        manager.markClean()
        manager.undo()
        manager.beginUndoGrouping()
        manager.setActionName("Empty")
        manager.endUndoGrouping()
        #expect(manager.historyTree.nodes.count == 2)
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(manager.isClean)
    }

    /// "Redoing with registration disabled, away from the mark (no step to undo it)" makes
    /// the mark unreachable; UndoKit applied that rule (and the other undo and redo ones) to
    /// a mark on the stacks only.
    @Test("a redo with registration disabled, away from a mark on a branch, makes it unreachable")
    func unrecordedRedoAwayFromAMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        manager.markClean()  // saved: [1]
        manager.undo()
        document.add(2)  // step 1 and its mark on a branch
        manager.undo()
        manager.disableUndoRegistration()
        manager.redo()  // 2 is back, with no step to undo it
        manager.enableUndoRegistration()
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [2, 1])
        #expect(!manager.isClean)
    }

    /// Unrecorded, a redo toward the mark still gets there: its changes stay in place.
    @Test("a redo with registration disabled, toward a mark on a branch below it, keeps the mark")
    func unrecordedRedoTowardAMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        document.add(2)
        manager.markClean()  // saved: [1, 2]
        manager.undo()
        document.add(3)  // step 2 and its mark on a branch below step 1
        manager.undo()
        manager.undo()  // at the start; redo performs step 1
        manager.disableUndoRegistration()
        manager.redo()  // 1 is back, with no step to undo it
        manager.enableUndoRegistration()
        manager.go(to: try Self.node(named: "Add 2", in: manager))
        #expect(document.items == [1, 2])
        #expect(manager.isClean)
    }

    /// "Undoing past the mark with a step whose actions registered no inverse (nothing to
    /// redo)" makes it unreachable, on a branch below that step too.
    @Test("an undo that leaves nothing to redo, above a mark on a branch, makes it unreachable")
    func undoLeavingNothingToRedoAboveAMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        manager.beginUndoGrouping()
        manager.setActionName("A")
        manager.registerUndo(withTarget: document) { _ in }  // registers no inverse
        manager.endUndoGrouping()
        document.add(1)
        manager.markClean()  // saved: after A and 1
        manager.undo()
        document.add(2)  // step 1 and its mark on a branch below A
        manager.undo()
        manager.undo()  // A leaves the tree
        manager.go(to: try Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(!manager.isClean)
    }

    /// "The rare nested undo or redo inside an open group while the mark needs redos": a
    /// redo nested in an open group takes its step off the tree, and a mark below it with it.
    @Test("a redo nested in an open group, above a mark on a branch, makes it unreachable")
    func nestedRedoAboveAMarkOnABranch() throws {
        let (manager, document) = Self.makeManager()
        document.add(1)
        document.add(2)
        manager.markClean()  // saved: [1, 2]
        manager.undo()
        document.add(3)  // step 2 and its mark on a branch below step 1
        manager.undo()
        manager.undo()
        manager.beginUndoGrouping()
        manager.redo()  // step 1's actions join the open group
        manager.endUndoGrouping()
        manager.undo()
        manager.go(to: try Self.node(named: "Add 2", in: manager))
        #expect(document.items == [2])
        #expect(!manager.isClean)
    }
}
