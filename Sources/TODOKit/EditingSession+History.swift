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
        guard undoManager.groupingLevel == 0 else {
            return History(undo: undoNames.reversed(), redo: redoNames.reversed(), inProgress: undoManager.undoActionName)
        }
        // Someone may have cleared or trimmed the manager's stacks behind the session's back;
        // whatever they dropped is the oldest part of the mirror.
        return History(
            undo: undoNames.suffix(undoManager.undoCount).reversed(),
            redo: redoNames.suffix(undoManager.redoCount).reversed()
        )
    }
}
