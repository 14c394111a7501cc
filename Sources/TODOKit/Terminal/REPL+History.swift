import Foundation
import UndoKit

/// What the history file holds, as a REPL last wrote or read it (see `REPL.historyOnDisk`).
struct HistoryOnDisk {
    var revision: UInt64
    var layout: SavedHistory.Layout
    var changeCount: Int
    /// The bytes of the base and of the changes after it.
    var baseBytes: Int
    var changeBytes: Int
    /// The lines that may have changed the history since it was written or read: after
    /// exactly one line of edits, the change is a new step or the current one changed in
    /// place, which `REPL.editLineChange` finds without reading the whole tree.
    var linesSince = LinesSince.none

    enum LinesSince {
        case none, oneEditLine, more
    }

    /// Notes a line that may change the history; `editsOnly` if it had no `undo`, `redo`,
    /// `goto`, `begin` or `end`.
    mutating func noteLine(editsOnly: Bool) {
        linesSince = linesSince == .none && editsOnly ? .oneEditLine : .more
    }

    /// Whether the next change may be appended rather than the history written whole: while
    /// the changes weigh less than the base (so writing the base again is paid for by as many
    /// bytes of appends, and a reader decodes at most twice the history), 16 KiB for a small
    /// base, and at most 200 lines (each has its own decoding overhead).
    var takesAnotherChange: Bool {
        changeCount < 200 && changeBytes < max(baseBytes, 16 * 1024)
    }
}

extension REPL {
    /// What happened to the saved undo history when the list was (re)loaded.
    enum HistoryAdoption: Equatable {
        /// There is no history file.
        case none
        /// The session now has the saved history, with this many undo and redo steps.
        case restored(steps: Int)
        /// The history file could not be used and was dropped; a warning was printed.
        case dropped
    }

    /// Gives the session, just loaded with the replica's list, the undo history saved with
    /// that list, if it belongs to it; otherwise warns and leaves the session without history.
    ///
    /// A history one revision behind the list is what a crash between the two saves leaves,
    /// but also what a reader without the lock sees while another process is between them. So
    /// before dropping it, a reader takes the lock (the writer holds it across both saves),
    /// catches up, and looks again.
    func adoptSavedHistory(_ replica: TODOReplica, holdingLock: Bool) -> HistoryAdoption {
        let saved: SavedHistory?
        do {
            saved = try replica.store.loadHistory()
        } catch {
            return dropHistory(replica, error)
        }
        guard let saved else {
            // No history file may also mean one not written yet: the process that committed
            // this list writes its first history right after, under the lock. Read again
            // holding it, as for a history one revision behind, so as not to start without it.
            // Only where a writer has made the lock file: taking the lock then creates nothing,
            // so a read-only line on a file no writer of this version touched still writes nothing.
            if !holdingLock, FileManager.default.fileExists(atPath: replica.store.lockURL.path),
               let adoption = adoptSavedHistoryUnderLock(replica) {
                return adoption
            }
            return .none
        }
        guard saved.revision == replica.revision else {
            if !holdingLock, let adoption = adoptSavedHistoryUnderLock(replica) {
                return adoption
            }
            return dropHistory(replica, .revisionMismatch(history: saved.revision, list: replica.revision))
        }
        do {
            try session.restoreHistory(saved.history)
        } catch {
            return dropHistory(replica, error)
        }
        historyOnDisk = saved.layout.map {
            HistoryOnDisk(revision: saved.revision, layout: $0, changeCount: saved.changeCount,
                          baseBytes: saved.baseByteCount, changeBytes: saved.changeByteCount)
        }
        return .restored(steps: session.undoManager.undoCount + session.undoManager.redoCount)
    }

    /// ``adoptSavedHistory(_:holdingLock:)`` again with the lock held; `nil` if the lock can't
    /// be had (an unwritable location, a holder that outlasts the timeout).
    private func adoptSavedHistoryUnderLock(_ replica: TODOReplica) -> HistoryAdoption? {
        do {
            let lock = try replica.store.lock()
            guard let refresh = try? replica.refresh() else { return nil }
            if case .changed = refresh {
                session.replaceList(replica.list)
            }
            let adoption = adoptSavedHistory(replica, holdingLock: true)
            lock.release()
            return adoption
        } catch {
            return nil
        }
    }

    private func dropHistory(_ replica: TODOReplica, _ error: SavedHistoryError) -> HistoryAdoption {
        historyOnDisk = nil
        notice("undo history dropped: \(replica.store.historyURL.path) \(error); the list is not affected")
        return .dropped
    }

