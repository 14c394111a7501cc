import Foundation
import UndoKit

// # The list's history
//
// The list has one history, shared by every `todo` that opens it: the `step` table, one row
// per step, in the order the steps were made. A step's row id is its number, everywhere: in
// `history`, in `goto`, in a session's undo, in the file. The database never gives it to
// another step (SQLite's AUTOINCREMENT, PostgreSQL's identity column), so a number stays the
// step it named.
//
// The history only grows. Every line that changes the list adds a step, or extends the
// newest one it made (a retyped title, a `begin` … `end` group still open):
//
// - `edit`: the line's edits; `name` is the step's name, such as `Add "Buy milk"`.
// - `undo`, `redo`: an undo or redo of the step `target` (an `edit` step), by whoever ran it.
// - `goto`: the list brought back to how it was just after step `target` (0: before the oldest
//   step kept).
//
// Nobody moves or rewrites another person's step: an undo is a new step naming who made it,
// as a document's version history does. Each step keeps the changes it made to the list, in
// typed columns of `step_change` (the kind of change, the item, its position, its fields
// before and after): what `goto` reverts, what a session restores to undo again after a
// restart, and what tells who last changed an item.
//
// Whose undo is whose: a session's `undo` and `redo` take its person's `edit` steps, newest
// first, with UndoKit (one node per step, under the step's row id); a step whose item someone
// else changed since is refused (UndoKit's `.refuse` policy, with the item as the step's
// part). A one-shot `todo undo` has no session: it undoes the newest `edit` step of the list,
// whoever made it, if its items are still as it left them. A step its person dropped
// (`drop`, `drop redo`: to get past a step refused as stale) is marked so (`dropped`), and
// their later sessions never offer it again.
//
// Trimming, one rule: the history keeps the newest `TODO_HISTORY_LIMIT` steps (everyone's);
// adding one more deletes the oldest, with its changes. A session's own undo keeps as many
// steps (UndoKit's `levelsOfUndo`), so it never reaches further back than the list keeps.

extension TODODatabase {
    /// One row of `step`: one step of the list's history.
    struct HistoryStep: Equatable {
        enum Kind: String {
            case edit
            case undo
            case redo
            case goto
        }

        /// The step's number, never given to another step.
        var id: Int64
        var kind: Kind
        /// `undo`, `redo`: the step undone or redone; `goto`: the step gone to, 0 for the start.
        var target: Int64?
        /// The step's name (for an undo or redo, the name of the step it undid or redid).
        var name: String
        /// Who made it: `--as`, or the login name.
        var person: String
        /// The process that made it (a row of `origin`).
        var origin: String
        /// When its newest change was made.
        var date: Date
        /// The list's revision after its newest change.
        var revision: Int
        /// Whether its person dropped it (`drop`, `drop redo`): their sessions never offer it
        /// to undo or redo again.
        var isDropped = false

        /// The name `history` shows: `Undo Add "Buy milk"`.
        var title: String {
            switch kind {
            case .edit:
                return name
            case .undo:
                return "Undo " + name
            case .redo:
                return "Redo " + name
            case .goto:
                return name
            }
        }
    }

    /// One row of `step_change`: a change a step made to the list, and what undoes it.
    struct StepChange: Equatable {
        var step: Int64
        /// The list's revision the change made, and its place among that revision's changes.
        var revision: Int
        var number: Int
        var change: TODOList.Change
        var inverse: TODOList.Change
        /// The item it changed.
        var item: TODOItem.ID
    }

    // MARK: Writing

