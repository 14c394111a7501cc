@testable import UndoKit

// Issue 20: the reference model's history tree (spec J.3, NavigatingTheHistory.md and the
// doc comments of `keepsRedoBranches`, `historyTree`, `go(to:)`, `goToEarlierState()`,
// `goToLaterState()` and `UndoTree`), written from those and not from UndoKit's sources.
//
// The undo and redo stacks stay spec B's stacks; every closed top-level group on them
// carries its node in its metadata. The path is the undo stack's closed top-level groups,
// oldest first (the last is the current node), continued by the redo stack's from its top:
// each node's parent there is the one before it. The steps off that path live in
// `branchSteps` with their parent. The tree is rebuilt from these whenever it is needed.

extension ModelBased {
    /// A step off the path: its parent (nil for a root) and its group, begin to end mark.
    struct BranchStep {
        var parent: UInt64?
        var entries: [Entry]

        var info: GroupInfo {
            guard case let .begin(info) = entries.first else { preconditionFailure("model: branch step without a group") }
            return info
        }
    }

    /// One node of `historyTree`, as the harness compares it.
    struct TreeNodeRecord: Equatable, CustomStringConvertible {
        var id: UInt64
        var parent: UInt64?
        var actionName: String
        /// Milliseconds of the harness's clock (`historyTreeClock`); nil if undated.
        var date: Int?
        var children: [UInt64]

        var description: String {
            "#\(id)<-\(parent.map { "#\($0)" } ?? "start") \"\(actionName)\" @\(date.map(String.init) ?? "nil") "
                + "children \(children.map { "#\($0)" })"
        }
    }

    /// `historyTree` as the harness compares it: every node in `nodes` order, `current`,
    /// `redoPath` and `roots`.
    struct TreeRecord: Equatable, CustomStringConvertible {
        var nodes: [TreeNodeRecord]
        var current: UInt64?
        var redoPath: [UInt64]
        var roots: [UInt64]

        var description: String {
            "{current \(current.map { "#\($0)" } ?? "start") redoPath \(redoPath.map { "#\($0)" }) "
                + "roots \(roots.map { "#\($0)" }) nodes \(nodes)}"
        }
    }

    /// The tree as parent links, rebuilt from the stacks and the branch steps.
    struct ModelTree {
        /// The undo stack's nodes, oldest first; the last is the current node.
        var path: [UInt64] = []
        /// The redo stack's nodes, the next redo first.
        var redoPath: [UInt64] = []
        /// Every node's parent (nil for a root).
        var parent: [UInt64: UInt64?] = [:]
        var info: [UInt64: GroupInfo] = [:]

        var current: UInt64? { path.last }

        func contains(_ id: UInt64) -> Bool {
            parent[id] != nil
        }

        /// The nodes from a root down to `id`, inclusive; empty for nil (the start).
        func path(to id: UInt64?) -> [UInt64] {
            var nodes: [UInt64] = []
            var cursor = id
            while let node = cursor, let parent = parent[node] {
                nodes.append(node)
                cursor = parent
            }
            return nodes.reversed()
        }

        /// Oldest (smallest id) first.
        func children(of id: UInt64?) -> [UInt64] {
            parent.filter { $0.value == id }.map(\.key).sorted()
        }
    }
}

extension ModelBased.Reference {
    typealias ModelTree = ModelBased.ModelTree

    var tree: ModelTree {
        var tree = ModelTree()
        var previous: UInt64?
        let pathInfos = Array(undoStack.closedTopLevelInfosNewestFirst.reversed())
        let redoInfos = redoStack.closedTopLevelInfosNewestFirst
        for (index, info) in (pathInfos + redoInfos).enumerated() {
            guard let id = info.node else { preconditionFailure("model: a closed top-level group without a node") }
            tree.parent[id] = previous
            tree.info[id] = info
            previous = id
            if index < pathInfos.count {
                tree.path.append(id)
            } else {
                tree.redoPath.append(id)
            }
        }
        for (id, step) in branchSteps {
            tree.parent[id] = step.parent
            tree.info[id] = step.info
        }
        return tree
    }

