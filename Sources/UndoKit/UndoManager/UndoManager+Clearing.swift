/// Stack depth and removal (spec R28, R31, R33).
extension UndoManager {
    /// Spec R28: the ``levelsOfUndo`` setter.
    func setUndoLimit(_ limit: Int) {
        changeLimit {
            $0.limit = limit
            $0.trimToLimit()
        }
    }

    /// The ``actionCostLimit`` setter: like ``levelsOfUndo``'s, it trims at once.
    func setCostLimit(_ limit: Int) {
        changeLimit {
            $0.costLimit = max(0, limit)
            $0.trimToCostLimit()
        }
    }

    /// Sets a limit and trims to it with `setAndTrim`, then, with branches kept, the tree.
    private func changeLimit(_ setAndTrim: (inout UndoStack) -> Void) {
        let stepsBefore = undoStack.steps.ids
        setAndTrim(&undoStack)
        // The tree's trimming may drop branch steps or the end of the redo path and leave the
        // undo stack alone: a removal all the same, which stops coalescing.
        let trimmedTree = trimHistoryTree()
        let dropped = stepsBefore.count - undoStack.steps.count
        if dropped > 0 || trimmedTree {
            stopCoalescing()
            if !state.savepoints.isEmpty {
                savepointsSawTrim(dropping: Array(stepsBefore.prefix(dropped)))
            }
        }
        settle()
    }

    /// Spec R31: ``removeAllActions()``.
    func clearBothStacks() {
        if !state.savepoints.isEmpty {
            savepointsSawEverythingRemoved()
        }
        let wasClean = isAtCleanMark
        stopCoalescing()
        undoStack.removeAll()
        redoStack.removeAll()
        // An open group went too: a note made in it is held against no step.
        state.partLog?.firstNoteInOpenStep = nil
        let branches = state.historyTree?.removeAllBranches()
        state.historyTree?.records = [:]
        // A clean manager stays clean (the empty stack is its position); otherwise every step
        // that led to the mark is gone.
        ledger.cleanMark = wasClean ? .start : .unreachable
        state.registrationDisableCount = 0
        state.isUndoing = false
        state.isRedoing = false
        state.automaticGroupIsPending = false
        state.automaticGroupIsOpen = false
        state.invocationWasAborted = true
        settle()
        withExtendedLifetime(branches) {}
    }

    /// Spec R33: ``removeAllActions(withTarget:)`` for an object.
    func removeActions(on identity: ObjectIdentifier) {
        if !state.savepoints.isEmpty {
            savepointsWillRemoveActions(on: identity)
        }
        // The path before the removal, so that branches below a step it empties move up.
        let pathBefore = state.historyTree == nil ? nil : pathNodes()
        // The scopes' saved marks are judged with the manager's (a rollback puts them back).
        let removedFromUndo = judgingSavepointMarks(onRedoStack: false) {
            undoStack.removeActions(withTarget: identity, judging: &$0)
        }
        let removedFromRedo = judgingSavepointMarks(onRedoStack: true) {
            redoStack.removeActions(withTarget: identity, judging: &$0)
        }
        let prunedBranches = pathBefore.map { pruneHistoryTree(removing: identity, pathBefore: $0) }
        if removedFromUndo || removedFromRedo {
            stopCoalescing()
        }
        settle()
        withExtendedLifetime(prunedBranches) {}
        if isBusy {
            state.targetsRemovedDuringInvocation.insert(identity)
        }
    }

    /// The identity of `value` if it is an object (or an optional holding one), the only kind
    /// of target an action has; `nil` for anything else.
    static func objectIdentity(of value: Any) -> ObjectIdentifier? {
        if type(of: value) is AnyClass {
            return ObjectIdentifier(value as AnyObject)
        }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return nil }
        return mirror.children.first.flatMap { objectIdentity(of: $0.value) }
    }
}
