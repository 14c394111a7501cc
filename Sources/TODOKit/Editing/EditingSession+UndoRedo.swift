import UndoKit

extension EditingSession {
    /// Undoes the most recent undo step and returns the menu title of what it undid, such as
    /// `Undo Add "Buy milk"`, or `nil` if there was nothing to undo.
    ///
    /// Edits not yet closed into a step by ``endEvent()`` (those of the current event) are
    /// undone first: the undo manager closes its automatic group and undoes it.
    ///
    /// ```swift
    /// if let title = try session.undo() {
    ///     print(title)              // "Undo Add \"Buy milk\""
    /// } else {
    ///     print("Nothing to undo")
    /// }
    /// ```
    ///
    /// A step whose item was changed elsewhere since (noted by
    /// ``takeOutsideChanges(to:origins:otherwise:)``) is refused, and nothing changes, unless
    /// `anyway`: then it runs over that change, on the items that are still there.
    ///
    /// - Throws: ``EditingSessionError/groupOpen`` while an explicit group is open: `undo()`
    ///   would trap on it; ``EditingSessionError/changedElsewhere(step:isUndo:changes:)`` for a
    ///   step changed elsewhere since.
    @discardableResult
    public func undo(anyway: Bool = false) throws(EditingSessionError) -> String? {
        try checkNoExplicitGroupIsOpen()
        return try refusingStaleStep(undo: true, unless: anyway) { () throws(EditingSessionError) in
            guard undoManager.canUndo else { return nil }
            let title = undoManager.undoMenuItemTitle
            // At level 1 the open group is this event's automatic group (explicit ones were
            // ruled out above); `undo()` closes it and undoes it.
            undoManager.undo()
            return title
        }
    }

    /// Redoes the most recently undone step and returns the menu title of what it redid, such
    /// as `Redo Add "Buy milk"`, or `nil` if there was nothing to redo.
    ///
    /// Any new edit clears what could be redone. A step changed elsewhere since it was undone
    /// is refused unless `anyway`, as for ``undo(anyway:)``.
    ///
    /// ```swift
    /// try session.undo()
    /// try session.redo()   // "Redo Add \"Buy milk\""
    /// ```
    ///
    /// - Throws: ``EditingSessionError/groupOpen`` while an explicit group is open,
    ///   ``EditingSessionError/changedElsewhere(step:isUndo:changes:)``.
    @discardableResult
    public func redo(anyway: Bool = false) throws(EditingSessionError) -> String? {
        guard openGroups.isEmpty else { throw .groupOpen }
        return try refusingStaleStep(undo: false, unless: anyway) { () throws(EditingSessionError) in
            // Checked first: with nothing to redo, this event's groups must stay as they are.
            guard undoManager.canRedo else { return nil }
            try checkNoExplicitGroupIsOpen()
            let title = undoManager.redoMenuItemTitle
            undoManager.redo()
            return title
        }
    }

    /// Forgets the step ``undo(anyway:)`` (or, with `redo`, ``redo(anyway:)``) would take
    /// next, without running it, and returns its name; `nil` if there is none. An undo step's
    /// change stays, and undo goes on with the step before it: how to get past a step that
    /// is refused because its item was changed elsewhere (UndoKit's `removeNextUndoStep()`).
    ///
    /// - Throws: ``EditingSessionError/groupOpen`` while a group is open, or edits of this
    ///   event are not yet a step.
    @discardableResult
    public func dropStep(redo: Bool = false) throws(EditingSessionError) -> String? {
        closeEndedGroups()
        guard openGroups.isEmpty, undoManager.groupingLevel == 0 else { throw .groupOpen }
        guard (redo ? undoManager.redoCount : undoManager.undoCount) > 0 else { return nil }
        let stale = redo ? undoManager.staleRedoStep : undoManager.staleUndoStep
        let name = stale?.actionName ?? (redo ? undoManager.redoActionName : undoManager.undoActionName)
        if redo {
            undoManager.removeNextRedoStep()
        } else {
            undoManager.removeNextUndoStep()
        }
        return name
    }

    /// Runs `body`, the undo (or redo) of the next step; if that step is stale, throws instead,
    /// or with `anyway` runs it under UndoKit's `.run` policy.
    private func refusingStaleStep(
        undo: Bool, unless anyway: Bool, _ body: () throws(EditingSessionError) -> String?
    ) throws(EditingSessionError) -> String? {
        let policy = undoManager.staleStepPolicy
        guard policy == .refuse, let stale = undo ? undoManager.staleUndoStep : undoManager.staleRedoStep else {
            return try body()
        }
        guard anyway else {
            throw .changedElsewhere(step: stale.actionName, isUndo: undo, changes: changesSince(stale))
        }
        undoManager.staleStepPolicy = .run
        defer { undoManager.staleStepPolicy = policy }
        return try body()
    }

    /// Whether ``undo()`` would do something.
    public var canUndo: Bool { undoManager.canUndo }

    /// Whether ``redo()`` would do something.
    public var canRedo: Bool { undoManager.canRedo }

    /// Makes sure `undo()`/`redo()` can't trap: no explicit group may be open, and the ones
    /// ended in this event are closed now, since undo works on whole groups.
    private func checkNoExplicitGroupIsOpen() throws(EditingSessionError) {
        guard openGroups.isEmpty else { throw .groupOpen }
        closeEndedGroups()
        // The manager's `undo()` closes one automatic group and traps on anything deeper; this
        // can only be reached if someone drove `undoManager` directly.
        let allowedLevel = undoManager.groupsByEvent ? 1 : 0
        guard undoManager.groupingLevel <= allowedLevel else { throw .groupOpen }
    }
}
