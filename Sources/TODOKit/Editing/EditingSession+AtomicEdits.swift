import UndoKit

extension EditingSession {
    /// Runs `edits` so that they apply completely or not at all: inside UndoKit's
    /// `withUndoGroup(named:_:)`, which undoes every edit `edits` made if it throws.
    ///
    /// On success the edits join the current event's undo step, as if made one by one. When
    /// `edits` throws, the list, the undo and redo history and the changes waiting to be saved
    /// are exactly as before the call, and the error is rethrown. When they change nothing
    /// (`done 1` on an item done already), nothing is recorded either: no empty step.
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
    /// ``beginGroup(named:)`` and not yet open on the manager are opened when the event ends
    /// (``endEvent()``), around the event's edits, which the automatic group holds until then:
    /// opened before the scope, a group whose edits all changed nothing would be left open
    /// and empty, and closing an empty group clears redo and leaves an empty step. Without
    /// `groupsByEvent` there is no automatic group, and they are opened first.
    public func applyAll(_ edits: () throws -> Void) throws {
        if undoManager.groupingLevel == 0 {
            // The scope's group is this event's new step, as the first edit of a step opens
            // one (see `perform(_:named:)`).
            commandsInOpenStep.removeAll()
        }
        if !undoManager.groupsByEvent { openGroupsOnManager() }
        isInsideAtomicEdits = true
        defer { isInsideAtomicEdits = false }
        let before = (changes: appliedChanges.count, changeCount: changeCount, commands: commandsInOpenStep)
        do {
            try undoManager.withUndoGroup {
                try edits()
                // The scope's group would stay, empty, as a step that undo names "" and that
                // does nothing; rolled back, it leaves no trace.
                if changeCount == before.changeCount { throw NothingChanged() }
            }
        } catch {
            // The rollback ran the edits' inverses through `applyRecorded`: the list is back,
            // and neither the edits nor their inverses are changes to save.
            appliedChanges.removeSubrange(before.changes...)
            changeCount = before.changeCount
            commandsInOpenStep = before.commands
            if error is NothingChanged { return }
            throw error
        }
    }
}

extension EditingSession {
    /// Records `changes`, each fitting the list as the one before left it, as one new step
    /// named `name`: how a shared history takes what a session did that it could not follow
    /// step by step.
    func record(_ changes: [TODOList.Change], named name: String) {
        try? applyAll {
            for change in changes { try perform(change, named: name) }
        }
        endEvent()
    }
}

/// Thrown out of ``EditingSession/applyAll(_:)``'s scope when its edits changed nothing, so
/// that UndoKit removes the empty group.
private struct NothingChanged: Error {}
