/// The part log (``PartChangeLog``) as a listener: it hears of the steps that were done and
/// that left from the step edits each transaction settles with, and answers whether a step
/// is stale. The stale-step policy (`UndoManager+StaleSteps.swift`) only asks.
extension UndoManager {
    /// Hands a transaction's step edits to the part log: a step that closed or ran now is
    /// fresh (what changed before no longer touches it); a step that left is forgotten once
    /// no scope is in progress and it did not come back (a scope's rollback puts back the
    /// redo steps its body ended, as fresh or stale as they were).
    func partLogTakes(_ edits: [StepEdit]) {
        for edit in edits {
            switch edit {
            case .added(let id, true), .moved(let id, true), .merged(let id, _):
                // A step closing on the undo stack was recorded from its first action (spec K2).
                state.partLog?.stepWasClosed(id)
            case .added(let id, false), .moved(let id, false):
                // A redo step an undo built was recorded from the undo's first registration.
                state.partLog?.redoStepWasClosed(id)
            case .restored(let id, _):
                state.partLog?.stepWasDone(id)
            case .removed(let id):
                state.partLog?.stepLeft(id)
            case .branched, .unbranched, .newEdit, .putBack:
                // A step put back by a rollback was not forgotten while the scope ran.
                continue
            }
        }
        if state.savepoints.isEmpty {
            state.partLog?.forgetStepsThatLeft { !stepExists($0) }
        }
        if redoStack.nesting == 0 {
            // No undo is building a group: a note held for one that closed as no step (its
            // redo group stayed empty, or was taken away) is held against no step.
            state.partLog?.firstNoteInOpenRedoStep = nil
        }
    }

    func updateStaleStepChecks() {
        state.checksStaleSteps = state.partLog != nil && state.staleStepPolicy != .run
    }

    /// Whether step `id`, whose group has `metadata`, is stale.
    func isStale(_ id: StepID, metadata: GroupMetadata?) -> Bool {
        state.partLog?.isStale(id, touching: metadata?.parts) ?? false
    }

    /// The next undo (`onUndoStack`) or redo step, if it is stale.
    func staleStep(onUndoStack: Bool) -> StaleStep? {
        guard let log = state.partLog, let next = nextStep(onUndoStack: onUndoStack) else { return nil }
        let changes = log.changes(since: next.id, touching: next.metadata?.parts)
        guard !changes.isEmpty else { return nil }
        return StaleStep(id: next.id, metadata: next.metadata, changes: changes)
    }

    /// Debug check: every step the part log holds a time for is on a stack or a branch, or
    /// left in an edit not yet handed over, or left and waits to be forgotten (at the first
    /// settle with no scope open, whose rollback could put it back).
    func checkPartLogSteps(leftPending: Set<StepID>) {
        guard let log = state.partLog else { return }
        for id in log.stepsHeld where !stepExists(id) && !leftPending.contains(id) {
            precondition(log.leftAwaitingForget(id), "UndoManager: the part log holds \(id), which is nowhere")
        }
    }
}
