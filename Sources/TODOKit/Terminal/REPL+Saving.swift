import Foundation

extension REPL {
    /// Runs `commands` as one event and saves what they changed: the line's transaction.
    /// Returns whether every command succeeded and its changes were saved.
    func runAndSave(_ commands: [Command]) -> Bool {
        guard let database else {
            defer {
                _ = session.takeChanges()
            }
            return runEvent(commands)
        }
        defer {
            steps.lineEnded(session)
            numbersAsShown = nil
            showListIfNumbersWereStale()
        }
        // Reading takes no lock, so that `list` on a list this process may not change works,
        // and writes nothing.
        guard catchUp() else {
            return false
        }
        guard commands.contains(where: mayChangeList) else {
            return runEvent(commands)
        }
        let outputBefore = pendingOutput.count
        var ran = false
        var succeeded = false
        do {
            try database.write { () throws(TODOStoreError) in
                // Under the lock, the list on disk is the one this line changes.
                guard try catchUpHoldingLock() else {
                    return
                }
                ran = true
                succeeded = runEvent(commands)
                try steps.saveDrops(to: database)
                let changes = session.takeIdentifiedChanges()
                guard !changes.isEmpty else {
                    return
                }
                try database.commit(changes)
                try steps.save(session, changes: changes, to: database)
            }
        } catch {
            var listIsUnread = false
            if ran {
                // Nothing of the line is on disk: nothing of it stays, nor is shown as done. (No
                // copy of the list was kept for this: holding one would make the line's first
                // change copy the whole list.) The person's saved steps are undoable again.
                do {
                    session.replaceList(try database.readList())
                } catch {
                    // The store is out of reach (a server gone, a file unreadable): the session
                    // shows no list rather than one with the line's unsaved changes, and says so.
                    session.replaceList(TODOList())
                    listIsUnread = true
                }
                steps.reset()
                if ownStepsOnly {
                    _ = try? steps.restore(into: session, from: database, timeZone: timeZone)
                }
                pendingOutput.removeSubrange(outputBefore...)
            }
            if error.isLocked {
                notice("\(error)", isError: true)
            } else {
                fail("\(error); nothing was changed")
            }
            if listIsUnread {
                notice("the list could not be read back; it shows again at the next line that reaches it")
            }
            succeeded = false
        }
        return succeeded
    }

    /// After a line that stopped at a number of the list as the person last saw it: the list
    /// now, as `list` prints it, whose numbers the next line refers to.
    private func showListIfNumbersWereStale() {
        guard showsListAfterLine else {
            return
        }
        showsListAfterLine = false
        session.list.lines.forEach(say)
    }

    /// Whether `command` may change the list, so its line must take the write lock. Undo and
    /// redo with no step to take read only; a step refused now may not be after a `drop`. A
    /// session's `drop` changes no item but writes its history: the step stays dropped.
    func mayChangeList(_ command: Command) -> Bool {
        switch command {
        case .list, .history, .help, .begin, .end, .quit, .export: false
        case .drop: ownStepsOnly && steps.limit > 0
        case .undo: !ownStepsOnly || session.undoManager.undoCount > 0
        case .redo: !ownStepsOnly || session.undoManager.redoCount > 0
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
        if let shown = numbersAsShown {
            // Another process changed the list since the person last saw it numbered: each
            // number is the item they saw, wherever it is now.
            var positions: [TODOItem.ID: Int] = [:]
            for (position, item) in session.list.items.enumerated() {
                positions[item.id] = position
            }
            shownItems = shown.map { ($0, positions[$0]) }
        }
        defer {
            lineStart = nil
            shownItems = nil
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
            if ownStepsOnly {
                restoreOwnSteps()
            }
        case .changed(let list):
            if ownStepsOnly {
                // The session keeps its steps, which find their items wherever they are now;
                // those on items another process changed are refused until run anyway or dropped.
                let at = " at " + Self.timestamp(session.clock(), in: timeZone).suffix(5)
                if numbersAsShown == nil {
                    numbersAsShown = session.list.items.map(\.id)
                }
                let origins = database.changedElsewhere.mapValues { $0 + at }
                session.takeOutsideChanges(to: list, origins: origins, otherwise: "another todo" + at)
            } else {
                // A one-shot has no steps of its own.
                session.replaceList(list)
                steps.reset()
            }
            if reportsOutsideChanges {
                // A file changes on disk; a list on a server changes there.
                let place = store?.databaseURL == nil ? "on disk" : "on the server"
                notice("the list changed \(place) (another todo saved it); reloaded: \(Self.counted(list.count))")
            }
        }
        return true
    }

    /// Gives a new session the steps its person made before, to undo; a history that can't
    /// be read is reported, never the list.
    private func restoreOwnSteps() {
        guard let database else {
            return
        }
        do {
            if let problem = try steps.restore(into: session, from: database, timeZone: timeZone) {
                notice("your earlier steps cannot be undone: \(problem); the list is not affected")
            }
        } catch {
            notice("your earlier steps cannot be undone: \(error); the list is not affected")
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
        case .add, .edit, .detail, .priority, .done, .undone, .remove, .move, .importFile: true
        case .list, .history, .export, .help, .quit: true
        case .undo, .redo, .drop, .goto, .begin, .end: false
        }
    }

}
