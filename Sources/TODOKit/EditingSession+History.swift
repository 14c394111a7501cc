import UndoKit

extension EditingSession {
    /// The names of the steps that can be undone and redone, newest first.
    ///
    /// ```swift
    /// let history = session.history
    /// history.undo.first   // "Add \"Buy eggs\"", what undo would revert next
    /// ```
    public struct History: Hashable, Sendable {
        /// Names of the undoable steps, newest (the next to undo) first.
        ///
        /// ```swift
        /// session.history.undo   // ["Add \"Buy eggs\"", "Add \"Buy milk\""]
        /// ```
        public var undo: [String]
        /// Names of the redoable steps, newest (the next to redo) first.
        ///
        /// ```swift
        /// session.history.redo   // ["Remove \"Buy milk\""]
        /// ```
        public var redo: [String]
        /// The name of the step still being recorded: the current event's edits, or an explicit
        /// group that has had edits and is not yet ended. It is undone first.
        ///
        /// ```swift
        /// session.history.inProgress   // "Add \"Buy milk\"" before endEvent()
        /// ```
        public var inProgress: String?

        /// Creates a history; sessions build it, tests compare against it.
        ///
        /// ```swift
        /// let expected = EditingSession.History(undo: ["Add \"Buy milk\""], redo: [])
        /// ```
        public init(undo: [String], redo: [String], inProgress: String? = nil) {
            self.undo = undo
            self.redo = redo
            self.inProgress = inProgress
        }
    }

    /// The undo and redo stacks by action name, newest first.
    ///
    /// ```swift
    /// for name in session.history.undo { print(name) }
    /// ```
    public var history: History {
        // The manager lists its closed steps itself, so the history is right even when someone
        // cleared or trimmed its stacks behind the session's back. An open group is not a step
        // yet: the manager's `undoActionName` names it.
        History(
            undo: undoManager.undoActionNames,
            redo: undoManager.redoActionNames,
            inProgress: undoManager.groupingLevel == 0 ? nil : undoManager.undoActionName
        )
    }
}
