extension UndoStack {
    /// Checks every structural invariant of the stack, trapping on the first broken one. O(n).
    func checkInvariants() {
        for index in 0..<head {
            guard case .end(length: 0) = entries[index] else {
                preconditionFailure("UndoStack: trimmed entry \(index) still holds a payload")
            }
        }
        var begins: [Int] = []
        var topLevel = 0
        for index in head..<entries.count {
            switch entries[index] {
            case .begin:
                if begins.isEmpty { topLevel += 1 }
                begins.append(index)
            case .end(let length):
                guard let begin = begins.popLast() else {
                    preconditionFailure("UndoStack: end mark at \(index) closes nothing")
                }
                precondition(length == index - begin, "UndoStack: end mark at \(index) has length \(length), begin is at \(begin)")
            case .action:
                precondition(!begins.isEmpty, "UndoStack: action at \(index) outside every group")
            case .singleton:
                if begins.isEmpty { topLevel += 1 }
            }
        }
        precondition(begins == openBegins.elements, "UndoStack: open groups \(openBegins.elements), entries say \(begins)")
        // The count is the ledger's (``topLevelCount``): this ties the ledger to the entries.
        precondition(topLevel == topLevelCount, "UndoStack: the ledger counts \(topLevelCount) top-level groups, entries say \(topLevel)")
        let groupsCost = Self.topLevelCost(of: entries.elements(in: head..<entries.count))
        precondition(totalCost == groupsCost, "UndoStack: totalCost \(totalCost), groups say \(groupsCost)")
        if limit > 0 {
            let allowed = openBegins.isEmpty ? limit : limit + 1
            precondition(topLevelCount <= allowed, "UndoStack: \(topLevelCount) groups over the limit of \(limit)")
        }
    }
}
