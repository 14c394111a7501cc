import Foundation
import UndoKit

/// The undo history in the `step` table: one row per step of UndoKit's history tree, its
/// commands as UndoKit encodes a group (JSON), with its place: on the path from the start to
/// the current step (`undo`), on the path redo follows (`redo`), or on a branch.
/// `list_state.current_step` is the step the list is at, and `list_state.history_revision`
/// the revision the steps belong to: a `todo` that keeps no history (`TODO_HISTORY_LIMIT=0`)
/// changes the list without them, which leaves them behind.
extension TODODatabase {
    typealias Step = UndoHistory<TODOCommand>.Group

    /// A step's place in the tree, and what tells that its content changed in place (an edit
    /// merged into it renames it and dates it anew).
    struct StepPlace: Equatable {
        enum Kind: String { case undo, redo, branch }

        var parent: UndoTree.NodeID?
        var kind: Kind
        var name: String
        var date: Date?
    }

    /// The saved history as UndoKit restores it, with where each row is; or why it can't be used.
    enum SavedSteps {
        case usable(UndoHistory<TODOCommand>, places: [UndoTree.NodeID: StepPlace])
        case unusable(reason: String)
    }

    /// Reads every step, decoding each one's commands: only the commands that need the
    /// history call it.
    func readHistory() throws(TODOStoreError) -> SavedSteps {
        guard let connection else { return .usable(UndoHistory(), places: [:]) }
        return try reading { () throws(TODOStoreError) in
            var rows: [(id: UndoTree.NodeID, parent: UndoTree.NodeID?, place: String, body: String)] = []
            let state = try run { () throws(SQLiteError) in
                try connection.forEachRow("SELECT id, parent, place, body FROM step ORDER BY id") { row in
                    rows.append((UndoTree.NodeID(row: row.integer(0)), row.isNull(1) ? nil : UndoTree.NodeID(row: row.integer(1)),
                                 row.text(2), row.text(3)))
                }
                return try connection.firstRow("SELECT revision, history_revision, current_step FROM list_state") { row in
                    (revision: row.integer(0), history: row.integer(1), current: row.isNull(2) ? nil : UndoTree.NodeID(row: row.integer(2)))
                }
            }
            guard let state else { throw .corrupt(path: path, reason: "list_state has no row") }
            guard state.history == state.revision || rows.isEmpty else {
                return .unusable(reason: "it belongs to revision \(state.history) of the list, which a todo that keeps no "
                    + "undo history changed since (it is at revision \(state.revision))")
            }
            return Self.history(rows: rows, current: rows.isEmpty ? nil : state.current)
        }
    }

    /// The history the rows make: the path up to `current`, the redo path below it, the rest
    /// as branches; each row must be where its place says.
    static func history(
        rows: [(id: UndoTree.NodeID, parent: UndoTree.NodeID?, place: String, body: String)], current: UndoTree.NodeID?
    ) -> SavedSteps {
        var steps: [UndoTree.NodeID: (step: Step, place: StepPlace)] = [:]
        let decoder = JSONDecoder()
        for row in rows {
            guard let kind = StepPlace.Kind(rawValue: row.place), var step = try? decoder.decode(Step.self, from: Data(row.body.utf8)) else {
                return .unusable(reason: "step \(row.id.rawValue) cannot be read")
            }
            step.id = row.id
            steps[row.id] = (step, StepPlace(parent: row.parent, kind: kind, name: step.actionName ?? "", date: step.date))
        }
        // Both walks collect newest first and are bounded: damaged rows can make a cycle (a row its own parent).
        var undo: [Step] = [], cursor = current
        while let id = cursor, let step = steps[id], step.place.kind == .undo, undo.count < steps.count {
            undo.append(step.step)
            cursor = step.place.parent
        }
        // The redo row below each step, found once rather than by a scan of every row per step.
        let redoBelow = Dictionary(steps.filter { $0.value.place.kind == .redo }.map { ($0.value.place.parent, $0.key) }) { first, _ in first }
        var redo: [Step] = [], below = current
        while let next = redoBelow[below], let step = steps[next], redo.count < steps.count {
            redo.append(step.step)
            below = next
        }
        func count(_ kind: StepPlace.Kind) -> Int { steps.values.filter { $0.place.kind == kind }.count }
        guard cursor == nil, undo.count == count(.undo), redo.count == count(.redo) else {
            return .unusable(reason: "its steps do not form one path from the start to the current step")
        }
        let branches = steps.keys.sorted().filter { steps[$0]!.place.kind == .branch }.map {
            UndoHistory<TODOCommand>.BranchStep(parent: steps[$0]!.place.parent, step: steps[$0]!.step)
        }
        return .usable(UndoHistory(undoSteps: undo.reversed(), redoSteps: redo.reversed(), branches: branches), places: steps.mapValues(\.place))
    }

