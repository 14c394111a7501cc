import Foundation

/// What a manager keeps for its history tree (``UndoManager/historyTree``) beyond its stacks,
/// which hold the current path: the steps off it (each a `BranchStep`, in the form the redo
/// stack held it), and the steps' dates and visits, recorded from the first time the tree is
/// asked for.
final class HistoryTreeState {
    /// A step off the current path.
    struct BranchStep {
        /// The node whose state this step was recorded in; `nil` for the start.
        var parent: StepID?
        /// The group, as the redo stack held it.
        var entries: [UndoStack.Entry]
        /// The group's cost (``UndoManager/actionCostLimit`` counts every node).
        var cost: Int { entries.first?.cost ?? 0 }
        var metadata: GroupMetadata? { entries.first?.metadata }
    }

    /// When a step closed and when it was last the current one.
    struct NodeRecord {
        var date: Date?
        var lastVisit: UInt64 = 0
    }

    /// Counts visits, so that trimming finds the least recently visited leaves.
    var clock: UInt64 = 0
    /// ``UndoManager/keepsRedoBranches``: when `false`, a new edit discards the redo steps as
    /// Apple's manager does and `branches` stays empty.
    var keepsBranches = false
    /// The steps off the current path, by id.
    var branches: [StepID: BranchStep] = [:]
    /// The sum of the branch steps' costs (``UndoManager/actionCostLimit`` counts every node).
    var branchCost = 0
    /// The dates and visits of the steps that have them (steps recorded before the tree was
    /// first asked for have no date).
    var records: [StepID: NodeRecord] = [:]
    /// The manager's count of limit settings (`UndoManagerStorage.limitSettings`) when the
    /// tree was last trimmed: a transaction that set a limit trims it when it settles.
    var limitSettingsTrimmedTo: UInt64 = 0

    /// Records that step `id` closed now.
    func recordNewStep(_ id: StepID, date: Date) {
        records[id] = NodeRecord(date: date)
        visit(id)
    }

    /// Marks step `id` (`nil`: the start) as the one just visited.
    func visit(_ id: StepID?) {
        clock &+= 1
        if let id {
            records[id, default: NodeRecord()].lastVisit = clock
        }
    }

    func lastVisit(of id: StepID) -> UInt64 {
        records[id]?.lastVisit ?? 0
    }

    func addBranch(_ step: BranchStep, id: StepID) {
        branchCost += step.cost
        branches[id] = step
    }

    /// Takes step `id` out of the branches, to put it back on the redo path.
    func takeBranch(_ id: StepID) -> BranchStep? {
        guard let step = branches.removeValue(forKey: id) else { return nil }
        branchCost -= step.cost
        return step
    }

    /// The branch steps whose parent is `id`, oldest first.
    func branchChildren(of id: StepID?) -> [StepID] {
        branches.filter { $0.value.parent == id }.keys.sorted()
    }

    /// Empties the branches (``UndoManager/removeAllActions()``), returning them for the
    /// caller to release once the manager is consistent.
    func removeAllBranches() -> [StepID: BranchStep] {
        let removed = branches
        branches = [:]
        branchCost = 0
        for id in removed.keys {
            records[id] = nil
        }
        return removed
    }
}
