extension UndoManager {
    /// Whether there is a group to undo: true as soon as a top-level group exists on the undo
    /// stack, including an open or an empty one.
    ///
    /// It does not promise that ``undo()`` is allowed: with an explicit group open, close it
    /// first. Posts no notification.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.canUndo   // false
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.canUndo   // true, although the automatic group is still open
    /// ```
    public var canUndo: Bool {
        undoStack.topLevelCount != 0
    }

    /// Whether there is a group to redo. Reading it posts a checkpoint, as on Apple platforms.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.canRedo   // true if the undone operations registered their inverses
    /// ```
    public var canRedo: Bool {
        post(.checkpoint)
        return redoStack.topLevelCount != 0
    }

    /// The number of closed top-level groups on the undo stack.
    ///
    /// As on Apple platforms, while a top-level group is open the count covers only the
    /// closed groups inside the innermost open group, so it reads 0 right after a
    /// registration until the event ends.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.undoCount   // 0: the automatic group is still open
    /// manager.runLoop.tick()
    /// manager.undoCount   // 1
    /// ```
    public var undoCount: Int {
        undoStack.closedGroupCount
    }

    /// The number of closed top-level groups on the redo stack (see ``undoCount``).
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoCount   // 1
    /// ```
    public var redoCount: Int {
        redoStack.closedGroupCount
    }

    /// Reverts the newest undo group, closing the event's automatic group first if it is the
    /// only one open.
    ///
    /// Does nothing when there is nothing to undo. Posts `NSUndoManagerWillUndoChange` and
    /// `NSUndoManagerDidUndoChange` around the group's operations, which run newest first;
    /// what they register becomes the redo group.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.undo()   // closes the automatic group, then undoes it
    /// ```
    ///
    /// - Precondition: No explicit group is open, and no undo or redo is in progress.
    public func undo() {
        post(.checkpoint)
        if !isBusy && automaticGroupIsPending && undoStack.nesting == 1 {
            closeGroup(in: "undo()", discardingEmpty: false)
            automaticGroupIsPending = false
        }
        guard undoStack.nesting == 0 && !isRedoing else {
            programmerError(in: "undo()", "undo was called with too many nested undo groups")
        }
        undoNestedGroup(in: "undo()")
    }

    /// Reverts the newest closed group on the undo stack, even one nested inside a group that
    /// is still open.
    ///
    /// Unlike ``undo()``, it never closes a group. Does nothing when the undo stack is empty.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()         // outer
    /// manager.beginUndoGrouping()         // inner
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.endUndoGrouping()           // inner closed, outer still open
    /// manager.undoNestedGroup()           // reverts the inner group only
    /// ```
    ///
    /// - Precondition: The newest entry of the undo stack is a closed group (no group is open
    ///   on top of it), and no undo or redo is in progress.
    public func undoNestedGroup() {
        undoNestedGroup(in: "undoNestedGroup()")
    }

    /// Spec R19.
    func undoNestedGroup(in call: StaticString) {
        post(.checkpoint)
        guard !undoStack.isEmpty else { return }
        guard undoStack.newestIsClosedGroup && !isBusy else {
            programmerError(in: call, "call endUndoGrouping before calling this method")
        }
        isUndoing = true
        post(.willUndoChange)
        beginUndoGrouping()
        let undoneMetadata = undoStack.topMetadata
        if isUndoRegistrationEnabled, let undoneMetadata {
            redoStack.replaceOpenTopMetadata(with: undoneMetadata)
            releaseDroppedEntries()
        }
        invokeNewestGroup(ofRedoStack: false)
        if isUndoRegistrationEnabled {
            closeGroup(in: call, discardingEmpty: true)
        }
        post(.didUndoChange(isDiscardable: undoneMetadata?.isDiscardable ?? false))
        isUndoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Performs the operations of the newest redo group, which register their inverses on the
    /// undo stack.
    ///
    /// Does nothing when there is nothing to redo. If a group is open on the undo stack, the
    /// redone group is nested inside it, as on Apple platforms.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redo()   // back where we were
    /// ```
    ///
    /// - Precondition: No undo or redo is in progress.
    public func redo() {
        guard canRedo else { return }
        guard redoStack.newestIsClosedGroup && !isBusy else {
            programmerError(in: "redo()", "do not invoke this method while undoing")
        }
        isRedoing = true
        post(.willRedoChange)
        beginUndoGrouping()
        let redoneMetadata = redoStack.topMetadata
        // Copying "nothing" over "nothing" is the common case; skip its park-and-release.
        if isUndoRegistrationEnabled && (redoneMetadata != nil || undoStack.topMetadata != nil) {
            undoStack.replaceOpenTopMetadata(with: redoneMetadata)
            releaseDroppedEntries()
        }
        invokeNewestGroup(ofRedoStack: true)
        post(.checkpoint)
        closeGroup(in: "redo()", discardingEmpty: false)
        post(.didRedoChange(isDiscardable: redoneMetadata?.isDiscardable ?? false))
        isRedoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Pops the newest closed group of a stack and runs its operations newest first,
    /// descending into nested groups. The group leaves the stack before any operation runs,
    /// so operations may change the stacks freely.
    func invokeNewestGroup(ofRedoStack: Bool) {
        let stack = stacks + (ofRedoStack ? 1 : 0)
        if let action = stack.pointee.popNewestSingleton() {
            action.invoke()
            return
        }
        let entries = stack.pointee.popNewestGroup()
        targetsRemovedDuringInvocation.removeAll(keepingCapacity: true)
        invocationWasAborted = false
        for entry in entries.reversed() {
            switch entry {
            case .action(let target, let action), .singleton(let target, let action):
                if invocationWasAborted { return }
                if !targetsRemovedDuringInvocation.isEmpty && targetsRemovedDuringInvocation.contains(target) {
                    continue
                }
                action.invoke()
            case .begin, .end:
                continue
            }
        }
    }
}
