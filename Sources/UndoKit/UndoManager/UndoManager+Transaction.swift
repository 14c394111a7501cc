/// The end of every operation that changes the steps: ``settle()``, once the change is
/// complete (see ARCHITECTURE.md, "A transaction's life").
extension UndoManager {
    /// Settles the operation in progress: a few tests when nothing is pending.
    @inline(__always)
    func settle() {
        releaseDroppedEntries()
        if state.settlingHasListeners {
            settleListeners()
        }
        checkInvariantsInDebugBuilds()
    }

    /// The listeners' part of ``settle()``, out of line: the common manager needs only the
    /// flag's test.
    @inline(never)
    private func settleListeners() {
        // A tree with branches hears a change of limits even when no step moved.
        if !ledger.edits.isEmpty || state.historyTree?.keepsBranches == true {
            handEditsToListeners()
        }
        reportCleanState()
    }

    /// Hands the step edits to the history tree (dates, visits, trimming; it forgets the
    /// records of steps that left), the part log and the coordinator (which keeps its order
    /// by them).
    private func handEditsToListeners() {
        var edits = ledger.edits
        ledger.edits.removeAll(keepingCapacity: true)
        if let tree = state.historyTree {
            historyTreeTakes(edits, in: tree)
            // What its trimming removed, heard by every listener with the rest.
            edits += ledger.edits
            ledger.edits.removeAll(keepingCapacity: true)
            for case .removed(let id) in edits {
                tree.records[id] = nil
            }
        }
        if state.partLog != nil {
            partLogTakes(edits)
        }
        if state.isCoordinated, let coordinator {
            coordinator.apply(edits, from: self)
            #if DEBUG
            coordinator.checkInvariants()
            #endif
        }
    }

    /// Records step edits exactly while something listens: a coordinator, the history tree,
    /// or the log of changes noted from outside. A manager with none records nothing.
    func updateStepEditRecording() {
        ledger.recordsEdits = state.isCoordinated || state.historyTree != nil || state.partLog != nil
        if !ledger.recordsEdits {
            ledger.edits.removeAll()
        }
        updateSettlingListeners()
    }

    /// Keeps ``UndoManagerStorage/settlingHasListeners`` true exactly while edits are recorded
    /// or clean-state observers are registered.
    func updateSettlingListeners() {
        state.settlingHasListeners = ledger.recordsEdits || !state.cleanStateObservers.isEmpty
    }
}
