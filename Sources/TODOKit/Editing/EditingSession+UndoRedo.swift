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
    /// - Throws: ``EditingSessionError/groupOpen`` while an explicit group is open: `undo()`
    ///   would trap on it.
    @discardableResult
    public func undo() throws(EditingSessionError) -> String? {
        try checkNoExplicitGroupIsOpen()
        guard undoManager.canUndo else { return nil }
        let title = undoManager.undoMenuItemTitle
        // At level 1 the open group is this event's automatic group (explicit ones were ruled
        // out above); `undo()` closes it and undoes it.
        undoManager.undo()
        return title
    }

    /// Redoes the most recently undone step and returns the menu title of what it redid, such
    /// as `Redo Add "Buy milk"`, or `nil` if there was nothing to redo.
    ///
    /// Any new edit clears what could be redone.
    ///
    /// ```swift
    /// try session.undo()
    /// try session.redo()   // "Redo Add \"Buy milk\""
    /// ```
    ///
    /// - Throws: ``EditingSessionError/groupOpen`` while an explicit group is open.
    @discardableResult
    public func redo() throws(EditingSessionError) -> String? {
        guard openGroups.isEmpty else { throw .groupOpen }
        // Checked first: with nothing to redo, this event's groups must stay as they are.
        guard undoManager.canRedo else { return nil }
        try checkNoExplicitGroupIsOpen()
        let title = undoManager.redoMenuItemTitle
        undoManager.redo()
        return title
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
