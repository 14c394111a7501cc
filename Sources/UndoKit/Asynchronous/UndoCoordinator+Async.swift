/// The coordinator's undo and redo for members whose steps have asynchronous actions (spec K4
/// with K5).
extension UndoCoordinator {
    /// Reverts the most recent step of all attached managers through its manager's
    /// ``UndoManager/undoAsync()``: ``undo()`` for steps with asynchronous actions, with
    /// ``UndoManager/undoAsync()``'s order and failure rules.
    ///
    /// ```swift
    /// try await coordinator.undoAsync()   // the newest step, whoever made it
    /// ```
    ///
    /// - Precondition: As for ``undo()`` (a ``Mode/singleOrder`` coordinator).
    public nonisolated(nonsending) func undoAsync() async throws {
        stopIfPerMember(in: "UndoCoordinator.undoAsync()")
        endEventGroups()
        dropGoneMembers()
        try await managerWithNewestStep(onUndoStacks: true)?.undoAsync()
    }

    /// Performs the most recently undone step of all attached managers through its manager's
    /// ``UndoManager/redoAsync()``; see ``undoAsync()``.
    ///
    /// ```swift
    /// try await coordinator.redoAsync()
    /// ```
    ///
    /// - Precondition: As for ``redo()``.
    public nonisolated(nonsending) func redoAsync() async throws {
        stopIfPerMember(in: "UndoCoordinator.redoAsync()")
        endEventGroups()
        dropGoneMembers()
        try await managerWithNewestStep(onUndoStacks: false)?.redoAsync()
    }
}
