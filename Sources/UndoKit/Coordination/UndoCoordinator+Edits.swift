/// Keeping the coordinator's order true to its managers' stacks.
///
/// Invariant, between operations: the steps of a member in ``UndoCoordinator/undoSteps``
/// (``UndoCoordinator/redoSteps``) are exactly the ids of its undo (redo) stack's steps, in
/// stack order. Each member's transactions record what they do to its steps (``StepEdit``)
/// and hand the list to the coordinator when they settle, in the order it happened: a step
/// added to a stack joins the order as the newest, one moved by an undo or redo moves from
/// one order to the end of the other, one that left the stacks leaves the order. Nothing is
/// compared after the fact.
extension UndoCoordinator {
    /// Applies `edits`, which `manager`'s transaction made, to the orders.
    func apply(_ edits: [StepEdit], from manager: UndoManager) {
        guard let member = members.first(where: { $0.manager === manager }) else { return }
        var index = edits.startIndex
        while index < edits.endIndex {
            switch edits[index] {
            case .added(let id, let toUndoStack):
                append(Step(member: member, id: id), toUndoOrder: toUndoStack)
            case .moved(let id, let toUndoStack):
                let step = Step(member: member, id: id)
                removeNewest(step, fromUndoOrder: !toUndoStack)
                append(step, toUndoOrder: toUndoStack)
            case .removed:
                // A run of removals (removing a target's actions, clearing, trimming) at once.
                var removed: Set<StepID> = []
                while index < edits.endIndex, case .removed(let id) = edits[index] {
                    removed.insert(id)
                    index += 1
                }
                undoSteps.removeAll { $0.member === member && removed.contains($0.id) }
                redoSteps.removeAll { $0.member === member && removed.contains($0.id) }
                continue
            }
            index += 1
        }
    }

    private func append(_ step: Step, toUndoOrder: Bool) {
        if toUndoOrder {
            undoSteps.append(step)
        } else {
            redoSteps.append(step)
        }
    }

    /// Takes `step` out of an order, searching from the newest end, where an undo or redo
    /// finds it.
    private func removeNewest(_ step: Step, fromUndoOrder: Bool) {
        if fromUndoOrder {
            if let index = undoSteps.lastIndex(of: step) { undoSteps.remove(at: index) }
        } else {
            if let index = redoSteps.lastIndex(of: step) { redoSteps.remove(at: index) }
        }
    }

    /// Drops the members whose managers went away, with their steps.
    func dropGoneMembers() {
        guard members.contains(where: { $0.manager == nil }) else { return }
        members.removeAll { $0.manager == nil }
        undoSteps.removeAll { $0.member.manager == nil }
        redoSteps.removeAll { $0.member.manager == nil }
    }

    /// Checks the invariant above, trapping on the first broken part, once every member has
    /// handed over its edits (a member whose operation is in progress has not yet). Linear in
    /// the size of the orders and stacks; for tests and debug builds.
    func checkInvariants() {
        guard members.allSatisfy({ $0.manager?.ledger.edits.isEmpty ?? true }) else { return }
        for step in undoSteps + redoSteps {
            precondition(members.contains { $0 === step.member }, "UndoCoordinator: a step of a detached member")
        }
        for member in members {
            guard let manager = member.manager else { continue }
            precondition(manager.coordinator === self, "UndoCoordinator: a member attached elsewhere")
            let undoOrder = undoSteps.filter { $0.member === member }.map(\.id)
            let redoOrder = redoSteps.filter { $0.member === member }.map(\.id)
            precondition(undoOrder == manager.undoStack.steps.ids, "UndoCoordinator: undo order \(undoOrder), stack \(manager.undoStack.steps.ids)")
            precondition(redoOrder == manager.redoStack.steps.ids, "UndoCoordinator: redo order \(redoOrder), stack \(manager.redoStack.steps.ids)")
        }
    }
}
