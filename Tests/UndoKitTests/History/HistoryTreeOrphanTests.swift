import Testing
import UndoKit

// Found by the model-based test (issue 20): a step can leave the tree through undo or redo
// (its undo registered nothing, its target is gone, registration is disabled, or a redo
// nested in an open group consumed it). The branch steps below it kept it as their parent,
// a node the tree no longer has: `UndoTree.roots` ("the nodes ... whose parent is nil") then
// listed nodes whose parent is not nil, `tree[node.parent!]` stopped the program, and so did
// `go(to:)` such a node ("node #n is not in this manager's history", naming the parent). They
// now move up to the parent of the step that left, as they do below a step emptied by
// removal (HistoryTreeTests, "removeAllActions(withTarget:) prunes every branch; a branch
// step it empties leaves its children to its parent").

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
        #expect(tree.nodes.allSatisfy { node in node.parent.map { tree.node($0) != nil } ?? true })
        #expect(tree.roots.allSatisfy { tree[$0].parent == nil })
        #expect(tree.roots.count == 2)
    }

    @Test("go(to:) a node below the step that left")
    func goBelowAStepThatLeft() throws {
        let (manager, document) = Self.branchBelowAStepThatLeft()
        manager.go(to: try #require(manager.historyTree.nodes.first { $0.actionName == "Add 1" }))
        #expect(document.items == [1])
    }

    /// A redo with registration disabled leaves its changes with no step to undo them: the
    /// redone step leaves the tree, and the branch below it moves up to the current node.
    @Test("a redo with registration disabled takes its step out; the branch below it moves up")
    func unrecordedRedoMovesTheBranchUp() throws {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)  // "Add 2" is a branch below "Add 1"
        manager.undo()
        manager.undo()  // back at the start; redo would perform "Add 1"
        manager.disableUndoRegistration()
        manager.redo()  // "Add 1" is applied with no step: it leaves the tree
        manager.enableUndoRegistration()
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName).sorted() == ["Add 2", "Add 3"])
        #expect(tree.nodes.allSatisfy { $0.parent == nil })
        #expect(tree.roots.count == 2)
        manager.go(to: try #require(tree.nodes.first { $0.actionName == "Add 2" }))
        #expect(document.items == [1, 2])
    }

    /// A redo nested in an open group puts the redone step's actions in that group: the
    /// step leaves the tree, and the branch below it moves up to the current node.
    @Test("a redo nested in an open group takes its step out; the branch below it moves up")
    func nestedRedoMovesTheBranchUp() throws {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)  // "Add 2" is a branch below "Add 1"
        manager.undo()
        manager.undo()
        manager.beginUndoGrouping()
        manager.redo()  // "Add 1" joins the open group
        manager.endUndoGrouping()  // a new step, with "Add 1"'s actions
        let tree = manager.historyTree
        let branch = tree.nodes.first { $0.actionName == "Add 2" }
        #expect(tree.nodes.allSatisfy { node in node.parent.map { tree.node($0) != nil } ?? true })
        #expect(branch?.parent == nil)
        #expect(tree.roots.count == 2)
        // Below the start now: going there undoes the new step (1 goes with it), then redoes 2.
        manager.go(to: try #require(branch))
        #expect(document.items == [2])
    }
}
