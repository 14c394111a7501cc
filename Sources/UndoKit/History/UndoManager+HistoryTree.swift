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
        get { storage.pointee.historyTree?.keepsBranches ?? false }
        set {
            if newValue && storage.pointee.isCoordinated {
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
                let wasClean = undoStack.cleanDistance == 0
                // Steps removed by a setter end a coalescing run, as the limits' setters'
                // trimming does (CoalescingSteps.md).
                if trimHistoryTree() {
                    stopCoalescing()
                }
                notifyIfCleanStateChanged(wasClean: wasClean)
            } else {
                // Apple's model has no place for branches. The stacks stay as they are: the
                // tree's limits held them within Apple's, except for a group still open,
                // which Apple's limits trim around when it closes (spec R10 step 7), as they
                // would have with branches.
                let dropped = tree.branches
                tree.branches = [:]
                tree.branchCost = 0
                tree.cleanNode = nil
                withExtendedLifetime(dropped) {}
            }
            checkInvariantsInDebugBuilds()
            publishObservableChanges()
        }
    }

    /// Every step as a tree, for a History panel: the undo steps, the redo steps and, with
    /// ``keepsRedoBranches``, the branches, each with its id, action name and date.
    ///
    /// The first read starts recording the tree: from then on each new step gets an id and a
    /// date as it closes (one small allocation per step). Steps recorded before get ids on
    /// that first read, oldest first, and no date. O(steps); it posts nothing.
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
        var steps: [UndoTree.Step] = []
        steps.reserveCapacity(path.undo.count + path.redo.count + tree.branches.count)
        // The current path: each step hangs below the one before it.
        var previous: UInt64?
        for metadata in [path.undo, path.redo].joined() {
            let id = metadata.nodeID!
            steps.append(UndoTree.Step(id: id, parent: previous, actionName: metadata.name ?? "", date: metadata.date))
            previous = id
        }
        for (id, step) in tree.branches {
            let metadata = step.metadata
            steps.append(UndoTree.Step(id: id, parent: step.parent, actionName: metadata.name ?? "", date: metadata.date))
        }
        steps.sort { $0.id < $1.id }
        return UndoTree(
            stepsSortedByID: steps, current: path.undo.last?.nodeID, redoPath: path.redo.map { $0.nodeID! }
        )
    }

    /// The id of the step ``undo()`` would revert: the ``UndoTree/current`` of
    /// ``historyTree``, in O(1) instead of building the whole tree (Vim's `changenr()` beside
    /// its `undotree()`). `nil` before the first step. Like ``historyTree``, the first read
    /// starts recording the tree.
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
        return undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID.map(UndoTree.NodeID.init(rawValue:))
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
        goToNode(node.id.rawValue, in: PublicCall("go(to:)"))
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
        let current = currentNodeID(in: call) ?? 0
        guard let later = allNodeIDs().filter({ $0 > current }).min() else { return }
        goToNode(later, in: call)
    }
}

// MARK: - Recording

extension UndoManager {
    /// Where the history tree's dates (``UndoTree/Node/date``) come from; the default reads
    /// `Date()`. Replace it to make dates deterministic in tests, or to use your app's clock.
    ///
    /// ```swift
    /// manager.historyTreeClock = { Date(timeIntervalSince1970: 1_800_000_000) }
    /// ```
    public var historyTreeClock: () -> Date {
        get { storage.pointee.historyTreeClock ?? { Date() } }
        set { storage.pointee.historyTreeClock = newValue }
    }

    /// Now, by ``historyTreeClock``.
    func historyTreeNow() -> Date {
        storage.pointee.historyTreeClock?() ?? Date()
    }

    /// The tree's state, made (and every step on the stacks given an id) on first use.
    @discardableResult
    func recordingHistoryTree() -> HistoryTreeState {
        if let tree = storage.pointee.historyTree {
            return tree
        }
        let tree = HistoryTreeState()
        storage.pointee.historyTree = tree
        undoStack.giveEveryClosedTopLevelGroupMetadata()
        redoStack.giveEveryClosedTopLevelGroupMetadata()
        // Recording order: the undo steps oldest first, then the redo steps from the one
        // redo() performs next (recorded before the ones below it).
        for metadata in undoStack.closedTopLevelMetadata() + redoStack.closedTopLevelMetadata().reversed() {
            if let metadata {
                tree.stamp(metadata, now: historyTreeNow())
                metadata.date = nil
            }
        }
        checkInvariantsInDebugBuilds()
        return tree
    }

