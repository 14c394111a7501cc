/// The primitives that take whole steps out of the history (ARCHITECTURE.md, "A transaction's
/// life"). Each keeps the ledger, the clean mark and the history tree's parent links
/// consistent as it goes, and records one ``StepEdit`` per step, which the listeners (the
/// tree's dates and visits, the part log, the coordinator) hear when the transaction
/// settles. Undo and redo, clearing and the stale-step policy remove steps through these.
extension UndoManager {
    /// The step an undo or redo was moving left the stacks instead of landing (`how`), or a
    /// step was dropped from a stack without running: the ledger has taken it off the path.
    /// The clean mark's rules run, and the branch steps below it move up. Out of line: the
    /// common undo lands its step.
    @inline(never)
    func stepLeftWithoutLanding(_ id: StepID, how: StepExit) {
        markCleanAfterStepLeft(id, how: how)
        if state.historyTree != nil {
            keepTreeLinksAfterDrop(of: id, changesStay: how == .appliedWithoutStep)
        }
    }

    /// Takes the newest step of a stack off without running it. An undo step's changes stay
    /// in the model with no step to revert them; a redo step's are never made.
    func dropNewestStep(onUndoStack: Bool) {
        let id = onUndoStack ? undoStack.dropNewestTopLevelGroup() : redoStack.dropNewestTopLevelGroup()
        if onUndoStack {
            stopCoalescing()
        }
        // The mark's rule first: a mark on the dropped undo step moves to the step below,
        // which stepLeft(_:) would otherwise find naming a step that is gone.
        stepLeftWithoutLanding(id, how: onUndoStack ? .appliedWithoutStep : .reverted)
        ledger.stepLeft(id)
    }

    /// Every step leaves (``removeAllActions()``): both stacks' and the branches'. Returns the
    /// branch steps, for the caller to release once the manager is consistent.
    func removeAllSteps() -> [StepID: HistoryTreeState.BranchStep] {
        undoStack.removeAll()
        redoStack.removeAll()
        // An open group went too: a note made in it is held against no step.
        state.partLog?.openGroupsWereRemoved()
        guard let tree = state.historyTree else { return [:] }
        let branches = tree.removeAllBranches()
        for id in branches.keys.sorted() {
            ledger.stepLeft(id)
        }
        return branches
    }

    /// Removes every action on `target` from every step, the stacks' and the branches'
    /// (spec R33): an emptied step leaves, and the branch steps below a step that left move
    /// up to its parent. The scopes' saved marks are judged with the manager's (a rollback
    /// puts them back). Returns whether the stacks lost any action, and the branch steps
    /// removed, for the caller to release.
    func removeActionsFromEveryStep(on target: ObjectIdentifier) -> (fromStacks: Bool, branches: [HistoryTreeState.BranchStep]) {
        // The path before the removal, so that branches below a step it empties move up.
        let pathBefore = state.historyTree == nil ? nil : pathNodes()
        let scopesJudgingUndo = savepointsJudgingRemoval(onRedoStack: false)
        let removedFromUndo = undoStack.removeActions(withTarget: target, judgingScopes: scopesJudgingUndo)
        let scopesJudgingRedo = savepointsJudgingRemoval(onRedoStack: true)
        let removedFromRedo = redoStack.removeActions(withTarget: target, judgingScopes: scopesJudgingRedo)
        let prunedBranches = pathBefore.map { pruneHistoryTree(removing: target, pathBefore: $0) } ?? []
        return (removedFromUndo || removedFromRedo, prunedBranches)
    }
}
