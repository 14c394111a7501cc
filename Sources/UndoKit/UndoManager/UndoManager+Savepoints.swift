/// What the operations in a ``withUndoGroup(named:_:)`` body tell its savepoints (see
/// ``Savepoint``) about the redo steps and older steps; called only while a scope runs.
extension UndoManager {
    /// The redo stack is about to change inside a scope (a new edit, spec R4, R10.6, or a
    /// `redo()`): the innermost savepoint keeps a copy the first time.
    @inline(__always)
    func redoStackWillChangeInScope() {
        if !state.savepoints.isEmpty && !redoStack.isEmpty {
            parkRedoStack()
        }
    }

    private func parkRedoStack() {
        let innermost = state.savepoints.count - 1
        guard state.savepoints[innermost].parkedRedo == nil else { return }
        state.savepoints[innermost].parkedRedo = ParkedRedoStack(
            entries: redoStack.entries.elements,
            steps: redoStack.steps.ids,
            records: state.historyTree.map { tree in tree.records.filter { redoStack.steps.contains($0.key) } } ?? [:]
        )
    }

    /// The redo steps as they were when the scope at `index` began, if a scope (that one or
    /// one nested in it) has parked them; `nil` when they are still on the redo stack.
    private func parkedRedoSteps(since index: Int) -> ParkedRedoStack? {
        state.savepoints[index...].lazy.compactMap(\.parkedRedo).first
    }

    /// `removeAllActions(withTarget:)` is about to remove `target`'s actions, some perhaps in
    /// older steps; remembered for the redo steps a rollback puts back.
    func savepointsWillRemoveActions(on target: ObjectIdentifier) {
        for index in state.savepoints.indices {
            let level = state.savepoints[index].level
            // (A body that ended the scope's group stops the program when it exits.)
            let begin = level > 0 && level <= undoStack.nesting ? undoStack.openBegins[level - 1] : undoStack.entries.count
            let inOlderSteps = undoStack.containsAction(on: target, before: begin)
                || parkedRedoSteps(since: index).map { UndoStack.entries($0.entries, containActionOn: target) }
                ?? redoStack.containsAction(on: target)
            if inOlderSteps {
                state.savepoints[index].changedOlderSteps = true
            }
            state.savepoints[index].removedTargets.append(target)
        }
    }

    /// The scopes whose saved clean marks a removal of actions from one stack judges (see
    /// ``UndoStack/removeActions(withTarget:judgingScopes:)``): a savepoint whose redo steps
    /// are parked judges a redo-stack removal when its rollback makes it again on them.
    func savepointsJudgingRemoval(onRedoStack: Bool) -> [Int] {
        state.savepoints.indices.filter { !onRedoStack || parkedRedoSteps(since: $0) == nil }
    }

    /// A limit's setter trimmed steps older than every scope (`dropped`, oldest first; none
    /// when only the history tree was trimmed): they stay gone after a rollback, and a saved
    /// mark on them, or at the start below them, is lost.
    func savepointsSawTrim(dropping dropped: [StepID]) {
        for index in state.savepoints.indices {
            state.savepoints[index].changedOlderSteps = true
        }
        ledger.cleanMarkKeeper.scopesSawTrim(dropping: dropped)
    }

    /// A removal took steps out of the history tree (from branches if `changingBranches`:
    /// they are older than any scope's group). A saved mark on a branch (one of
    /// `branchesBefore`) is judged by `cutsPath`.
    func savepointsSawTreeRemoval(changingBranches: Bool, branchesBefore: Set<StepID>, cutsPath: (StepID) -> Bool) {
        if changingBranches {
            for index in state.savepoints.indices {
                state.savepoints[index].changedOlderSteps = true
            }
        }
        // A mark on parked redo steps is judged when the rollback removes again.
        let isJudged = { (index: Int, mark: StepID) in
            branchesBefore.contains(mark) && self.parkedRedoSteps(since: index)?.steps.contains(mark) != true
        }
        ledger.cleanMarkKeeper.scopesSawTreeRemoval(isJudged: isJudged, cutsPath: cutsPath)
    }

    /// `removeAllActions()` inside a scope removed its group too: the program stops when the
    /// body exits.
    func savepointsSawEverythingRemoved() {
        for index in state.savepoints.indices {
            state.savepoints[index].removedAllActions = true
        }
    }
}