    /// Adds a step made of `changes`, the changes numbered from `first` in this revision,
    /// as the newest step; returns its number. Inside ``write(_:)``, after ``commit(_:)``.
    func appendStep(
        _ kind: HistoryStep.Kind,
        target: Int64?,
        name: String,
        changes: ArraySlice<TODOList.IdentifiedChange>,
        date: Date
    ) throws(TODOStoreError) -> Int64 {
        precondition(isWriting, "TODODatabase.appendStep runs inside write(_:)")
        guard let connection else {
            return 0
        }
        let targetValue: SQLValue
        if let target {
            targetValue = .integer(target)
        } else {
            targetValue = .null
        }
        let id = try run(writing: true) { () throws(SQLError) -> Int64 in
            let id = try connection.integer(
                """
                INSERT INTO step (kind, target, name, person, origin, made_at, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    .text(kind.rawValue), targetValue, .text(name), .text(person), .text(origin),
                    .integer(Int64(date.timeIntervalSince1970.rounded(.down))), .int(revision),
                ])
            guard let id else {
                throw SQLError(kind: .failed, message: "the new step of the history got no number")
            }
            return id
        }
        try insertChanges(changes, of: id)
        return id
    }

    /// Adds `changes` to step `id`, the newest this process made: an edit merged into it, or
    /// a group still open that grew.
    func extendStep(
        _ id: Int64, name: String, changes: ArraySlice<TODOList.IdentifiedChange>, date: Date
    ) throws(TODOStoreError) {
        precondition(isWriting, "TODODatabase.extendStep runs inside write(_:)")
        guard let connection else {
            return
        }
        try run(writing: true) { () throws(SQLError) in
            try connection.execute(
                "UPDATE step SET name = ?, made_at = ?, revision = ? WHERE id = ?",
                [.text(name), .integer(Int64(date.timeIntervalSince1970.rounded(.down))), .int(revision), .integer(id)])
        }
        try insertChanges(changes, of: id)
    }

    /// Writes each change as a row of columns; its number is its place among the line's
    /// changes, so that (revision, number) orders every change ever made.
    private func insertChanges(_ changes: ArraySlice<TODOList.IdentifiedChange>, of step: Int64) throws(TODOStoreError)
    {
        guard let connection else {
            return
        }
        for (number, identified) in zip(changes.indices, changes) {
            guard let columns = Self.columns(of: identified) else {
                throw .unwritable(path: path, reason: "a change of the list cannot be saved in its history")
            }
            try run(writing: true) { () throws(SQLError) in
                try connection.execute(
                    """
                    INSERT INTO step_change (step, revision, number, op, item, position, destination,
                        title, detail, is_done, priority, old_title, old_detail, old_is_done, old_priority)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.integer(step), .int(revision), .int(number)] + columns)
            }
        }
    }

    /// Marks the session's steps `ids` dropped: a session of their person that starts later
    /// does not offer them to undo or redo. Inside ``write(_:)``.
    func markDropped(_ ids: [Int64]) throws(TODOStoreError) {
        precondition(isWriting, "TODODatabase.markDropped runs inside write(_:)")
        guard let connection else {
            return
        }
        for id in ids {
            try run(writing: true) { () throws(SQLError) in
                try connection.execute("UPDATE step SET dropped = 1 WHERE id = ?", [.integer(id)])
            }
        }
    }

    /// Deletes the steps, and their changes, more than `limit` numbers older than step
    /// `newest`: the one rule by which the history is trimmed. Numbers are given one after the
    /// other and only the oldest are ever deleted, so the newest `limit` steps are left.
    func trimHistory(below newest: Int64, limit: Int) throws(TODOStoreError) {
        let oldestDeleted = newest - Int64(limit)
        guard let connection, oldestDeleted >= 1 else {
            return
        }
        try run(writing: true) { () throws(SQLError) in
            try connection.execute("DELETE FROM step_change WHERE step <= ?", [.integer(oldestDeleted)])
            try connection.execute("DELETE FROM step WHERE id <= ?", [.integer(oldestDeleted)])
        }
    }

    /// The columns `op` to `old_priority` of a change: the new item's fields for an insertion
    /// or a replacement, the old item's for a removal or a replacement; `nil` without the
    /// inverse a removal or replacement needs.
    static func columns(of identified: TODOList.IdentifiedChange) -> [SQLValue]? {
        func fields(_ item: TODOItem) -> [SQLValue] {
            [.text(item.title), .text(item.detail), .int(item.isDone ? 1 : 0), .text(item.priority.rawValue)]
        }
        let none: [SQLValue] = [.null, .null, .null, .null]
        switch (identified.change, identified.inverse) {
        case (.insert(let item, let position), _):
            return [.text("insert"), .text(item.id.uuidString), .int(position), .null] + fields(item) + none
        case (.remove(let position), .insert(let old, _)?):
            return [.text("remove"), .text(old.id.uuidString), .int(position), .null] + none + fields(old)
        case (.replace(let position, let new), .replace(_, let old)?):
            return [.text("replace"), .text(new.id.uuidString), .int(position), .null] + fields(new) + fields(old)
        case (.move(let source, let destination), _):
            guard let item = identified.itemID else {
                return nil
            }
            return [.text("move"), .text(item.uuidString), .int(source), .int(destination)] + none + none
        default:
            return nil
        }
    }

    // MARK: Reading

    /// Every step kept, oldest first.
    func readSteps() throws(TODOStoreError) -> [HistoryStep] {
        guard let connection = try openedIfItExists() else {
            return []
        }
        var steps: [HistoryStep] = []
        var damaged: Int64?
        try run { () throws(SQLError) in
            try connection.forEachRow(
                "SELECT id, kind, target, name, person, origin, made_at, revision, dropped FROM step ORDER BY id"
            ) { row in
                guard let kind = HistoryStep.Kind(rawValue: row.text(1)) else {
                    damaged = row.integer(0)
                    return
                }
                var target: Int64?
                if !row.isNull(2) {
                    target = row.integer(2)
                }
                let step = HistoryStep(
                    id: row.integer(0), kind: kind, target: target, name: row.text(3), person: row.text(4),
                    origin: row.text(5), date: Date(timeIntervalSince1970: TimeInterval(row.integer(6))),
                    revision: Int(row.integer(7)), isDropped: row.integer(8) != 0)
                steps.append(step)
            }
        }
        if let damaged {
            throw .corrupt(path: path, reason: "step \(damaged) of the history has a kind todo never writes")
        }
        return steps
    }

    /// The changes of the steps `ids`, each step's in the order they were made.
    func readChanges(ofSteps ids: [Int64]) throws(TODOStoreError) -> [Int64: [StepChange]] {
        var changes: [Int64: [StepChange]] = [:]
        for id in ids {
            changes[id] = try readChanges(where: "step = ?", [.integer(id)])
        }
        return changes
    }

    /// Every change made after `revision`, oldest first; `nil` if a change after it was made
    /// without the history (by a `todo` that keeps none), so that the changes are not all
    /// there is to revert.
    func readChanges(after revision: Int) throws(TODOStoreError) -> [StepChange]? {
        // Through `step` (a few hundred rows at most), then each step's changes by the key.
        let changes = try readChanges(
            where: "step IN (SELECT id FROM step WHERE revision > ?) AND revision > ?", [.int(revision), .int(revision)])
        let revisions = Set(changes.map(\.revision))
        guard revisions.count == self.revision - revision else {
            return nil
        }
        return changes
    }

    private func readChanges(where condition: String, _ values: [SQLValue]) throws(TODOStoreError) -> [StepChange] {
        guard let connection else {
            return []
        }
        var changes: [StepChange] = []
        var damaged: (step: Int64, number: Int64)?
        try run { () throws(SQLError) in
            try connection.forEachRow(
                """
                SELECT step, revision, number, op, item, position, destination,
                    title, detail, is_done, priority, old_title, old_detail, old_is_done, old_priority
                FROM step_change WHERE \(condition) ORDER BY revision, number
                """, values
            ) { row in
                guard damaged == nil else {
                    return
                }
                guard let change = Self.change(from: row) else {
                    damaged = (row.integer(0), row.integer(2))
                    return
                }
                changes.append(change)
            }
        }
        if let damaged {
            throw .corrupt(path: path, reason: "a change of step \(damaged.step) of the history is not one todo writes")
        }
        return changes
    }

    /// A change from its row, or `nil` if the row holds what `todo` never writes.
    static func change(from row: SQLRow) -> StepChange? {
        guard let item = UUID(parsingUTF8: row.bytes(4)) else {
            return nil
        }
        let position = row.integer(5)
        guard position >= 0, position < Int64(Int32.max) else {
            return nil
        }
        func fields(from column: Int32) -> TODOItem? {
            guard !row.isNull(column), [0, 1].contains(row.integer(column + 2)) else {
                return nil
            }
            guard let priority = TODOItem.Priority(rawValue: row.text(column + 3)) else {
                return nil
            }
            return TODOItem(
                id: item, title: row.text(column), detail: row.text(column + 1), isDone: row.integer(column + 2) == 1,
                priority: priority)
        }
        let at = Int(position)
        let change: TODOList.Change
        let inverse: TODOList.Change
        switch row.text(3) {
        case "insert":
            guard let new = fields(from: 7) else {
                return nil
            }
            change = .insert(new, at: at)
            inverse = .remove(at: at)
        case "remove":
            guard let old = fields(from: 11) else {
                return nil
            }
            change = .remove(at: at)
            inverse = .insert(old, at: at)
        case "replace":
            guard let new = fields(from: 7), let old = fields(from: 11) else {
                return nil
            }
            change = .replace(at: at, with: new)
            inverse = .replace(at: at, with: old)
        case "move":
            let destination = row.integer(6)
            guard !row.isNull(6), destination >= 0, destination < Int64(Int32.max) else {
                return nil
            }
            change = .move(from: at, to: Int(destination))
            inverse = .move(from: Int(destination), to: at)
        default:
            return nil
        }
        return StepChange(
            step: row.integer(0), revision: Int(row.integer(1)), number: Int(row.integer(2)), change: change,
            inverse: inverse,
            item: item)
    }

    /// Who made the newest change to `item` after `revision`, and when, in words: `bob at
    /// 10:41 (step 14)`; `nil` if no step says.
    func lastChange(to item: TODOItem.ID, after revision: Int, in timeZone: TimeZone) throws(TODOStoreError) -> String?
    {
        guard let connection else {
            return nil
        }
        return try run { () throws(SQLError) in
            try connection.firstRow(
                """
                SELECT step.id, step.person, step.made_at FROM step JOIN step_change ON step_change.step = step.id
                WHERE step.revision > ? AND step_change.item = ? AND step_change.revision > ?
                ORDER BY step_change.revision DESC LIMIT 1
                """, [.int(revision), .text(item.uuidString), .int(revision)]
            ) { row in
                let date = Date(timeIntervalSince1970: TimeInterval(row.integer(2)))
                let time = REPL.timestamp(date, in: timeZone).suffix(5)
                return "\(self.name(of: row.text(1))) at \(time) (step \(row.integer(0)))"
            }
        }
    }

    /// `person` as the people this process works for call them: "you" for its own person.
    func name(of person: String) -> String {
        person == self.person ? "you (\(person))" : person
    }
}

