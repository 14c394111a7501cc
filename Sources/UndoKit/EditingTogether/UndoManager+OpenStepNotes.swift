/// A step is recorded from its first action, not from its close (spec K2): a change noted
/// while its group is open, to a part it declares (before or after the note: its parts are
/// known only when it closes), makes it stale once it closes. The cost is in the note: a
/// registration does nothing for it.
extension UndoManager {
    /// After a note: if the open top-level group on the undo stack already holds an action,
    /// remembers the note's time (the first such note only), which the step it closes as
    /// takes as its "done at" time (``PartChangeLog/stepWasClosed(_:)``).
    ///
    /// The same for the group an undo is building on the redo stack
    /// (``PartChangeLog/firstNoteInOpenRedoStep``): the redo step it closes as was recorded
    /// from the run's first registration. (A redo builds its group on the undo stack.)
    func noteTimeIfStepIsOpen() {
        if undoStack.nesting > 0, state.partLog?.firstNoteInOpenStep == nil, openTopLevelGroupHoldsAnAction(undoStack) {
            state.partLog?.firstNoteInOpenStep = state.partLog?.now
        }
        if state.isUndoing, redoStack.nesting > 0, state.partLog?.firstNoteInOpenRedoStep == nil,
           openTopLevelGroupHoldsAnAction(redoStack) {
            state.partLog?.firstNoteInOpenRedoStep = state.partLog?.now
        }
    }

    /// Whether the open top-level group on `stack` holds an action, at any depth: an undo
    /// (or redo) of what it holds would then restore values read before the note. Stops at
    /// the first action, usually the entry after the begin mark.
    private func openTopLevelGroupHoldsAnAction(_ stack: borrowing UndoStack) -> Bool {
        guard let outermost = stack.openBegins.first else { return false }
        var index = outermost + 1
        while index < stack.entries.count {
            switch stack.entries[index] {
            case .action, .singleton: return true
            case .begin, .end: index += 1
            }
        }
        return false
    }
}
