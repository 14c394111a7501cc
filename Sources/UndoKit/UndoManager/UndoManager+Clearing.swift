extension UndoManager {
    /// The most top-level groups the undo stack keeps; older groups are dropped. 0, the
    /// default, means no limit.
    ///
    /// Setting it drops the oldest groups at once if there are too many. Only the undo stack
    /// is limited: groups already on the redo stack stay until they are redone.
    ///
    /// ```swift
    /// manager.levelsOfUndo = 20   // keep the last 20 steps
    /// ```
    public var levelsOfUndo: Int {
        get { undoStack.limit }
        set {
            undoStack.limit = newValue
            undoStack.trimToLimit()
            releaseDroppedEntries()
            checkInvariantsInDebugBuilds()
        }
    }

    /// Empties both stacks, open groups included.
    ///
    /// Also re-enables registration, forgets a pending end-of-event close, and posts no
    /// notification. ``groupsByEvent``, ``levelsOfUndo`` and ``runLoopModes`` are kept.
    ///
    /// ```swift
    /// document.revertToSaved()
    /// manager.removeAllActions()
    /// manager.canUndo   // false
    /// ```
    ///
    /// Calling it from inside an undo operation stops the program when that undo ends, as
    /// Apple's implementation raises then (spec R32).
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        registrationDisableCount = 0
        isUndoing = false
        isRedoing = false
        automaticGroupIsPending = false
        invocationWasAborted = true
        releaseDroppedEntries()
    }

    /// Removes every operation registered with `target` from both stacks.
    ///
    /// Groups left empty by the removal go too, but groups that were empty already and open
    /// groups stay. Registration stays disabled if it was, and no notification is posted.
    /// Call it when an object the operations refer to goes away for good.
    ///
    /// ```swift
    /// document.close()
    /// manager.removeAllActions(withTarget: document)
    /// ```
    public func removeAllActions(withTarget target: AnyObject) {
        let identity = ObjectIdentifier(target)
        undoStack.removeActions(withTarget: identity)
        redoStack.removeActions(withTarget: identity)
        releaseDroppedEntries()
        if isBusy {
            targetsRemovedDuringInvocation.insert(identity)
        }
        checkInvariantsInDebugBuilds()
    }
}