    /// Saves the session's undo history after the commit that moved the list from
    /// `revisionBefore` to the replica's revision, under the same lock.
    ///
    /// When the file holds the history of `revisionBefore` as this REPL last saw it, only
    /// what changed is appended (see `SavedHistory+Log.swift`): the steps this line made or
    /// moved, the steps trimmed, the current step and the redo path. Otherwise, once the
    /// changes outweigh the base (see ``HistoryOnDisk/takesAnotherChange``), and when the
    /// journal was just compacted into a new snapshot, the history is written whole.
    func saveHistory(_ replica: TODOReplica, after revisionBefore: UInt64, holding lock: borrowing TODOStore.Lock) {
        let limit = replica.store.options.historyLimit
        let compacted = (replica.journal?.recordCount ?? 0) == 0
        if let onDisk = historyOnDisk, onDisk.revision == revisionBefore, onDisk.takesAnotherChange, !compacted,
           session.undoManager.groupingLevel == 0,
           let change = (onDisk.linesSince == .oneEditLine
               ? editLineChange(since: onDisk.layout, revision: replica.revision, limit: limit) : nil)
               ?? historyChange(since: onDisk.layout, revision: replica.revision, limit: limit) {
            do {
                let appended = try replica.store.appendHistoryChange(change.change, holding: lock)
                historyOnDisk = HistoryOnDisk(
                    revision: replica.revision, layout: change.layout, changeCount: onDisk.changeCount + 1,
                    baseBytes: onDisk.baseBytes, changeBytes: onDisk.changeBytes + appended)
                return
            } catch {
                // Written whole below instead, which replaces whatever the append left.
                historyOnDisk = nil
            }
        }
        historyOnDisk = nil
        guard var history = session.savableHistory() else {
            notice("undo history not saved: it holds steps that are not TODO commands")
            return
        }
        history.keepNewestUndoSteps(limit)
        if limit == 0 {
            history.redoSteps.removeAll()
        }
        // The list on disk is the saved state, as every appended change says too.
        history.cleanMark = .current
        let saved = SavedHistory(revision: replica.revision, history: history)
        do {
            let written = try replica.store.saveHistory(saved, holding: lock)
            historyOnDisk = saved.layout.map {
                HistoryOnDisk(revision: saved.revision, layout: $0, changeCount: 0, baseBytes: written, changeBytes: 0)
            }
        } catch {
            notice("undo history not saved: \(error)")
        }
    }

    /// What changed in the history since `saved`, as a change of `revision`; `nil` when a
    /// step cannot be read as TODO commands (the history is then written whole, which says
    /// why it cannot be saved).
    private func historyChange(
        since saved: SavedHistory.Layout, revision: UInt64, limit: Int
    ) -> (change: SavedHistory.Change, layout: SavedHistory.Layout)? {
        // With no history kept, the file holds an empty one.
        let layout = limit == 0 ? SavedHistory.Layout.empty : SavedHistory.Layout(session.undoManager.historyTree)
        let (changed, removed) = layout.changes(since: saved)
        var steps: [UndoHistory<TODOCommand>.BranchStep] = []
        for id in changed {
            guard let group = try? session.undoManager.undoHistoryStep(id, of: TODOCommand.self) else { return nil }
            steps.append(UndoHistory.BranchStep(parent: layout.place(of: id)?.parent, step: group))
        }
        let change = SavedHistory.Change(
            revision: revision, steps: steps, removed: removed, current: layout.current, redoPath: layout.redoPath)
        return (change, layout)
    }

    /// What one line of edits changed in a history that is one path (no redo steps, no
    /// branches), found from the manager's current node and counts instead of the whole tree:
    /// a new step below the current one (and, at the limit, the oldest step trimmed: the
    /// root of the path, since trimming keeps the path to the current step), or the current
    /// step changed in place (an edit coalesced into it). `nil` when the history is not that
    /// simple; ``historyChange(since:revision:limit:)`` compares whole layouts then.
    ///
    /// Saving after a line then costs what the line changed plus a pass over the saved
    /// layout's array, instead of building the whole tree and comparing layouts (the
    /// difference between a history that keeps up with piped adds and one that doubles their
    /// cost). Debug builds check the answer against the whole tree.
    private func editLineChange(
        since saved: SavedHistory.Layout, revision: UInt64, limit: Int
    ) -> (change: SavedHistory.Change, layout: SavedHistory.Layout)? {
        let manager = session.undoManager
        guard limit > 0, saved.isOnePath, manager.redoCount == 0, let current = manager.currentHistoryNodeID else {
            return nil
        }
        let count = saved.places.count
        var trimmed: [UndoTree.NodeID] = []
        let parent: UndoTree.NodeID?
        if current == saved.current && manager.undoCount == count {
            parent = saved.place(of: current)?.parent
        } else if current > (saved.places.last?.id ?? UndoTree.NodeID(rawValue: 0)),
                  manager.undoCount == min(count + 1, limit) {
            parent = saved.current
            if count + 1 > limit {
                trimmed = [saved.places[0].id]
            }
        } else {
            return nil
        }
        guard let step = try? manager.undoHistoryStep(current, of: TODOCommand.self) else { return nil }
        let hangsBelow = parent.flatMap { trimmed.contains($0) ? nil : $0 }
        var layout = saved
        layout.record(
            current,
            at: SavedHistory.Layout.Place(parent: hangsBelow, location: .undo, name: step.actionName ?? "", date: step.date),
            removing: trimmed)
        let change = SavedHistory.Change(
            revision: revision, steps: [UndoHistory.BranchStep(parent: hangsBelow, step: step)], removed: trimmed,
            current: current, redoPath: [])
        assert(
            historyChange(since: saved, revision: revision, limit: limit).map { $0.change == change && $0.layout == layout }
                ?? false,
            "REPL.editLineChange disagrees with the whole tree")
        return (change, layout)
    }

    /// A step's date as the `history` command shows it: `2026-11-23 14:05` in `timeZone`.
    ///
    /// ```swift
    /// REPL.timestamp(Date(timeIntervalSince1970: 0), in: TimeZone(identifier: "UTC")!)   // "1970-01-01 00:00"
    /// ```
    static func timestamp(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