    /// The node undo() would revert: the undo stack's newest closed top-level group.
    var currentNode: UInt64? {
        undoStack.closedTopLevelInfosNewestFirst.first?.node
    }

    /// What `historyTree` should report. Nodes are listed as `UndoTree` documents them:
    /// parents before their children, siblings oldest first, a depth-first walk from the
    /// roots, oldest first.
    var treeRecord: ModelBased.TreeRecord {
        let tree = tree
        // `UndoTree` counts a node whose parent is not in the tree as a root; the model
        // makes none, so comparing the roots checks that UndoKit makes none either.
        let roots = tree.parent.filter { $0.value.map { !tree.contains($0) } ?? true }.map(\.key).sorted()
        var nodes: [ModelBased.TreeNodeRecord] = []
        var pending = Array(roots.reversed())
        while let id = pending.popLast() {
            let children = tree.children(of: id)
            let info = tree.info[id]!
            nodes.append(
                ModelBased.TreeNodeRecord(
                    id: id, parent: tree.parent[id]!, actionName: info.name ?? "", date: info.date, children: children))
            pending.append(contentsOf: children.reversed())
        }
        return ModelBased.TreeRecord(nodes: nodes, current: tree.current, redoPath: tree.redoPath, roots: roots)
    }

    /// Every id recorded so far that is no longer in the tree, oldest first: what a stale
    /// `go(to:)` may name.
    var removedNodeIDs: [UInt64] {
        let tree = tree
        return (1..<nextNodeID).filter { !tree.contains($0) }
    }

    func visit(_ id: UInt64?) {
        guard let id else { return }
        visitClock += 1
        lastVisit[id] = visitClock
    }

    /// Issue 20: a nested undo built a new redo step (see `undoNestedGroup()`).
    func recordNestedUndoStep() {
        let node = nextNodeID
        nextNodeID += 1
        redoStack.updateTopInfo {
            $0.node = node
            $0.date = clock
        }
        // Never current, so it counts as visited when recorded.
        visit(node)
        cover("nested undo recorded a redo step")
    }

    // MARK: Branches

    /// Spec R4 and R10.6: a new edit ends the redo path. Apple empties the redo stack; with
    /// branches its steps become a branch below the current node (J.3), in order, and a
    /// clean mark among them stays reachable (on that branch).
    func endRedoPath(clearing clearingReason: String, branching branchingReason: String) {
        guard keepsRedoBranches else {
            redoStack.clear()
            if let distance = cleanDistance, distance < 0 { loseCleanMark(clearingReason) }
            return
        }
        guard redoStack.count > 0 else { return }
        let tree = tree
        var parent = tree.current
        for (id, group) in zip(tree.redoPath, redoStack.closedTopLevelGroups.reversed()) {
            branchSteps[id] = ModelBased.BranchStep(parent: parent, entries: group)
            parent = id
        }
        if let distance = cleanDistance, distance < 0 {
            cleanBranchNode = tree.redoPath[-distance - 1]
            cleanDistance = nil
            cover("clean mark moved to a branch")
        }
        redoStack.clear()
        cover("\(branchingReason) kept the redo steps as a branch")
    }

    /// `keepsRedoBranches = flag`: on, the tree is held to `levelsOfUndo` at once; off, the
    /// branches go and both stacks stay.
    func setKeepsRedoBranches(_ flag: Bool) {
        guard flag != keepsRedoBranches else { return }
        reportingCleanChange {
            keepsRedoBranches = flag
            if flag {
                undoStack.limit = 0
                undoStack.costLimit = 0
                if trimTree() > 0 {
                    cover("turning branches on trimmed the tree")
                    mayCoalesce = false
                }
                checkTrimmedGroups()
            } else {
                if !branchSteps.isEmpty {
                    cover("turning branches off dropped branches")
                }
                branchSteps = [:]
                if cleanBranchNode != nil {
                    loseBranchMark("branches dropped")
                }
                undoStack.limit = levelsOfUndo
                undoStack.costLimit = actionCostLimit
            }
        }
    }

