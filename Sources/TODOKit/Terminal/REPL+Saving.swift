extension REPL {
    /// Runs `commands` as one event and commits what they changed: the line's transaction.
    /// Returns whether every command succeeded.
    func runAndCommit(_ commands: [Command]) -> Bool {
        guard let replica else {
            defer { _ = session.takeChanges() }
            return runEvent(commands)
        }
        if !hasUnsavedChanges && !commands.contains(where: mayChangeList) {
            // Reading needs no lock (see `TODOReplica.refresh()`), and takes none, so that
            // `list` on a file this process may not write still works and writes nothing.
            guard catchUp(replica, holdingLock: false) else { return false }
            // Catching up may have brought another process's undo history, and with it
            // something for `undo` or `redo` to change: then the line needs the lock after all.
            if !commands.contains(where: mayChangeList) {
                return runEvent(commands)
            }
        }

        let lock: TODOStore.Lock
        do {
            lock = try replica.store.lock()
        } catch {
            if case .locked = error {
                // Without the lock there is no knowing what the list is: run nothing.
                notice("\(error)", isError: true)
                return false
            }
            // The lock file can't be created, so the location is not writable and nobody can
            // commit there. Run the line on the list in memory and report the save failure.
            guard catchUp(replica, holdingLock: false) else { return false }
            let succeeded = runEvent(commands)
            unsavedChanges += session.takeChanges()
            if !unsavedChanges.isEmpty {
                reportSaveFailure(error)
            }
            return succeeded
        }
        guard catchUp(replica, holdingLock: true) else { return false }
        let succeeded = runEvent(commands)
        unsavedChanges += session.takeChanges()
        if !unsavedChanges.isEmpty {
            do {
                let revisionBefore = replica.revision
                try replica.commit(unsavedChanges, holding: lock)
                unsavedChanges.removeAll()
                saveHistory(replica, after: revisionBefore, holding: lock)
                markSaved()
            } catch {
                reportSaveFailure(error)
            }
        }
        return succeeded
    }

    /// Whether `command` may change the list, so its line must take the lock. Undo and redo
    /// with nothing to do read only.
    func mayChangeList(_ command: Command) -> Bool {
        switch command {
        case .list, .history, .help, .begin, .end, .quit: false
        case .undo: session.canUndo
        case .redo: session.canRedo
        case .goto: true
        case .add, .edit, .detail, .priority, .done, .undone, .remove, .move: true
        }
    }

    /// Runs the commands as one event, then ends it.
    ///
    /// A line of edits (and reads) applies completely or not at all: it runs inside
    /// `EditingSession.applyAll(_:)`, UndoKit's scoped group, so when a command fails the
    /// earlier ones are rolled back, their output is withdrawn, and nothing is left to save.
    /// A line with `undo`, `redo`, `begin` or `end` moves through the history or its groups,
    /// which a scope cannot contain; it runs until a command fails, as before.
    private func runEvent(_ commands: [Command]) -> Bool {
        if commands.contains(where: mayChangeList) {
            historyOnDisk?.noteLine(editsOnly: commands.allSatisfy(\.isEditOrRead))
        }
        itemsShownBeforeLine = session.list.items.map(\.id)
        defer {
            itemsShownBeforeLine = nil
            session.endEvent()
        }
        guard commands.allSatisfy(\.isEditOrRead), commands.contains(where: mayChangeList) else {
            for command in commands {
                guard execute(command) else { return false }
            }
            return true
        }
        let outputBefore = pendingOutput.count
        do {
            try session.applyAll {
                for command in commands {
                    guard execute(command) else { throw LineNotApplied() }
                }
            }
            return true
        } catch {
            // Keep the failing command's error, drop what the rolled-back commands printed.
            let lineOutput = pendingOutput[outputBefore...].filter(\.isError)
            pendingOutput.removeSubrange(outputBefore...)
            pendingOutput += lineOutput
            if commands.count > 1 {
                fail("the line was not applied: none of its commands changed the list")
            }
            return false
        }
    }

    /// Brings the session up to date with the file; on a change made by another process,
    /// reloads it with the undo history saved with it, and says so. Returns `false`, having
    /// said why, if the file can't be read.
    func catchUp(_ replica: TODOReplica, holdingLock: Bool) -> Bool {
        let refresh: TODOReplica.Refresh
        do {
            refresh = try replica.refresh()
        } catch {
            notice("\(error)", isError: true)
            return false
        }
        switch refresh {
        case .unchanged:
            break
        case .loaded:
            unsavedChanges.removeAll()
            session.replaceList(replica.list)
            _ = adoptSavedHistory(replica, holdingLock: holdingLock)
        case .changed:
            let dropped = unsavedChanges.count
            unsavedChanges.removeAll()
            let hadHistory = session.replaceList(replica.list)
            let adoption = adoptSavedHistory(replica, holdingLock: holdingLock)
            if reportsOutsideChanges {
                var message = "the list changed on disk (another todo saved it); reloaded: \(Self.counted(replica.list.count))"
                if case .restored(let steps) = adoption, steps > 0 {
                    message += " and its undo history (\(steps == 1 ? "1 step" : "\(steps) steps"))"
                }
                notice(message)
            }
            if hadHistory, adoption == .none || adoption == .restored(steps: 0) {
                notice("undo history cleared because another process changed the list")
            }
            if dropped > 0 {
                notice("\(dropped == 1 ? "1 unsaved change was" : "\(dropped) unsaved changes were") discarded because another process changed the list", isError: true)
            }
        }
        markSaved()
        return true
    }

    /// Marks UndoKit's clean state where the session's list is the list on disk: after a
    /// commit, and after catching up with the file when nothing waits to be saved. The prompt
    /// then tells a pending change by the manager's `isClean` (see `prompt`).
    func markSaved() {
        if unsavedChanges.isEmpty && !session.undoManager.isUndoing && !session.undoManager.isRedoing {
            session.undoManager.markClean()
        }
    }

    private func reportSaveFailure(_ error: TODOStoreError) {
        if isOneShot {
            // There is no next line to save it with: the change is lost with this process.
            fail("\(error): the change was not saved")
        } else {
            fail("\(error) (the list and its undo history are kept; saving again after the next line)")
        }
    }
}

/// Thrown out of a line's scoped group when one of its commands failed (the command has
/// already said why), so that the group rolls the line back.
struct LineNotApplied: Error {}

extension Command {
    /// Whether the command edits the list or only reads: the commands a line can apply
    /// atomically. `undo`, `redo`, `begin` and `end` move through the history or its groups.
    var isEditOrRead: Bool {
        switch self {
        case .add, .edit, .detail, .priority, .done, .undone, .remove, .move, .list, .history, .help, .quit: true
        case .undo, .redo, .goto, .begin, .end: false
        }
    }
}