    /// Adds `step` as the newest step, below the current one (what redo would have taken
    /// stays, as a branch), and trims the oldest to `limit`: what a change made without the
    /// history in memory saves. Inside ``write(_:)``, after ``commit(_:)``.
    func appendStep(_ step: Step, limit: Int) throws(TODOStoreError) -> UndoTree.NodeID {
        let body = try encoded(step)
        return try run(writing: true) { () throws(SQLiteError) in
            guard let connection else { return UndoTree.NodeID(rawValue: 0) }
            // One statement, each value through an index (`place != 'undo'`: the partial one), no temporary table:
            // a step costs the same however long the history. Last: NULL if every row is on the path, 1 if one is redo.
            let state = try connection.firstRow("""
                SELECT current_step, (SELECT ifnull(max(id), 0) + 1 FROM step), (SELECT count(*) FROM step),
                    (SELECT max(place = 'redo') FROM step WHERE place != 'undo') FROM list_state WHERE history_revision = ?
                """, [.int(revision - 1)]) { row in
                (current: row.isNull(0) ? SQLiteValue.null : .integer(row.integer(0)), id: row.integer(1), count: Int(row.integer(2)),
                 offPath: !row.isNull(3), hasRedo: row.integer(3) == 1)
            }
            // Without a row, the steps belong to a list a todo without history changed since.
            if state == nil { try connection.execute("DELETE FROM step") }
            if state?.hasRedo == true { try connection.execute("UPDATE step SET place = 'branch' WHERE place = 'redo'") }
            let id = state?.id ?? 1
            try connection.execute(
                "INSERT INTO step (id, parent, place, name, made_by, saved_in, body) VALUES (?, ?, 'undo', ?, ?, ?, ?)",
                [.integer(id), state?.current ?? .null, .text(step.actionName ?? ""), .text(origin), .int(revision), .text(body)])
            // As UndoKit trims a tree that keeps branches: a leaf off the path to the current
            // step first (a branch tip, the end of the redo path), oldest first; then the root,
            // which has one child then, the next step on the path.
            var count = (state?.count ?? 0) + 1
            while count > max(limit, 1) {
                count -= 1
                let leaf = "SELECT id FROM step AS leaf WHERE place != 'undo' AND NOT EXISTS (SELECT 1 FROM step WHERE parent = leaf.id)"
                if state?.offPath == true, try connection.execute("DELETE FROM step WHERE id = (\(leaf) ORDER BY id LIMIT 1)") > 0 { continue }
                guard let root = try connection.integer("SELECT min(id) FROM step WHERE parent IS NULL AND place = 'undo'"), root != id else { break }
                try connection.execute("UPDATE step SET parent = NULL WHERE id = (SELECT id FROM step WHERE parent = ?)", [.integer(root)])
                try connection.execute("DELETE FROM step WHERE id = ?", [.integer(root)])
            }
            try connection.execute("UPDATE list_state SET current_step = ?, history_revision = revision", [.integer(id)])
            return UndoTree.NodeID(row: id)
        }
    }

