import UndoKit

extension EditingSession {
    /// Runs `edits` so that they apply completely or not at all: inside UndoKit's
    /// `withUndoGroup(named:_:)`, which undoes every edit `edits` made if it throws.
    ///
    /// On success the edits join the current event's undo step, as if made one by one. When
    /// `edits` throws, the list, the undo and redo history and the changes waiting to be saved
    /// are exactly as before the call, and the error is rethrown.
    ///
    /// ```swift
    /// try? session.applyAll {
    ///     try session.add("Buy milk")
    ///     _ = try session.remove(at: 99)   // throws: "Buy milk" is not added either
    /// }
    /// session.list.isEmpty   // true
    /// ```
    ///
    /// The REPL runs each line of edits through it. Explicit groups begun with
    /// ``beginGroup(named:)`` are opened on the manager first, so the scope nests inside them.
    public func applyAll(_ edits: () throws -> Void) throws {
        if undoManager.groupingLevel == 0 {
            // The scope's group is this event's new step, as the first edit of a step opens
            // one (see `perform(_:named:)`).
            commandsInOpenStep.removeAll()
        }
        openGroupsOnManager()
        let before = (changes: appliedChanges.count, changeCount: changeCount, commands: commandsInOpenStep)
        do {
            try undoManager.withUndoGroup(edits)
        } catch {
            // The rollback ran the edits' inverses through `applyRecorded`: the list is back,
            // and neither the edits nor their inverses are changes to save.
            appliedChanges.removeSubrange(before.changes...)
            changeCount = before.changeCount
            commandsInOpenStep = before.commands
            throw error
        }
    }
}
