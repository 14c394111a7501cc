/// The byte budget (``UndoManager/actionCostLimit``). `totalCost` is a running sum, so the
/// check after a close is O(1): setting a cost adds to it, and every way a top-level group
/// leaves the stack subtracts the group's cost.
extension UndoStack {
    /// Drops the oldest closed top-level groups while the total is over `costLimit`, keeping
    /// at least the newest closed group and any open group. O(1) amortized per drop.
    mutating func trimToCostLimit() {
        guard costLimit > 0 && !limitsApplyToTree else { return }
        while totalCost > costLimit && closedTopLevelGroupCount > 1 {
            dropOldestGroup()
        }
    }

    /// The sum of the costs of the top-level groups in `entries`, oldest first.
    static func topLevelCost(of entries: some Sequence<Entry>) -> Int {
        var total = 0
        var depth = 0
        for entry in entries {
            switch entry {
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
