import CSQLite

/// One connection to an SQLite database: the handful of calls the store makes, with SQLite's
/// own message in every error.
///
/// Statements are prepared once per connection and kept, since the same dozen run for every
/// line of input. Not `Sendable`: a connection belongs to the isolation domain that opened it.
final class SQLiteConnection: SQLConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path`, for writing where the file allows it; `creating` makes
    /// the file if it is missing.
    init(path: String, creating: Bool) throws(SQLError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = Self.error(
                code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statements.values.forEach { sqlite3_finalize($0) }
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    var dialect: SQLDialect { .sqlite }

    /// Runs `sql`, several statements separated by `;`, with no parameters: for schemas.
    func executeScript(_ sql: String) throws(SQLError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs one statement with `values` bound to its `?` parameters, calling `body` with each
    /// row, and returns how many rows it changed. The statement is prepared once and kept.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue], _ body: (SQLRow) -> Void) throws(SQLError) -> Int {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code =
                switch value {
                case .integer(let number): sqlite3_bind_int64(statement, position, number)
                case .real(let number): sqlite3_bind_double(statement, position, number)
                case .text(let text):
                    sqlite3_bind_text(statement, position, text, Int32(text.utf8.count), csqlite_transient())
                case .null: sqlite3_bind_null(statement, position)
                }
            guard code == SQLITE_OK else { throw error(code) }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code) }
            body(SQLRow(source: .sqlite(statement)))
        }
        return Int(sqlite3_changes(handle))
    }

    /// `PRAGMA data_version`: another connection's commit changes it, this connection's own
    /// never do.
    func dataVersion() throws(SQLError) -> Int64? {
        try integer("PRAGMA data_version")
    }

    private func prepared(_ sql: String) throws(SQLError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        statements[sql] = statement
        return statement
    }

    private func error(_ code: Int32) -> SQLError {
        Self.error(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// SQLite's result code as the kind of error the store tells apart (by the primary code:
    /// `SQLITE_BUSY` for every kind of busy).
    static func error(code: Int32, message: String) -> SQLError {
        let kind: SQLError.Kind =
            switch code & 0xFF {
            case SQLITE_BUSY, SQLITE_LOCKED: .busy
            case SQLITE_NOTADB: .notADatabase
            case SQLITE_CORRUPT: .corrupt
            default: .failed
            }
        return SQLError(kind: kind, message: message)
    }

    // A row of a result, as `SQLRow` reads it through the statement on it.

    static func isNull(_ statement: OpaquePointer, _ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    static func integer(_ statement: OpaquePointer, _ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    static func bytes(_ statement: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let bytes = sqlite3_column_text(statement, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }
}
