/// The end of every operation that changes the steps (see ARCHITECTURE.md, "A transaction's
/// life").
///
/// The primitives that change the stacks (close a step, move it by undo or redo, remove,
/// trim, clear) keep the step ledger, the clean mark and the entries they drop consistent as
/// they go, and record what they did to the steps (``StepEdit``) while anything listens. Each
/// operation then settles once, when its change is complete and before its last notification:
/// settling is the one place that releases the dropped entries, hands the edits to the
/// listeners, reports the clean state and, in debug builds, checks every invariant. The
/// public operation publishes Observation changes last.
extension UndoManager {
    /// Settles the operation in progress (see above). Cheap when nothing is pending: a few
    /// tests.
    @inline(__always)
    func settle() {
        releaseDroppedEntries()
        if ledger.recordsEdits && !ledger.edits.isEmpty {
            handEditsToListeners()
        }
        reportCleanState()
        checkInvariantsInDebugBuilds()
    }

    /// The step edits recorded since the last settle, to the history tree (which forgets the
    /// records of steps that left) and the coordinator (which keeps its order by them).
    private func handEditsToListeners() {
        let edits = ledger.edits
        ledger.edits.removeAll(keepingCapacity: true)
        if let tree = state.historyTree {
            for case .removed(let id) in edits {
                tree.records[id] = nil
            }
        }
        if state.isCoordinated, let coordinator {
            coordinator.apply(edits, from: self)
            #if DEBUG
            // A rollback puts the coordinator's redo order back itself, once it has settled.
            if !state.isRollingBackScope {
                coordinator.checkInvariants()
            }
            #endif
        }
    }

    /// Records step edits exactly while something listens: a coordinator, or the history
    /// tree. A manager with neither records nothing.
    func updateStepEditRecording() {
        ledger.recordsEdits = state.isCoordinated || state.historyTree != nil
        if !ledger.recordsEdits {
            ledger.edits.removeAll()
        }
    }
}
