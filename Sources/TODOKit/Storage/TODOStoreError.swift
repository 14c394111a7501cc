/// Why a list could not be read or changed; every case names the file and the problem, and
/// nothing was written.
///
/// ```swift
/// do {
///     list = try store.load().list
/// } catch let error as TODOStoreError {
///     print("todo: \(error)")   // "todo: /home/me/todo.db is damaged: database disk image is malformed"
/// }
/// ```
public enum TODOStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but could not be read (for example it is a directory):
    /// `cannot read /tmp: unable to open database file`.
    case unreadable(path: String, reason: String)
    /// The file is not a database, or one of another program:
    /// `/tmp/todo.db is not a TODO list: file is not a database`.
    case foreign(path: String, reason: String)
    /// The database is a TODO list but damaged (SQLite found it malformed, or a row holds
    /// what `todo` never writes), or old files to import are: `/tmp/todo.db is damaged: …`.
    case corrupt(path: String, reason: String)
    /// The database's schema, or an old file's format, is newer than this program reads:
    /// `/tmp/todo.db has version 3; this todo reads versions up to 2`.
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// The file or its directory could not be written:
    /// `cannot save /todo.db: attempt to write a readonly database`.
    case unwritable(path: String, reason: String)
    /// Another process kept changing the list for longer than
    /// ``TODOStore/Options/lockTimeout``: `/tmp/todo.db is busy: another todo has been
    /// changing it for 5 s; try again`.
    case locked(path: String, timeout: Duration)
    /// The PostgreSQL server could not be reached, or refused the connection (no such
    /// database, a password it does not take), named by its URL without the password:
    /// `cannot connect to postgres://alice@db.example/todo: connection refused …`.
    case unreachable(server: String, reason: String)
    /// The connection to the PostgreSQL server broke during a change or a read: the server
    /// rolls back a transaction it cut short, so nothing of it is half-written; the next
    /// operation connects again.
    case connectionLost(server: String, reason: String)

    /// A one-line message naming the file and the problem.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .foreign(let path, let reason):
            "\(path) is not a TODO list: \(reason)"
        case .corrupt(let path, let reason):
            "\(path) is damaged: \(reason)"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path) has version \(found); this todo reads versions up to \(supported)"
        case .unwritable(let path, let reason):
            "cannot save \(path): \(reason)"
        case .locked(let path, let timeout):
            "\(path) is busy: another todo has been changing it for \(Self.seconds(timeout)) s; try again"
        case .unreachable(let server, let reason):
            "cannot connect to \(server): \(reason)"
        case .connectionLost(let server, let reason):
            "lost the connection to \(server) (\(reason)); the server rolls back what it cut short, and the "
                + "next line connects again"
        }
    }

    /// Whether another process held the lock: then nothing was tried.
    var isLocked: Bool { if case .locked = self { true } else { false } }

    /// Whether the server could not be reached or the connection broke: then there is no
    /// transaction left to roll back (the server rolled it back).
    var isConnectionProblem: Bool {
        switch self {
        case .unreachable, .connectionLost: true
        default: false
        }
    }

    /// `5`, `0.2`: a timeout as `TODO_LOCK_TIMEOUT` would set it.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }
}
