import Foundation

/// The lines typed at the prompt, kept beside the list (`todo.db.lines`) so that ↑ recalls
/// them in the next session too: the newest ``limit`` lines, one per line.
///
/// Every session adds its lines as they are typed (``append(_:)``), to the file as it is then,
/// so sessions that share a list keep each other's lines, whichever quits first. An append
/// locks the file (`flock`), reads it again, adds its lines and replaces it in one rename:
/// two sessions appending at once wait for each other instead of writing over each other's
/// lines, and a reader sees the old file or the new one, never half of one.
///
/// A line with a control character (an escape sequence, a bell, U+009B, a bidirectional
/// override…) is not kept: such a line is refused as a command anyway, and nothing raw should
/// wait in a file for the next session. The file stays small: the newest ``limit`` lines, at
/// most ``byteLimit`` bytes of them. A file that can't be read (missing, not a regular file,
/// not UTF-8) starts an empty or partial recall; one that can't be written (or stays locked)
/// makes ``append(_:)`` throw, which the caller reports once, and recall goes on in memory:
/// the list is never affected.
///
/// ```swift
/// let file = LineHistoryFile(url: URL(fileURLWithPath: "/tmp/todo.db.lines"))
/// var lines = file.load()
/// try? file.append(["add Buy milk"])
/// ```
public struct LineHistoryFile: Sendable {
    /// Where the lines are kept.
    public let url: URL
    /// How many lines are kept, the newest.
    public let limit: Int
    /// How many bytes of lines are kept at most, the newest, and read at most.
    public static let byteLimit = 256 * 1024
    /// How long ``append(_:)`` waits for another session's append to finish.
    static let lockTimeout: TimeInterval = 2

    /// A file at `url` keeping the newest `limit` lines.
    public init(url: URL, limit: Int = 500) {
        self.url = url
        self.limit = limit
    }

    /// Why the file could not be written.
    public struct WriteError: LocalizedError {
        /// The path and the reason.
        public let errorDescription: String?

        init(_ url: URL, _ reason: String) {
            errorDescription = "\(url.path): \(reason)"
        }

        init(_ url: URL, errorNumber: Int32) {
            self.init(url, String(cString: strerror(errorNumber)))
        }
    }

    /// The lines saved, oldest first; none if the file is missing, unreadable or not a
    /// regular file. It is opened without waiting: a plain open of a FIFO put there would wait
    /// for a writer, and the prompt with it.
    public func load() -> [String] {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return Self.lines(in: descriptor, limit: limit)
    }

    /// Adds `lines` after those in the file now, and keeps the newest: see the type's
    /// description. Lines with control characters, blank lines, and a line equal to the one
    /// before it are left out, of the file's lines too.
    public func append(_ lines: [String]) throws {
        let added = Self.keepable(lines)
        guard !added.isEmpty else { return }
        let lock = try locked()
        defer { close(lock) }
        var merged = Self.lines(in: lock, limit: limit)
        merged += added
        // What another program left in the file is cleaned too.
        try write(Self.keepable(merged))
    }

    /// Replaces the file's lines with the newest `limit` of `lines` (as ``append(_:)`` does,
    /// under the lock and in one rename), leaving out the lines it would.
    public func save(_ lines: [String]) throws {
        let lock = try locked()
        defer { close(lock) }
        try write(Self.keepable(lines))
    }

    /// The lines worth keeping: not blank, no control character, not repeating the one before.
    private static func keepable(_ lines: [String]) -> [String] {
        var kept: [String] = []
        for line in lines {
            let isBlank = line.allSatisfy(\.isWhitespace)
            let isRaw = TerminalText.firstControlCharacter(in: line) != nil
            guard !isBlank, !isRaw else { continue }
            if kept.last != line {
                kept.append(line)
            }
        }
        return kept
    }

    /// The newest `limit` lines of the regular file open on `descriptor`, reading at most its
    /// last ``byteLimit`` bytes (and then not the line they start inside).
    private static func lines(in descriptor: Int32, limit: Int) -> [String] {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return [] }
        let start = max(0, Int(status.st_size) - byteLimit)
        guard lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < byteLimit {
            let count = buffer.withUnsafeMutableBytes { chunk in
                read(descriptor, chunk.baseAddress, chunk.count)
            }
            if count < 0, errno == EINTR {
                continue
            }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        var rows = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        if start > 0, !rows.isEmpty {
            rows.removeFirst()
        }
        let lines = rows.map { row in
            // A line a Windows editor ended with CR LF.
            let text = row.last == 0x0D ? row.dropLast() : row
            return String(decoding: text, as: UTF8.self)
        }
        return Array(lines.suffix(limit))
    }

    /// The file, created if missing, open and locked for this process alone; waits
    /// ``lockTimeout`` at most for another process's lock.
    private func locked() throws -> Int32 {
        let deadline = Date().addingTimeInterval(Self.lockTimeout)
        while true {
            let descriptor = open(url.path, O_RDONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw WriteError(url, errorNumber: errno) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw WriteError(url, "not a regular file")
            }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let failure = errno
                guard failure == EWOULDBLOCK || failure == EINTR, Date() < deadline else {
                    close(descriptor)
                    if failure == EWOULDBLOCK {
                        throw WriteError(url, "locked by another todo for too long")
                    }
                    throw WriteError(url, errorNumber: failure)
                }
                usleep(2_000)
            }
            // The lock is on the file that was opened; if another session has replaced it since
            // (its rename), the lock guards nothing: lock the new one.
            var current = stat()
            let found = stat(url.path, &current) == 0
            if found, current.st_ino == opened.st_ino, current.st_dev == opened.st_dev {
                return descriptor
            }
            close(descriptor)
        }
    }

    /// Replaces the file with the newest of `lines`, in one rename; the caller holds the lock.
    private func write(_ lines: [String]) throws {
        var kept: [String] = []
        var size = 0
        for line in lines.suffix(limit).reversed() {
            size += line.utf8.count + 1
            guard size <= Self.byteLimit else { break }
            kept.append(line)
        }
        let text = kept.reversed().map { $0 + "\n" }.joined()
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