extension TODODatabase.HistoryStep {
    /// `edit` steps whose latest undo or redo (by anyone) is an undo: steps the list does not
    /// hold now. Keyed by the undone step, the undo step.
    static func undone(in steps: [Self]) -> [Int64: Self] {
        var latest: [Int64: Self] = [:]
        for step in steps where step.kind == .undo || step.kind == .redo {
            if let target = step.target {
                latest[target] = step
            }
        }
        return latest.filter { $0.value.kind == .undo }
    }
}

extension TODODatabase.StepChange {
    /// The change as a command of an UndoKit step named `name`, made at `date`.
    func command(named name: String, at date: Date) -> TODOCommand {
        var moved: TODOItem.ID?
        if case .move = change {
            moved = item
        }
        return TODOCommand(change: change, inverse: inverse, name: name, date: date, movedItem: moved)
    }
}

/// What ties a session's undo manager to the list's history: the row of each of its steps,
/// and, while a line runs, which of the line's changes each of its steps made.
///
/// A line's changes are cut into pieces as its commands run: the edits (the manager's
/// current step when the line ends, or the group still open), an `undo` or `redo` of one of
/// the session's steps, a `goto`. Saving the line (``save(_:changes:to:)``) writes each piece
/// as a step, in order, or adds it to the step it extends.
final class SessionSteps {
    /// How many steps the list keeps; 0 keeps none, and writes none.
    let limit: Int

