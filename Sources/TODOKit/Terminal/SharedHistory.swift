import UndoKit

/// The list's history, shared by every process, for a session whose undo takes only its own
/// steps: read for a line that needs it (`history`, `goto`, an `undo` or `redo` that changes
/// the list), it follows what the line does, and the line saves it. Undoing one of the
/// session's steps moves it back over that step's row when the list is where the row left it
/// (always, for a session alone), and redoing it forward again; otherwise the undo is a new
/// step of its own (`Undo Add "Buy milk"`). `goto` moves in it, and the session takes what
/// that changed as a change from elsewhere.
final class SharedHistory {
    /// A session holding the shared history, on a copy of the list; `saved`, its rows.
    let session: EditingSession
    let saved: SavedHistory
    /// How many of the line's changes (the session's `appliedChanges`) it has made too; the
    /// rest become one new step at the end of the line.
    private(set) var mirrored: Int
    /// Whether an undo, redo or goto ran: the line then saves this history, not its own step.
    private(set) var isUsed = false

    init(for main: EditingSession, limit: Int) {
        session = EditingSession(list: main.list)
        session.clock = main.clock
        session.coalescesEdits = false
        session.undoManager.levelsOfUndo = limit
        saved = SavedHistory(limit: limit)
        mirrored = main.appliedChanges.count
    }

    /// After `main` undid (`undone`) or redid a step, making the changes from `start` on: the
    /// same move here, if that step's row is where this history is and the list comes out the
    /// same; else a new step. The line's edits before an undo are the step it undid.
    func follow(_ main: EditingSession, undone: Bool, title: String, from start: Int, rows: inout SavedHistory.Rows) {
        isUsed = true
        let manager = main.undoManager
        guard let step = undone ? manager.historyTree.redoPath.first : manager.currentHistoryNodeID else { return }
        if mirrored < start { rows[step] = record(main, upTo: start, named: manager.redoActionName).map { ($0, false) } }
        if let row = rows[step] {
            let tree = session.undoManager.historyTree
            // Whether the row made this change (redo it here) or its opposite (undo it here).
            let forward = row.inverted == undone
            if forward ? tree.redoPath.first == row.id : tree.current == row.id {
                _ = try? forward ? session.redo() : session.undo()
                if session.list == main.list { return mirrored = main.appliedChanges.count }
                // Not that step after all (a trimmed row's id, used again): back, and a new step.
                _ = try? forward ? session.undo() : session.redo()
            }
        }
        rows[step] = record(main, upTo: main.appliedChanges.count, named: title).map { ($0, undone) }
    }

    /// Makes `main`'s changes from `mirrored` to `end` a new step named `name`; returns its row.
    @discardableResult
    private func record(_ main: EditingSession, upTo end: Int, named name: String) -> UndoTree.NodeID? {
        session.record(main.appliedChanges[mirrored..<end].map(\.change), named: name)
        mirrored = end
        return session.undoManager.currentHistoryNodeID
    }

    /// `goto number` here, once the line's changes so far are a step; `main` takes what it
    /// changed as changed elsewhere by `origin`, so that its own steps on it are refused.
    func go(toStep number: Int, _ main: EditingSession, origin: String) throws(EditingSessionError) -> (undone: Int, redone: Int)? {
        guard !main.isGroupOpen else { throw .groupOpen }
        isUsed = true
        recordUnfollowed(main)
        _ = session.takeChanges()
        let moved = try session.go(toStep: number)
        let changes = session.takeIdentifiedChanges()
        let items = changes.compactMap { if case .insert(let item, _) = $0.change { item.id } else { $0.itemID } }
        main.takeOutsideChanges(to: session.list, origins: Dictionary(items.map { ($0, origin) }) { first, _ in first }, otherwise: origin)
        main.appliedChanges += changes
        mirrored = main.appliedChanges.count
        return moved
    }

    /// Makes the line's edits this history has not made one new step, named after the
    /// session's newest step.
    func recordUnfollowed(_ main: EditingSession) {
        if isUsed && mirrored < main.appliedChanges.count { record(main, upTo: main.appliedChanges.count, named: main.undoManager.undoActionName) }
    }
}

extension REPL {
    /// Undoes (or, with `redo`, redoes) up to `count` steps, `anyway` or refusing one changed
    /// elsewhere since, the shared history following each, and says what it did. A refusal
    /// after a step ran keeps that step, as a failing command of such a line does.
    func undo(_ count: Int, redo: Bool, anyway: Bool) throws(EditingSessionError) {
        let before = session.list
        var titles: [String] = []
        var refusal: EditingSessionError?
        for _ in 0..<count {
            let start = session.appliedChanges.count
            do {
                guard let title = try redo ? session.redo(anyway: anyway) : session.undo(anyway: anyway) else { break }
                titles.append(title)
                shared?.follow(session, undone: !redo, title: title, from: start, rows: &savedHistory.rows)
            } catch {
                refusal = error
                break
            }
        }
        let nothing = (redo ? "Nothing to redo" : "Nothing to undo") + (ownStepsOnly && database != nil && titles.isEmpty
            ? " in this session (\"history\" shows every step of the list, which \"goto\" reaches)" : "")
        if refusal == nil || !titles.isEmpty { report(titles, asked: refusal == nil ? count : titles.count, from: before, nothing: nothing) }
        if let refusal { throw refusal }
    }
}
