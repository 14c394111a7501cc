import Testing
import UndoKit

// Found by the model-based test (issue 20): how the history tree's limits interact with the
// rest of the manager.

@Suite("History tree: limits")
struct HistoryTreeLimitsTests {
    private struct Failure: Error {}

    /// "Turning it off drops the branches; the undo and redo stacks stay" (doc of
    /// `keepsRedoBranches`). With the event's group open, the undo stack holds one group
    /// more than `levelsOfUndo` for a while, on Apple platforms too; it is trimmed when that
    /// group closes (spec R10 step 7), not when branches are turned off.
    @Test("turning branches off keeps both stacks, even over levelsOfUndo while a group is open")
    func turningOffKeepsTheStacks() {
        let manager = UndoManager()
        manager.keepsRedoBranches = true
        manager.levelsOfUndo = 1
        let document = TreeDocument(manager: manager)
        document.append(1)
        manager.runLoop.tick()
        document.append(2)  // the next event's group is open
        manager.keepsRedoBranches = false
        #expect(manager.undoActionNames.count == 1)
        manager.runLoop.tick()  // the close trims to one step, as on Apple platforms
        #expect(manager.undoActionNames.count == 1)
        manager.undo()
        #expect(document.items == [1])
    }

    /// `addCleanStateObserver(_:)`: "calls its observer with the new value each time isClean
    /// changes, and only then". The tree's trimming reported the change, and then the setter
    /// that trimmed reported it again.
    @Test("the clean-state observer hears once that trimming the tree lost the mark")
    func trimmingReportsTheCleanStateOnce() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.markClean()
        var heard: [Bool] = []
        let observation = manager.addCleanStateObserver { heard.append($0) }
        manager.beginUndoGrouping()  // an open group counts toward the limit (spec B)
        manager.levelsOfUndo = 1  // so the marked step goes
        #expect(!manager.isClean)
        #expect(heard == [false])
        withExtendedLifetime(observation) {}
    }

    /// Trimming the end of the redo path (which Apple's limits never do) left placeholders at
    /// the bottom of the redo stack; a throwing `withUndoGroup` parks the redo stack's entries
    /// and puts them back, placeholders included, after which the redo stack was corrupt (the
    /// manager's invariant check stopped the program in debug builds).
    @Test("a rolled-back withUndoGroup after the tree trimmed the end of the redo path")
    func rollbackAfterTrimmingTheRedoPath() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.undo()  // step 1 on the redo path
        manager.beginUndoGrouping()  // an open group counts toward the limit
        manager.levelsOfUndo = 1  // so the end of the redo path, step 1, goes
        manager.setActionName("Add 2")
        document.append(2)
        manager.endUndoGrouping()
        manager.undo()  // step 2 on the redo path
        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: "Fails") {
                document.append(3)
                throw Failure()
            }
        }
        #expect(document.items == [])
        #expect(manager.redoActionNames == ["Add 2"])
        manager.redo()
        #expect(document.items == [2])
    }
}
