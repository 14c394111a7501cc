import UndoKit

/// What the database holds of a session's undo history, and the writes that keep it so: after
/// each line, in the line's transaction, the steps the line made or moved.
///
/// Loading the history costs what it holds (every step's commands are decoded), so a session
/// starts without it and reads it only for a command that needs it (`undo`, `redo`, `goto`,
/// `history`). Until then its undo manager records only this process's new steps, and each is
/// saved as the database's newest step, below the current one, without reading the others.
/// Once loaded, the manager holds the saved steps under their row ids, and each line saves the
/// steps whose place or content changed, and removes those the manager dropped.
///
/// An explicit group still open (`begin` without `end` yet) is saved as a step as far as it
/// has got, so that another process, or this one after a crash, can undo it like any step.
///
/// A session that undoes only its own steps never loads the history (``SharedHistory`` does,
/// for the lines that need it) and keeps its steps when another process changes the list: it
/// remembers which row holds each, so that undoing one can move the shared history back over
/// that row when the list is where the row left it.
final class SavedHistory {
    /// How many steps the database keeps; 0 saves none, and writes nothing.
    let limit: Int

    private enum State {
        /// The manager holds only steps this process made since it last read the list, each
        /// saved already; the newest of them is row `newest.row`.
        case notLoaded(newest: (memory: UndoTree.NodeID, row: UndoTree.NodeID)?)
        /// The manager holds the saved history, under the same ids; `places` says where each
        /// saved step is.
        case loaded(places: [UndoTree.NodeID: TODODatabase.StepPlace])
    }

    private var state = State.notLoaded(newest: nil)
    /// The row of the explicit group still open, saved as far as it has got.
    private var openStepRow: UndoTree.NodeID?
    /// Set when the saved steps could not be used: the next save replaces them all.
    private var replacesAll = false
    /// The row that last did each of the session's steps: its change (or, `inverted`, its
    /// undo, saved as a step of its own).
    var rows: Rows = [:]
    typealias Rows = [UndoTree.NodeID: (id: UndoTree.NodeID, inverted: Bool)]
    /// How many commands of the open group are saved in rows before another process's change:
    /// the group's row after it holds only those that follow.
    private var splitAt = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the session's manager holds the saved history.
    var isLoaded: Bool {
        if case .loaded = state { true } else { false }
    }

    /// Forgets what the manager held: another process changed the list, or a change was rolled
    /// back, and the session's history was dropped with its list. With `openCommands`, the
    /// session kept its history, and that many commands of its open group, which are saved:
    /// the newest row is another process's now, and the group goes on in a row of its own.
    func reset(keepingSteps openCommands: Int? = nil) {
        state = .notLoaded(newest: nil)
        openStepRow = nil
        replacesAll = false
        splitAt = openCommands ?? 0
        if openCommands == nil { rows = [:] }
    }

    /// Gives `session` the saved history in place of the steps it holds (which are saved
    /// already). Returns why the saved history cannot be used, for a warning: the session then
    /// starts a new one, which the next change saves in its place.
    func load(into session: EditingSession, from database: TODODatabase) throws(TODOStoreError) -> String? {
        let saved = try database.readHistory()
        session.replaceList(session.list)
        openStepRow = nil
        state = .loaded(places: [:])
        replacesAll = true
        let problem: String
        switch saved {
        case .unusable(let reason):
            problem = reason
        case .usable(let history, let places):
            do {
                try session.restoreHistory(history)
                state = .loaded(places: places)
                replacesAll = false
                return nil
            } catch { problem = error.description }
        }
        try? database.dropHistory(readAt: database.revision)
        return problem
    }

