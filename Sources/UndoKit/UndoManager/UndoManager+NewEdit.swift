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
            detachRedoStack(below: closedNewStep ? nodeBeforeClosedStep() : undoStack.steps.last, into: tree)
        } else {
            markCleanBeforeRedoStepsEnd()
            redoStack.removeAll()
        }
    }

    /// A new edit ends redo for the other managers of this one's coordinator too (its
    /// ``UndoCoordinator/Mode/singleOrder``), which hears of it as a ``StepEdit/newEdit`` when
    /// this manager settles: called once this manager's own redo has ended and settled, so the
    /// others end theirs after. Inside a scope, only once the outermost scope succeeds: a
    /// rollback leaves the others alone.
    @inline(__always)
    func newEditEndsRedo() {
        // Every registration tests the flag; the rest is out of line.
        if state.isCoordinated {
            newEditEndsRedoInCoordinator()
        }
    }

    @inline(never)
    private func newEditEndsRedoInCoordinator() {
        guard state.savepoints.isEmpty else {
            // Heard when the outermost scope succeeds (releaseSavepoint()).
            state.savepoints[state.savepoints.count - 1].madeNewEdit = true
            return
        }
        ledger.newEditMade()
        settle()
    }

    /// Another manager of their coordinator made a new edit: the redo steps of `managers`
    /// end too, each manager's as a transaction of its own. The coordinator calls it when it
    /// hears the edit. All end before any settles: what a settle releases (a `deinit` may call
    /// back) or tells its observers finds every one ended.
    static func endRedoForNewEditElsewhere(in managers: [UndoManager]) {
        let ending = managers.filter { !$0.redoStack.isEmpty }
        for manager in ending {
            manager.markCleanBeforeRedoStepsEnd()
            manager.redoStack.removeAll()
        }
        for manager in ending {
            manager.settle()
            manager.publishObservableChanges()
        }
    }
}
