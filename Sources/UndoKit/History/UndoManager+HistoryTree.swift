import Foundation

/// The history tree; see <doc:NavigatingTheHistory>.
extension UndoManager {
    /// Whether a new edit made after undoing keeps the redo steps it would discard, as a
    /// branch of the history tree. `false` by default: Apple's behaviour, exactly.
    ///
    /// Nothing else changes: ``redo()`` follows the newest branch (or the one ``go(to:)``
    /// last took), and ``canRedo``, the titles and the notifications describe that path.
    /// ``levelsOfUndo`` and ``actionCostLimit`` count every node; trimming drops the least
    /// recently visited leaves first, never a step on the current path. Turning it off drops
    /// the branches; the stacks stay.
    ///
    /// ```swift
    /// manager.keepsRedoBranches = true
    /// type("a"); manager.runLoop.tick()
    /// manager.undo()
    /// type("b"); manager.runLoop.tick()    // "a" stays in the tree as a branch
    /// manager.historyTree.roots.count     // 2
    /// manager.go(to: manager.historyTree.nodes[0])       // back to "a"
    /// ```
    ///
    /// A manager attached to an ``UndoCoordinator``, whose order is one sequence, cannot keep
    /// branches: setting it then stops the program.
    public var keepsRedoBranches: Bool {
        get { state.historyTree?.keepsBranches ?? false }
        set {
            if newValue && state.isCoordinated && coordinator?.mode != .perMember {
                programmerError(
                    in: PublicCall("keepsRedoBranches"),
                    "a manager attached to an UndoCoordinator cannot keep redo branches",
                    fix: "detach the manager from its coordinator first, or keep branches off for coordinated managers "
                        + "(the coordinator orders steps as one sequence across managers)"
                )
            }
            guard newValue != keepsRedoBranches else { return }
            let tree = recordingHistoryTree()
            tree.keepsBranches = newValue
            undoStack.limitsApplyToTree = newValue
            if newValue {
                // Steps a setter removes end a coalescing run (CoalescingSteps.md).
                if trimHistoryTree() {
                    stopCoalescing()
                }
            } else {
                // The stacks stay: the tree's limits held them within Apple's (an open group
                // is trimmed around when it closes, spec R10 step 7).
                let dropped = tree.removeAllBranches()
                if case .step(let mark) = ledger.cleanMark, dropped[mark] != nil {
                    ledger.cleanMarkKeeper.pathToMarkWasCut()
                }
                // Each branch step leaves as any removed step does: its side tables forget it.
                for id in dropped.keys.sorted() {
                    ledger.stepLeft(id)
                }
                withExtendedLifetime(dropped) {}
            }
            settle()
            publishObservableChanges()
        }
    }

    /// Every step as a tree, for a History panel: the undo steps, the redo steps and, with
    /// ``keepsRedoBranches``, the branches, each with its id, action name and date.
    ///
    /// The first read starts recording dates: each step closed from then on has one. O(steps);
    /// it posts nothing. Observation tracks it whole, so a History panel hears of changes to
    /// a branch too; while watched, each operation compares the tree, O(steps).
    ///
    /// ```swift
    /// let tree = manager.historyTree
    /// tree.current.map { tree[$0].actionName }   // what undo() would revert
    /// tree.nodes.count                           // undoCount + redoCount without branches
    /// ```
    public var historyTree: UndoTree {
        trackRead(.historyTree, \.historyTree)
        return makeHistoryTree()
    }

    func makeHistoryTree() -> UndoTree {
        let tree = recordingHistoryTree()
        let path = pathNodes()
        let names = (undoStack.closedTopLevelNamesNewestFirst().reversed(), redoStack.closedTopLevelNamesNewestFirst())
        var steps: [UndoTree.Step] = []
        steps.reserveCapacity(path.undo.count + path.redo.count + tree.branches.count)
        // Staleness needs each step's parts: read only once changes were noted.
        let metadata = state.partLog == nil ? nil
            : undoStack.closedTopLevelMetadata() + redoStack.closedTopLevelMetadata().reversed()
        var previous: StepID?
        for (index, (id, name)) in zip(path.undo + path.redo, names.0 + names.1).enumerated() {
            steps.append(UndoTree.Step(
                id: id, parent: previous, actionName: name, date: tree.records[id]?.date,
                isStale: metadata.map { isStale(id, metadata: $0[index]) } ?? false))
            previous = id
        }
        for (id, step) in tree.branches {
            steps.append(UndoTree.Step(
                id: id, parent: step.parent, actionName: step.metadata?.name ?? "", date: tree.records[id]?.date,
                isStale: isStale(id, metadata: step.metadata)))
        }
        steps.sort { $0.id < $1.id }
        return UndoTree(
            stepsSortedByID: steps, current: path.undo.last, redoPath: path.redo
        )
    }