    /// Called as a new top-level step is about to close outside undo and redo: gives it a
    /// new node, and remembers the current node, below which an empty group's close puts the
    /// redo steps it ends, and the clean mark's distance, which the close moves before those
    /// steps become a branch.
    ///
    /// Always a new node: an open group never has one of its own (a redo nested in it copies
    /// the redone step's metadata, node included, into it).
    @inline(never)
    func stampClosingStep() {
        guard let tree = storage.pointee.historyTree else { return }
        tree.parentOfClosingStep = undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID
        tree.cleanDistanceBeforeClosingStep = undoStack.cleanDistance
        let metadata = undoStack.openTopMetadata()
        metadata.node = nil
        tree.stamp(metadata, now: historyTreeNow())
    }

    /// After ``undoNestedGroup()`` undid a group nested in an open one, while the tree is
    /// recorded: `redoStepsBefore` is the redo stack's top-level count before it.
    ///
    /// Out of line, so that an undo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterNestedUndo(redoStepsBefore: Int) {
        guard let tree = storage.pointee.historyTree, redoStack.topLevelCount > redoStepsBefore else { return }
        recordNestedUndoStep(in: tree)
        // The new step is on top of the redo path: a mark on a branch off that path would
        // need it redone on the way, and it was never part of the marked state (as for a mark
        // on the redo stack, <doc:TrackingTheCleanState>).
        if let mark = tree.cleanNode, pathToBranchMark(mark, leavesThePathAt: nil, in: tree) {
            tree.cleanNode = nil
        }
    }

    /// After ``undoNestedGroup()`` undid a top-level step, while the tree is recorded:
    /// `undone` is that step's metadata.
    ///
    /// Out of line, so that an undo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterTopLevelUndo(of undone: GroupMetadata?) {
        guard let tree = storage.pointee.historyTree else { return }
        let current = undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)
        tree.visit(current)
        // The undone step stays in the tree as the next redo, unless its undo left nothing to
        // redo (no inverse registered, a dead target, registration disabled).
        if let id = undone?.nodeID, redoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID != id {
            // A mark on a branch below it needs its changes, which nothing can redo now: the
            // branch version of "undoing past the mark with a step that registered no inverse".
            if let mark = tree.cleanNode, pathToBranchMark(mark, leavesThePathAt: id, in: tree) {
                tree.cleanNode = nil
            }
            stepLeftTheTree(id, parent: current?.nodeID, in: tree)
        }
    }

    /// After ``redo()``, while the tree is recorded: `redone` is the redone step's metadata,
    /// `topLevel` whether no group was open around it (then called once the redo's group
    /// closed; a nested redo's call comes before, which changes nothing it reads).
    ///
    /// Out of line, so that a redo with no tree pays only the test of the optional.
    @inline(never)
    func historyTreeAfterRedo(of redone: GroupMetadata?, topLevel: Bool) {
        guard let tree = storage.pointee.historyTree else { return }
        // The newest closed step: the redone one, or, if it left, the node it hung from.
        let current = undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)
        if topLevel {
            tree.visit(current)
        }
        // The redone step stays in the tree as the new current node, unless it recorded no
        // undo step (registration disabled) or a group open around it took its actions.
        if let id = redone?.nodeID, current?.nodeID != id {
            if let mark = tree.cleanNode {
                // At the top level (registration disabled) the step's changes stay with no step
                // to undo them: a mark on a branch below it can still be reached, any other
                // cannot. Nested, its actions joined the open group: a mark below it needs a
                // step that is gone. The rules for a mark on the stacks, on a branch.
                let markIsBelow = pathToBranchMark(mark, leavesThePathAt: id, in: tree)
                if topLevel ? !markIsBelow : markIsBelow {
                    tree.cleanNode = nil
                }
            }
            stepLeftTheTree(id, parent: current?.nodeID, in: tree)
        }
    }

    /// Whether the path from the start to the clean mark lying on a branch at `mark` runs
    /// through step `left` (which just left the path and is still its branch children's
    /// parent) or through a step of the redo path: whether the branch the mark is on hangs
    /// from one of them. Right after an undo or redo, before the tree moves anything up.
    private func pathToBranchMark(_ mark: UInt64, leavesThePathAt left: UInt64?, in tree: HistoryTreeState) -> Bool {
        var junction = tree.branches[mark]?.parent
        while let id = junction, let step = tree.branches[id] {
            junction = step.parent
        }
        guard let junction else { return false }
        return junction == left || redoStack.closedTopLevelMetadata().contains { $0?.nodeID == junction }
    }

    /// Step `id`, which hung from `parent`, left the tree by an undo or redo: the steps of
    /// the path below it hang from `parent` now by their place on the stacks, and the branch
    /// steps below it move up to `parent` too, as they do below a step a removal empties
    /// (``pruneHistoryTree(removing:pathBefore:)``), so that every parent a node names is in
    /// the tree.
    private func stepLeftTheTree(_ id: UInt64, parent: UInt64?, in tree: HistoryTreeState) {
        guard !tree.branches.isEmpty else { return }
        let children = tree.branches.compactMap { $0.value.parent == id ? $0.key : nil }
        for child in children {
            tree.branches[child]?.parent = parent
        }
    }

    /// An undo of a group nested in an open one built a redo step (spec R19.6), which took a
    /// copy of the open group's metadata (Apple's TM quirk): that copy has no node, since an
    /// open group never has one, or the node of a step a nested redo consumed into the open
    /// group, a step that left the tree. The redo step is a new node of the redo path,
    /// recorded and visited now, like a step that closes; it has a node of its own, as every
    /// step does (<doc:NavigatingTheHistory>).
    private func recordNestedUndoStep(in tree: HistoryTreeState) {
        let metadata = redoStack.newestClosedTopLevelMetadataMadeIfNeeded()
        metadata.node = nil
        tree.stamp(metadata, now: historyTreeNow())
    }

    /// The metadata of the current path: the undo stack's closed top-level groups oldest
    /// first (the last is the current node), then the redo stack's from its top (the next
    /// redo) down.
    func pathNodes() -> (undo: [GroupMetadata], redo: [GroupMetadata]) {
        (undoStack.closedTopLevelMetadata().compactMap { $0 }, redoStack.closedTopLevelMetadata().reversed().compactMap { $0 })
    }

    private func allNodeIDs() -> [UInt64] {
        let path = pathNodes()
        return (path.undo + path.redo).map { $0.nodeID! } + Array(storage.pointee.historyTree?.branches.keys ?? [:].keys)
    }

    /// The current node's id, after checking that the manager can move.
    private func currentNodeID(in call: PublicCall) -> UInt64? {
        checkCanMove(in: call)
        recordingHistoryTree()
        return undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID
    }
}

