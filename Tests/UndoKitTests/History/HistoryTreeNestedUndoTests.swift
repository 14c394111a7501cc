import Testing
import UndoKit

// Found by the model-based test (issue 20): `undoNestedGroup()` with a group open builds a
// redo step from the open parent's metadata (spec R19.6, Apple's TM quirk), and that
// metadata has no history-tree node (an open group never has one). The docs say every
// top-level step is a node with an id (NavigatingTheHistory.md, "Drawing the tree"), that
// `redoPath` lists the redo steps (`tree.redoPath.map { tree[$0].actionName } ==
// manager.redoActionNames`), and that reading `historyTree` posts nothing; the read used to
// stop the program when the parent was named, and leave the step out when it was not. The
// step is now recorded as a new node below the current one when the undo builds it.

@Suite("History tree: the redo step a nested undo builds")
struct HistoryTreeNestedUndoTests {
    /// One closed step "First", then a group (named `outerName`) left open around a closed
    /// nested group, which `undoNestedGroup()` undoes: the redo stack gets one step.
    private static func undoNestedGroupInsideOpenGroup(outerName: String?) -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        _ = manager.historyTree  // records the tree from the first step
        let document = TreeDocument(manager: manager)
        manager.beginUndoGrouping()
        manager.setActionName("First")
        document.append(1)
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        if let outerName {
            manager.setActionName(outerName)
        }
        document.append(2)
        manager.beginUndoGrouping()
        document.append(3)
        manager.endUndoGrouping()
        manager.undoNestedGroup()
        return (manager, document)
    }

    @Test("an unnamed open parent: the redo step is missing from the tree")
    func unnamedParent() {
        let (manager, document) = Self.undoNestedGroupInsideOpenGroup(outerName: nil)
        #expect(document.items == [1, 2])
        #expect(manager.redoActionNames == [""])
        let tree = manager.historyTree
        #expect(tree.redoPath.count == 1)
        #expect(tree.nodes.count == 2)
        if let step = tree.redoPath.first {
            #expect(tree[step].parent == tree.current)
        }
    }

    @Test("a named open parent: the redo step is a node named after it")
    func namedParent() {
        let (manager, _) = Self.undoNestedGroupInsideOpenGroup(outerName: "Outer")
        let tree = manager.historyTree
        #expect(tree.redoPath.map { tree[$0].actionName } == manager.redoActionNames)
        #expect(tree.nodes.map(\.actionName) == ["First", "Outer"])
    }

    /// A redo nested in the open group gives it the redone step's metadata, node included;
    /// a nested undo then copies that node again. The redone step left the tree, and its id
    /// must not come back as the new redo step's.
    @Test("a nested undo after a nested redo records a new node, not the redone step's")
    func nestedUndoAfterNestedRedo() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        _ = manager.historyTree
        let document = TreeDocument(manager: manager)
        document.add(1)
        document.add(2)
        manager.undo()
        let redone = manager.historyTree.redoPath[0]
        manager.beginUndoGrouping()
        manager.redo()  // "Add 2" joins the open group and leaves the tree
        manager.beginUndoGrouping()
        document.append(3)
        manager.endUndoGrouping()
        manager.undoNestedGroup()  // builds a redo step from the open group's metadata
        let tree = manager.historyTree
        #expect(document.items == [1, 2])
        #expect(tree.redoPath.count == 1)
        #expect(tree.redoPath.first.map { $0 != redone && $0.rawValue > redone.rawValue } == true)
        #expect(tree.redoPath.map { tree[$0].actionName } == manager.redoActionNames)
        manager.endUndoGrouping()
    }

    private struct Failure: Error {}

    /// The rollback of a nested `withUndoGroup` undoes its group with a nested undo, whose
    /// redo step it then drops: that step is never part of the history, and the ids of the
    /// steps after it are the ones they would have had without the scope.
    @Test("a rolled-back nested scope spends no node id on the redo step it drops")
    func rolledBackNestedScopeSpendsNoID() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        _ = manager.historyTree
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.beginUndoGrouping()
        try? manager.withUndoGroup(named: nil) {
            document.append(2)
            throw Failure()
        }
        manager.endUndoGrouping()  // an empty step
        document.add(3)
        let tree = manager.historyTree
        #expect(document.items == [1, 3])
        #expect(tree.nodes.map(\.id.rawValue) == [1, 2, 3])
        #expect(tree.redoPath.isEmpty)
    }
}
