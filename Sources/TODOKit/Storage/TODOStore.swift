import Foundation

/// Where a list lives: an SQLite database file, or a PostgreSQL database, and how to use it.
///
/// The database holds the list, its undo history step by step, and which `todo` process made
/// each change (see <doc:TODOKit#How-the-data-is-stored> for the schema). Both give what a
/// list shared by several processes needs: a transaction per change, so that a crash or
/// `kill -9` keeps all of a change or none of it; one writer at a time, the others waiting up
/// to ``Options/lockTimeout``; readers that never wait. SQLite is embedded and needs no set-up,
/// for the processes of one machine; PostgreSQL, a server, shares a list across machines (see
/// <doc:SharingAcrossMachines> for what each guarantees).
///
/// A `TODOStore` is only a description: a ``TODODatabase`` opens it; ``load()`` reads the list
/// once.
///
/// ```swift
/// let store = TODOStore(fileURL: URL(fileURLWithPath: "/tmp/todo.db"))
/// let contents = try store.load()   // empty at revision 0 if there is no database yet
/// ```
public struct TODOStore: Sendable {
    /// The SQLite database file. A path ending in `.json` names a list the way earlier versions
    /// did: its database is the same path ending in `.db`, into which the old files are
    /// imported. For a list in PostgreSQL, the local file beside which ``linesURL`` keeps the
    /// lines typed on this machine; the list is never kept in it.
    public let fileURL: URL

    /// The PostgreSQL database that holds the list, or `nil` for the SQLite file ``fileURL``.
    public let databaseURL: PostgresURL?

    /// How long to wait for another process, and how much undo history to keep.
    public var options: Options

    /// Called just before a write transaction commits; a thrown error rolls it back. Only
    /// tests set it, to prove that a change cut short leaves nothing behind.
    let beforeCommit: @Sendable () throws -> Void

    /// Describes the list at `fileURL`; nothing is read or written until it is opened.
    public init(fileURL: URL, options: Options = Options()) {
        self.init(fileURL: fileURL, options: options, beforeCommit: {})
    }

    init(fileURL: URL, options: Options = Options(), beforeCommit: @escaping @Sendable () throws -> Void) {
        self.fileURL =
            fileURL.pathExtension == "json" ? fileURL.deletingPathExtension().appendingPathExtension("db") : fileURL
        self.databaseURL = nil
        self.options = options
        self.beforeCommit = beforeCommit
    }

    /// Describes the list in the PostgreSQL database `databaseURL`; the lines typed at a
    /// session's prompt are kept on this machine, in `linesDirectory`. Nothing is read or
    /// written until it is opened.
    ///
    /// ```swift
    /// let store = TODOStore(
    ///     databaseURL: try PostgresURL("postgres://alice@db.example/todo"),
    ///     linesDirectory: URL(fileURLWithPath: "/tmp"))
    /// print(store.location)   // postgres://alice@db.example/todo
    /// ```
    public init(databaseURL: PostgresURL, linesDirectory: URL, options: Options = Options()) {
        self.init(databaseURL: databaseURL, linesDirectory: linesDirectory, options: options, beforeCommit: {})
    }

    init(
        databaseURL: PostgresURL, linesDirectory: URL, options: Options = Options(),
        beforeCommit: @escaping @Sendable () throws -> Void
    ) {
        // One lines file per server and database, named so a person can tell which:
        // postgres://alice@db.example/todo keeps postgres-alice-db.example-todo.db.lines.
        let words = databaseURL.description.split { !($0.isLetter || $0.isNumber || $0 == ".") }
        self.fileURL = linesDirectory.appendingPathComponent(words.joined(separator: "-") + ".db")
        self.databaseURL = databaseURL
        self.options = options
        self.beforeCommit = beforeCommit
    }

    /// Where the list is, as messages name it: the file's path, or the PostgreSQL URL without
    /// its password.
    public var location: String {
        databaseURL?.description ?? fileURL.path
    }

    /// Where earlier versions of `todo` kept this list: `todo.json` beside `todo.db`, with its
    /// `.journal`, `.history` and `.lines`. The first use of a new database imports them.
    public var legacyURL: URL { fileURL.deletingPathExtension().appendingPathExtension("json") }

    /// Where an interactive session keeps the lines typed at its prompt: `todo.db.lines`.
    public var linesURL: URL { URL(fileURLWithPath: fileURL.path + ".lines") }

    /// Reads the list and its revision: an empty list at revision 0 if there is no database
    /// (and no old files to import).
    ///
    /// ```swift
    /// let contents = try store.load()
    /// print("\(contents.list.count) items at revision \(contents.revision)")
    /// ```
    ///
    /// - Throws: ``TODOStoreError``, naming the file and the problem.
    public func load() throws(TODOStoreError) -> Contents {
        let database = TODODatabase(store: self)
        guard case .loaded(let list) = try database.refresh() else { preconditionFailure("a first refresh loads") }
        return Contents(list: list, revision: database.revision)
    }

    /// The list as loaded, and its revision: how many changes made it (it only ever grows).
    public struct Contents: Hashable, Sendable {
        public var list: TODOList
        public var revision: Int

        /// Creates contents; the store builds them, tests compare against them.
        public init(list: TODOList, revision: Int) {
            self.list = list
            self.revision = revision
        }
    }
}