    /// The id of the step ``undo()`` would revert: ``historyTree``'s ``UndoTree/current`` in
    /// O(1) (Vim's `changenr()`). `nil` before the first step. The first read starts recording
    /// dates. It tells cheaply whether a change added a step (a larger id) or moved:
    ///
    /// ```swift
    /// let before = manager.currentHistoryNodeID
    /// document.apply(edit)
    /// if manager.currentHistoryNodeID != before { saveNewStep() }
    /// ```
    public var currentHistoryNodeID: UndoTree.NodeID? {
        trackRead(.currentHistoryNodeID, \.currentHistoryNodeID)
        recordingHistoryTree()
        return undoStack.steps.last
    }

    /// Moves the model to the state after `node`: undoes up to where it meets the current
    /// path, then redoes down to it, one step at a time through ``undo()`` and ``redo()``, with
    /// the usual notifications. Works with or without ``keepsRedoBranches``. Like ``undo()``,
    /// it first closes the event's automatic group if it is the only one open. Redo then
    /// follows the branch it went down. It takes a node, not an optional, so a failed lookup
    /// cannot be mistaken for the start (``goToStart()``).
    ///
    /// ```swift
    /// let tree = manager.historyTree
    /// if let node = tree.nodes.first(where: { $0.actionName == "Add “Milk”" }) {
    ///     manager.go(to: node)
    /// }
    /// ```
    ///
    /// - Precondition: No other group is open, the manager is not undoing or redoing, and
    ///   `node` is in the manager's tree (taken from ``historyTree`` since its last change
    ///   removed nothing): the program stops otherwise, naming the call and the fix.
    public func go(to node: UndoTree.Node) {
        goToNode(node.id, in: PublicCall("go(to:)"))
    }

    /// Moves the model to the state before the first step, one ``undo()`` at a time (the
    /// undone steps stay on the redo path).
    ///
    /// ```swift
    /// manager.goToStart()
    /// manager.canUndo   // false
    /// ```
    ///
    /// - Precondition: No other group is open and the manager is not undoing or redoing.
    public func goToStart() {
        goToNode(nil, in: PublicCall("goToStart()"))
    }

    /// Moves to the state reached just before the current one, across branches: Vim's `g-`.
    ///
    /// States are ordered by when they were first reached (node ids). Does nothing at the start.
    ///
    /// ```swift
    /// // a, b; undo; c: the states in time are start, a, a+b, a+c
    /// manager.goToEarlierState()   // from a+c to a+b, across the branch point
    /// manager.goToEarlierState()   // a
    /// ```
    public func goToEarlierState() {
        let call = PublicCall("goToEarlierState()")
        let current = currentNodeID(in: call)
        guard let current else { return }
        let earlier = allNodeIDs().filter { $0 < current }.max()
        goToNode(earlier, in: call)
    }

    /// Moves to the state reached just after the current one, across branches: Vim's `g+`.
    /// Does nothing at the newest state.
    ///
    /// ```swift
    /// manager.goToLaterState()   // from a to a+b, then a+c
    /// ```
    public func goToLaterState() {
        let call = PublicCall("goToLaterState()")
        let current = currentNodeID(in: call)
        // At the start every state is later.
        guard let later = allNodeIDs().filter({ id in current.map { id > $0 } ?? true }).min() else { return }
        goToNode(later, in: call)
    }

    /// Where the history tree's dates (``UndoTree/Node/date``) come from; the default reads
    /// `Date()`. Replace it to make dates deterministic in tests, or to use your app's clock.
    ///
    /// ```swift
    /// manager.historyTreeClock = { Date(timeIntervalSince1970: 1_800_000_000) }
    /// ```
    public var historyTreeClock: () -> Date {
        get { state.historyTreeClock ?? { Date() } }
        set { state.historyTreeClock = newValue }
    }

    func historyTreeNow() -> Date {
        state.historyTreeClock?() ?? Date()
    }
}