// MARK: - Branches

extension UndoManager {
    /// A new edit ends redo (spec R4, R10.6): without branches the redo stack is emptied, as
    /// on Apple platforms; with them its steps become a branch below the node that was
    /// current when they were undone: the newest closed step, or, when the edit is an empty
    /// group that just closed as a new step (`closedNewStep`), the one current before it.
    ///
    /// A clean mark among those steps stays with them. For an empty group the close has
    /// already moved the mark below the new step, losing one that needed redos; spec R10 ends
    /// redo (step 6) before the close (step 7), so the distance before the close decides.
    @inline(__always)
    func endRedoForNewEdit(closedNewStep: Bool) {
        if let tree = storage.pointee.historyTree, tree.keepsBranches {
            let parent = closedNewStep
                ? tree.parentOfClosingStep : undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID
            let cleanDistance = closedNewStep ? tree.cleanDistanceBeforeClosingStep : undoStack.cleanDistance
            detachRedoStack(below: parent, into: tree, cleanDistance: cleanDistance)
        } else {
            redoStack.removeAll()
        }
        redoStepsWereCleared()
    }

    /// Takes every step off the redo stack into `tree`'s branches, the top one below `parent`;
    /// `cleanDistance` (the undo stack's, at the point the redo steps end) tells whether the
    /// clean mark is on one of them.
    func detachRedoStack(below parent: UInt64?, into tree: HistoryTreeState, cleanDistance distance: Int) {
        precondition(redoStack.nesting == 0, "UndoManager: the redo stack has an open group")
        var depth = 0
        var taken: [[UndoStack.Entry]] = []
        while !redoStack.isEmpty {
            taken.append(redoStack.popNewestTopLevelGroupEntries())
        }
        var previous = parent
        for var entries in taken {
            let metadata = ensureNodeMetadata(&entries, in: tree)
            if distance < 0 && distance != UndoStack.cleanMarkUnreachable && depth == -distance - 1 {
                tree.cleanNode = metadata.nodeID
            }
            tree.addBranch(HistoryTreeState.BranchStep(parent: previous, entries: entries))
            previous = metadata.nodeID
            depth += 1
        }
    }

