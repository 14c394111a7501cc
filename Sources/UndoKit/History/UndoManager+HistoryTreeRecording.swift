/// Recording the history tree: dates and visits as steps close and move, and the branch steps
/// that follow a step leaving the tree.
extension UndoManager {
    /// The tree's state, made on first use; the steps already on the stacks are visited then,
    /// in recording order (the undo steps oldest first, then the redo steps from the one
    /// ``redo()`` performs next), and have no date.
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

    /// Called as a new top-level step is about to close outside undo and redo: remembers the
    /// current node, below which an empty group's close puts the redo steps it ends.
    @inline(never)
    func historyTreeWillCloseNewStep() {
        state.historyTree?.parentOfClosingStep = undoStack.steps.last
    }

    /// Called once a new top-level step closed outside undo and redo: dates it, or, when it
    /// merged into the step below (coalescing), dates that step, which closed last.
    @inline(never)
    func historyTreeDidCloseNewStep() {
        guard let tree = state.historyTree, let newest = undoStack.steps.last else { return }
        if newest == tree.parentOfClosingStep {
            tree.records[newest, default: HistoryTreeState.NodeRecord()].date = historyTreeNow()
        } else {
            tree.recordNewStep(newest, date: historyTreeNow())
        }
    }

    /// After ``undoNestedGroup()`` undid a group nested in an open one, while the tree is
    /// recorded: `redoStepsBefore` is the redo stack's top-level count before it.
    ///
    /// Out of line, so that an undo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterNestedUndo(redoStepsBefore: Int) {
        guard let tree = state.historyTree, redoStack.topLevelCount > redoStepsBefore,
              let id = redoStack.steps.last else { return }
        // The redo step it built is a node of its own, recorded and visited now, like a step
        // that closes (<doc:NavigatingTheHistory>).
        tree.recordNewStep(id, date: historyTreeNow())
        // The new step is on top of the redo path: a mark on a branch off that path would
        // need it redone on the way, and it was never part of the marked state (as for a mark
        // on the redo stack, <doc:TrackingTheCleanState>).
        if let mark = branchCleanMark(in: tree), pathToBranchMark(mark, leavesThePathAt: nil, in: tree) {
            ledger.cleanMark = .unreachable
        }
    }

    /// After ``undoNestedGroup()`` undid a top-level step, while the tree is recorded:
    /// `undone` is that step's id.
    ///
    /// Out of line, so that an undo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterTopLevelUndo(of undone: StepID?) {
        guard let tree = state.historyTree else { return }
        let current = undoStack.steps.last
        tree.visit(current)
        // The undone step stays in the tree as the next redo, unless its undo left nothing to
        // redo (no inverse registered, a dead target, registration disabled).
        if let id = undone, redoStack.steps.last != id {
            // A mark on a branch below it needs its changes, which nothing can redo now: the
            // branch version of "undoing past the mark with a step that registered no inverse".
            if let mark = branchCleanMark(in: tree), pathToBranchMark(mark, leavesThePathAt: id, in: tree) {
                ledger.cleanMark = .unreachable
            }
            stepLeftTheTree(id, parent: current, in: tree)
        }
    }

    /// After ``redo()``, while the tree is recorded: `redone` is the redone step's id,
    /// `topLevel` whether no group was open around it (then called once the redo's group
    /// closed; a nested redo's call comes before, which changes nothing it reads).
    ///
    /// Out of line, so that a redo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterRedo(of redone: StepID?, topLevel: Bool) {
        guard let tree = state.historyTree else { return }
        // The newest closed step: the redone one, or, if it left, the node it hung from.
        let current = undoStack.steps.last
        if topLevel {
            tree.visit(current)
        }
        // The redone step stays in the tree as the new current node, unless it recorded no
        // undo step (registration disabled) or a group open around it took its actions.
        if let id = redone, current != id {
            if let mark = branchCleanMark(in: tree) {
                // At the top level (registration disabled) the step's changes stay with no step
                // to undo them: a mark on a branch below it can still be reached, any other
                // cannot. Nested, its actions joined the open group: a mark below it needs a
                // step that is gone. The rules for a mark on the stacks, on a branch.
                let markIsBelow = pathToBranchMark(mark, leavesThePathAt: id, in: tree)
                if topLevel ? !markIsBelow : markIsBelow {
                    ledger.cleanMark = .unreachable
                }
            }
            stepLeftTheTree(id, parent: current, in: tree)
        }
    }

    /// The step the clean mark is after, if it lies on a branch.
    func branchCleanMark(in tree: HistoryTreeState) -> StepID? {
        guard case .step(let mark) = ledger.cleanMark, tree.branches[mark] != nil else { return nil }
        return mark
    }

    /// Whether the path from the start to the clean mark lying on a branch at `mark` runs
    /// through step `left` (which just left the path and is still its branch children's
    /// parent) or through a step of the redo path: whether the branch the mark is on hangs
    /// from one of them. Right after an undo or redo, before the tree moves anything up.
    private func pathToBranchMark(_ mark: StepID, leavesThePathAt left: StepID?, in tree: HistoryTreeState) -> Bool {
        var junction = tree.branches[mark]?.parent
        while let id = junction, let step = tree.branches[id] {
            junction = step.parent
        }
        guard let junction else { return false }
        return junction == left || redoStack.steps.contains(junction)
    }

    /// Step `id`, which hung from `parent`, left the tree by an undo or redo: the steps of
    /// the path below it hang from `parent` now by their place on the stacks, and the branch
    /// steps below it move up to `parent` too, as they do below a step a removal empties
    /// (``pruneHistoryTree(removing:pathBefore:)``), so that every parent a node names is in
    /// the tree.
    private func stepLeftTheTree(_ id: StepID, parent: StepID?, in tree: HistoryTreeState) {
        guard !tree.branches.isEmpty else { return }
        let children = tree.branches.compactMap { $0.value.parent == id ? $0.key : nil }
        for child in children {
            tree.branches[child]?.parent = parent
        }
    }
}
