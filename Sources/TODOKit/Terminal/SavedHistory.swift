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

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the session's manager holds the saved history.
    var isLoaded: Bool {
        if case .loaded = state { true } else { false }
    }

    /// Forgets what the manager held: another process changed the list, or a change was rolled
    /// back, and the session's history was dropped with its list.
    func reset() {
        state = .notLoaded(newest: nil)
        openStepRow = nil
        replacesAll = false
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
            } catch {
                problem = error.description
            }
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
        let open = session.openStep
        switch state {
        case .notLoaded(let newest):
            if let open {
                if let row = openStepRow {
                    try database.rewriteStep(row, with: open)
                } else {
                    openStepRow = try database.appendStep(open, limit: limit)
                }
            } else if let current = manager.currentHistoryNodeID,
                      let step = (try? manager.undoHistoryStep(current, of: TODOCommand.self)) ?? nil {
                // The group saved so far has closed, or an edit merged into the newest step.
                if let row = openStepRow ?? (newest?.memory == current ? newest?.row : nil) {
                    try database.rewriteStep(row, with: step)
                    state = .notLoaded(newest: (current, row))
                } else {
                    state = .notLoaded(newest: (current, try database.appendStep(step, limit: limit)))
                }
                openStepRow = nil
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
        guard let row = openStepRow, session.openStep == nil else { return }
        openStepRow = nil
        if case .notLoaded = state, let current = session.undoManager.currentHistoryNodeID {
            state = .notLoaded(newest: (current, row))
        }
    }
}