    /// The row of each step of the session's undo manager: restored steps keep their row id
    /// as their node id; new ones get theirs when saved.
    private(set) var rows: [UndoTree.NodeID: Int64] = [:]
    /// The row of the explicit group still open, saved as far as it has got.
    private var openGroupRow: Int64?
    /// The rows of the steps the line dropped, marked so when it is saved.
    private var droppedRows: [Int64] = []

    /// What a piece of the line is.
    enum Piece {
        /// Edits of the step `node` (`nil`: the manager's current step, or the open group).
        case edits(node: UndoTree.NodeID?, name: String?)
        /// An undo or redo of the session's step `node`, named `name`.
        case undo(node: UndoTree.NodeID, name: String)
        case redo(node: UndoTree.NodeID, name: String)
        /// An undo or redo of the list's step `row` (a one-shot's).
        case undoRow(Int64, name: String)
        case redoRow(Int64, name: String)
        /// The list brought back to just after step `row`.
        case goto(Int64)
    }

    private var pieces: [(piece: Piece, end: Int)] = []
    private var pieceStart = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// The line's changes up to `end` (an index of the session's applied changes) are `piece`.
    func mark(_ piece: Piece, upTo end: Int) {
        guard end > pieceStart else {
            return
        }
        pieces.append((piece, end))
        pieceStart = end
    }

