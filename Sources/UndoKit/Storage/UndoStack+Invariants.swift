extension UndoStack {
    /// Checks every structural invariant of the stack, trapping on the first broken one. O(n).
    func checkInvariants() {
        for index in 0..<head {
            guard case .end(length: 0) = entries[index] else {
                preconditionFailure("UndoStack: trimmed entry \(index) still holds a payload")
            }
        }
        var begins: [Int] = []
        var topLevel = 0
        for index in head..<entries.count {
            switch entries[index] {
            case .begin:
                if begins.isEmpty { topLevel += 1 }
                begins.append(index)
            case .end(let length):
                guard let begin = begins.popLast() else {
                    preconditionFailure("UndoStack: end mark at \(index) closes nothing")
                }
                precondition(length == index - begin, "UndoStack: end mark at \(index) has length \(length), begin is at \(begin)")
            case .action:
                precondition(!begins.isEmpty, "UndoStack: action at \(index) outside every group")
            case .singleton:
                if begins.isEmpty { topLevel += 1 }
            }
        }
        precondition(begins == openBegins.elements, "UndoStack: open groups \(openBegins.elements), entries say \(begins)")
        // The count is the ledger's (``topLevelCount``): this ties the ledger to the entries.
        precondition(topLevel == topLevelCount, "UndoStack: the ledger counts \(topLevelCount) top-level groups, entries say \(topLevel)")
        let groupsCost = Self.topLevelCost(of: entries.elements(in: head..<entries.count))
        precondition(totalCost == groupsCost, "UndoStack: totalCost \(totalCost), groups say \(groupsCost)")
        if limit > 0 {
            let allowed = openBegins.isEmpty ? limit : limit + 1
            precondition(topLevelCount <= allowed, "UndoStack: \(topLevelCount) groups over the limit of \(limit)")
        }
    }
}

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
