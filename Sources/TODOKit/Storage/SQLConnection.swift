/// A connection to the SQL database that holds a list: what ``TODODatabase`` needs of SQLite
/// (``SQLiteConnection``) and of PostgreSQL (``PostgresConnection``), so that the list, its
/// history and its refusals are written by one body of code on both.
///
/// Statements are written once, in the SQL both understand, with `?` for each parameter; a
/// connection turns them into its own (PostgreSQL's `$1`, `$2`, …). What the two do differently
/// is said here, once, as the connection's ``dialect``: how a change takes the write lock, how a
/// read sees one state of the list, how this process learns that another one committed.
///
/// Not `Sendable`: a connection belongs to the isolation domain that opened it.
protocol SQLConnection: AnyObject {
    /// What tells this database from the other kind.
    var dialect: SQLDialect { get }

    /// Runs `sql`, several statements separated by `;`, with no parameters: for schemas.
    func executeScript(_ sql: String) throws(SQLError)

    /// Runs one statement with `values` bound to its `?` parameters, calling `body` with each
    /// row it returns, and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue], _ body: (SQLRow) -> Void) throws(SQLError) -> Int

    /// A number that changes when another connection commits a change to the list, read
    /// without a lock: SQLite's `PRAGMA data_version`, PostgreSQL's list revision (which this
    /// connection's own commits change too: ``SQLDialect/dataVersionIsRevision``).
    func dataVersion() throws(SQLError) -> Int64?
}

extension SQLConnection {
    /// Runs one statement with `values` bound to its `?` parameters, and returns how many rows
    /// it changed.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws(SQLError) -> Int {
        try run(sql, values) { _ in }
    }

    /// Runs one statement and calls `body` with each row it returns.
    func forEachRow(_ sql: String, _ values: [SQLValue] = [], _ body: (SQLRow) -> Void) throws(SQLError) {
        try run(sql, values, body)
    }

    /// The first row `sql` returns, read by `read`; `nil` when it returns none.
    func firstRow<Value>(
        _ sql: String, _ values: [SQLValue] = [], _ read: (SQLRow) -> Value
    ) throws(SQLError) -> Value? {
        var value: Value?
        try run(sql, values) { row in
            if value == nil { value = read(row) }
        }
        return value
    }

    /// The integer in the first column of the first row, such as a count or a `PRAGMA`'s value.
    func integer(_ sql: String, _ values: [SQLValue] = []) throws(SQLError) -> Int64? {
        try firstRow(sql, values) { $0.isNull(0) ? nil : $0.integer(0) } ?? nil
    }
}

/// The statements in which SQLite and PostgreSQL differ, one value per database kind.
///
/// A change is one transaction that serializes with every other change, as SQLite's write
/// lock does: on PostgreSQL the transaction (at READ COMMITTED, the default) first locks
/// `list_state` in `EXCLUSIVE` mode. Every change writes that table's one row (the revision),
/// so no two changes run at once; plain reads take no lock that conflicts with it, so readers
/// never wait, as in SQLite's WAL mode. Each statement after the lock sees everything committed
/// before it was granted, which is what ``TODODatabase/refresh()`` under the lock must read.
/// SERIALIZABLE would also be safe, but it fails one of two concurrent changes at commit and
/// makes every caller retry; waiting for the lock, up to ``TODOStore/Options/lockTimeout``
/// (`lock_timeout`), is what SQLite's busy timeout already does.
///
/// A read that takes several statements (the list, then who changed what) runs in one
/// transaction that sees one state: SQLite's deferred `BEGIN`, PostgreSQL's
/// `REPEATABLE READ READ ONLY`.
struct SQLDialect: Sendable, Equatable {
    /// Begins a change's transaction, holding the write lock when it returns (several
    /// statements, run in order).
    var beginWrite: [String]
    /// Begins a read that sees one state of the database.
    var beginRead: String
    /// Whether this connection hears other processes' commits as notifications
    /// (PostgreSQL's `LISTEN`): then a change also sends one, in its transaction.
    var notifies: Bool
    /// Whether ``SQLConnection/dataVersion()`` is the list's revision, which this process's
    /// own commits change too (PostgreSQL), rather than a count only other connections'
    /// commits change (SQLite's `data_version`).
    var dataVersionIsRevision: Bool

    static let sqlite = SQLDialect(
        beginWrite: ["BEGIN IMMEDIATE"], beginRead: "BEGIN", notifies: false, dataVersionIsRevision: false)
    static let postgres = SQLDialect(
        beginWrite: ["BEGIN ISOLATION LEVEL READ COMMITTED", "LOCK TABLE list_state IN EXCLUSIVE MODE"],
        beginRead: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", notifies: true, dataVersionIsRevision: true)
}

/// A value bound to a statement's parameter.
enum SQLValue: Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// A position, count or revision.
    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}

/// The name the tests and fuzzers written for SQLite alone know a parameter's value by.
typealias SQLiteValue = SQLValue

/// What a database reported, sorted into what the store tells apart, with the database's own
/// message.
struct SQLError: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// Another connection holds the lock a change needs, past the lock timeout.
        case busy
        /// The file is not an SQLite database.
        case notADatabase
        /// The database is damaged, or holds a row `todo` never writes.
        case corrupt
        /// The server cannot be reached, or refused the connection (a bad password, no such
        /// database).
        case cannotConnect
        /// The connection broke; on PostgreSQL the server rolls back a transaction in progress.
        case connectionLost
        /// Anything else: the statement failed.
        case failed
    }

    var kind: Kind
    var message: String

    var description: String { message }
}

/// One row of a result, valid only inside the call that passes it.
struct SQLRow {
    enum Source {
        /// An SQLite statement on a row.
        case sqlite(OpaquePointer)
        /// A libpq result, and the row's index in it.
        case postgres(OpaquePointer, Int32)
    }

    let source: Source

    func isNull(_ column: Int32) -> Bool {
        switch source {
        case .sqlite(let statement): SQLiteConnection.isNull(statement, column)
        case .postgres(let result, let row): PostgresConnection.isNull(result, row, column)
        }
    }

    /// The column as an integer; 0 for a `NULL` or for text that is not one.
    func integer(_ column: Int32) -> Int64 {
        switch source {
        case .sqlite(let statement): SQLiteConnection.integer(statement, column)
        case .postgres(let result, let row): PostgresConnection.integer(result, row, column)
        }
    }

    /// The column as text (a `NULL` reads as empty), its bytes as stored.
    func text(_ column: Int32) -> String {
        String(decoding: bytes(column), as: UTF8.self)
    }

    /// The column's text as bytes, valid until the row moves on.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        switch source {
        case .sqlite(let statement): SQLiteConnection.bytes(statement, column)
        case .postgres(let result, let row): PostgresConnection.bytes(result, row, column)
        }
    }
}