    /// After steps left the tree (undone or redone leaving no group, consumed by a nested
    /// redo, emptied by removal), the branch steps below them move up to the nearest
    /// ancestor still in the tree, as the steps above a removed group do on a stack, so
    /// that every parent a node names is in the tree (`UndoTree.Node.parent` is nil only for
    /// a step recorded at the start or whose parent was trimmed away).
    func moveOrphansUp(_ treeBefore: ModelTree, leftBy cause: String = "removal") {
        let live = tree
        for (id, step) in branchSteps {
            var parent = step.parent
            while let node = parent, treeBefore.contains(node), !live.contains(node) {
                parent = treeBefore.parent[node] ?? nil
            }
            if parent != step.parent {
                branchSteps[id]!.parent = parent
                cover("a branch step's parent left the tree: it moved up")
                cover("a branch step's parent left the tree by \(cause): it moved up")
            }
        }
    }

    // MARK: The clean mark on a branch

    func loseBranchMark(_ why: String) {
        if cleanBranchNode != nil {
            cover("clean mark on a branch lost: \(why)")
        }
        cleanBranchNode = nil
    }

    /// Whether `node` lies between the current node and the marked one: on the path up
    /// from either to their common ancestor, or the marked node itself.
    private func isBetweenCurrentAndMark(_ node: UInt64, mark: UInt64, in tree: ModelTree) -> Bool {
        let current = Set(tree.path(to: tree.current))
        let marked = Set(tree.path(to: mark))
        return node == mark || current.symmetricDifference(marked).contains(node)
    }

    /// The undo half of issue 10's rules for a mark on a branch (the stack half is in
    /// `undoNestedGroup()`): a top-level undo that left nothing to redo loses it if the
    /// undone step is on its path; a nested undo puts a new step on top of the redo path,
    /// which loses a mark whose path runs through the redo path.
    func markAfterUndo(topLevel: Bool, madeRedoStep: Bool, treeBefore: ModelTree) {
        guard let mark = cleanBranchNode else { return }
        let markPath = treeBefore.path(to: mark)
        if topLevel {
            if let undone = treeBefore.current, !madeRedoStep, markPath.contains(undone) {
                loseBranchMark("undo left nothing to redo")
            }
        } else if madeRedoStep && markPath.contains(where: treeBefore.redoPath.contains) {
            loseBranchMark("nested undo")
        }
    }

    /// The redo half: a redo that records no undo step leaves its changes in place, so a
    /// mark below the redone step stays reachable and any other is lost; a redo nested in
    /// an open group takes the step off the tree, which loses a mark at or below it.
    func markBeforeRedo(topLevel: Bool, recorded: Bool, treeBefore: ModelTree) {
        guard let mark = cleanBranchNode, let redone = treeBefore.redoPath.first else { return }
        let markPath = treeBefore.path(to: mark)
        if topLevel && !recorded && !markPath.contains(redone) {
            loseBranchMark("unrecorded redo")
        } else if !topLevel && markPath.contains(redone) {
            loseBranchMark("nested redo")
        }
    }

    // MARK: Limits

