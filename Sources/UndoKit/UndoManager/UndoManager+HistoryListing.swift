/// Listing the steps for a History panel or an Undo menu with several levels.
///
/// See <doc:ListingTheHistory>.
extension UndoManager {
    /// The names of the steps ``undo()`` would revert, the next one first: one entry per
    /// closed top-level group on the undo stack, `""` for a group without a name.
    ///
    /// A group still open (the current event's automatic group, an explicit group not yet
    /// ended) is not a step yet and is not listed; ``undoActionName`` names it. O(steps),
    /// and it posts nothing.
    ///
    /// ```swift
    /// manager.setActionName("Add"); manager.registerUndo(withTarget: list) { $0.removeLast() }
    /// manager.runLoop.tick()
    /// manager.setActionName("Rename"); manager.registerUndo(withTarget: list) { $0.rename() }
    /// manager.runLoop.tick()
    /// manager.undoActionNames   // ["Rename", "Add"]
    /// ```
    public var undoActionNames: [String] {
        trackRead(.undoActionNames, \.undoActionNames)
        return undoStack.closedTopLevelNamesNewestFirst()
    }

    /// The names of the steps ``redo()`` would perform, the next one first: one entry per
    /// closed top-level group on the redo stack, `""` for a group without a name.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionNames   // ["Rename"]
    /// ```
    public var redoActionNames: [String] {
        trackRead(.redoActionNames, \.redoActionNames)
        return redoStack.closedTopLevelNamesNewestFirst()
    }
}
