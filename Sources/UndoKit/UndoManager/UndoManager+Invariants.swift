/// The manager's invariants, checked at every settle in debug builds (ARCHITECTURE.md, "A
/// transaction's life"): both stacks, the ledger, the clean mark, and the side tables keyed by
/// step id that features keep.
extension UndoManager {
    /// Checks the manager's invariants (both stacks, and what ties them to the flags).
    func checkInvariants() {
        undoStack.checkInvariants()
        redoStack.checkInvariants()
        precondition(redoStack.limit == 0, "UndoManager: the redo stack is never limited")
        if !state.isUndoing {
            precondition(redoStack.nesting == 0, "UndoManager: redo group open while not undoing")
        }
        precondition(!(state.isUndoing && state.isRedoing), "UndoManager: undoing and redoing at once")
        precondition(state.registrationDisableCount >= 0, "UndoManager: negative disable count")
        // The clean mark names a step that is somewhere, or an open group that is there. (Undo
        // and redo settle it once their step is done; their actions check in between.)
        if !isBusy {
            switch ledger.cleanMark {
            case .step(let id):
                precondition(stepExists(id), "UndoManager: the clean mark names \(id), which is nowhere")
            case .openGroup:
                precondition(undoStack.nesting > 0, "UndoManager: clean mark after an open group that is not there")
            case .start, .unreachable:
                break
            }
        }
        precondition(
            undoStack.dropped.isEmpty && redoStack.dropped.isEmpty,
            "UndoManager: dropped entries not released after a mutation"
        )
        stackEntries.pointee.checkInvariants()
        // One identity per step: no id on two stacks or on a stack and a branch, none to come.
        ledger.path.checkInvariants()
        let ids = ledger.path.ids + (state.historyTree.map { Array($0.branches.keys) } ?? [])
        precondition(Set(ids).count == ids.count, "UndoManager: a step id twice in \(ids)")
        precondition(ids.allSatisfy { $0 < ledger.nextStepID }, "UndoManager: a step id not yet given")
        checkSideTables()
    }

    /// Every step a side table keyed by step id names is on a stack or a branch, or left in an
    /// edit the listeners have not heard of yet: side tables are cleaned up from the edits.
    private func checkSideTables() {
        var leftPending: Set<StepID> = []
        for case .removed(let id) in ledger.edits {
            leftPending.insert(id)
        }
        if let tree = state.historyTree {
            for id in tree.records.keys {
                precondition(stepExists(id) || leftPending.contains(id), "UndoManager: the tree records \(id), which is nowhere")
            }
        }
        checkPartLogSteps(leftPending: leftPending)
    }

    /// In debug builds, checks the invariants while the stacks are small enough for the
    /// linear check to stay cheap.
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        if undoStack.entries.count + redoStack.entries.count <= 512 {
            checkInvariants()
        }
        #endif
    }
}