    /// The session's step `node` was dropped on this line: saving the line marks its row, so
    /// that the person's next session does not offer it again. A step never saved has none.
    func dropped(_ node: UndoTree.NodeID) {
        guard let row = rows[node] else {
            return
        }
        droppedRows.append(row)
    }

    /// Marks the steps the line dropped, in the line's transaction (a line that drops changes
    /// nothing else, so ``save(_:changes:to:)`` may not run).
    func saveDrops(to database: TODODatabase) throws(TODOStoreError) {
        guard limit > 0, !droppedRows.isEmpty else {
            return
        }
        try database.markDropped(droppedRows)
    }

    /// Before an undo or redo of the session's: the line's edits so far belong to the step it
    /// is about to take.
    func markEdits(upTo end: Int, of node: UndoTree.NodeID?, named name: String?) {
        mark(.edits(node: node, name: name), upTo: end)
    }

    /// Writes the line's pieces as steps, after ``TODODatabase/commit(_:)`` wrote `changes`,
    /// then trims the history.
    func save(
        _ session: EditingSession, changes: [TODOList.IdentifiedChange], to database: TODODatabase
    ) throws(TODOStoreError) {
        defer { lineEnded() }
        guard limit > 0 else {
            return
        }
        mark(.edits(node: nil, name: nil), upTo: changes.count)
        let date = session.clock()
        var start = 0
        var newest: Int64?
        for (piece, end) in pieces {
            let slice = changes[start..<end]
            start = end
            switch piece {
            case .edits(let node, let name):
                if let added = try saveEdits(slice, of: node, named: name, session: session, to: database, date: date) {
                    newest = added
                }
            case .undo(let node, let name):
                newest = try database.appendStep(.undo, target: rows[node], name: name, changes: slice, date: date)
            case .redo(let node, let name):
                newest = try database.appendStep(.redo, target: rows[node], name: name, changes: slice, date: date)
            case .undoRow(let row, let name):
                newest = try database.appendStep(.undo, target: row, name: name, changes: slice, date: date)
            case .redoRow(let row, let name):
                newest = try database.appendStep(.redo, target: row, name: name, changes: slice, date: date)
            case .goto(let row):
                let name = row == 0 ? "Go to the start" : "Go to step \(row)"
                newest = try database.appendStep(.goto, target: row, name: name, changes: slice, date: date)
            }
        }
        if let newest {
            try database.trimHistory(below: newest, limit: limit)
        }
    }

    /// The line's edits: a new step, or more of the step they belong to (a group still open,
    /// an edit UndoKit merged into the step before). Returns the new step's number, if any.
    private func saveEdits(
        _ changes: ArraySlice<TODOList.IdentifiedChange>,
        of node: UndoTree.NodeID?,
        named name: String?,
        session: EditingSession,
        to database: TODODatabase,
        date: Date
    ) throws(TODOStoreError) -> Int64? {
        let manager = session.undoManager
        if let open = session.openStep, node == nil {
            let name = open.actionName ?? ""
            if let row = openGroupRow {
                try database.extendStep(row, name: name, changes: changes, date: date)
                return nil
            }
            let row = try database.appendStep(.edit, target: nil, name: name, changes: changes, date: date)
            openGroupRow = row
            return row
        }
        let step = node ?? manager.currentHistoryNodeID
        let stepName = name ?? manager.undoActionName
        if let step, openGroupRow != nil, rows[step] == nil {
            // The group closed on this line: its row is the step's.
            rows[step] = openGroupRow
            openGroupRow = nil
        }
        if let step, let row = rows[step] {
            try database.extendStep(row, name: stepName, changes: changes, date: date)
            return nil
        }
        let row = try database.appendStep(.edit, target: nil, name: stepName, changes: changes, date: date)
        if let step {
            rows[step] = row
        }
        return row
    }

    /// After every line, saved or not: a group that closed on a line that changed nothing is
    /// the step its row holds.
    func lineEnded(_ session: EditingSession? = nil) {
        pieces.removeAll()
        pieceStart = 0
        droppedRows.removeAll()
        guard let session, let row = openGroupRow, session.openStep == nil, !session.isGroupOpen else {
            return
        }
        if let node = session.undoManager.currentHistoryNodeID, rows[node] == nil {
            rows[node] = row
        }
        openGroupRow = nil
    }

