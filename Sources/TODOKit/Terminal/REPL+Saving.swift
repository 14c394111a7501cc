import Foundation

extension REPL {
    /// Runs `commands` as one event and saves what they changed: the line's transaction.
    /// Returns whether every command succeeded and its changes were saved.
    func runAndSave(_ commands: [Command]) -> Bool {
        guard let database else {
            defer { _ = session.takeChanges() }
            return runEvent(commands)
        }
        defer {
            savedHistory.lineEnded(session)
            shared = nil
        }
        // Reading takes no lock, so that `list` on a list this process may not change works,
        // and writes nothing.
        guard catchUp(), loadHistoryIfNeeded(for: commands) else { return false }
        guard commands.contains(where: mayChangeList) else { return runEvent(commands) }
        let outputBefore = pendingOutput.count
        var ran = false
        var succeeded = false
        do {
            try database.write { () throws(TODOStoreError) in
                // Under the lock, the list on disk is the one this line changes.
                guard try catchUpHoldingLock(), loadHistoryIfNeeded(for: commands) else { return }
                ran = true
                succeeded = runEvent(commands)
                shared?.recordUnfollowed(session)
                let changes = session.takeIdentifiedChanges()
                guard !changes.isEmpty else { return }
                try database.commit(changes)
                if let shared, shared.isUsed {
                    try shared.saved.save(shared.session, to: database, edited: false)
                    // The newest row is the shared history's: the session's next step is new.
                    savedHistory.reset(keepingSteps: 0)
                    session.coalescingEpoch += 1
                } else {
                    try savedHistory.save(session, to: database, edited: commands.contains { $0.isEditOrRead && mayChangeList($0) })
                }
            }
        } catch {
            if ran {
                // Nothing of the line is on disk: nothing of it stays, nor is shown as done. (No
                // copy of the list was kept for this: holding one would make the line's first
                // change copy the whole list.)
                session.replaceList((try? database.readList()) ?? TODOList())
                savedHistory.reset()
                pendingOutput.removeSubrange(outputBefore...)
            }
            if error.isLocked {
                notice("\(error)", isError: true)
            } else {
                fail("\(error); nothing was changed")
            }
            succeeded = false
        }
        return succeeded
    }

    /// Whether `command` may change the list, so its line must take the write lock. Undo and
    /// redo with no step to take read only; a step refused now may not be after a `drop`.
    func mayChangeList(_ command: Command) -> Bool {
        switch command {
        case .list, .history, .help, .begin, .end, .quit, .export, .drop: false
        case .undo: session.undoManager.undoCount > 0
        case .redo: session.undoManager.redoCount > 0
        case .goto, .importFile: true
        case .add, .edit, .detail, .priority, .done, .undone, .remove, .move: true
        }
    }

    /// Runs the commands as one event, then ends it.
    ///
    /// A line of edits (and reads) applies completely or not at all: it runs inside
    /// `EditingSession.applyAll(_:)`, UndoKit's scoped group, so when a command fails the
    /// earlier ones are rolled back, their output is withdrawn, and nothing is left to save.
    /// A line with `undo`, `redo`, `begin` or `end` moves through the history or its groups,
    /// which a scope cannot contain; it runs until a command fails.
    private func runEvent(_ commands: [Command]) -> Bool {
        lineStart = (session.list.count, session.appliedChanges.count)
        defer {
            lineStart = nil
            session.endEvent()
        }
        guard commands.allSatisfy(\.isEditOrRead), commands.contains(where: mayChangeList) else {
            for command in commands { guard execute(command) else { return false } }
            return true
        }
        let outputBefore = pendingOutput.count
        do {
            try session.applyAll {
                for command in commands { guard execute(command) else { throw LineNotApplied() } }
            }
            return true
        } catch {
            // Keep the failing command's error, drop what the rolled-back commands printed.
            let lineOutput = pendingOutput[outputBefore...].filter(\.isError)
            pendingOutput.removeSubrange(outputBefore...)
            pendingOutput += lineOutput
            if commands.count > 1 { fail("the line was not applied: none of its commands changed the list") }
            return false
        }
    }

    /// Brings the session up to date with the database; when another process changed the
    /// list, takes the new one and says so. Returns `false`, having said why, if the database
    /// can't be read.
    func catchUp() -> Bool {
        do {
            return try catchUpHoldingLock()
        } catch {
            notice("\(error)", isError: true)
            return false
        }
    }

    /// ``catchUp()``, throwing: under the write lock, a failure fails the line.
    func catchUpHoldingLock() throws(TODOStoreError) -> Bool {
        guard let database else { return true }
        let refresh = try database.refresh()
        for message in database.notices.dropFirst(noticesShown) { notice(message) }
        noticesShown = database.notices.count
        switch refresh {
        case .unchanged:
            break
        case .loaded(let list):
            isLoaded = true
            session.replaceList(list)
        case .changed(let list):
            if ownStepsOnly {
                // The session keeps its steps, which find their items wherever they are now;
                // those on items another process changed are refused until run anyway or dropped.
                savedHistory.reset(keepingSteps: session.openStep?.commands.count ?? 0)
                let at = " at " + Self.timestamp(session.clock(), in: timeZone).suffix(5)
                session.takeOutsideChanges(to: list, origins: database.changedElsewhere.mapValues { $0 + at }, otherwise: "another todo" + at)
            } else {
                // A one-shot's history is the saved one, read when a command needs it.
                session.replaceList(list)
                savedHistory.reset()
            }
            shared = nil
            if reportsOutsideChanges {
                notice("the list changed on disk (another todo saved it); reloaded: \(Self.counted(list.count))")
            }
        }
        return true
    }

    /// Gives the session the saved undo history, once, if the line has a command that needs
    /// it; a history that can't be used is dropped with a warning, never the list. A session
    /// that undoes only its own steps reads it into a ``SharedHistory`` for the line instead:
    /// before the lock only for `history`, which changes nothing.
    @discardableResult
    func loadHistoryIfNeeded(for commands: [Command]) -> Bool {
        guard let database, savedHistory.limit > 0, ownStepsOnly ? shared == nil : !savedHistory.isLoaded,
              commands.contains(where: { ownStepsOnly && !database.isWriting ? $0.verb == .history : $0.needsHistory })
        else { return true }
        do {
            let shared = ownStepsOnly ? SharedHistory(for: session, limit: savedHistory.limit) : nil
            let problem = try (shared?.saved ?? savedHistory).load(into: shared?.session ?? session, from: database)
            self.shared = shared
            if let problem { notice("undo history dropped: \(problem); the list is not affected") }
            return true
        } catch {
            notice("\(error)", isError: true)
            return false
        }
    }
}

/// Thrown out of a line's scoped group when one of its commands failed (the command has
/// already said why), so that the group rolls the line back.
struct LineNotApplied: Error {}

extension Command {
    /// Whether the command edits the list or only reads: the commands a line can apply
    /// atomically. `undo`, `redo`, `goto`, `begin` and `end` move through the history or its
    /// groups.
    var isEditOrRead: Bool {
        switch self {
        case .add, .edit, .detail, .priority, .done, .undone, .remove, .move, .importFile, .list, .history, .export, .help, .quit: true
        case .undo, .redo, .drop, .goto, .begin, .end: false
        }
    }

    /// Whether the command works on the undo history, which is read from the database for it.
    var needsHistory: Bool {
        switch self {
        case .undo, .redo, .goto, .history: true
        default: false
        }
    }
}
