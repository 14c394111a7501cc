/// What the operations made inside a ``withUndoGroup(named:_:)`` body tell its savepoints
/// (see ``Savepoint``), so that a rollback can put the redo steps back and knows what the body
/// did to older steps. Nothing happens here while no scope is in progress: each entry point
/// tests one count first.
extension UndoManager {
    /// The redo stack is about to change inside a scope: cleared by a new edit (spec R4,
    /// R10.6) or popped by a `redo()` in the body. The innermost savepoint keeps a copy of its
    /// steps (the first time only: later changes inside the same scope touch steps the scope
    /// itself made) so that a rollback can put them back.
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

    /// `removeAllActions(withTarget:)` is about to remove `target`'s actions. Actions the
    /// scope did not record (before its group, or in the redo steps it found) change older
    /// steps, and stop coalescing as any removal does; its own actions do not. The removal is
    /// remembered for the redo steps a rollback puts back.
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

    /// The saved clean marks a removal from the undo stack (`onRedoStack` false) or the redo
    /// stack judges, to pass to ``UndoStack/removeActions(withTarget:judging:)`` and take back
    /// with ``savepointMarksJudged(_:onRedoStack:)``. A savepoint whose redo steps are parked
    /// found them unchanged here: its rollback makes the removal again on them, and judges it
    /// there.
    func savepointMarksToJudge(onRedoStack: Bool) -> [CleanMark] {
        state.savepoints.indices.map { index in
            onRedoStack && parkedRedoSteps(since: index) != nil ? .unreachable : state.savepoints[index].cleanMark
        }
    }

    func savepointMarksJudged(_ marks: [CleanMark], onRedoStack: Bool) {
        for (index, mark) in zip(state.savepoints.indices, marks) where !onRedoStack || parkedRedoSteps(since: index) == nil {
            state.savepoints[index].cleanMark = mark
        }
    }

    /// Steps older than every scope in progress were trimmed by a limit's setter (`dropped`,
    /// oldest first; none when only the history tree's branches or redo path were trimmed):
    /// they stay gone after a rollback, and a saved mark on them, or at the start below them,
    /// is lost.
    func savepointsSawTrim(dropping dropped: [StepID]) {
        for index in state.savepoints.indices {
            state.savepoints[index].changedOlderSteps = true
            if state.savepoints[index].cleanMark.isCut(byDropping: dropped) {
                state.savepoints[index].cleanMark = .unreachable
            }
        }
    }

    /// A removal took steps out of the history tree (from the path, or from branches, which
    /// `changingBranches` says: branch steps are older than any scope's own group). A saved
    /// mark on a branch (one of `branchesBefore`) is judged by `cutsPath`.
    func savepointsSawTreeRemoval(changingBranches: Bool, branchesBefore: Set<StepID>, cutsPath: (StepID) -> Bool) {
        for index in state.savepoints.indices {
            if changingBranches {
                state.savepoints[index].changedOlderSteps = true
            }
            // A mark on redo steps the body ended and its scope parked is judged when the
            // rollback makes the removal again on them.
            guard case .step(let mark) = state.savepoints[index].cleanMark, branchesBefore.contains(mark),
                  parkedRedoSteps(since: index)?.steps.contains(mark) != true, cutsPath(mark)
            else { continue }
            state.savepoints[index].cleanMark = .unreachable
        }
    }

    /// `removeAllActions()` inside a scope: it removed the scope's group too, which stops the
    /// program when the body exits.
    func savepointsSawEverythingRemoved() {
        for index in state.savepoints.indices {
            state.savepoints[index].removedAllActions = true
        }
    }
}
