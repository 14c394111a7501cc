/// Stack depth and removal (spec R28, R31, R33).
extension UndoManager {
    /// Spec R28: the ``levelsOfUndo`` setter.
    func setUndoLimit(_ limit: Int) {
        let wasClean = undoStack.cleanDistance == 0
        let before = undoStack.topLevelCount
        let (closedBefore, costBefore) = (undoStack.closedTopLevelGroupCount, undoStack.totalCost)
        undoStack.limit = limit
        undoStack.trimToLimit()
        // With branches kept, the tree's trimming may drop branch steps or the end of the
        // redo path and leave the undo stack alone: a removal all the same, which ends the run.
        let trimmedTree = trimHistoryTree()
        if undoStack.topLevelCount != before || trimmedTree {
            stopCoalescing()
            if !storage.pointee.undoScopes.isEmpty {
                scopesDidDropOldestSteps(
                    before - undoStack.topLevelCount, of: closedBefore, removedCost: costBefore - undoStack.totalCost)
            }
        }
        releaseDroppedEntries()
        checkInvariantsInDebugBuilds()
        notifyIfCleanStateChanged(wasClean: wasClean)
    }

    /// The ``actionCostLimit`` setter: like ``levelsOfUndo``'s, it trims at once.
    func setCostLimit(_ limit: Int) {
        let wasClean = undoStack.cleanDistance == 0
        let before = undoStack.topLevelCount
        let (closedBefore, costBefore) = (undoStack.closedTopLevelGroupCount, undoStack.totalCost)
        undoStack.costLimit = max(0, limit)
        undoStack.trimToCostLimit()
        // With branches kept, the tree's trimming may drop branch steps or the end of the
        // redo path and leave the undo stack alone: a removal all the same, which ends the run.
        let trimmedTree = trimHistoryTree()
        if undoStack.topLevelCount != before || trimmedTree {
            stopCoalescing()
            if !storage.pointee.undoScopes.isEmpty {
                scopesDidDropOldestSteps(
                    before - undoStack.topLevelCount, of: closedBefore, removedCost: costBefore - undoStack.totalCost)
            }
        }
        releaseDroppedEntries()
        checkInvariantsInDebugBuilds()
        notifyIfCleanStateChanged(wasClean: wasClean)
    }

    /// Spec R31: ``removeAllActions()``.
    func clearBothStacks() {
        if !storage.pointee.undoScopes.isEmpty {
            scopesSawEverythingRemoved()
        }
        let wasClean = undoStack.cleanDistance == 0
        stopCoalescing()
        undoStack.removeAll()
        redoStack.removeAll()
        let branches = storage.pointee.historyTree?.removeAllBranches()
        storage.pointee.historyTree?.records = [:]
        cleanMarkAfterClearing(wasClean: wasClean)
        storage.pointee.registrationDisableCount = 0
        storage.pointee.isUndoing = false
        storage.pointee.isRedoing = false
        automaticGroupIsPending = false
        storage.pointee.invocationWasAborted = true
        releaseDroppedEntries()
        withExtendedLifetime(branches) {}
        notifyIfCleanStateChanged(wasClean: wasClean)
    }

    /// Spec R33: ``removeAllActions(withTarget:)`` for an object.
    func removeActions(on identity: ObjectIdentifier) {
        let wasClean = undoStack.cleanDistance == 0
        let inScope = !storage.pointee.undoScopes.isEmpty
        if inScope {
            scopesWillRemoveActions(on: identity)
        }
        let costBefore = undoStack.totalCost
        // The path before the removal, so that branches below a step it empties move up.
        let pathBefore = storage.pointee.historyTree == nil ? nil : pathNodes()
        let undoDepth = undoStack.removeActions(withTarget: identity)
        let redoDepth = redoStack.removeActions(withTarget: identity)
        let prunedBranches = pathBefore.map { pruneHistoryTree(removing: identity, pathBefore: $0) }
        if undoDepth != nil || redoDepth != nil {
            stopCoalescing()
        }
        if inScope {
            scopesDidRemoveActions(undoDepth: undoDepth, redoDepth: redoDepth, removedCost: costBefore - undoStack.totalCost)
        }
        if !undoStack.cleanMarkIncludesOpenGroup {
            let distance = undoStack.cleanDistance
            if let undoDepth, UndoStack.removal(atDepth: undoDepth, cutsPathOf: distance, onRedoStack: false) {
                undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
            }
            if let redoDepth, UndoStack.removal(atDepth: redoDepth, cutsPathOf: distance, onRedoStack: true) {
                undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
            }
        }
        releaseDroppedEntries()
        withExtendedLifetime(prunedBranches) {}
        notifyIfCleanStateChanged(wasClean: wasClean)
        if isBusy {
            targetsRemovedDuringInvocation.insert(identity)
        }
        checkInvariantsInDebugBuilds()
    }

    /// The identity of `value` if it is an object (or an optional holding one), the only kind
    /// of value an action can have as its target; `nil` for anything else, which is the
    /// target of nothing.
    static func objectIdentity(of value: Any) -> ObjectIdentifier? {
        if type(of: value) is AnyClass {
            return ObjectIdentifier(value as AnyObject)
        }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return nil }
        return mirror.children.first.flatMap { objectIdentity(of: $0.value) }
    }
}
