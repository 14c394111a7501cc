import Testing
import UndoKit

// Found by the model-based test (issue 20): `undoNestedGroup()` with a group open builds a
// redo step from the open parent's metadata (spec R19.6, Apple's TM quirk), and that
// metadata has no history-tree node (an open group never has one), so the redo step is no
// node of the tree. The docs say every top-level step is a node with an id
// (NavigatingTheHistory.md, "Drawing the tree"), that `redoPath` lists the redo steps
// (`tree.redoPath.map { tree[$0].actionName } == manager.redoActionNames`), and that reading
// `historyTree` posts nothing; instead the read stops the program when the parent was named,
// and leaves the step out when it was not.
//
// The redo group is built in `undoNewestGroup` (UndoManager+UndoRedo.swift), a hot path this
// change may not touch, so the bug is recorded as a known issue: when it is fixed,
// `withKnownIssue` reports that the issue is gone, and these become plain tests.

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
        withKnownIssue("the redo step a nested undo builds has no node") {
            let tree = manager.historyTree
            #expect(tree.redoPath.count == 1)
            #expect(tree.nodes.count == 2)
            if let step = tree.redoPath.first {
                #expect(tree[step].parent == tree.current)
            }
        }
    }

    @Test("a named open parent: reading historyTree stops the program")
    func namedParent() async {
        await withKnownIssue("the redo step a nested undo builds has no node") {
            await #expect(processExitsWith: .success) {
                let (manager, _) = Self.undoNestedGroupInsideOpenGroup(outerName: "Outer")
                let tree = manager.historyTree
                precondition(tree.redoPath.map { tree[$0].actionName } == manager.redoActionNames)
                precondition(tree.nodes.map(\.actionName) == ["First", "Outer"])
            }
        }
    }
}
