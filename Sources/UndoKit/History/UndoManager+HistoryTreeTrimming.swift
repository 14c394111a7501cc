extension UndoManager {
    /// With branches kept, ``levelsOfUndo`` and ``actionCostLimit`` count every node: while
    /// over, the least recently visited leaf off the current path goes, then the path's oldest
    /// step. Returns whether it dropped any (the callers report ``isClean``, end coalescing).
    @inline(never)
    @discardableResult
    func trimHistoryTree() -> Bool {
        guard let tree = state.historyTree, tree.keepsBranches else { return false }
        let limit = undoStack.limit
        let costLimit = undoStack.costLimit
        tree.limitSettingsTrimmedTo = state.limitSettings
        guard limit > 0 || costLimit > 0 else { return false }
        var dropped = false
        var droppedBranches: [HistoryTreeState.BranchStep] = []
        while true {
            let nodes = undoStack.topLevelCount + redoStack.topLevelCount + tree.branches.count
            let cost = undoStack.totalCost + redoStack.totalCost + tree.branchCost
            let overCount = limit > 0 && nodes > limit
            // The byte budget keeps the newest closed step: an open group is no node yet.
            let closedNodes = nodes - (undoStack.nesting > 0 ? 1 : 0)
            let overCost = costLimit > 0 && cost > costLimit && closedNodes > 1
            guard overCount || overCost else { break }
            let parents = Set(tree.branches.values.compactMap(\.parent))
            var leaf: (id: StepID, onBranch: Bool, lastVisit: UInt64)?
            for (id, _) in tree.branches where !parents.contains(id) {
                let visit = tree.lastVisit(of: id)
                if leaf == nil || visit < leaf!.lastVisit {
                    leaf = (id, true, visit)
                }
            }
            if let bottom = redoStack.steps.first, !parents.contains(bottom),
               leaf == nil || tree.lastVisit(of: bottom) < leaf!.lastVisit {
                leaf = (bottom, false, tree.lastVisit(of: bottom))
            }
            if let leaf {
                if leaf.onBranch {
                    droppedBranches.append(tree.takeBranch(leaf.id)!)
                    ledger.stepLeft(leaf.id)
                } else {
                    redoStack.dropOldestGroup()
                }
            } else if overCount
                ? undoStack.topLevelCount > 1 || (undoStack.nesting == 0 && undoStack.topLevelCount == 1)
                // The byte budget keeps the newest closed step (an open group is none yet).
                : undoStack.closedTopLevelGroupCount > 1 {
                // The next step may still merge into the newest one, as on a stack whose limit
                // drops its oldest step at a close; not when the newest is the one dropped.
                if undoStack.topLevelCount == 1 {
                    stopCoalescing()
                }
                undoStack.dropOldestGroup()
            } else {
                break
            }
            dropped = true
        }
        redoStack.removeTrimmedPlaceholders()
        releaseDroppedEntries()
        withExtendedLifetime(droppedBranches) {}
        return dropped
    }

    // MARK: Removal

    /// Whether a removal took a step between the current node and the clean mark on a branch
    /// at `mark`, which then cannot be reached (<doc:TrackingTheCleanState>). `removed` maps
    /// each step that left to its parent before.
    private func removalCutsPath(
        toBranchMark mark: StepID, removed: [StepID: StepID?],
        pathBefore: (undo: [StepID], redo: [StepID]), in tree: HistoryTreeState
    ) -> Bool {
        var parentBefore: [StepID: StepID?] = [:]
        var previous: StepID?
        for id in pathBefore.undo + pathBefore.redo {
            parentBefore[id] = previous
            previous = id
        }
        var markPath: Set<StepID> = []
        var cursor: StepID? = mark
        while let id = cursor, markPath.insert(id).inserted {
            cursor = tree.branches[id]?.parent ?? removed[id] ?? parentBefore[id] ?? nil
        }
        let between = markPath.symmetricDifference(pathBefore.undo)
        return removed.keys.contains(where: between.contains)
    }

    /// ``removeAllActions(withTarget:)`` in the branches: an emptied step leaves the tree, and
    /// the steps below a step that left move up to its parent. Returns the removed steps, for
    /// the caller to release.
    func pruneHistoryTree(
        removing target: ObjectIdentifier, pathBefore: (undo: [StepID], redo: [StepID])
    ) -> [HistoryTreeState.BranchStep] {
        guard let tree = state.historyTree else { return [] }
        let branchesBefore = Set(tree.branches.keys)
        let pathAfter = pathNodes()
        let alive = Set(pathAfter.undo + pathAfter.redo)
        var movedUp: [StepID: StepID?] = [:]
        var nearestAlive: StepID?
        for id in pathBefore.undo + pathBefore.redo {
            if alive.contains(id) {
                nearestAlive = id
            } else {
                movedUp[id] = nearestAlive
            }
        }
        var removed: [HistoryTreeState.BranchStep] = []
        var removedActions = false
        for id in tree.branches.keys.sorted() {
            guard var step = tree.branches[id] else { continue }
            let removal = step.entries.withUnsafeMutableBufferPointer {
                UndoStack.removeActions(on: target, in: $0, from: 0, to: $0.count)
            }
            if removal.removedOrdinals.isEmpty {
                removedActions = removedActions || removal.keptEnd != step.entries.count
                step.entries.removeSubrange(removal.keptEnd...)
                tree.branches[id] = step
            } else {
                movedUp[id] = step.parent
                removed.append(tree.takeBranch(id)!)
                ledger.stepLeft(id)
                removedActions = true
            }
        }
        // Actions removed from a branch end a coalescing run, as they do on the stacks
        // ("nothing ... removed in between", CoalescingSteps.md).
        if removedActions {
            stopCoalescing()
        }
        guard !movedUp.isEmpty else { return removed }
        if let mark = branchCleanMark(in: tree),
           removalCutsPath(toBranchMark: mark, removed: movedUp, pathBefore: pathBefore, in: tree) {
            ledger.cleanMarkKeeper.pathToMarkWasCut()
        }
        // A rollback restores each open scope's saved mark, less what removals cut: judged now.
        if !state.savepoints.isEmpty {
            savepointsSawTreeRemoval(changingBranches: removedActions, branchesBefore: branchesBefore) { mark in
                removalCutsPath(toBranchMark: mark, removed: movedUp, pathBefore: pathBefore, in: tree)
            }
        }
        for (id, step) in tree.branches {
            var parent = step.parent
            while let current = parent, let replacement = movedUp[current] {
                parent = replacement
            }
            if parent != step.parent {
                tree.branches[id]?.parent = parent
            }
        }
        return removed
    }
}
