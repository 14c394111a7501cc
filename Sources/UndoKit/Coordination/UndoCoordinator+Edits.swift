/// Invariant, between operations (``Mode/singleOrder``): every step on a member's stacks has a
/// stamp in ``UndoCoordinator/Member/landedAt``, rising along each stack from its oldest step
/// to its newest. Where the steps are is read from the members' ledgers; the coordinator keeps
/// only when each landed, which no ledger says. Each member's transactions hand over what they
/// did to its steps (``StepEdit``) as they settle; nothing is compared after the fact.
extension UndoCoordinator {
    /// Applies `edits`, which `manager`'s transaction made, to the stamps, and ends the other
    /// members' redo for a new edit.
    func apply(_ edits: [StepEdit], from manager: UndoManager) {
        guard let member = members.first(where: { $0.manager === manager }) else { return }
        guard mode == .singleOrder else {
            noteChanges(of: edits, by: member)
            return
        }
        // A step that leaves inside a scope keeps its stamp: a rollback puts it back.
        let inScope = !manager.state.savepoints.isEmpty || manager.state.isRollingBackScope
        for edit in edits {
            switch edit {
            case .added(let id, _), .restored(let id, _), .moved(let id, _), .unbranched(let id):
                // Closed, restored, undone, redone or put back from a branch just now: the
                // newest on the stack it landed on.
                member.landedAt[id] = nextLandingStamp
                nextLandingStamp += 1
            case .merged:
                // Coalescing: the step keeps its place in the order.
                break
            case .putBack:
                // Back from a rollback: it kept its stamp while the scope ran, so its place.
                break
            case .removed(let id), .branched(let id):
                // Off the stacks (a member in this mode keeps no branches, so a branched
                // step is as good as gone for the order).
                if inScope {
                    member.keepsStepsThatLeft = true
                } else {
                    member.landedAt[id] = nil
                }
            case .newEdit:
                endRedo(ofMembersOtherThan: member)
            }
        }
        if member.keepsStepsThatLeft && !inScope {
            forgetStepsThatLeft(of: member, manager)
        }
    }

    /// A new edit in `member` (spec R4, R10.6) ends redo for every other member, so the
    /// history stays one line: each ends its own, as a transaction of its own.
    private func endRedo(ofMembersOtherThan member: Member) {
        let others = members.filter { $0 !== member }.compactMap(\.manager)
        UndoManager.endRedoForNewEditElsewhere(in: others)
    }

    /// Forgets the stamps of `member`'s steps that left while a scope ran, now that it is over.
    private func forgetStepsThatLeft(of member: Member, _ manager: UndoManager) {
        member.keepsStepsThatLeft = false
        let onStacks = Set(manager.undoStack.steps.ids + manager.redoStack.steps.ids)
        member.landedAt = member.landedAt.filter { onStacks.contains($0.key) }
    }

    /// Drops the members whose managers went away, with their stamps.
    func dropGoneMembers() {
        guard members.contains(where: { $0.manager == nil }) else { return }
        members.removeAll { $0.manager == nil }
    }

    /// Traps if the invariant above is broken, once every member has handed over its edits.
    /// Linear; for tests and debug builds.
    func checkInvariants() {
        guard members.allSatisfy({ $0.manager?.ledger.edits.isEmpty ?? true }) else { return }
        for member in members {
            guard let manager = member.manager else { continue }
            precondition(manager.coordinator === self, "UndoCoordinator: a member attached elsewhere")
            // Per member there is no order: each manager's stacks are its own.
            guard mode == .singleOrder else {
                precondition(member.landedAt.isEmpty, "UndoCoordinator: an order in .perMember mode")
                continue
            }
            let undoIDs = manager.undoStack.steps.ids
            let redoIDs = manager.redoStack.steps.ids
            for ids in [undoIDs, redoIDs] {
                let stamps = ids.compactMap { member.landedAt[$0] }
                precondition(stamps.count == ids.count, "UndoCoordinator: a step with no place in the order, stack \(ids)")
                precondition(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "UndoCoordinator: stack \(ids) out of order, stamps \(stamps)")
            }
            if !member.keepsStepsThatLeft {
                precondition(member.landedAt.count == undoIDs.count + redoIDs.count, "UndoCoordinator: stamps of steps that left")
            }
        }
    }
}
