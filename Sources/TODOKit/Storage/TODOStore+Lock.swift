import Foundation

extension TODOStore {
    /// The store's lock, held from ``TODOStore/lock()`` until it is released or goes out of
    /// scope.
    ///
    /// An advisory `flock(2)` on the lock file beside the data file. The kernel drops it when
    /// the process ends, however it ends, so a crashed or killed holder never leaves the list
    /// locked. Noncopyable, so that it has exactly one owner and is released exactly once;
    /// ``TODOReplica/commit(_:holding:)`` takes it to prove that the caller holds it.
    ///
    /// ```swift
    /// do {
    ///     let lock = try store.lock()
    ///     try replica.refresh()
    ///     try replica.commit(changes, holding: lock)
    /// }   // released here
    /// ```
    public struct Lock: ~Copyable {
        /// The lock file's path.
        ///
        /// ```swift
        /// lock.path   // "/home/me/.local/share/undokit-todo/todo.json.lock"
        /// ```
        public let path: String
        let descriptor: Int32

        /// Releases the lock now rather than at the end of the scope.
        ///
        /// ```swift
        /// let lock = try store.lock()
        /// // … load, change, commit …
        /// lock.release()
        /// ```
        public consuming func release() {
            // Consuming `self` ends its lifetime here, which runs `deinit`.
        }

        deinit {
            // Clear the holder's name while still holding the lock: once the descriptor is
            // closed another process may take it, and the file must not name this one then.
            _ = ftruncate(descriptor, 0)
            _ = close(descriptor)
        }
    }

    /// Takes the store's lock, waiting up to ``Options/lockTimeout`` for another process to
    /// release it, and writes this process's id and name into the lock file.
    ///
    /// Creates the data file's directory and the lock file if needed. Hold it around each
    /// load–modify–save; never while waiting for input.
    ///
    /// ```swift
    /// let lock = try store.lock()
    /// ```
    ///
    /// - Throws: ``TODOStoreError/locked(path:pid:program:)`` when the time is up, naming the
    ///   holder; ``TODOStoreError/unwritable(path:reason:)`` if the lock file can't be
    ///   created.
    public func lock() throws(TODOStoreError) -> Lock {
        let descriptor = try openLockFile()
        let acquired: Bool
        do {
            acquired = try LockWaiter.acquire(descriptor, timeout: options.lockTimeout)
        } catch {
            _ = close(descriptor)
            throw .unwritable(path: fileURL.path, reason: "cannot lock \(lockURL.path): \(error.reason)")
        }
        guard acquired else {
            _ = close(descriptor)
            let holder = Self.holder(of: lockURL.path)
            throw .locked(path: fileURL.path, pid: holder?.pid, program: holder?.program)
        }
        // Informational only, so a failure to write it is no reason to give up the lock.
        let text = Array("\(getpid()) \(ProcessInfo.processInfo.processName)\n".utf8)
        let file = POSIX.OpenFile(descriptor: POSIX.duplicate(descriptor))
        try? file.truncate(to: 0)
        try? file.write(text, at: 0)
        return Lock(path: lockURL.path, descriptor: descriptor)
    }

    private func openLockFile() throws(TODOStoreError) -> Int32 {
        let path = lockURL.path
        let permissions = POSIX.permissions(ofFileAtPath: fileURL.path) ?? 0o644
        var descriptor = POSIX.openDescriptor(atPath: path, flags: O_RDWR | O_CREAT, permissions: permissions)
        if descriptor < 0 && errno == ENOENT {
            try createDirectory()
            descriptor = POSIX.openDescriptor(atPath: path, flags: O_RDWR | O_CREAT, permissions: permissions)
        }
        guard descriptor >= 0 else {
            throw .unwritable(path: fileURL.path, reason: "cannot create the lock file \(path): \(POSIX.Failure(errno: errno).reason)")
        }
        return descriptor
    }

    func createDirectory() throws(TODOStoreError) {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: fileURL.path, reason: "cannot create directory \(directory.path)")
        }
    }

    /// The process id and name in a lock file, as ``lock()`` writes them: `12345 todo`.
    static func holder(of lockPath: String) -> (pid: Int32, program: String)? {
        guard let file = try? POSIX.OpenFile.open(atPath: lockPath, flags: O_RDONLY),
              let bytes = try? file.read(from: 0) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let pid = Int32(first), pid > 0 else { return nil }
        return (pid, parts.count > 1 ? String(parts[1]) : "another process")
    }
}