    /// Forgets the rows: the line's transaction was rolled back, and the session's history
    /// with it.
    func reset() {
        rows.removeAll()
        openGroupRow = nil
        pieces.removeAll()
        pieceStart = 0
        droppedRows.removeAll()
    }

    /// Gives `session`, new, the steps its person made that the list still holds: those done,
    /// to undo, and those they undid since their last edit, to redo. A step whose item someone
    /// else changed since is restored stale, by that change: undo refuses it, saying who.
    /// Returns why the steps cannot be restored, for a warning; the list is never touched.
    func restore(
        into session: EditingSession, from database: TODODatabase, timeZone: TimeZone
    ) throws(TODOStoreError) -> String? {
        guard limit > 0 else {
            return nil
        }
        let steps = try database.readSteps()
        let person = database.person
        let undone = TODODatabase.HistoryStep.undone(in: steps)
        let edits = steps.filter { $0.kind == .edit && $0.person == person }
        guard let newest = edits.last else {
            return nil
        }
        // A step the person dropped stays dropped; their newest edit still ends redo's reach.
        let mine = edits.filter { !$0.isDropped }
        var done: [(step: TODODatabase.HistoryStep, since: Int)] = []
        var redoable: [(step: TODODatabase.HistoryStep, undo: TODODatabase.HistoryStep)] = []
        var redone: [Int64: Int] = [:]
        for step in steps where step.kind == .redo {
            if let target = step.target {
                redone[target] = step.revision
            }
        }
        for step in mine {
            if let undo = undone[step.id] {
                // An edit made after an undo takes what it undid out of redo's reach.
                if undo.person == person && undo.id > newest.id {
                    redoable.append((step, undo))
                }
            } else {
                done.append((step, redone[step.id] ?? step.revision))
            }
        }
        redoable.sort { $0.undo.id < $1.undo.id }
        let ids = done.map(\.step.id) + redoable.map(\.step.id)
        let changes = try database.readChanges(ofSteps: ids)
        let oldest = (done.map(\.since) + redoable.map(\.undo.revision)).min() ?? database.revision
        // What others changed since the oldest of those steps: each change's item, when, and who.
        let others = try database.readChanges(after: oldest)
        let stepsByID = Dictionary(uniqueKeysWithValues: steps.map { ($0.id, $0) })
        func group(_ step: TODODatabase.HistoryStep, since revision: Int) -> UndoHistory<TODOCommand>.Group {
            let commands = (changes[step.id] ?? []).map { $0.command(named: step.name, at: step.date) }
            let items = Set(commands.compactMap(\.item))
            var stale: [UndoChange] = []
            if let others {
                var seen: Set<String> = []
                for change in others where change.revision > revision && items.contains(change.item) {
                    // Someone else's step, or a goto of the person's own, which changes items
                    // as another process would.
                    guard let by = stepsByID[change.step], by.person != person || by.kind == .goto else {
                        continue
                    }
                    let time = REPL.timestamp(by.date, in: timeZone).suffix(5)
                    var origin = "\(by.person) at \(time) (step \(by.id))"
                    if by.person == person {
                        origin = "your goto \(by.target ?? 0) at \(time) (step \(by.id))"
                    }
                    if seen.insert(change.item.uuidString + origin).inserted {
                        stale.append(UndoChange(part: UndoPart("item", change.item), origin: origin))
                    }
                }
            } else {
                // Changes made by a todo that keeps no history: nobody can say which items.
                stale.append(UndoChange(part: nil, origin: "a todo that keeps no undo history"))
            }
            return UndoHistory.Group(
                actionName: step.name, items: commands.map { .command($0) },
                id: UndoTree.NodeID(rawValue: UInt64(step.id)),
                date: step.date, parts: Set(items.map { UndoPart("item", $0) }), staleChanges: stale)
        }
        let history = UndoHistory<TODOCommand>(
            undoSteps: done.map { group($0.step, since: $0.since) },
            redoSteps: redoable.map { group($0.step, since: $0.undo.revision) })
        do {
            try session.undoManager.restoreUndoHistory(history, on: session)
        } catch {
            return "\(error)"
        }
        for id in ids {
            rows[UndoTree.NodeID(rawValue: UInt64(id))] = id
        }
        return nil
    }
}
