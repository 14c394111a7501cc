import Foundation
import UndoKit

extension EditingSession {
    /// The steps that can be undone and redone, newest first, with their names and when they
    /// were made.
    ///
    /// ```swift
    /// let history = session.history
    /// history.undo.first   // "Add \"Buy eggs\"", what undo would revert next
    /// ```
    public struct History: Hashable, Sendable {
        /// One undo step: its name, and when its newest edit was made.
        ///
        /// ```swift
        /// session.history.undoSteps.first?.date   // when the next step to undo was made
        /// ```
        public struct Step: Hashable, Sendable {
            /// The step's name, as in `Undo Add "Buy milk"`.
            ///
            /// ```swift
            /// step.name   // "Add \"Buy milk\""
            /// ```
            public var name: String
            /// When the step's newest edit was made.
            ///
            /// ```swift
            /// step.date.timeIntervalSinceNow   // how long ago
            /// ```
            public var date: Date

            /// Creates a step; sessions build them, tests compare against them.
            ///
            /// ```swift
            /// let step = EditingSession.History.Step(name: "Add \"Buy milk\"", date: Date())
            /// ```
            public init(name: String, date: Date) {
                self.name = name
                self.date = date
            }
        }

        /// The undoable steps, newest (the next to undo) first.
        ///
        /// ```swift
        /// session.history.undoSteps.map(\.name)
        /// ```
        public var undoSteps: [Step]
        /// The redoable steps, newest (the next to redo) first.
        ///
        /// ```swift
        /// session.history.redoSteps.isEmpty   // true after any new edit
        /// ```
        public var redoSteps: [Step]
        /// The step still being recorded: the current event's edits, or an explicit group that
        /// has had edits and is not yet ended. It is undone first.
        ///
        /// ```swift
        /// session.history.inProgress?.name   // "Add \"Buy milk\"" before endEvent()
        /// ```
        public var inProgress: Step?

        /// Creates a history; sessions build it, tests compare against it.
        ///
        /// ```swift
        /// let expected = EditingSession.History(undoSteps: [], redoSteps: [])
        /// ```
        public init(undoSteps: [Step], redoSteps: [Step], inProgress: Step? = nil) {
            self.undoSteps = undoSteps
            self.redoSteps = redoSteps
            self.inProgress = inProgress
        }

        /// Names of the undoable steps, newest first.
        ///
        /// ```swift
        /// session.history.undo   // ["Add \"Buy eggs\"", "Add \"Buy milk\""]
        /// ```
        public var undo: [String] { undoSteps.map(\.name) }
        /// Names of the redoable steps, newest first.
        ///
        /// ```swift
        /// session.history.redo   // ["Remove \"Buy milk\""]
        /// ```
        public var redo: [String] { redoSteps.map(\.name) }
    }

    /// The undo and redo stacks, newest first; the step still being recorded, if any, apart.
    ///
    /// ```swift
    /// for step in session.history.undoSteps { print(step.name, step.date) }
    /// ```
    public var history: History {
        guard let (closed, open) = recordedHistory() else { return History(undoSteps: [], redoSteps: []) }
        // The names are the manager's own listing (next first, as undo and redo take them);
        // the saved steps, in the same order, add when each was made.
        func steps(_ groups: [UndoHistory<TODOCommand>.Group], names: [String]) -> [History.Step] {
            zip(groups.reversed(), names).compactMap { group, name in
                group.commands.last.map { History.Step(name: name, date: $0.date) }
            }
        }
        return History(
            undoSteps: steps(closed.undoSteps, names: undoManager.undoActionNames),
            redoSteps: steps(closed.redoSteps, names: undoManager.redoActionNames),
            inProgress: open.flatMap(Self.step)
        )
    }

    /// The undo history as it belongs with ``list`` now, to save beside it: every closed step,
    /// plus the step still being recorded (an explicit group not yet ended) as if it ended now,
    /// so that another process, or this one after a crash, can undo it like any step.
    ///
    /// `nil` only if the manager holds a step that is not a ``TODOCommand`` (someone
    /// registered on ``undoManager`` directly).
    ///
    /// ```swift
    /// let saved = SavedHistory(revision: revision, history: session.savableHistory()!)
    /// ```
    public func savableHistory() -> UndoHistory<TODOCommand>? {
        guard let recorded = recordedHistory() else { return nil }
        var history = recorded.closed
        if let open = recorded.open {
            history.undoSteps.append(open)
        }
        if undoManager.levelsOfUndo > 0 {
            history.keepNewestUndoSteps(undoManager.levelsOfUndo)
        }
        return history
    }

