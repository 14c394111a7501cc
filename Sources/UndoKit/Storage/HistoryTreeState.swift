import Foundation

/// What a manager keeps for its history tree (``UndoManager/historyTree``) beyond its two
/// stacks: the id counter, the visit clock, and the steps off the current path.
///
/// Made the first time the tree is asked for (``UndoManager/historyTree``,
/// ``UndoManager/keepsRedoBranches``, ``UndoManager/undoHistory(of:)``); until then no step
/// carries an id, and the close path tests one optional reference. Once it exists, every
/// step that closes gets a ``GroupMetadata`` with its node id and date, which travels with the
/// group through undo and redo like its name.
///
/// The current path lives on the stacks as always: the undo stack holds the path from the
/// first step to the current one, the redo stack the path below it that ``UndoManager/redo()``
/// follows. Every other node is a `BranchStep` here, kept in the form the redo stack holds it
/// (the group a redo would perform), because that is how a step leaves the path: a new edit
/// takes the redo stack's steps off it as a branch.
final class HistoryTreeState {
    /// A step off the current path.
    struct BranchStep {
        /// The node whose state this step was recorded in; `nil` for the start.
        var parent: UInt64?
        /// The group, as the redo stack held it: its first entry is its begin mark, with the
        /// metadata that carries its id.
        var entries: [UndoStack.Entry]

        var metadata: GroupMetadata {
            guard case .begin(let metadata?) = entries.first else {
                preconditionFailure("HistoryTreeState: a branch step lost its metadata")
            }
            return metadata
        }
    }

    /// The id the next recorded step gets: ids grow in recording order, which is the order a
    /// chronological walk follows.
    var nextNodeID: UInt64 = 1
    /// Counts visits, so that trimming finds the least recently visited leaves.
    var clock: UInt64 = 0
    /// ``UndoManager/keepsRedoBranches``: when `false`, a new edit discards the redo steps as
    /// Apple's manager does and `branches` stays empty.
    var keepsBranches = false
    /// The steps off the current path, by id.
    var branches: [UInt64: BranchStep] = [:]
    /// The sum of the branch steps' costs (``UndoManager/actionCostLimit`` counts every node).
    var branchCost = 0
    /// The node the clean mark is at while that node is on a branch (the manager's distance
    /// then reads "unreachable" until ``UndoManager/go(to:)`` brings the node back on the
    /// redo stack).
    var cleanNode: UInt64?
    /// The node current when the step now closing was opened (see
    /// `UndoManager.stampClosingStep()`).
    var parentOfClosingStep: UInt64?
    /// The undo stack's clean distance just before the step now closing closed (see
    /// `UndoManager.stampClosingStep()`).
    var cleanDistanceBeforeClosingStep = 0

    /// Gives `metadata` an id and a date if it has none, and marks it visited now.
    func stamp(_ metadata: GroupMetadata, now: @autoclosure () -> Date) {
        identify(metadata, now: now())
        visit(metadata)
    }

    /// Gives `metadata` an id and a date if it has none; its last visit stays as it was.
    func identify(_ metadata: GroupMetadata, now: @autoclosure () -> Date) {
        if metadata.nodeID == nil {
            metadata.nodeID = nextNodeID
            nextNodeID += 1
            metadata.date = now()
        }
    }

    /// Marks the node of `metadata` as the one just visited.
    @inline(__always)
    func visit(_ metadata: GroupMetadata?) {
        clock &+= 1
        metadata?.lastVisit = clock
    }

    func addBranch(_ step: BranchStep) {
        let metadata = step.metadata
        branchCost += metadata.cost
        branches[metadata.nodeID!] = step
    }

    @discardableResult
    func removeBranch(_ id: UInt64) -> BranchStep? {
        guard let step = branches.removeValue(forKey: id) else { return nil }
        branchCost -= step.metadata.cost
        if cleanNode == id {
            cleanNode = nil
        }
        return step
    }

    /// The branch steps whose parent is `id`, oldest first.
    func branchChildren(of id: UInt64?) -> [UInt64] {
        branches.filter { $0.value.parent == id }.keys.sorted()
    }
}

extension HistoryTreeState {
    /// Empties the branches (``UndoManager/removeAllActions()``), returning them for the
    /// caller to release once the manager is consistent.
    func removeAllBranches() -> [UInt64: BranchStep] {
        let removed = branches
        branches = [:]
        branchCost = 0
        cleanNode = nil
        return removed
    }

    /// A branch step's group without the actions on `target`, the way
    /// `UndoStack.removeActions(withTarget:)` removes them: a nested group emptied by the
    /// removal goes too; `nil` if the step itself is emptied.
    static func removingActions(on target: ObjectIdentifier, from entries: [UndoStack.Entry]) -> [UndoStack.Entry]? {
        var kept: [UndoStack.Entry] = []
        kept.reserveCapacity(entries.count)
        var frames: [(begin: Int, hadContent: Bool)] = []
        for entry in entries {
            switch entry {
            case .begin:
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                frames.append((kept.count, false))
                kept.append(entry)
            case .action(let id, _, _):
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                if id != target { kept.append(entry) }
            case .singleton(let id, _, _):
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                if id != target {
                    kept.append(entry)
                } else if frames.isEmpty {
                    return nil
                }
            case .end:
                let frame = frames.removeLast()
                if frame.hadContent && kept.count == frame.begin + 1 {
                    kept.removeLast()
                    if frames.isEmpty { return nil }
                } else {
                    kept.append(.end(length: kept.count - frame.begin))
                }
            }
        }
        return kept
    }
}
