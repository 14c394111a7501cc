/// Listing the steps for a History panel or an Undo menu with several levels.
///
/// See <doc:ListingTheHistory>.
extension UndoManager {
    /// The names of the steps successive calls of ``undo()`` would revert, the next one
    /// first, `""` for a group without a name: one entry per closed top-level group on the
    /// undo stack, as on Apple platforms, until a ``staleStepPolicy`` holds steps back. Then
    /// the list agrees with ``undoActionName`` and ``canUndo``: under
    /// ``StaleStepPolicy/skip`` it leaves the stale steps out, under
    /// ``StaleStepPolicy/refuse`` it stops before the newest stale step (so it is empty when
    /// the next step is stale). ``staleUndoSteps`` lists the steps held back; ``undoCount``
    /// still counts every step.
    ///
    /// A group still open (the current event's automatic group, an explicit group not yet
    /// ended) is not a step yet and is not listed; ``undoActionName`` names it. O(steps),
    /// and it posts nothing.
    ///
    /// ```swift
    /// manager.setActionName("Add"); manager.registerUndo(withTarget: list) { $0.removeLast() }
    /// manager.runLoop.tick()
    /// manager.setActionName("Rename"); manager.registerUndo(withTarget: list) { $0.rename() }
    /// manager.runLoop.tick()
    /// manager.undoActionNames   // ["Rename", "Add"]
    /// ```
    public var undoActionNames: [String] {
        trackRead(.undoActionNames, \.undoActionNames)
        return stepNames(onUndoStack: true)
    }

    /// The names of the steps successive calls of ``redo()`` would perform, the next one
    /// first: one entry per closed top-level group on the redo stack, `""` for a group
    /// without a name, under a ``staleStepPolicy`` the same rule as ``undoActionNames``.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionNames   // ["Rename"]
    /// ```
    public var redoActionNames: [String] {
        trackRead(.redoActionNames, \.redoActionNames)
        return stepNames(onUndoStack: false)
    }
}
