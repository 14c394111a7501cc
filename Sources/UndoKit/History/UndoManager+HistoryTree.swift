import Foundation

/// The history tree: redo branches that a new edit keeps instead of discarding, the tree as a
/// value, and moving to any node of it.
///
/// See <doc:NavigatingTheHistory>.
extension UndoManager {
    /// Whether a new edit made after undoing keeps the redo steps it would discard, as a
    /// branch of the history tree. `false` by default: Apple's behaviour, exactly.
    ///
    /// With branches kept, nothing else changes: ``redo()`` follows the newest branch (the
    /// one the new edit started, or the one ``go(to:)`` last took), and ``canRedo``, the
    /// titles, ``redoActionNames`` and the notifications describe that path. ``levelsOfUndo``
    /// and ``actionCostLimit`` count every node of the tree; trimming drops the least
    /// recently visited leaves first and never a step on the path to the current one (see
    /// <doc:NavigatingTheHistory>). Turning it off drops the branches; the undo and redo
    /// stacks stay.
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
    /// A manager attached to an ``UndoCoordinator`` cannot keep branches: the coordinator's
    /// order is one sequence across its managers, and a branch in one of them has no place in
    /// it. Setting it on such a manager stops the program.
    public var keepsRedoBranches: Bool {
        get { state.historyTree?.keepsBranches ?? false }
        set {
            if newValue && state.isCoordinated {
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
                // Steps removed by a setter end a coalescing run, as the limits' setters'
                // trimming does (CoalescingSteps.md).
                if trimHistoryTree() {
                    stopCoalescing()
                }
            } else {
                // Apple's model has no place for branches. The stacks stay as they are: the
                // tree's limits held them within Apple's, except for a group still open,
                // which Apple's limits trim around when it closes (spec R10 step 7), as they
                // would have with branches.
                let dropped = tree.removeAllBranches()
                if case .step(let mark) = ledger.cleanMark, dropped[mark] != nil {
                    ledger.cleanMark = .unreachable
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
    /// Every step has an id from the moment it closes. The first read starts recording the
    /// tree: from then on each new step gets a date as it closes; steps recorded before have
    /// none. O(steps); it posts nothing.
    ///
    /// Reading it is tracked by Observation as a whole: a History panel hears of every
    /// operation that changes the tree, including those that change only a branch (removing
    /// a target's actions, trimming a branch tip, turning ``keepsRedoBranches`` off). While a
    /// tracking watches it, each operation compares the tree it would return now, O(steps).
    ///
    /// ```swift
    /// let tree = manager.historyTree
    /// tree.current.map { tree[$0].actionName }   // what undo() would revert
    /// tree.nodes.count                           // undoCount + redoCount without branches
    /// ```
    public var historyTree: UndoTree {
        // Tracked as a whole: a branch can change while the undo and redo paths stay.
        trackRead(.historyTree, \.historyTree)
        return makeHistoryTree()
    }

    /// ``historyTree``, untracked.
    func makeHistoryTree() -> UndoTree {
        let tree = recordingHistoryTree()
        let path = pathNodes()
        let names = (undoStack.closedTopLevelNamesNewestFirst().reversed(), redoStack.closedTopLevelNamesNewestFirst())
        var steps: [UndoTree.Step] = []
        steps.reserveCapacity(path.undo.count + path.redo.count + tree.branches.count)
        // The current path: each step hangs below the one before it.
        var previous: StepID?
        for (id, name) in zip(path.undo + path.redo, names.0 + names.1) {
            steps.append(UndoTree.Step(id: id.rawValue, parent: previous?.rawValue, actionName: name, date: tree.date(of: id)))
            previous = id
        }
        for (id, step) in tree.branches {
            steps.append(UndoTree.Step(id: id.rawValue, parent: step.parent?.rawValue, actionName: step.name, date: tree.date(of: id)))
        }
        steps.sort { $0.id < $1.id }
        return UndoTree(
            stepsSortedByID: steps, current: path.undo.last?.rawValue, redoPath: path.redo.map(\.rawValue)
        )
    }

    /// The id of the step ``undo()`` would revert: the ``UndoTree/current`` of
    /// ``historyTree``, in O(1) instead of building the whole tree (Vim's `changenr()` beside
    /// its `undotree()`). `nil` before the first step. Like ``historyTree``, the first read
    /// starts recording the tree's dates.
    ///
    /// For a status line, or to tell cheaply whether a change added a step (a new id, larger
    /// than every id before), changed the current one in place (the same id) or moved:
    ///
    /// ```swift
    /// let before = manager.currentHistoryNodeID
    /// document.apply(edit)
    /// if manager.currentHistoryNodeID != before { saveNewStep() }
    /// ```
    public var currentHistoryNodeID: UndoTree.NodeID? {
        trackRead(.currentHistoryNodeID, \.currentHistoryNodeID)
        recordingHistoryTree()
        return undoStack.steps.last.map { UndoTree.NodeID(rawValue: $0.rawValue) }
    }

    /// Moves the model to the state after `node`: undoes up to the step it shares with the
    /// current path, then redoes down to `node`, one step at a time through ``undo()`` and
    /// ``redo()``, with each step's usual notifications. A model that registers inverses ends
    /// exactly where a user pressing Undo and Redo would have.
    ///
    /// Works with or without ``keepsRedoBranches`` (without, it is Qt's `setIndex`). Like
    /// ``undo()``, it first closes the event's automatic group if it is the only one open.
    /// Redo then follows the branch it went down. To undo everything, call ``goToStart()``.
    ///
    /// It takes a node, not an optional one, so that a lookup that found nothing cannot be
    /// mistaken for the start: unwrap the search and decide what "not found" means.
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
        goToNode(StepID(rawValue: node.id.rawValue), in: PublicCall("go(to:)"))
    }

    /// Moves the model to the state before the first step of the history: undoes every step,
    /// one at a time through ``undo()``, with each step's usual notifications (the undone
    /// steps stay on the redo path, so ``redo()`` or ``go(to:)`` come back).
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
    /// States are ordered by when they were first reached, that is by when their steps were
    /// recorded (node ids); the start comes first. Does nothing at the start.
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
        let current = currentNodeID(in: call) ?? StepID(rawValue: 0)
        guard let later = allNodeIDs().filter({ $0 > current }).min() else { return }
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

    /// Now, by ``historyTreeClock``.
    func historyTreeNow() -> Date {
        state.historyTreeClock?() ?? Date()
    }
}
