import Foundation

extension TODOStore {
    /// Replaces the whole list with `list` as one commit and returns the new revision.
    ///
    /// Takes the lock, catches up with the files, and writes a new snapshot and an empty
    /// journal atomically (see ``TODOStore``); creates the directory if needed. A failed save
    /// leaves the files as they were. To save one change at a time, cheaply, use a
    /// ``TODOReplica``.
    ///
    /// ```swift
    /// do {
    ///     try store.save(list)
    /// } catch {
    ///     print("todo: \(error)")   // "cannot save /read-only/todo.json: Permission denied"
    /// }
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unwritable(path:reason:)``, ``TODOStoreError/locked(path:pid:program:)``,
    ///   or the errors of ``load()`` if the current files can't be read (they are not
    ///   overwritten then).
    @discardableResult
    public func save(_ list: TODOList) throws(TODOStoreError) -> UInt64 {
        let lock = try lock()
        let replica = TODOReplica(store: self)
        try replica.refresh()
        return try replica.commitReplacingList(with: list, holding: lock)
    }

    /// Atomically replaces the companion file `<fileURL>.<suffix>` with `bytes`, under the
    /// lock the caller holds.
    ///
    /// For data that belongs to one revision of the list, such as an undo history: write it
    /// after ``TODOReplica/commit(_:holding:)`` and before releasing the lock, with the
    /// revision inside, and it always names the list it belongs to. The file is written under
    /// a temporary name, flushed, and renamed into place, so a crash leaves the old file or the
    /// new one.
    ///
    /// ```swift
    /// let lock = try store.lock()
    /// try replica.refresh()
    /// let revision = try replica.commit(changes, holding: lock)
    /// try store.writeCompanion(encodeHistory(tagged: revision), suffix: "history", holding: lock)
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unwritable(path:reason:)``, naming the companion file.
    public func writeCompanion(_ bytes: [UInt8], suffix: String, holding lock: borrowing Lock) throws(TODOStoreError) {
        precondition(lock.path == lockURL.path, "TODOStore.writeCompanion needs the lock of this store")
        let path = companionURL(suffix: suffix).path
        let permissions = POSIX.permissions(ofFileAtPath: fileURL.path) ?? 0o644
        do {
            _ = try replaceFile(atPath: path, with: bytes, permissions: permissions)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    /// Removes the temporary files that saves killed halfway left beside the data file.
    ///
    /// Call it only with the lock held: every temporary file of the list (snapshot, journal,
    /// companions) is written under the lock, so any that exists while this process holds it
    /// belongs to a save that died.
    func removeLeftoverTemporaryFiles() {
        let directory = fileURL.deletingLastPathComponent().path
        let prefix = "." + fileURL.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            POSIX.removeFile(atPath: directory + "/" + name)
        }
    }

    /// Writes `bytes` to a new temporary file in the same directory, flushes it to the disk,
    /// renames it over `path` and flushes the directory; returns the new file, still open.
    ///
    /// A rename within one directory is atomic, so a crash or `kill -9` at any moment leaves
    /// either the old file or the new one, never a torn mix. On failure the temporary file is
    /// removed and `path` is untouched.
    ///
    /// `synchronizesDirectory: false` skips flushing the directory: a crash of the process
    /// still leaves the old file or the new one, but after a power cut the rename itself may
    /// be lost, leaving the old file. Only for data that may be lost that way (the undo
    /// history, which is then detected as out of date and dropped).
    func replaceFile(atPath path: String, with bytes: [UInt8], permissions: mode_t, synchronizesDirectory: Bool = true) throws(POSIX.Failure) -> POSIX.OpenFile {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent().path
        // A leading dot keeps the file out of casual listings; the random part keeps leftovers
        // of crashed saves from ever colliding with a new one.
        let temporary = directory + "/.\(target.lastPathComponent).\(UUID().uuidString).tmp"
        do throws(POSIX.Failure) {
            let file = try POSIX.createFile(atPath: temporary, bytes: bytes, permissions: permissions)
            do {
                try faultInjector(.wroteTemporaryFile(URL(fileURLWithPath: temporary)))
            } catch {
                throw POSIX.Failure(reason: "\(error)")
            }
            try POSIX.renameFile(atPath: temporary, to: path)
            if synchronizesDirectory {
                POSIX.synchronizeDirectory(atPath: directory)
            }
            return file
        } catch {
            POSIX.removeFile(atPath: temporary)
            throw error
        }
    }
}
