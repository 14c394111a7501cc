/// A new edit ends redo (spec R4, R10.6): a registration outside undo and redo, or the close
/// of an empty top-level group, takes away what there was to redo. What that does is said here
/// and only here; registration and grouping say when.
extension UndoManager {
    /// A new edit ends this manager's redo: without branches the redo stack is emptied; with
    /// them it becomes a branch below the current node (before `closedNewStep`, an empty group
    /// that just closed), a clean mark among its steps with it. A scope parks it first.
    @inline(__always)
    func endRedoForNewEdit(closedNewStep: Bool) {
        redoStackWillChangeInScope()
        if let tree = state.historyTree, tree.keepsBranches {
            detachRedoStack(below: closedNewStep ? tree.parentOfClosingStep : undoStack.steps.last, into: tree)
        } else {
            markCleanBeforeRedoStepsEnd()
            redoStack.removeAll()
        }
    }

    /// A new edit ends redo for all members of this manager's coordinator. Called with the
    /// stacks consistent: clearing the others' releases entries whose `deinit`s may call back.
    @inline(__always)
    func newEditEndsRedo() {
        // A flag first: loading the weak reference costs atomics on every registration.
        if state.isCoordinated, let coordinator {
            if state.savepoints.isEmpty {
                coordinator.memberMadeNewEdit(self)
            } else {
                // Heard when the outermost scope succeeds: a rollback leaves the others alone.
                state.savepoints[state.savepoints.count - 1].madeNewEdit = true
            }
        }
    }
}
