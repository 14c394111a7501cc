#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TODOReplica {
    /// Brings ``list`` and ``revision`` up to date with the files.
    ///
    /// Costs a few `stat` calls when nothing changed. When another process appended records,
    /// only those are read; when it replaced the files (a compaction, a whole-list save), they
    /// are read again in full. Needs no lock: the journal is opened before the snapshot, and a
    /// compaction replaces the snapshot before the journal, so whatever the timing the two
    /// files read always fit together. Under the lock, it is exactly the state the next commit
    /// builds on.
    ///
    /// ```swift
    /// if case .changed = try replica.refresh() {
    ///     print("reloaded: \(replica.list.count) items")
    /// }
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unreadable(path:reason:)``,
    ///   ``TODOStoreError/corrupt(path:reason:)`` or
    ///   ``TODOStoreError/unsupportedVersion(path:found:supported:)``; the replica keeps what it
    ///   had, and nothing is written.
    @discardableResult
    public func refresh() throws(TODOStoreError) -> Refresh {
        guard isLoaded else {
            try reload()
            return .loaded
        }
        let previousRevision = revision
        if !needsFullReload, try filesAreTheOnesRead() {
            return try readNewRecords() ? .changed(previousRevision: previousRevision) : .unchanged
        }
        let previousList = list
        try reload()
        return list == previousList && revision == previousRevision ? .unchanged : .changed(previousRevision: previousRevision)
    }

    /// Whether the paths still name the files this replica read, the snapshot unmodified and
    /// the journal at least as long as what was read of it.
    private func filesAreTheOnesRead() throws(TODOStoreError) -> Bool {
        let snapshotNow = try identity(of: store.fileURL.path)
        switch (snapshot, snapshotNow) {
        case (nil, nil): break
        case (let read?, let now?) where read.identity == now: break
        default: return false
        }
        let journalNow = try identity(of: store.journalURL.path)
        switch (journal, journalNow) {
        case (nil, nil):
            return true
        case (let read?, let now?):
            guard read.identity.isSameFile(as: now) else { return false }
            // Only appends after a header are read incrementally; anything else (a shorter
            // file, new lines in a journal this replica does not append to) is read afresh.
            if now.size == read.validEnd { return true }
            return now.size > read.validEnd && read.hasHeader && read.lastRevision == revision
        default:
            return false
        }
    }

    /// Reads the journal's new lines, if any, and applies their records; returns whether
    /// there were any.
    private func readNewRecords() throws(TODOStoreError) -> Bool {
        guard var open = journal else { return false }
        let path = store.journalURL.path
        let bytes: [UInt8]
        do {
            bytes = try open.file.read(from: open.validEnd)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard !bytes.isEmpty else { return false }
        do {
            let scan = try TODOStore.scanJournal(bytes[...], lineNumber: open.lineCount + 1, after: open.lastRevision)
            guard !scan.records.isEmpty else { return false }
            try TODOStore.replay(scan.records, onto: &list, revision: &revision, firstLineNumber: open.lineCount + 1)
            open.validEnd += scan.validEnd
            open.lineCount += scan.lineCount
            open.recordCount += scan.records.count
            open.lastRevision = revision
            journal = open
            return true
        } catch {
            // `list` may be half updated: read everything again next time.
            needsFullReload = true
            throw error.storeError(path: path, supported: TODOStore.formatVersion)
        }
    }

    /// Reads both files from scratch, the journal first (see ``refresh()``), and replaces the
    /// replica's state only if everything could be read.
    func reload() throws(TODOStoreError) {
        let journalPath = store.journalURL.path
        let snapshotPath = store.fileURL.path
        let (journalFile, journalIsWritable) = try openJournal(atPath: journalPath)
        let snapshotFile = try open(snapshotPath, flags: O_RDONLY)
        let snapshotRead = try read(snapshotFile, path: snapshotPath)
        let journalRead = try read(journalFile, path: journalPath)

        let state = try TODOStore.decodeFiles(
            snapshot: snapshotRead?.bytes,
            journal: journalRead?.bytes,
            snapshotPath: snapshotPath,
            journalPath: journalPath
        )
        list = state.list
        revision = state.revision
        snapshot = nil
        if let snapshotFile, let snapshotRead, let decoded = state.snapshot {
            snapshot = OpenSnapshot(
                file: snapshotFile,
                identity: snapshotRead.identity,
                formatVersion: decoded.formatVersion,
                itemCount: state.snapshotItemCount
            )
        }
        journal = nil
        if let journalFile, let journalRead, let scan = state.journal {
            journal = OpenJournal(
                file: journalFile,
                identity: journalRead.identity,
                isWritable: journalIsWritable,
                hasHeader: scan.baseRevision != nil,
                validEnd: scan.validEnd,
                lastRevision: (scan.baseRevision ?? 0) + UInt64(scan.recordCount),
                recordCount: scan.recordCount,
                lineCount: scan.lineCount
            )
        }
        isLoaded = true
        needsFullReload = false
    }

    /// The journal, for appending too if this process may write it.
    private func openJournal(atPath path: String) throws(TODOStoreError) -> (POSIX.OpenFile?, Bool) {
        do {
            return (try POSIX.OpenFile.open(atPath: path, flags: O_RDWR), true)
        } catch {
            // Someone else's list, or a read-only disk: it can still be read.
            guard let code = error.code, [EACCES, EPERM, EROFS].contains(code) else {
                throw .unreadable(path: path, reason: error.reason)
            }
            return (try open(path, flags: O_RDONLY), false)
        }
    }

    private func open(_ path: String, flags: Int32) throws(TODOStoreError) -> POSIX.OpenFile? {
        do {
            return try POSIX.OpenFile.open(atPath: path, flags: flags)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    private struct FileRead {
        var bytes: [UInt8]
        var identity: POSIX.Identity
    }

    private func read(_ file: POSIX.OpenFile?, path: String) throws(TODOStoreError) -> FileRead? {
        guard let file else { return nil }
        do {
            try file.requireRegularFile()
            // The identity is taken before reading: if the file grows meanwhile, the next
            // refresh sees a longer file than recorded and reads the rest.
            let identity = try file.identity()
            return FileRead(bytes: try file.read(from: 0), identity: identity)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    private func identity(of path: String) throws(TODOStoreError) -> POSIX.Identity? {
        do {
            return try POSIX.identity(ofPath: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }
}
