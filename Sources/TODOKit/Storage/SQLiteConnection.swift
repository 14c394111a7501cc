import CSQLite

/// One connection to an SQLite database: the handful of calls the store makes, with SQLite's
/// own message in every error.
///
/// Statements are prepared once per connection and kept, since the same dozen run for every
/// line of input. Not `Sendable`: a connection belongs to the isolation domain that opened it.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path`, for writing where the file allows it; `creating` makes
    /// the file if it is missing.
    init(path: String, creating: Bool) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(
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

    /// Runs `sql`, several statements separated by `;`, with no parameters: for schemas.
    func executeScript(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs one statement with `values` bound to its `?` parameters, and returns how many rows
    /// it changed.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try forEachRow(sql, values) { _ in }
        return Int(sqlite3_changes(handle))
    }

    /// The row id of the row the last `INSERT` on this connection added.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Runs one statement and calls `body` with each row it returns.
    func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (Row) -> Void) throws(SQLiteError) {
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
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            body(Row(statement: statement))
        }
    }

    /// The first row `sql` returns, read by `read`; `nil` when it returns none.
    func firstRow<Value>(
        _ sql: String, _ values: [SQLiteValue] = [], _ read: (Row) -> Value
    ) throws(SQLiteError) -> Value? {
        var value: Value?
        try forEachRow(sql, values) { row in
            if value == nil { value = read(row) }
        }
        return value
    }

    /// The integer in the first column of the first row, such as a `PRAGMA`'s value.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        try firstRow(sql, values) { $0.isNull(0) ? nil : $0.integer(0) } ?? nil
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        statements[sql] = statement
        return statement
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// One row of a result, valid only inside the `forEachRow` call that passes it.
    struct Row {
        fileprivate let statement: OpaquePointer

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        /// The column as text (a `NULL` reads as empty), its bytes as stored.
        func text(_ column: Int32) -> String {
            String(decoding: bytes(column), as: UTF8.self)
        }

        /// The column's text as bytes, valid until the row moves on.
        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
            guard let bytes = sqlite3_column_text(statement, column) else {
                return UnsafeBufferPointer(start: nil, count: 0)
            }
            return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
        }
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// A position, count or revision.
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
}

/// What SQLite reported: its result code (extended) and its message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    /// The primary result code, such as `SQLITE_BUSY` for every kind of busy.
    var primaryCode: Int32 { code & 0xFF }

    var description: String { message }
}
