import Foundation
import UndoKit

extension EditingSession {
    /// The steps that can be undone and redone, newest first, with their names and when they
    /// were made.
    public struct History: Hashable, Sendable {
        /// One undo step: its name, and when its newest edit was made.
        public struct Step: Hashable, Sendable {
            /// The step's name, as in `Undo Add "Buy milk"`.
            public var name: String
            /// When the step's newest edit was made.
            public var date: Date

            /// Creates a step; sessions build them, tests compare against them.
            public init(name: String, date: Date) {
                self.name = name
                self.date = date
            }
        }

        /// The undoable steps, newest (the next to undo) first.
        public var undoSteps: [Step]
        /// The redoable steps, newest (the next to redo) first.
        public var redoSteps: [Step]
        /// The step still being recorded: the current event's edits, or an explicit group that
        /// has had edits and is not yet ended. It is undone first.
        public var inProgress: Step?

        /// Creates a history; sessions build it, tests compare against it.
        public init(undoSteps: [Step], redoSteps: [Step], inProgress: Step? = nil) {
            self.undoSteps = undoSteps
            self.redoSteps = redoSteps
            self.inProgress = inProgress
        }

        /// Names of the undoable steps, newest first.
        public var undo: [String] { undoSteps.map(\.name) }
        /// Names of the redoable steps, newest first.
        public var redo: [String] { redoSteps.map(\.name) }
    }

    /// The undo and redo stacks, newest first; the step still being recorded, if any, apart.
    public var history: History {
        guard let (closed, open) = recordedHistory() else { return History(undoSteps: [], redoSteps: []) }
        // Every saved step with its own name, next first (as undo and redo take them): the
        // manager's name lists leave out what its stale-step policy would not run.
        func steps(_ groups: [UndoHistory<TODOCommand>.Group]) -> [History.Step] {
            groups.reversed().compactMap { group in
                group.commands.last.map { History.Step(name: group.actionName ?? "", date: $0.date) }
            }
        }
        return History(
            undoSteps: steps(closed.undoSteps),
            redoSteps: steps(closed.redoSteps),
            inProgress: open.flatMap(Self.step)
        )
    }

    /// The step still being recorded, with its commands so far, named as the manager will name
    /// it when it closes (after the outermost explicit group, if that has a name, else after
    /// its newest edit); `nil` when no group with edits is open. What the database saves, as
    /// a step, while a `begin` group is open, so that another process can undo it like any.
    ///
    /// ```swift
    /// session.beginGroup(named: "Week")
    /// try session.add("Monday"); session.endEvent()
    /// session.openStep?.actionName   // "Week"
    /// ```
    public var openStep: UndoHistory<TODOCommand>.Group? {
        guard undoManager.groupingLevel > 0, !commandsInOpenStep.isEmpty else { return nil }
        return UndoHistory.Group(
            actionName: openGroups.first?.name ?? undoManager.undoActionName,
            items: commandsInOpenStep.map { .command($0) },
            date: commandsInOpenStep.last?.date)
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
    /// session.replaceList(listOnDisk)
    /// try session.restoreHistory(savedHistory)
    /// try session.undo()   // "Undo Add \"Buy milk\"", made by another process
    /// ```
    ///
    /// - Throws: ``RestoreError/doesNotFit``, or ``RestoreError/notRestorable(reason:)`` for
    ///   a tree that does not hold together, or a session that has history already; nothing
    ///   changes then.
    public func restoreHistory(_ history: UndoHistory<TODOCommand>) throws(RestoreError) {
        guard Self.fits(history, list) else { throw .doesNotFit }
        do {
            try undoManager.restoreUndoHistory(history, on: self)
        } catch {
            throw .notRestorable(reason: error.description)
        }
    }

    /// Why ``restoreHistory(_:)`` refused a history; the session is as it was.
    public enum RestoreError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A step does not apply to the list as it was recorded.
        case doesNotFit
        /// UndoKit refused it: `reason` says why.
        case notRestorable(reason: String)

        /// What is wrong, as the end of "undo history dropped: …".
        public var description: String {
            switch self {
            case .doesNotFit: "it does not fit the list"
            case .notRestorable(let reason): "it cannot be restored: \(reason)"
            }
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
        return (closed, openStep)
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
        var states: [UndoTree.NodeID: TODOList.Replay] = [:]
        guard let recorded = TODOList.Replay(list) else { return false }
        var undone = recorded
        for step in history.undoSteps.reversed() {
            if let id = step.id, parents.contains(id) { states[id] = undone }
            // The session never records an empty step; a saved one is damage.
            guard !step.commands.isEmpty else { return false }
            for command in step.commands.reversed() where !undone.runs(command) { return false }
        }
        var redone = recorded
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
    private static func redoes(_ step: UndoHistory<TODOCommand>.Group, on list: inout TODOList.Replay) -> Bool {
        // The session never records an empty step; a saved one is damage.
        guard !step.commands.isEmpty else { return false }
        // A group runs its steps newest first, for redo as for undo.
        for command in step.commands.reversed() where !list.runs(command, redo: true) { return false }
        return true
    }
}
