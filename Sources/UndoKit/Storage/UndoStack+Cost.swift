/// The byte budget (``UndoManager/actionCostLimit``).
///
/// `totalCost` is kept as a running sum so that the budget check after a close is O(1):
/// ``UndoManager/setActionCost(_:)`` adds to it while the group is open, and every way a
/// top-level group leaves the stack (undo or redo popping it, trimming, removal, clearing)
/// subtracts the group's cost. Undo and redo copy a group's metadata, cost included, to the
/// other stack (`replaceOpenTopMetadata(with:)`), which adds it there.
extension UndoStack {
    /// Adds `bytes` to the cost of the outermost open group.
    ///
    /// - Precondition: A group is open.
    mutating func addCostToOpenTopLevelGroup(_ bytes: Int) {
        openTopMetadata().cost += bytes
        totalCost += bytes
    }

    /// Drops the oldest closed top-level groups while the total is over `costLimit`, keeping
    /// at least the newest closed group (the one just closed, after a close) and any open
    /// group. Each drop is O(1) amortized, as for `levelsOfUndo`.
    mutating func trimToCostLimit() {
        guard costLimit > 0 && !limitsApplyToTree else { return }
        while totalCost > costLimit && closedTopLevelGroupCount > 1 {
            dropOldestGroup()
        }
    }

    /// The sum of the costs of the top-level groups, recomputed by walking the stack, for the
    /// invariant check.
    func recomputedTotalCost() -> Int {
        var total = 0
        var depth = 0
        for index in head..<entries.count {
            switch entries[index] {
            case .begin(let metadata):
                if depth == 0 { total += metadata?.cost ?? 0 }
                depth += 1
            case .end:
                depth -= 1
            case .action, .singleton:
                break
            }
        }
        return total
    }
}