    /// Writes steps that are new, moved or changed in place (their `made_by` stays who made
    /// them), removes `removed`, and records the current step: what a change made with the
    /// history in memory saves. With `clearing`, every other step goes first.
    func saveSteps(
        _ steps: [(id: UndoTree.NodeID, place: StepPlace, step: Step)], removing removed: [UndoTree.NodeID],
        current: UndoTree.NodeID?, clearing: Bool = false
    ) throws(TODOStoreError) {
        let bodies = try steps.map { entry throws(TODOStoreError) in try encoded(entry.step) }
        try run(writing: true) { () throws(SQLiteError) in
            guard let connection else { return }
            if clearing { try connection.execute("DELETE FROM step") }
            for id in removed {
                try connection.execute("DELETE FROM step WHERE id = ?", [id.value])
            }
            for (entry, body) in zip(steps, bodies) {
                try connection.execute("""
                    INSERT INTO step (id, parent, place, name, made_by, saved_in, body) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET parent = excluded.parent, place = excluded.place, name = excluded.name,
                        saved_in = excluded.saved_in, body = excluded.body
                    """, [entry.id.value, entry.place.parent?.value ?? .null, .text(entry.place.kind.rawValue),
                          .text(entry.place.name), .text(origin), .int(revision), .text(body)])
            }
            try connection.execute("UPDATE list_state SET current_step = ?, history_revision = revision", [current?.value ?? .null])
        }
    }

    /// Replaces the content of step `id`, the current one, as an edit merged into it or an
    /// open group grew: what a change made without the history in memory saves.
    func rewriteStep(_ id: UndoTree.NodeID, with step: Step) throws(TODOStoreError) {
        let body = try encoded(step)
        try run(writing: true) { () throws(SQLiteError) in
            try connection?.execute(
                "UPDATE step SET name = ?, saved_in = ?, body = ? WHERE id = ?", [.text(step.actionName ?? ""), .int(revision), .text(body), id.value])
            try connection?.execute("UPDATE list_state SET history_revision = revision")
        }
    }

    /// Writes a whole history, every step with an id, into an empty `step` table: the import
    /// of an old file.
    func insertHistory(_ history: UndoHistory<TODOCommand>) throws(TODOStoreError) {
        var rows: [(id: UndoTree.NodeID, place: StepPlace, step: Step)] = []
        // The path from the start, then on from its end the path redo follows.
        for (steps, kind) in [(history.undoSteps, StepPlace.Kind.undo), (Array(history.redoSteps.reversed()), .redo)] {
            for step in steps {
                rows.append((step.id!, StepPlace(parent: rows.last?.id, kind: kind, name: step.actionName ?? "", date: step.date), step))
            }
        }
        for branch in history.branches {
            rows.append((branch.step.id!, StepPlace(parent: branch.parent, kind: .branch, name: branch.step.actionName ?? "", date: branch.step.date), branch.step))
        }
        try saveSteps(rows, removing: [], current: history.undoSteps.last?.id)
    }

    /// Removes every step: a history that cannot be used is dropped, as the warning says, so
    /// that no change builds on it. Only if the list is still at `revision`, the one it was
    /// read at; a database this process cannot write keeps it, and warns again next time.
    func dropHistory(readAt revision: Int) throws(TODOStoreError) {
        let clear = { () throws(TODOStoreError) in
            guard let connection = self.connection, try self.readRevision() == revision else { return }
            try self.run(writing: true) { () throws(SQLiteError) in
                try connection.executeScript("DELETE FROM step; UPDATE list_state SET current_step = NULL, history_revision = revision")
            }
        }
        if isWriting { try clear() } else { try write(clear) }
    }

    private func encoded(_ step: Step) throws(TODOStoreError) -> String {
        var step = step
        step.id = nil   // the row's
        let encoder = JSONEncoder()
        // Sorted, so that a step reads the same however it was made.
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(step) else {
            throw .unwritable(path: path, reason: "a step of the undo history cannot be encoded")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension UndoTree.NodeID {
    /// The step of row id `row`.
    init(row: Int64) {
        self.init(rawValue: UInt64(bitPattern: row))
    }

    /// The step's row id, to bind.
    var value: SQLiteValue { .integer(Int64(bitPattern: rawValue)) }
}
