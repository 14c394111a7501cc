/// What a ``UndoManager/withUndoGroup(named:_:)`` call in progress restores if its body
/// throws, after undoing the scope's group: a savepoint of the step ledger. What the body did
/// to older steps (removed actions, trimmed steps) stays done, and cuts the scope's saved
/// clean mark (``CleanMarkKeeper/scopeMarks``, one per savepoint) as it cuts the manager's.
struct Savepoint {
    /// What was open around the scope when it began.
    enum OuterGroup {
        /// Nothing: the scope's group is (or is inside the event group it opened) top-level.
        case none
        /// A group, whose metadata (the outermost open group's, spec R34) was this copy.
        case open(metadata: GroupMetadata?)
    }

    let outerGroup: OuterGroup
    /// The nesting of the undo stack once the scope's group is open.
    var level = 0
    /// Whether opening the scope's group opened the event's automatic group around it.
    var openedAutomaticGroup = false
    /// The id the next new step was to get: after a rollback, new steps get the ids they
    /// would have had without the scope.
    let nextStepID: StepID
    /// Whether the newest closed group could take the next one with its key.
    let newestGroupMayCoalesce: Bool
    /// Whether the body removed or trimmed steps, or actions in them, that were there before
    /// the scope: coalescing stops, as after any removal.
    var changedOlderSteps = false
    /// The redo stack as it was before the body first cleared or popped it.
    var parkedRedo: ParkedRedoStack?
    /// The targets whose actions the body removed, for the redo steps the rollback puts back.
    var removedTargets: [ObjectIdentifier] = []
    /// Whether the body called `removeAllActions()`.
    var removedAllActions = false
    /// Whether a registration in the scope ended redo (for the coordinator, which ends redo
    /// for its other members only once the outermost scope succeeds).
    var madeNewEdit = false
}

/// A redo stack's steps, kept aside by a savepoint.
struct ParkedRedoStack {
    let entries: [UndoStack.Entry]
    let steps: [StepID]
    /// The history tree's dates and visits of those steps.
    let records: [StepID: HistoryTreeState.NodeRecord]
}
