import Foundation
import UndoKit

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
        notice("undo history dropped: \(replica.store.historyURL.path) \(error); the list is not affected")
        return .dropped
    }

    /// Saves the session's undo history beside the list, as belonging to the replica's
    /// revision; called right after a commit, with the lock still held. A failure is reported
    /// but is no error of the line: the list is saved, and a later `todo` that finds the
    /// history out of date drops it with a warning.
    func saveHistory(_ replica: TODOReplica, holding lock: borrowing TODOStore.Lock) {
        let limit = replica.store.options.historyLimit
        guard var history = session.savableHistory() else {
            notice("undo history not saved: it holds steps that are not TODO commands")
            return
        }
        history.keepNewestUndoSteps(limit)
        if limit == 0 {
            history.redoSteps.removeAll()
        }
        do {
            try replica.store.saveHistory(SavedHistory(revision: replica.revision, history: history), holding: lock)
        } catch {
            notice("undo history not saved: \(error)")
        }
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