    /// Makes `history`, saved with the list now in ``list``, the session's undo history.
    ///
    /// Call it on a session with no undo history (new, or after ``replaceList(_:)``). The
    /// history is checked first: undoing every step, newest first, and then redoing every
    /// step must apply to the list exactly as recorded, each change giving back the recorded
    /// inverse, so that a damaged or foreign history can never undo the wrong item. The
    /// manager's `levelsOfUndo` applies.
    ///
    /// ```swift
    /// let saved = try SavedHistory(decoding: bytes)
    /// session.replaceList(replica.list)
    /// try session.restoreHistory(saved.history)
    /// try session.undo()   // "Undo Add \"Buy milk\"", made by another process
    /// ```
    ///
    /// - Throws: ``SavedHistoryError/doesNotFit``, or
    ///   ``SavedHistoryError/notRestorable(reason:)`` if the session already has history;
    ///   nothing changes then.
    public func restoreHistory(_ history: UndoHistory<TODOCommand>) throws(SavedHistoryError) {
        guard Self.fits(history, list) else { throw .doesNotFit }
        do {
            try undoManager.restoreUndoHistory(history, on: self)
        } catch {
            throw .notRestorable(reason: error.description)
        }
    }

    /// The closed steps, and the step still open (with its commands so far), if any.
    func recordedHistory() -> (closed: UndoHistory<TODOCommand>, open: UndoHistory<TODOCommand>.Group?)? {
        guard undoManager.groupingLevel > 0 else {
            return (try? undoManager.undoHistory(of: TODOCommand.self)).map { ($0, nil) }
        }
        // The closed steps, read from the history tree, which lists closed steps only (the
        // open step's first edit already took the redo steps into a branch).
        guard let closed = closedHistory() else { return nil }
        guard !commandsInOpenStep.isEmpty else { return (closed, nil) }
        // Named as the manager will name it when it closes: after the outermost explicit
        // group, if that has a name, else after its newest edit.
        let name = openGroups.first?.name ?? undoManager.undoActionName
        return (closed, UndoHistory.Group(actionName: name, items: commandsInOpenStep.map { .command($0) }))
    }

    /// The closed steps as a history, read step by step from the tree while a step is open
    /// (when `undoHistory(of:)` cannot be taken); `nil` if a step holds anything but TODO
    /// commands.
    private func closedHistory() -> UndoHistory<TODOCommand>? {
        let tree = undoManager.historyTree
        func group(_ id: UndoTree.NodeID) -> UndoHistory<TODOCommand>.Group? {
            (try? undoManager.undoHistoryStep(id, of: TODOCommand.self)) ?? nil
        }
        let path = tree.path(to: tree.current).map(\.id)
        let onPath = Set(path + tree.redoPath)
        var history = UndoHistory<TODOCommand>()
        for id in path {
            guard let step = group(id) else { return nil }
            history.undoSteps.append(step)
        }
        for id in tree.redoPath.reversed() {
            guard let step = group(id) else { return nil }
            history.redoSteps.append(step)
        }
        for node in tree.nodes where !onPath.contains(node.id) {
            guard let step = group(node.id) else { return nil }
            history.branches.append(UndoHistory.BranchStep(parent: node.parent, step: step))
        }
        return history
    }

    private static func step(_ group: UndoHistory<TODOCommand>.Group) -> History.Step? {
        guard let date = group.commands.last?.date else { return nil }
        return History.Step(name: group.actionName ?? "", date: date)
    }

    /// Whether undoing all of `history`'s undo steps from `list`, redoing all its redo steps,
    /// and redoing each branch step from the state of its parent, applies exactly as recorded.
    static func fits(_ history: UndoHistory<TODOCommand>, _ list: TODOList) -> Bool {
        // The list after each step that a branch hangs below; only those: keeping a copy of a
        // 10,000-item list per step made this check cost more than loading the list.
        let parents = Set(history.branches.compactMap(\.parent))
        var states: [UndoTree.NodeID: TODOList] = [:]
        var undone = list
        for step in history.undoSteps.reversed() {
            if let id = step.id, parents.contains(id) { states[id] = undone }
            // The session never records an empty step; a saved one is damage.
            guard !step.commands.isEmpty else { return false }
            for command in step.commands.reversed() where !command.undoes(on: &undone) {
                return false
            }
        }
        var redone = list
        for step in history.redoSteps.reversed() {
            guard redoes(step, on: &redone) else { return false }
            if let id = step.id, parents.contains(id) { states[id] = redone }
        }
        let start = undone
        var pending = history.branches
        while !pending.isEmpty {
            let ready = pending.indices.filter { index in pending[index].parent.map { states[$0] != nil } ?? true }
            guard !ready.isEmpty else { return false }
            for index in ready.reversed() {
                let branch = pending.remove(at: index)
                var state = branch.parent.map { states[$0]! } ?? start
                guard let id = branch.step.id, redoes(branch.step, on: &state) else { return false }
                if parents.contains(id) { states[id] = state }
            }
        }
        return true
    }

    /// Applies a redo step's commands to `list` if each fits it.
    private static func redoes(_ step: UndoHistory<TODOCommand>.Group, on list: inout TODOList) -> Bool {
        // The session never records an empty step; a saved one is damage.
        guard !step.commands.isEmpty else { return false }
        // A group runs its steps newest first, for redo as for undo.
        for command in step.commands.reversed() where !command.redoes(on: &list) {
            return false
        }
        return true
    }
}
