/// "Undo anyway": one undo or redo that runs the next step even if it is stale, whatever the
/// ``UndoManager/staleStepPolicy`` (spec K3), without changing the policy.
extension UndoManager {
    /// Undoes the next step even if it is stale: what ``undo()`` does under the
    /// ``StaleStepPolicy/run`` policy, for this call only. The step runs over the changes
    /// noted since (its undo writes back what it captured); nothing is dropped, and the policy
    /// stays as it was for the next call. Goes through ``undo()``, so a subclass's override
    /// runs, and posts what ``undo()`` posts.
    ///
    /// ```swift
    /// manager.staleStepPolicy = .refuse
    /// if !manager.canUndo, manager.staleUndoStep != nil, userConfirmedOverwrite {
    ///     manager.undoStaleStep()   // "Undo anyway"
    /// }
    /// ```
    public func undoStaleStep() {
        runningStaleSteps { undo() }
    }

    /// Redoes the next step even if it is stale; see ``undoStaleStep()``.
    ///
    /// ```swift
    /// manager.redoStaleStep()   // "Redo anyway"
    /// ```
    public func redoStaleStep() {
        runningStaleSteps { redo() }
    }

    /// Runs `body` with the policy's checks off, then turns them back on and publishes what
    /// Observation saw change (the body published with the checks off).
    private func runningStaleSteps(_ body: () -> Void) {
        guard state.checksStaleSteps else {
            body()
            return
        }
        state.checksStaleSteps = false
        defer {
            updateStaleStepChecks()
            publishObservableChanges()
        }
        body()
    }
}