    /// Puts branch steps `chain` (from the one the next redo performs down) on the empty redo
    /// stack, taking them out of the branches.
    private func attachBranch(_ chain: [UInt64], in tree: HistoryTreeState) {
        precondition(redoStack.isEmpty, "UndoManager: attaching a branch over redo steps")
        var clean: Int?
        for (depth, id) in chain.enumerated().reversed() {
            let isClean = tree.cleanNode == id
            guard let step = tree.removeBranch(id) else { preconditionFailure("UndoManager: no branch step \(id)") }
            if isClean {
                clean = depth
            }
            redoStack.pushClosedTopLevelGroup(step.entries)
        }
        if let clean {
            undoStack.cleanDistance = -(clean + 1)
        }
    }

    /// A group's metadata with a node id, expanding a singleton so it has a begin mark.
    private func ensureNodeMetadata(_ entries: inout [UndoStack.Entry], in tree: HistoryTreeState) -> GroupMetadata {
        switch entries.first {
        case .begin(let metadata?):
            tree.identify(metadata, now: historyTreeNow())
            return metadata
        case .begin(nil):
            let metadata = GroupMetadata()
            entries[0] = .begin(metadata)
            tree.identify(metadata, now: historyTreeNow())
            return metadata
        case .singleton(let id, let owner, let handler):
            let metadata = GroupMetadata()
            entries = [.begin(metadata), .action(id, owner, handler), .end(length: 2)]
            tree.identify(metadata, now: historyTreeNow())
            return metadata
        default:
            preconditionFailure("UndoManager: a closed group starts with its begin mark or is a singleton")
        }
    }
}

// MARK: - Moving

extension UndoManager {
    private func checkCanMove(in call: PublicCall) {
        guard !storage.pointee.isUndoing && !storage.pointee.isRedoing else {
            programmerError(
                in: call, "the history cannot be walked while undoing or redoing",
                fix: "move in the history from the user's action (a menu item, a click in a History panel), "
                    + "not from an undo or redo handler"
            )
        }
        if automaticGroupIsPending && undoStack.nesting == 1 {
            // As undo() does: the event's edits so far become a step first.
            endUndoGroupingThroughOverrides(from: call.name)
            automaticGroupIsPending = false
        }
        guard undoStack.nesting == 0 else {
            programmerError(
                in: call, "the history cannot be walked with a group open (groupingLevel \(undoStack.nesting))",
                fix: "end the open group with endUndoGrouping() (or let withUndoGroup return) before moving in the history"
            )
        }
    }