    /// Saves what the line changed in the history, after its list changes and in the same
    /// transaction. `edited` says the line made edits: its step, new or merged into the current
    /// one, is saved again even if its place did not change.
    func save(_ session: EditingSession, to database: TODODatabase, edited: Bool) throws(TODOStoreError) {
        guard limit > 0 else { return }
        let manager = session.undoManager
        let open = session.openStep.map(afterSplit)
        switch state {
        case .notLoaded(let newest):
            if let open {
                if let row = openStepRow {
                    try database.rewriteStep(row, with: open)
                } else {
                    openStepRow = try database.appendStep(open, limit: limit)
                }
            } else if let current = manager.currentHistoryNodeID,
                      let step = ((try? manager.undoHistoryStep(current, of: TODOCommand.self)) ?? nil).map(afterSplit) {
                // The group saved so far has closed, or an edit merged into the newest step.
                let row: UndoTree.NodeID
                if let saved = openStepRow ?? (newest?.memory == current ? newest?.row : nil) {
                    try database.rewriteStep(saved, with: step)
                    row = saved
                } else {
                    row = try database.appendStep(step, limit: limit)
                }
                // A group split by another process's change has no one row to stand for it.
                state = .notLoaded(newest: splitAt > 0 ? nil : (current, row))
                rows[current] = splitAt > 0 ? nil : (row, false)
                openStepRow = nil
                splitAt = 0
            }
        case .loaded(let places):
            let tree = manager.historyTree
            let path = Set(tree.path(to: tree.current).map(\.id))
            let redoPath = Set(tree.redoPath)
            var wanted: [UndoTree.NodeID: TODODatabase.StepPlace] = [:]
            for node in tree.nodes {
                let kind: TODODatabase.StepPlace.Kind = path.contains(node.id) ? .undo : redoPath.contains(node.id) ? .redo : .branch
                wanted[node.id] = .init(parent: node.parent, kind: kind, name: node.actionName, date: node.date)
            }
            var current = tree.current
            var steps: [(id: UndoTree.NodeID, place: TODODatabase.StepPlace, step: TODODatabase.Step)] = []
            if let open {
                // A row of its own until the group closes and the manager gives it a node.
                let id = openStepRow ?? UndoTree.NodeID(rawValue: (Array(wanted.keys) + Array(places.keys)).map(\.rawValue).max().map { $0 + 1 } ?? 1)
                openStepRow = id
                wanted[id] = .init(parent: current, kind: .undo, name: open.actionName ?? "", date: open.date)
                steps.append((id, wanted[id]!, open))
                current = id
            } else {
                openStepRow = nil
            }
            for (id, place) in wanted.sorted(by: { $0.key < $1.key })
            where id != openStepRow && (replacesAll || places[id] != place || (edited && id == tree.current)) {
                guard let step = (try? manager.undoHistoryStep(id, of: TODOCommand.self)) ?? nil else { continue }
                steps.append((id, place, step))
            }
            let removed = places.keys.filter { wanted[$0] == nil }
            try database.saveSteps(steps, removing: replacesAll ? [] : removed, current: current, clearing: replacesAll)
            state = .loaded(places: wanted)
            replacesAll = false
        }
    }

    /// After every line, saved or not: a group that closed without a change in its last line
    /// is the step saved for it so far. (With the history loaded, the next save puts the
    /// manager's node for it in place of that row.)
    func lineEnded(_ session: EditingSession) {
        guard session.openStep == nil else { return }
        defer { splitAt = 0 }
        guard let row = openStepRow else { return }
        openStepRow = nil
        if case .notLoaded = state, let current = session.undoManager.currentHistoryNodeID, splitAt == 0 {
            state = .notLoaded(newest: (current, row))
            rows[current] = (row, false)
        }
    }

    /// The commands of `step` after those saved before a split (see `reset(keepingSteps:)`).
    private func afterSplit(_ step: UndoHistory<TODOCommand>.Group) -> UndoHistory<TODOCommand>.Group {
        guard splitAt > 0 else { return step }
        return UndoHistory.Group(actionName: step.actionName, items: step.commands.dropFirst(splitAt).map { .command($0) }, date: step.date)
    }
}
