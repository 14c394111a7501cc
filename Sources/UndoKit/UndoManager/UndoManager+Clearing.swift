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
        // With branches kept the stack stands aside: the tree trims every node to the new
        // limits when this settles (it hears the change), and ends coalescing if it drops any.
        setAndTrim(&undoStack)
        state.limitSettings &+= 1
        let dropped = stepsBefore.count - undoStack.steps.count
        if dropped > 0 {
            stopCoalescing()
            if !state.savepoints.isEmpty {
                savepointsSawTrim(dropping: Array(stepsBefore.prefix(dropped)))
            }
        }
        settle()
    }

    /// Spec R31: ``removeAllActions()``.
    func clearBothStacks() {
        // Spec K5: other code's removal waits for the asynchronous operation in flight.
        if state.asyncWorkIsRunning
            && holdsRemovalDuringAsyncWork(.removeAllActions, in: PublicCall("removeAllActions()"))
        {
            return
        }
        if !state.savepoints.isEmpty {
            savepointsSawEverythingRemoved()
        }
        let wasClean = isAtCleanMark
        stopCoalescing()
        let branches = removeAllSteps()
        ledger.cleanMarkKeeper.allStepsRemoved(wasClean: wasClean)
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
        if state.asyncWorkIsRunning
            && holdsRemovalDuringAsyncWork(
                .removeActions(on: identity), in: PublicCall("removeAllActions(withTarget:)"))
        {
            return
        }
        if !state.savepoints.isEmpty {
            savepointsWillRemoveActions(on: identity)
        }
        let removal = removeActionsFromEveryStep(on: identity)
        if removal.fromStacks {
            stopCoalescing()
        }
        settle()
        withExtendedLifetime(removal.branches) {}
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