    /// J.3: with branches, `levelsOfUndo` counts every node (and, as spec B's count does,
    /// an open top-level group). While over, the least recently visited leaf off the path
    /// to the current node goes (a branch tip, or the end of the redo path); with only that
    /// path left, its oldest step goes, as on Apple platforms. Returns how many went.
    ///
    /// Issue 26: `actionCostLimit` counts every node's cost too (and the open group's, as
    /// `totalActionCost` does), and trims the same way, but it never drops the last node
    /// left, nor the current node ("one step larger than the budget stays, alone";
    /// "keeping at least the newest closed step").
    @discardableResult
    func trimTree() -> Int {
        guard keepsRedoBranches && (levelsOfUndo > 0 || actionCostLimit > 0) else { return 0 }
        var trimmed = 0
        while true {
            let tree = tree
            let total = tree.parent.count + (undoStack.nesting > 0 ? 1 : 0)
            let overCount = levelsOfUndo > 0 && total > levelsOfUndo
            let cost = undoStack.totalCost + redoStack.totalCost + branchSteps.values.reduce(0) { $0 + $1.info.cost }
            let overCost = actionCostLimit > 0 && cost > actionCostLimit && tree.parent.count > 1
            if actionCostLimit > 0 && cost > actionCostLimit && tree.parent.count == 1 && undoStack.nesting > 0 {
                cover(
                    tree.path.isEmpty
                        ? "tree over the budget kept its only step, off the path, while a group is open"
                        : "tree over the budget kept its only step while a group is open")
            }
            guard overCount || overCost else { break }
            if overCost && !overCount {
                cover("tree trimmed by cost")
            }
            let onPath = Set(tree.path)
            let parents = Set(tree.parent.values.compactMap { $0 })
            let leaves = tree.parent.keys.filter { !onPath.contains($0) && !parents.contains($0) }
            if !overCount && leaves.isEmpty && tree.path.count < 2 {
                break
            }
            if let leaf = leaves.min(by: { (lastVisit[$0] ?? 0, $0) < (lastVisit[$1] ?? 0, $1) }) {
                if branchSteps[leaf] != nil {
                    branchSteps[leaf] = nil
                    if cleanBranchNode == leaf {
                        loseBranchMark("trimmed")
                    }
                    cover("tree trimmed a branch tip")
                } else {
                    precondition(leaf == tree.redoPath.last, "model: a leaf neither on a branch nor ending the redo path")
                    if let distance = cleanDistance, distance < 0, -distance == tree.redoPath.count {
                        loseCleanMark("trimmed")
                    }
                    redoStack.dropOldestTopLevelGroup()
                    redoStack.droppedDepths = []
                    redoStack.droppedByCost = []
                    cover("tree trimmed the end of the redo path")
                }
            } else if !tree.path.isEmpty {
                // `checkTrimmedGroups()` checks the clean mark against it.
                undoStack.dropOldestTopLevelGroup(byCost: !overCount)
                cover("tree trimmed the oldest step of the path")
            } else {
                break
            }
            trimmed += 1
        }
        return trimmed
    }

    // MARK: Removal

    /// Spec R33 on every branch step; an emptied one leaves the tree and the steps below it
    /// move up to its parent. A mark is lost if a step between it and the current node went.
    func removeActionsFromBranches(targetID: Int, treeBefore: ModelTree) {
        for id in branchSteps.keys.sorted() {
            var stack = ModelBased.Stack(closedGroup: branchSteps[id]!.entries)
            guard stack.contains(targetID: targetID) else { continue }
            // Removing from a branch is a removal too: the coalescing run ends.
            mayCoalesce = false
            stack.removeActions(targetID: targetID)
            if stack.count == 0 {
                branchSteps[id] = nil
                cover("removal emptied a branch step")
            } else {
                branchSteps[id]!.entries = stack.entries
                cover("removal pruned a branch step")
            }
        }
        if let mark = cleanBranchNode {
            let live = tree
            for node in treeBefore.parent.keys where !live.contains(node) {
                if isBetweenCurrentAndMark(node, mark: mark, in: treeBefore) {
                    loseBranchMark("removed")
                    break
                }
            }
        }
        moveOrphansUp(treeBefore)
    }

    // MARK: Moving in the tree

    /// `go(to:)`, `goToEarlierState()` and `goToLaterState()` first close the event's
    /// automatic group, as `undo()` does (spec R18 step 2, without its checkpoint: the
    /// undos that follow post their own).
    func closeAutomaticGroupBeforeWalking() {
        if autoPending && undoStack.nesting == 1 && isEnabled {
            cover("history walk closed the automatic group")
            endUndoGrouping()
            autoPending = false
        }
        precondition(undoStack.nesting == 0, "model: walking the history would trap")
    }

