extension UndoManager {
    /// The tree's state, made on first use, visiting the steps already there (undated) in
    /// recording order.
    @discardableResult
    func recordingHistoryTree() -> HistoryTreeState {
        if let tree = state.historyTree {
            return tree
        }
        let tree = HistoryTreeState()
        state.historyTree = tree
        updateStepEditRecording()
        for id in undoStack.steps.ids + redoStack.steps.ids.reversed() {
            tree.visit(id)
        }
        return tree
    }

    /// A new step is about to close: remembers the node an empty group's close puts the redo
    /// steps below.
    @inline(never)
    func historyTreeWillCloseNewStep() {
        state.historyTree?.parentOfClosingStep = undoStack.steps.last
    }

    /// A new step closed: dates it, or the step it merged into (coalescing).
    @inline(never)
    func historyTreeDidCloseNewStep() {
        guard let tree = state.historyTree, let newest = undoStack.steps.last else { return }
        if newest == tree.parentOfClosingStep {
            tree.records[newest, default: HistoryTreeState.NodeRecord()].date = historyTreeNow()
        } else {
            tree.recordNewStep(newest, date: historyTreeNow())
        }
    }

    /// After a nested undo. Out of line, as the hooks below: an undo with no tree pays one test.
    @inline(never)
    func historyTreeAfterNestedUndo(redoStepsBefore: Int) {
        guard let tree = state.historyTree, redoStack.topLevelCount > redoStepsBefore,
              let id = redoStack.steps.last else { return }
        // The redo step it built is a new node (<doc:NavigatingTheHistory>).
        tree.recordNewStep(id, date: historyTreeNow())
        // A mark on a branch off the redo path would need the new step, never part of the
        // marked state, redone on the way (<doc:TrackingTheCleanState>).
        if let mark = branchCleanMark(in: tree), pathToBranchMark(mark, leavesThePathAt: nil, in: tree) {
            ledger.cleanMarkKeeper.pathToMarkWasCut()
        }
    }

    /// After a top-level undo, or a redo (`undone` false) once its group closed, `topLevel`
    /// if no group was open around it; `gone` is the step if it left the stacks (its undo
    /// left nothing to redo, its redo recorded no undo step or an open group took its actions).
    @inline(never)
    func historyTreeAfterUndoOrRedo(stepThatLeft gone: StepID?, undone: Bool, topLevel: Bool = true) {
        if topLevel {
            state.historyTree?.visit(undoStack.steps.last)
        }
        if let gone {
            // A top-level redo's changes stay, as a dropped undo step's do.
            historyTreeAfterDrop(of: gone, changesStay: !undone && topLevel)
        }
    }

    /// After a step left without a step to take it back: an undo that recorded nothing, a
    /// redo, a stale step dropped without running (``UndoManager/removeNextUndoStep()``, the
    /// ``StaleStepPolicy/skip`` policy). If its changes stay (a top-level redo, a dropped undo
    /// step), only a mark on a branch below it stays reachable; if not, such a mark needs
    /// changes nothing can make now.
    func historyTreeAfterDrop(of id: StepID, changesStay: Bool) {
        guard let tree = state.historyTree else { return }
        if let mark = branchCleanMark(in: tree) {
            let markIsBelow = pathToBranchMark(mark, leavesThePathAt: id, in: tree)
            if changesStay ? !markIsBelow : markIsBelow {
                ledger.cleanMarkKeeper.pathToMarkWasCut()
            }
        }
        stepLeftTheTree(id, parent: undoStack.steps.last, in: tree)
    }

    /// The step the clean mark is after, if it lies on a branch.
    func branchCleanMark(in tree: HistoryTreeState) -> StepID? {
        guard case .step(let mark) = ledger.cleanMark, tree.branches[mark] != nil else { return nil }
        return mark
    }

    /// Whether the branch holding the clean mark `mark` hangs from step `left` (which just
    /// left the path) or from a redo step. Right after an undo or redo.
    private func pathToBranchMark(_ mark: StepID, leavesThePathAt left: StepID?, in tree: HistoryTreeState) -> Bool {
        var junction = tree.branches[mark]?.parent
        while let id = junction, let step = tree.branches[id] {
            junction = step.parent
        }
        guard let junction else { return false }
        return junction == left || redoStack.steps.contains(junction)
    }

    /// Step `id` left the tree by an undo or redo: the branch steps below it move up to
    /// `parent`, as the path's do, so every parent a node names is in the tree.
    private func stepLeftTheTree(_ id: StepID, parent: StepID?, in tree: HistoryTreeState) {
        guard !tree.branches.isEmpty else { return }
        let children = tree.branches.compactMap { $0.value.parent == id ? $0.key : nil }
        for child in children {
            tree.branches[child]?.parent = parent
        }
    }
}
