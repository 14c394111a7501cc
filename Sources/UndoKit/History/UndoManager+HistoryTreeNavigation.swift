extension UndoManager {
    /// The current path: the undo steps oldest first, then the redo steps from the next redo.
    func pathNodes() -> (undo: [StepID], redo: [StepID]) {
        (undoStack.steps.ids, redoStack.steps.ids.reversed())
    }

    func allNodeIDs() -> [StepID] {
        let path = pathNodes()
        return path.undo + path.redo + Array(state.historyTree?.branches.keys ?? [:].keys)
    }

    /// The current node's id, after checking that the manager can move.
    func currentNodeID(in call: PublicCall) -> StepID? {
        checkCanMove(in: call)
        recordingHistoryTree()
        return undoStack.steps.last
    }

    // MARK: Branches

    /// The node current before the step that just closed, from the edit its close recorded
    /// (the tree records edits): the step it merged into, or the one below it. A new edit that
    /// ends redo with branches kept hangs the branch there (``endRedoForNewEdit(closedNewStep:)``).
    func nodeBeforeClosedStep() -> StepID? {
        for edit in ledger.edits.reversed() {
            switch edit {
            case .merged(let id, _):
                return id
            case .added(_, toUndoStack: true):
                let steps = undoStack.steps
                return steps.count > 1 ? steps[steps.count - 2] : nil
            default:
                continue
            }
        }
        preconditionFailure("UndoManager: no edit records the step that just closed")
    }

    /// Takes every step off the redo stack into `tree`'s branches, the top one below `parent`.
    func detachRedoStack(below parent: StepID?, into tree: HistoryTreeState) {
        precondition(redoStack.nesting == 0, "UndoManager: the redo stack has an open group")
        var previous = parent
        while !redoStack.isEmpty {
            let (entries, id) = redoStack.popNewestTopLevelGroupEntries()
            tree.addBranch(HistoryTreeState.BranchStep(parent: previous, entries: entries), id: id)
            ledger.stepBranched(id)
            previous = id
        }
    }

    /// Moves branch steps `chain`, the next redo first, onto the empty redo stack.
    private func attachBranch(_ chain: [StepID], in tree: HistoryTreeState) {
        precondition(redoStack.isEmpty, "UndoManager: attaching a branch over redo steps")
        for id in chain.reversed() {
            guard let step = tree.takeBranch(id) else { preconditionFailure("UndoManager: no branch step \(id)") }
            redoStack.pushClosedTopLevelGroups(step.entries, ids: [id])
            ledger.stepUnbranched(id)
        }
    }

    // MARK: Moving

    func checkCanMove(in call: PublicCall) {
        guard !state.isUndoing && !state.isRedoing else {
            programmerError(
                in: call, "the history cannot be walked while undoing or redoing",
                fix: "move in the history from the user's action (a menu item, a click in a History panel), "
                    + "not from an undo or redo handler"
            )
        }
        if state.automaticGroupIsPending && undoStack.nesting == 1 {
            // As undo() does: the event's edits so far become a step first.
            endUndoGroupingThroughOverrides(from: call.name)
            state.automaticGroupIsPending = false
        }
        guard undoStack.nesting == 0 else {
            programmerError(
                in: call, "the history cannot be walked with a group open (groupingLevel \(undoStack.nesting))",
                fix: "end the open group with endUndoGrouping() (or let withUndoGroup return) before moving in the history"
            )
        }
    }

    /// Undoes up to where `target` (`nil`: the start) meets the current path, then redoes down.
    func goToNode(_ target: StepID?, in call: PublicCall) {
        checkCanMove(in: call)
        let route = route(to: target, in: call)
        for _ in 0..<route.undoCount {
            let before = undoStack.topLevelCount
            undo()
            guard undoStack.topLevelCount < before else { break }
        }
        guard !route.chain.isEmpty else {
            publishObservableChanges()
            return
        }
        putOnRedoPath(route.chain)
        for _ in route.chain {
            let before = redoStack.topLevelCount
            redo()
            guard redoStack.topLevelCount < before else { break }
        }
        settle()
        publishObservableChanges()
    }

    /// The way to `target` (`nil`: the start): how many undos reach where it meets the current
    /// path, then the nodes to redo from there, the next redo first.
    func route(to target: StepID?, in call: PublicCall) -> (undoCount: Int, chain: [StepID]) {
        let tree = recordingHistoryTree()
        let (undoIDs, redoIDs) = pathNodes()
        let undoIndex = Dictionary(undoIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { $1 })
        let redoIndex = Dictionary(redoIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { $1 })
        // The nodes from `target` up to, not including, its nearest ancestor on the undo path.
        var chain: [StepID] = []
        var cursor = target
        var ancestor = -1
        while let id = cursor {
            if let index = undoIndex[id] {
                ancestor = index
                break
            }
            chain.append(id)
            if let index = redoIndex[id] {
                cursor = index == 0 ? undoIDs.last : redoIDs[index - 1]
            } else if let step = tree.branches[id] {
                cursor = step.parent
            } else {
                programmerError(
                    in: call, "node \(id) is not in this manager's history",
                    fix: "pass a node of a tree taken from this manager's historyTree after its last change "
                        + "(removing actions, trimming and removeAllActions() take nodes out)"
                )
            }
        }
        chain.reverse()
        return (undoIDs.count - 1 - ancestor, chain)
    }

    /// Makes `chain` (the next redo first) the start of the redo path: unless it is already,
    /// the redo steps become a branch and the chain's branch, continued by the branch most
    /// recently visited below it, comes back.
    func putOnRedoPath(_ chain: [StepID]) {
        let tree = recordingHistoryTree()
        if !pathNodes().redo.starts(with: chain) {
            detachRedoStack(below: undoStack.steps.last, into: tree)
            // Redo then follows the branch most recently visited below the target.
            var continuation = chain
            while let next = tree.branchChildren(of: continuation.last!).max(by: {
                tree.lastVisit(of: $0) < tree.lastVisit(of: $1)
            }) {
                continuation.append(next)
            }
            attachBranch(continuation, in: tree)
        }
    }
}
