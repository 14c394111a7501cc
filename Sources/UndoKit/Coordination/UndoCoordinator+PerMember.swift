/// ``UndoCoordinator/Mode/perMember``: each member's steps are its own; what one member does
/// is noted on the others as changes to the parts its steps declared (spec K4).
extension UndoCoordinator {
    /// Notes on every other member the changes `member`'s transaction made: each step it
    /// closed, undid or redid changed the parts the step declared (every part, if none).
    /// Removals change no model, and note nothing (nor does a new edit, which keeps each
    /// member's redo here); nor does a scope's rollback, which puts
    /// the model back as it was (its group closes and is undone on the way).
    func noteChanges(of edits: [StepEdit], by member: Member) {
        guard let manager = member.manager else { return }
        let notesOnOthers = members.count > 1 && !manager.state.isRollingBackScope
        for edit in edits {
            switch edit {
            case .added(let id, let toUndoStack), .restored(let id, let toUndoStack), .moved(let id, let toUndoStack):
                let metadata = manager.closedStepMetadata(of: id, onUndoStack: toUndoStack)
                // What the run said it changed (possibly nothing), else what the step declared;
                // taken even when nothing is noted, so that it never outlives its run.
                let changedParts = metadata?.takeChangedPartsOfRun()
                guard notesOnOthers else { continue }
                noteChanges(to: changedParts ?? metadata?.parts, by: member)
            case .merged(_, let parts):
                // What the merged group changed, not the whole step's parts.
                guard notesOnOthers else { continue }
                noteChanges(to: parts, by: member)
            case .removed, .branched, .unbranched, .putBack, .newEdit:
                // The model is as it was: a step left, moved between the path and a branch, or
                // came back from a rollback (and a new edit keeps each member's redo here).
                continue
            }
        }
    }

    /// Notes a change to `parts` (every part, for `nil`) by `member` on every other member.
    private func noteChanges(to parts: Set<UndoPart>?, by member: Member) {
        // A run that changed none of its parts changes nothing for the others.
        if let parts, parts.isEmpty { return }
        for other in members.compactMap(\.manager) where other !== member.manager {
            if let parts {
                other.noteChanges(to: parts, origin: member.origin)
            } else {
                other.noteChangesToAllParts(origin: member.origin)
            }
        }
    }

    /// The coordinator's own undo and redo have no order to follow per member.
    func stopIfPerMember(in call: StaticString) {
        guard mode == .perMember else { return }
        fatalError(
            "\(call): UndoCoordinator in .perMember mode has no undo order of its own, each member undoes only its own steps\n"
                + "Fix: call undo() or redo() on the member's UndoManager (the person's), or create the coordinator "
                + "with mode .singleOrder for one order across managers"
        )
    }
}

extension UndoManager {
    /// The metadata of closed top-level step `id` on the undo stack (`onUndoStack`) or the
    /// redo stack: O(1) for the newest step, where a transaction's step lands.
    func closedStepMetadata(of id: StepID, onUndoStack: Bool) -> GroupMetadata? {
        let isThisStep = { (step: StepID, _: GroupMetadata?) in step == id }
        let found = onUndoStack ? undoStack.newestStepMetadata(where: isThisStep) : redoStack.newestStepMetadata(where: isThisStep)
        return found ?? nil
    }
}
