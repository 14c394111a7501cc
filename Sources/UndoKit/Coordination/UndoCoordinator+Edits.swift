/// Invariant, between operations: a member's steps in ``UndoCoordinator/undoSteps``
/// (``UndoCoordinator/redoSteps``) are exactly its undo (redo) stack's step ids, in order.
/// Each member's transactions hand over what they did to its steps (``StepEdit``) as they
/// settle; nothing is compared after the fact.
extension UndoCoordinator {
    /// Applies `edits`, which `manager`'s transaction made, to the orders.
    func apply(_ edits: [StepEdit], from manager: UndoManager) {
        guard let member = members.first(where: { $0.manager === manager }) else { return }
        guard mode == .singleOrder else {
            noteChanges(of: edits, by: member)
            return
        }
        var index = edits.startIndex
        while index < edits.endIndex {
            switch edits[index] {
            case .added(let id, let toUndoStack), .restored(let id, let toUndoStack):
                updateOrder(undo: toUndoStack) { $0.append(Step(member: member, id: id)) }
            case .branched(let id):
                // Off the redo path (a member in this mode keeps no branches).
                redoSteps.removeAll { $0.member === member && $0.id == id }
            case .unbranched(let id):
                updateOrder(undo: false) { $0.append(Step(member: member, id: id)) }
            case .moved(let id, let toUndoStack):
                // Searched from the newest end, where an undo or redo finds it.
                let step = Step(member: member, id: id)
                updateOrder(undo: !toUndoStack) { if let position = $0.lastIndex(of: step) { $0.remove(at: position) } }
                updateOrder(undo: toUndoStack) { $0.append(step) }
            case .merged:
                // Coalescing: the step stays where it is in the order.
                break
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

    private func updateOrder(undo: Bool, _ body: (inout [Step]) -> Void) {
        if undo { body(&undoSteps) } else { body(&redoSteps) }
    }

    /// Drops the members whose managers went away, with their steps.
    func dropGoneMembers() {
        guard members.contains(where: { $0.manager == nil }) else { return }
        members.removeAll { $0.manager == nil }
        undoSteps.removeAll { $0.member.manager == nil }
        redoSteps.removeAll { $0.member.manager == nil }
    }

    /// Traps if the invariant above is broken, once every member has handed over its edits.
    /// Linear; for tests and debug builds.
    func checkInvariants() {
        guard members.allSatisfy({ $0.manager?.ledger.edits.isEmpty ?? true }) else { return }
        for step in undoSteps + redoSteps {
            precondition(members.contains { $0 === step.member }, "UndoCoordinator: a step of a detached member")
        }
        for member in members {
            guard let manager = member.manager else { continue }
            precondition(manager.coordinator === self, "UndoCoordinator: a member attached elsewhere")
            // Per member there are no orders: each manager's stacks are its own.
            guard mode == .singleOrder else {
                precondition(undoSteps.isEmpty && redoSteps.isEmpty, "UndoCoordinator: an order in .perMember mode")
                continue
            }
            let undoOrder = undoSteps.filter { $0.member === member }.map(\.id)
            let redoOrder = redoSteps.filter { $0.member === member }.map(\.id)
            precondition(undoOrder == manager.undoStack.steps.ids, "UndoCoordinator: undo order \(undoOrder), stack \(manager.undoStack.steps.ids)")
            precondition(redoOrder == manager.redoStack.steps.ids, "UndoCoordinator: redo order \(redoOrder), stack \(manager.redoStack.steps.ids)")
        }
    }
}
