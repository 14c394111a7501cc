import Foundation

extension TODOReplica {
    /// Applies `changes` to ``list`` and saves them as one commit, returning the new
    /// ``revision``.
    ///
    /// Normally appends one line to the journal and flushes it to the disk (`fsync`) before
    /// returning, so once this returns the changes survive a crash or a power cut. The first
    /// commit to a list without a current-format snapshot (a new list, or a version 1 file
    /// being migrated) writes a snapshot and a new journal instead. After the append, if the
    /// journal has grown past the compaction threshold (see ``TODOStore/Options/compactionMinimum``)
    /// it is compacted; a failed compaction loses nothing and is tried again at the next commit.
    ///
    /// The caller must hold the store's lock, and must have called ``refresh()`` while
    /// holding it, so that `changes` were made to the list as it is on disk. The replica checks
    /// that again and refuses to write over another process's change.
    ///
    /// ```swift
    /// let lock = try store.lock()
    /// try replica.refresh()
    /// let change = TODOList.Change.remove(at: 0)
    /// let revision = try replica.commit([change], holding: lock)
    /// ```
    ///
    /// - Parameters:
    ///   - changes: What to apply, in order, to ``list``. Empty commits nothing.
    ///   - lock: The lock of ``store``, held.
    /// - Returns: The revision now on disk.
    /// - Throws: ``TODOStoreError/conflict(path:)`` if the files changed since the last refresh
    ///   or `changes` do not fit ``list``; ``TODOStoreError/unwritable(path:reason:)`` if they
    ///   could not be written. Either way nothing was saved and ``list`` is as before.
    @discardableResult
    public func commit(_ changes: [TODOList.Change], holding lock: borrowing TODOStore.Lock) throws(TODOStoreError) -> UInt64 {
        precondition(lock.path == store.lockURL.path, "TODOReplica.commit needs the lock of its own store")
        try requireCurrent()
        guard !changes.isEmpty else { return revision }

        var recorded: [TODOStore.RecordedChange] = []
        var inverses: [TODOList.Change] = []
        for change in changes {
            guard list.canApply(change) else {
                rollBack(inverses)
                throw .conflict(path: store.fileURL.path)
            }
            recorded.append(TODOStore.RecordedChange(change, in: list))
            inverses.append(list.apply(change))
        }
        let newRevision = revision + 1
        let appends = canAppend
        do {
            if appends {
                try append(TODOStore.JournalRecord(revision: newRevision, changes: recorded))
            } else {
                try compact(at: newRevision)
            }
        } catch {
            rollBack(inverses)
            throw error
        }
        revision = newRevision
        if appends, let journal, journal.recordCount > max(store.options.compactionMinimum, snapshot?.itemCount ?? 0) {
            // The commit is safe in the journal already; compacting is housekeeping.
            try? compact(at: revision)
        }
        return revision
    }

    /// Replaces the whole list with `newList` as one commit, by writing a new snapshot and
    /// journal; returns the new revision. The same rules as ``commit(_:holding:)`` apply.
    @discardableResult
    func commitReplacingList(with newList: TODOList, holding lock: borrowing TODOStore.Lock) throws(TODOStoreError) -> UInt64 {
        precondition(lock.path == store.lockURL.path, "TODOReplica.commitReplacingList needs the lock of its own store")
        try requireCurrent()
        let oldList = list
        list = newList
        do {
            try compact(at: revision + 1)
        } catch {
            list = oldList
            throw error
        }
        revision += 1
        return revision
    }

    private func requireCurrent() throws(TODOStoreError) {
        guard isLoaded, try refresh() == .unchanged else {
            throw .conflict(path: store.fileURL.path)
        }
    }

    private func rollBack(_ inverses: [TODOList.Change]) {
        for inverse in inverses.reversed() {
            list.apply(inverse)
        }
    }

    /// Whether the next commit may be appended: the snapshot is in the current format and the
    /// journal continues exactly the current revision. A journal that ends earlier (left by a
    /// compaction that failed after replacing the snapshot) must be replaced, or its records
    /// would skip revisions.
    private var canAppend: Bool {
        guard let snapshot, snapshot.formatVersion == TODOStore.formatVersion,
              let journal, journal.hasHeader, journal.isWritable, journal.lastRevision == revision else { return false }
        return true
    }

    /// Appends one record and flushes it; on failure cuts the journal back to where it was.
    private func append(_ record: TODOStore.JournalRecord) throws(TODOStoreError) {
        guard var open = journal else { preconditionFailure("append without a journal") }
        let line = TODOStore.journalRecordLine(record)
        do {
            // A torn line from a crashed append would glue itself to this record's front.
            if try open.file.identity().size != open.validEnd {
                try open.file.truncate(to: open.validEnd)
            }
            try open.file.write(line, at: open.validEnd)
            try open.file.synchronize()
        } catch {
            try? open.file.truncate(to: open.validEnd)
            throw .unwritable(path: store.fileURL.path, reason: error.reason)
        }
        open.validEnd += line.count
        open.lastRevision = record.revision
        open.recordCount += 1
        open.lineCount += 1
        journal = open
    }

    /// Writes ``list`` as the snapshot of `revision`, then starts a new journal after it.
    ///
    /// Throws only if the snapshot could not be put in place. Once it is, the list is saved:
    /// if the journal can't be replaced, the old one stays, and loading skips its records
    /// because the snapshot's revision covers them.
    private func compact(at newRevision: UInt64) throws(TODOStoreError) {
        // Compactions are rare and hold the lock: the time to tidy up after crashed ones.
        store.removeLeftoverTemporaryFiles()
        let permissions = POSIX.permissions(ofFileAtPath: store.fileURL.path) ?? 0o644
        let snapshotBytes = TODOStore.encodeSnapshot(items: list.items, revision: newRevision)
        let snapshotFile: POSIX.OpenFile
        do {
            snapshotFile = try store.replaceFile(atPath: store.fileURL.path, with: snapshotBytes, permissions: permissions)
        } catch {
            throw .unwritable(path: store.fileURL.path, reason: error.reason)
        }
        guard let snapshotIdentity = try? snapshotFile.identity() else {
            // Saved, but this replica can't recognise its own file: read it again next time.
            needsFullReload = true
            return
        }
        snapshot = OpenSnapshot(file: snapshotFile, identity: snapshotIdentity, formatVersion: TODOStore.formatVersion, itemCount: list.count)

        do {
            try store.faultInjector(.replacedSnapshot)
            let header = TODOStore.journalHeaderLine(baseRevision: newRevision)
            let journalFile = try store.replaceFile(atPath: store.journalURL.path, with: header, permissions: permissions)
            journal = OpenJournal(
                file: journalFile,
                identity: try journalFile.identity(),
                isWritable: true,
                hasHeader: true,
                validEnd: header.count,
                lastRevision: newRevision,
                recordCount: 0,
                lineCount: 1
            )
        } catch {
            // The old journal, if any, stays: its records are all in the snapshot now. If it
            // ends before `newRevision`, `canAppend` makes the next commit compact again.
        }
    }
}
