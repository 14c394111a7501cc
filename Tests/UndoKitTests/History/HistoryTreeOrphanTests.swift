import Testing
import UndoKit

// Found by the model-based test (issue 20): a step can leave the tree through undo or redo
// (its undo registered nothing, its target is gone, registration is disabled, or a redo
// nested in an open group consumed it). The branch steps below it kept it as their parent,
// a node the tree no longer has: `UndoTree.roots` ("the nodes ... whose parent is nil") then
// lists nodes whose parent is not nil, `tree[node.parent!]` stops the program, and so does
// `go(to:)` such a node ("node #n is not in this manager's history", naming the parent). The
// expected tree moves them up to the parent of the step that left, as removal by target
// does (HistoryTreeTests, "removeAllActions(withTarget:) prunes every branch; a branch step
// it empties leaves its children to its parent").
//
// Which steps left is known only in undo and redo themselves (UndoManager+UndoRedo.swift, a
// hot path this change may not touch), so the bug is recorded as a known issue.

@Suite("History tree: branch steps below a step that left by undo")
struct HistoryTreeOrphanTests {
    /// A (whose undo registers nothing), then "Add 1" below it, undone, then "Add 2": "Add 1"
    /// is a branch below A. Undoing "Add 2" and then A takes A out of the tree.
    private static func branchBelowAStepThatLeft() -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        manager.beginUndoGrouping()
        manager.setActionName("A")
        manager.registerUndo(withTarget: document) { _ in }
        manager.endUndoGrouping()
        document.add(1)
        manager.undo()
        document.add(2)
        manager.undo()
        manager.undo()  // A's undo leaves nothing to redo: A leaves the tree
        return (manager, document)
    }

    @Test("every parent a node names is in the tree, and the roots have none")
    func parentsAreInTheTree() {
        let (manager, _) = Self.branchBelowAStepThatLeft()
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName).sorted() == ["Add 1", "Add 2"])
        withKnownIssue("a branch step keeps a parent that left the tree by undo") {
            #expect(tree.nodes.allSatisfy { node in node.parent.map { tree.node($0) != nil } ?? true })
            #expect(tree.roots.allSatisfy { tree[$0].parent == nil })
        }
    }

    @Test("go(to:) a node below the step that left")
    func goBelowAStepThatLeft() async {
        await withKnownIssue("go(to:) stops the program: the node's parent is not in the history") {
            await #expect(processExitsWith: .success) {
                let (manager, document) = Self.branchBelowAStepThatLeft()
                manager.go(to: manager.historyTree.nodes.first { $0.actionName == "Add 1" })
                precondition(document.items == [1])
            }
        }
    }
}