    func goToNode(_ target: UInt64?, in call: PublicCall) {
        checkCanMove(in: call)
        let tree = recordingHistoryTree()
        let path = pathNodes()
        let undoIDs = path.undo.map { $0.nodeID! }
        let redoIDs = path.redo.map { $0.nodeID! }
        var undoIndex: [UInt64: Int] = [:]
        for (index, id) in undoIDs.enumerated() {
            undoIndex[id] = index
        }
        var redoIndex: [UInt64: Int] = [:]
        for (index, id) in redoIDs.enumerated() {
            redoIndex[id] = index
        }
        // The nodes from `target` up to, not including, its nearest ancestor on the undo path.
        var chain: [UInt64] = []
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
                    in: call, "node #\(id) is not in this manager's history",
                    fix: "pass a node of a tree taken from this manager's historyTree after its last change "
                        + "(removing actions, trimming and removeAllActions() take nodes out)"
                )
            }
        }
        chain.reverse()
        for _ in 0..<(undoIDs.count - 1 - ancestor) {
            let before = undoStack.topLevelCount
            undo()
            guard undoStack.topLevelCount < before else { break }
        }
        guard !chain.isEmpty else {
            publishObservableChanges()
            return
        }
        let redoNow = pathNodes().redo.map { $0.nodeID! }
        if !redoNow.starts(with: chain) {
            detachRedoStack(
                below: undoStack.metadataOfClosedTopLevelGroup(atDepth: 0)?.nodeID, into: tree,
                cleanDistance: undoStack.cleanDistance)
            if undoStack.cleanDistance < 0 {
                undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
            }
            // Redo then follows the branch most recently visited below the target.
            var continuation = chain
            while let next = tree.branchChildren(of: continuation.last!).max(by: {
                tree.branches[$0]!.metadata.lastVisit < tree.branches[$1]!.metadata.lastVisit
            }) {
                continuation.append(next)
            }
            attachBranch(continuation, in: tree)
        }
        for _ in chain {
            let before = redoStack.topLevelCount
            redo()
            guard redoStack.topLevelCount < before else { break }
        }
        checkInvariantsInDebugBuilds()
        publishObservableChanges()
    }
}

// MARK: - Limits

