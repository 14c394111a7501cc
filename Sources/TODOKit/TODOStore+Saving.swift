import Foundation

extension TODOStore {
    /// Writes `list` to the data file atomically, creating its directory if needed.
    ///
    /// The list is written to a new temporary file in the same directory, flushed to the disk,
    /// and renamed over the data file. A rename within one directory is atomic, so a crash or
    /// `kill -9` at any moment leaves either the old file or the new one, never a torn mix. A
    /// failed save leaves the old file as it was.
    ///
    /// ```swift
    /// do {
    ///     try store.save(session.list)
    /// } catch {
    ///     print("todo: \(error)")   // "cannot save /read-only/todo.json: Permission denied"
    /// }
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unwritable(path:reason:)``.
    public func save(_ list: TODOList) throws(TODOStoreError) {
        let path = fileURL.path
        let bytes = Self.encode(list)
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: path, reason: "cannot create directory \(directory.path)")
        }

        // A leading dot keeps the file out of casual listings; the random part lets several
        // processes save at once without clobbering each other's temporary files.
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        let permissions = POSIX.permissions(ofFileAtPath: path) ?? 0o644
        do {
            try POSIX.writeNewFile(atPath: temporary.path, bytes: bytes, permissions: permissions)
        } catch {
            POSIX.removeFile(atPath: temporary.path)
            throw .unwritable(path: path, reason: error.reason)
        }
        do {
            try faultInjector(.wroteTemporaryFile(temporary))
            try POSIX.renameFile(atPath: temporary.path, to: path)
        } catch {
            POSIX.removeFile(atPath: temporary.path)
            throw .unwritable(path: path, reason: (error as? POSIX.Failure)?.reason ?? "\(error)")
        }
        POSIX.synchronizeDirectory(atPath: directory.path)
    }

    static func encode(_ list: TODOList) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let contents = Contents(formatVersion: formatVersion, items: list.items)
        // Strings, Bools, UUIDs and enum raw values always encode; a failure here would be a
        // programming error in `Contents`, not a condition a user can cause.
        guard let data = try? encoder.encode(contents) else {
            preconditionFailure("TODOStore: the file contents could not be encoded")
        }
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
