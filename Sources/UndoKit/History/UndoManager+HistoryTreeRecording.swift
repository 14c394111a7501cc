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

    /// The tree as a listener (ARCHITECTURE.md, "A transaction's life"), when a transaction
    /// settles: dates each step that closed, or took a merge (coalescing), and the redo step
    /// an undo nested in an open group built; visits the current node after a top-level undo
    /// or redo; trims to the limits after a new step, or once a limit was set. Its trimming
    /// records removals, which the listeners after it hear with the rest.
    func historyTreeTakes(_ edits: [StepEdit], in tree: HistoryTreeState) {
        var closedNewStep = false
        var movedAStep = false
        for edit in edits {
            switch edit {
            case .added(let id, toUndoStack: true):
                tree.recordNewStep(id, date: historyTreeNow())
                closedNewStep = true
            case .added(let id, toUndoStack: false):
                // An undo nested in an open group built it: a new node
                // (<doc:NavigatingTheHistory>).
                tree.recordNewStep(id, date: historyTreeNow())
                // A mark on a branch off the redo path would need the new step, never part of
                // the marked state, redone on the way (<doc:TrackingTheCleanState>).
                if let mark = branchCleanMark(in: tree), pathToBranchMark(mark, leavesThePathAt: nil, in: tree) {
                    ledger.cleanMarkKeeper.pathToMarkWasCut()
                }
            case .merged(let id, _):
                tree.records[id, default: HistoryTreeState.NodeRecord()].date = historyTreeNow()
                closedNewStep = true
            case .moved, .removed:
                movedAStep = true
            case .restored, .branched, .unbranched, .putBack, .newEdit:
                // A restore records its saved dates itself; branch moves and a rollback's
                // put-back keep theirs (the rollback brings back the records it parked); a new
                // edit's redo steps are heard as they leave or branch.
                continue
            }
        }
        // A top-level undo or redo (a nested one leaves a group open): its step landed, or
        // left with nothing to take it back.
        if movedAStep && (state.isUndoing || state.isRedoing) && undoStack.nesting == 0 {
            tree.visit(undoStack.steps.last)
        }
        guard tree.keepsBranches else { return }
        if closedNewStep {
            trimHistoryTree()
        } else if tree.limitSettingsTrimmedTo != state.limitSettings {
            trimHistoryTreeToNewLimits()
        }
    }

    /// A limit's setter ran: trims the tree to the limits, and the steps that go end
    /// a coalescing run; undo steps older than every open scope stay gone after a rollback.
    private func trimHistoryTreeToNewLimits() {
        let stepsBefore = undoStack.steps.ids
        guard trimHistoryTree() else { return }
        stopCoalescing()
        if !state.savepoints.isEmpty {
            savepointsSawTrim(dropping: Array(stepsBefore.prefix(stepsBefore.count - undoStack.steps.count)))
        }
    }

    /// Step `id` just left without a step to take it back (see
    /// ``UndoManager/stepLeftWithoutLanding(_:how:)``): an undo that recorded nothing, a redo,
    /// a stale step dropped without running (``UndoManager/removeNextUndoStep()``, the
    /// ``StaleStepPolicy/skip`` policy). If its changes stay (a top-level redo, a dropped undo
    /// step), only a mark on a branch below it stays reachable; if not, such a mark needs
    /// changes nothing can make now. The branch steps below it move up to the current node,
    /// so every parent a node names is in the tree: at once, as the next drop (the
    /// ``StaleStepPolicy/skip`` policy drops several) judges by them.
    func keepTreeLinksAfterDrop(of id: StepID, changesStay: Bool) {
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

    /// Step `id` left the tree: the branch steps below it move up to `parent`, as the path's
    /// do, so every parent a node names is in the tree.
    private func stepLeftTheTree(_ id: StepID, parent: StepID?, in tree: HistoryTreeState) {
        guard !tree.branches.isEmpty else { return }
        let children = tree.branches.compactMap { $0.value.parent == id ? $0.key : nil }
        for child in children {
            tree.branches[child]?.parent = parent
        }
    }
}
