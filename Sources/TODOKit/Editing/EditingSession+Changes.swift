import UndoKit

extension EditingSession {
    /// Returns the changes applied to ``list`` since the last call, in order, and forgets them.
    ///
    /// Edits, undo and redo all apply primitive ``TODOList/Change`` values; applying the
    /// returned ones, in order, to the list as it was at the previous call gives ``list``. They
    /// are what a ``TODODatabase`` commits.
    ///
    /// ```swift
    /// try session.add("Buy milk")
    /// session.endEvent()
    /// let changes = session.takeChanges()
    /// ```
    public func takeChanges() -> [TODOList.Change] {
        takeIdentifiedChanges().map(\.change)
    }

    /// ``takeChanges()``, each change with the item it touched: what a ``TODODatabase``
    /// commits without a copy of the list.
    public func takeIdentifiedChanges() -> [TODOList.IdentifiedChange] {
        defer { appliedChanges.removeAll() }
        return appliedChanges
    }

    /// Replaces the list with `list`, from outside the undo history: used when another process
    /// changed the list on disk. Returns whether there was undo or redo history, which is
    /// dropped.
    ///
    /// The undo history is a chain of changes by position, each valid only for the list it
    /// was recorded on; after someone else's change it would undo the wrong items. So it is
    /// cleared, and the next edit starts a new one, until the caller restores the history saved
    /// with the new list (``restoreHistory(_:)``), as ``REPL`` does when a command needs it. Groups begun with
    /// ``beginGroup(named:)`` stay open: the user's next `end` still matches their `begin`, and
    /// the group's step holds the edits made after the reload. Changes not yet taken with
    /// ``takeChanges()`` are dropped too, since they were made to the old list.
    ///
    /// ```swift
    /// if case .changed(let list) = try database.refresh() {
    ///     session.replaceList(list)
    /// }
    /// ```
    @discardableResult
    public func replaceList(_ list: TODOList) -> Bool {
        let hadHistory = undoManager.canUndo || undoManager.canRedo
        // Empties both stacks and closes every open group on the manager (spec R31).
        undoManager.removeAllActions()
        commandsInOpenStep.removeAll()
        for index in openGroups.indices {
            openGroups[index].isOpenOnManager = false
        }
        endedGroupCount = 0
        appliedChanges.removeAll()
        self.list = list
        changeCount += 1
        return hadHistory
    }
}
