import Testing
import UndoKit

// Found by the model-based test (issue 20's generator, master seed 10, script #2435), but
// not about the history tree: nested `withUndoGroup` scopes that both throw, the inner one
// removing a redo step on the way to the clean mark. The inner rollback leaves the mark
// unreachable, as it must (TrackingTheCleanState.md: removeAllActions(withTarget:) removing
// a step between the mark and the current position); the outer rollback then restored the
// distance it saved when it began, two redos with one redo step left, and the manager's
// invariant check stopped the program (debug builds). Spec J.2: a rollback leaves the state
// as before the call, less the actions the body removed. The inner rollback, which makes the
// removal again on the redo steps it puts back, now has the enclosing scopes that found the
// same redo steps judge it against their saved marks too.

@Suite("Scoped groups: a removal in a nested rolled-back scope and the clean mark")
struct ScopedGroupCleanMarkTests {
    private struct Failure: Error {}

    @Test("the outer rollback keeps the mark an inner scope's removal made unreachable")
    func nestedRollbackKeepsTheMarkUnreachable() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let one = TreeDocument(manager: manager)
        let two = TreeDocument(manager: manager)
        two.add(1)
        one.add(2)
        manager.markClean()  // saved: two [1], one [2]
        manager.undo()
        manager.undo()  // the mark is two redos away
        var afterInnerRollback: (isClean: Bool, redoActionNames: [String])?
        try? manager.withUndoGroup(named: nil) {
            try? manager.withUndoGroup(named: nil) {
                two.append(3)
                manager.removeAllActions(withTarget: one)  // the marked step goes
                throw Failure()
            }
            afterInnerRollback = (manager.isClean, manager.redoActionNames)
            throw Failure()
        }
        #expect(afterInnerRollback?.isClean == false)
        #expect(afterInnerRollback?.redoActionNames == ["Add 1"])
        #expect(manager.redoActionNames == ["Add 1"])
        manager.redo()
        #expect(two.items == [1])
        #expect(!manager.isClean)  // one's 2 is gone for good
    }

    /// The outer scope parked the redo steps itself (its own edit ended redo before the inner
    /// scope began): its rollback makes the removal again on its copy and judges it there.
    @Test("an outer scope with its own parked redo steps judges the inner removal on its rollback")
    func outerScopeWithItsOwnParkedRedoStepsKeepsTheMarkUnreachable() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let one = TreeDocument(manager: manager)
        let two = TreeDocument(manager: manager)
        two.add(1)
        one.add(2)
        manager.markClean()
        manager.undo()
        manager.undo()
        try? manager.withUndoGroup(named: nil) {
            two.append(3)  // ends redo: the outer scope parks the redo steps
            try? manager.withUndoGroup(named: nil) {
                two.append(4)
                manager.removeAllActions(withTarget: one)
                throw Failure()
            }
            throw Failure()
        }
        #expect(manager.redoActionNames == ["Add 1"])
        manager.redo()
        #expect(!manager.isClean)
    }
}