extension UndoManager {
    /// With branches kept, ``levelsOfUndo`` and ``actionCostLimit`` count every node: while
    /// over, the least recently visited leaf off the path to the current node goes (a branch
    /// tip, or the last step of the redo path); when only the path itself is left, its oldest
    /// step goes, as on Apple platforms.
    ///
    /// It does not report a change of ``isClean``: every caller does, once its whole
    /// operation is done, so that the observers hear each change once. Nor does it end a
    /// coalescing run: trimming after a close leaves the run going, as on Apple platforms,
    /// and the setters that trim end it themselves.
    ///
    /// - Returns: Whether it dropped any step.
    @inline(never)
    @discardableResult
    func trimHistoryTree() -> Bool {
        guard let tree = storage.pointee.historyTree, tree.keepsBranches else { return false }
        let limit = undoStack.limit
        let costLimit = undoStack.costLimit
        guard limit > 0 || costLimit > 0 else { return false }
        var dropped = false
        var droppedBranches: [HistoryTreeState.BranchStep] = []
        while true {
            let nodes = undoStack.topLevelCount + redoStack.topLevelCount + tree.branches.count
            let cost = undoStack.totalCost + redoStack.totalCost + tree.branchCost
            let overCount = limit > 0 && nodes > limit
            let overCost = costLimit > 0 && cost > costLimit && nodes > 1
            guard overCount || overCost else { break }
            let parents = Set(tree.branches.values.compactMap(\.parent))
            var leaf: (id: UInt64?, lastVisit: UInt64)?
            for (id, step) in tree.branches where !parents.contains(id) {
                let visit = step.metadata.lastVisit
                if leaf == nil || visit < leaf!.lastVisit {
                    leaf = (id, visit)
                }
            }
            if let bottom = redoStack.oldestClosedTopLevelMetadata, let id = bottom.nodeID, !parents.contains(id),
               leaf == nil || bottom.lastVisit < leaf!.lastVisit {
                leaf = (nil, bottom.lastVisit)
            }
            if let leaf {
                if let id = leaf.id {
                    droppedBranches.append(tree.removeBranch(id)!)
                } else {
                    if undoStack.cleanDistance == -redoStack.closedTopLevelGroupCount {
                        undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
                    }
                    redoStack.dropOldestGroup()
                }
            } else if undoStack.topLevelCount > 1 || (undoStack.nesting == 0 && undoStack.topLevelCount == 1 && overCount) {
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
}

// MARK: - Removal

extension UndoManager {
    /// Whether a removal took a step between the current node and the clean mark lying on a
    /// branch at `mark` (on the tree path from one to the other, below the node they share):
    /// the marked state then cannot be reached any more (<doc:TrackingTheCleanState>), as
    /// for a mark on the stacks. `removed` maps every step that left to its parent before the
    /// removal; the branch steps still in `tree` have theirs yet.
    private func removalCutsPath(
        toBranchMark mark: UInt64, removed: [UInt64: UInt64?],
        pathBefore: (undo: [GroupMetadata], redo: [GroupMetadata]), in tree: HistoryTreeState
    ) -> Bool {
        let undoIDs = pathBefore.undo.compactMap(\.nodeID)
        var parentBefore: [UInt64: UInt64?] = [:]
        var previous: UInt64?
        for id in undoIDs + pathBefore.redo.compactMap(\.nodeID) {
            parentBefore[id] = previous
            previous = id
        }
        var markPath: Set<UInt64> = []
        var cursor: UInt64? = mark
        while let id = cursor, markPath.insert(id).inserted {
            cursor = tree.branches[id]?.parent ?? removed[id] ?? parentBefore[id] ?? nil
        }
        let between = markPath.symmetricDifference(undoIDs)
        return removed.keys.contains(where: between.contains)
    }

    /// ``removeAllActions(withTarget:)`` in the branches: each branch step loses the target's
    /// actions, an emptied one leaves the tree, and the steps below a step that left (on a
    /// branch or on the path) move up to its parent, as the steps above a removed group do on
    /// a stack. Returns the removed steps, for the caller to release.
    func pruneHistoryTree(
        removing target: ObjectIdentifier, pathBefore: (undo: [GroupMetadata], redo: [GroupMetadata])
    ) -> [HistoryTreeState.BranchStep] {
        guard let tree = storage.pointee.historyTree else { return [] }
        let pathAfter = pathNodes()
        let alive = Set((pathAfter.undo + pathAfter.redo).compactMap(\.nodeID))
        var movedUp: [UInt64: UInt64?] = [:]
        var nearestAlive: UInt64?
        for id in (pathBefore.undo + pathBefore.redo).compactMap(\.nodeID) {
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
            if let kept = HistoryTreeState.removingActions(on: target, from: step.entries) {
                // Removal only takes entries away.
                removedActions = removedActions || kept.count != step.entries.count
                step.entries = kept
                tree.branches[id] = step
            } else {
                movedUp[id] = step.parent
                removed.append(tree.removeBranch(id)!)
                removedActions = true
            }
        }
        // Actions removed from a branch end a coalescing run, as they do on the stacks
        // ("nothing ... removed in between", CoalescingSteps.md).
        if removedActions {
            stopCoalescing()
            // A branch step is older than any open withUndoGroup's own group: a rollback keeps
            // the run stopped, as for removals from the stacks (UndoManager+ScopedGroup.swift).
            for index in storage.pointee.undoScopes.indices {
                storage.pointee.undoScopes[index].changedOlderSteps = true
            }
        }
        guard !movedUp.isEmpty else { return removed }
        if let mark = tree.cleanNode,
           removalCutsPath(toBranchMark: mark, removed: movedUp, pathBefore: pathBefore, in: tree) {
            tree.cleanNode = nil
        }
        // A rolled-back withUndoGroup puts back the mark it found, less what removals cut:
        // judged now, against the mark each open scope saved (the body may have moved the
        // mark since).
        for index in storage.pointee.undoScopes.indices {
            if let mark = storage.pointee.undoScopes[index].cleanBranchNode,
               removalCutsPath(toBranchMark: mark, removed: movedUp, pathBefore: pathBefore, in: tree) {
                storage.pointee.undoScopes[index].cleanBranchNode = nil
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
