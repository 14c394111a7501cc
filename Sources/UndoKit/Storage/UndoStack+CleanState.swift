/// The clean mark (``UndoManager/markClean()``), kept on the undo stack as a distance.
///
/// `cleanDistance` is how many closed top-level groups ``UndoManager/undo()`` would have to
/// revert to get back to the marked position; negative, how many ``UndoManager/redo()``
/// would have to perform. The manager is clean exactly when it is 0. A distance keeps the
/// common paths to one integer update (a close adds one, an undo subtracts one, a redo adds
/// one) and needs no per-group storage; the rare operations that cut the path between the
/// current position and the mark (a new edit clearing the redo steps it needs, trimming or
/// removing a step on it, an undo whose inverse stayed empty) set it to
/// `cleanMarkUnreachable` instead, until the next ``UndoManager/markClean()``.
extension UndoStack {
    /// `cleanDistance` when the marked position can no longer be reached. The most negative
    /// integer, so that the checks `cleanDistance >= x` for a positive side of the path are
    /// false for it without a separate test.
    static let cleanMarkUnreachable = Int.min

    /// A new top-level step closed on this (undo) stack outside undo and redo: the mark is one
    /// more undo away, or lost if it needed the redo steps that the new edit cleared.
    mutating func cleanMarkMovesBelowNewStep() {
        if cleanDistance >= 0 {
            cleanDistance += 1
        } else {
            cleanDistance = Self.cleanMarkUnreachable
        }
    }

    /// Whether the clean mark needs a step that a removal reported by
    /// `removeActions(withTarget:)` took: on the undo stack, a group at most `cleanDistance`
    /// groups deep (between here and the mark, or the marked step itself); on the redo stack,
    /// one of the `-cleanDistance` groups the redos would perform.
    static func removal(atDepth depth: Int, cutsPathOf distance: Int, onRedoStack: Bool) -> Bool {
        guard distance != cleanMarkUnreachable else { return false }
        return onRedoStack ? distance < 0 && depth < -distance : distance >= 0 && depth <= distance
    }
}