    /// `go(to:)`.
    func go(to target: UInt64?) {
        closeAutomaticGroupBeforeWalking()
        walk(to: target)
    }

    /// Vim's `g-`: the state first reached just before the current one (node ids order
    /// states by when they were first reached); nothing at the start.
    func goToEarlierState() {
        closeAutomaticGroupBeforeWalking()
        let tree = tree
        guard let current = tree.current else { return }
        cover("goToEarlierState moved")
        walk(to: tree.parent.keys.filter { $0 < current }.max())
    }

    /// Vim's `g+`: the state first reached just after the current one; nothing at the
    /// newest.
    func goToLaterState() {
        closeAutomaticGroupBeforeWalking()
        let tree = tree
        let now = tree.current ?? 0
        guard let later = tree.parent.keys.filter({ $0 > now }).min() else { return }
        cover("goToLaterState moved")
        walk(to: later)
    }

    /// Undoes to the node the target shares with the current path, then redoes down to the
    /// target, one `undo()` and `redo()` per step.
    private func walk(to target: UInt64?) {
        let tree = tree
        precondition(target.map(tree.contains) ?? true, "model: go(to:) a node not in the tree")
        let from = tree.path(to: tree.current)
        let to = tree.path(to: target)
        var shared = 0
        while shared < min(from.count, to.count) && from[shared] == to[shared] {
            shared += 1
        }
        if shared < from.count {
            cover(shared < to.count ? "go(to:) undid and redid" : "go(to:) only undid")
        } else if shared < to.count {
            cover("go(to:) only redid")
        }
        for _ in shared..<from.count {
            undo()
        }
        let chain = Array(to[shared...])
        guard !chain.isEmpty else { return }
        placeOnRedoPath(chain)
        for _ in chain {
            redo()
        }
    }

    /// Makes `chain` (from a child of the current node down to the target) the start of
    /// the redo path, so that redo() follows it: the redo steps that diverge from it become
    /// a branch, and the chain's steps come off their branch, followed below the target by
    /// its most recently visited child, and so on ("redo() follows ... the one go(to:) last
    /// went down"; below the target, the branch most recently taken).
    private func placeOnRedoPath(_ chain: [UInt64]) {
        let tree = tree
        var kept = 0
        while kept < min(chain.count, tree.redoPath.count) && chain[kept] == tree.redoPath[kept] {
            kept += 1
        }
        guard kept < chain.count else { return }
        cover("go(to:) went down a branch")
        let groups = Array(redoStack.closedTopLevelGroups.reversed())
        var parent = kept == 0 ? tree.current : tree.redoPath[kept - 1]
        for index in kept..<groups.count {
            let id = tree.redoPath[index]
            branchSteps[id] = ModelBased.BranchStep(parent: parent, entries: groups[index])
            parent = id
        }
        if let distance = cleanDistance, distance < 0, -distance - 1 >= kept {
            cleanBranchNode = tree.redoPath[-distance - 1]
            cleanDistance = nil
            cover("clean mark moved to a branch")
        }
        var incoming = Array(chain[kept...])
        var cursor = chain.last!
        while let next = branchSteps.filter({ $0.value.parent == cursor }).map(\.key)
            .max(by: { (lastVisit[$0] ?? 0, $0) < (lastVisit[$1] ?? 0, $1) })
        {
            incoming.append(next)
            cursor = next
        }
        let placed = groups[..<kept] + incoming.map { branchSteps.removeValue(forKey: $0)!.entries }
        redoStack.setClosedTopLevelGroups(placed.reversed())
        if let mark = cleanBranchNode, let index = incoming.firstIndex(of: mark) {
            cleanDistance = -(kept + index + 1)
            cleanBranchNode = nil
            cover("clean mark came back from a branch")
        }
    }
}
