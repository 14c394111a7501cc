/// Reading a group's steps without running them, and taking a group off whose steps ran
/// elsewhere: what an operation that runs a step's actions before changing the stacks needs.
extension UndoStack {
    /// Copies of the steps of the newest closed group, nested groups' included, newest first
    /// (the order an undo runs them in); the group stays on the stack.
    func stepsOfNewestClosedGroup() -> [UndoStep] {
        let last = entries.count - 1
        return steps(from: groupStart(endingAt: last), through: last)
    }

    /// Copies of the steps registered in the open group at `level` (1 is the outermost),
    /// nested groups' included, newest first.
    func stepsOfOpenGroup(atLevel level: Int) -> [UndoStep] {
        steps(from: openBegins[level - 1], through: entries.count - 1)
    }

    private func steps(from first: Int, through last: Int) -> [UndoStep] {
        var steps: [UndoStep] = []
        var index = last
        while index >= first {
            switch entries[index] {
            case .action(let id, let owner, let handler), .singleton(let id, let owner, let handler):
                steps.append(UndoStep(targetID: id, owner: owner, handler: handler))
            case .begin, .end:
                break
            }
            index -= 1
        }
        return steps
    }

    /// Takes the newest closed group off without running it, as an undo or redo takes it
    /// (the ledger hears the same move), its entries parked for release.
    mutating func takeOffNewestClosedGroup() {
        if let step = popNewestSingleton() {
            dropped.append(.action(step))
            return
        }
        detachNewestGroup()
        while let entry = entries.popDetached() {
            dropped.append(entry)
        }
        finishDetachedGroup()
    }
}
