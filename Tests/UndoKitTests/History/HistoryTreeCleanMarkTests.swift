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

    private static func node(named name: String, in manager: UndoManager) -> UndoTree.Node? {
        manager.historyTree.nodes.first { $0.actionName == name }
    }

    @Test("removing the step between the current node and a mark on a branch loses the mark")
    func removalBetweenTheCurrentNodeAndTheMark() {
        let (manager, document) = Self.makeManager()
        let other = TreeDocument(manager: manager)
        document.add(1)
        manager.markClean()  // saved: document [1], other []
        manager.undo()
        other.add(5)  // the marked step is now on a branch
        manager.removeAllActions(withTarget: other)  // its step goes, its change stays
        manager.go(to: Self.node(named: "Add 1", in: manager))
        #expect(document.items == [1])
        #expect(other.items == [5])
        #expect(!manager.isClean)
    }
}
