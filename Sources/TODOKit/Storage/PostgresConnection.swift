import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq: the calls the store makes, with the
/// server's own message in every error, and a connection that comes back after the server
/// went away.
///
/// Statements are prepared once per connection (their `?` become `$1`, `$2`, …) and kept, as
/// ``SQLiteConnection`` keeps its own. Values travel as text, which the server reads as the
/// column's type.
///
/// **A lost connection.** When a statement finds the connection broken (the server restarted,
/// the network went away), what happens depends on whether a transaction was open. Outside
/// one, nothing was under way: the connection is made again (`PQreset`) and the statement
/// runs once more, so that a session idle across a server restart carries on. Inside one, the
/// server has rolled the transaction back, nothing of it was written: the statement fails
/// with ``SQLError/Kind/connectionLost`` and the next statement reconnects. Each reconnection
/// runs the session's settings again (`lock_timeout`, `LISTEN`) and is counted
/// (``reconnections``): notifications sent while it was away were never heard.
///
/// Not `Sendable`: a connection belongs to the isolation domain that opened it.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    /// The server as messages name it, without the password.
    let server: String
    /// Run again after every reconnection, in order: settings and `LISTEN`s.
    private var sessionStatements: [String] = []
    /// The name each statement was prepared under, on this connection (until it reconnects).
    private var statements: [String: String] = [:]
    /// How many times the connection was made again after it broke.
    private(set) var reconnections = 0

    /// Connects to the server `url` names, giving up after `connectTimeout` seconds unless the
    /// URL says otherwise (`connect_timeout=…`). Text is exchanged as UTF-8 whatever the
    /// database's own encoding.
    init(url: PostgresURL, connectTimeout: Int = 10) throws(SQLError) {
        server = url.description
        // Earlier entries are defaults the URL may override; later ones override the URL.
        let parameters: [(String, String)] = [
            ("connect_timeout", "\(connectTimeout)"),
            ("fallback_application_name", "todo"),
            ("dbname", url.connectionString),
            ("client_encoding", "UTF8"),
        ]
        // Both lists end with a null pointer, as libpq reads them.
        let handle = Self.withCStrings(parameters.map(\.0) + [nil]) { keywords in
            Self.withCStrings(parameters.map(\.1) + [nil]) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let handle else {
            throw SQLError(kind: .cannotConnect, message: "out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            var message = url.redacting(Self.oneLine(String(cString: PQerrorMessage(handle))))
            if message.contains("database \"") && message.hasSuffix("does not exist") {
                message += "; make it first (createdb), and todo makes its tables at the first change"
            }
            PQfinish(handle)
            throw SQLError(kind: .cannotConnect, message: message)
        }
        self.handle = handle
        Self.silenceNotices(handle)
    }

    deinit {
        PQfinish(handle)
    }

    var dialect: SQLDialect { .postgres }

    /// The connection's socket: readable when the server sent something, such as a
    /// notification; `nil` while the connection is broken.
    var socket: Int32? {
        let socket = PQsocket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Runs `statement` now and again after every reconnection: `SET`, `LISTEN`.
    func keep(_ statement: String) throws(SQLError) {
        try executeScript(statement)
        sessionStatements.append(statement)
    }

    /// The list's revision: other connections' commits change it, and so do this one's.
    func dataVersion() throws(SQLError) -> Int64? {
        try integer("SELECT revision FROM list_state")
    }

    /// Runs `sql`, several statements separated by `;`, with no parameters: for schemas.
    func executeScript(_ sql: String) throws(SQLError) {
        try withReconnection { () throws(SQLError) in
            let result = PQexec(handle, sql)
            defer { PQclear(result) }
            try check(result)
        }
    }

    /// Runs one statement with `values` bound to its `?` parameters, calling `body` with each
    /// row, and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue], _ body: (SQLRow) -> Void) throws(SQLError) -> Int {
        try withReconnection { () throws(SQLError) -> Int in
            let name = try prepared(sql, parameters: values.count)
            let texts: [String?] = values.map { value in
                switch value {
                case .integer(let number): "\(number)"
                case .real(let number): "\(number)"
                case .text(let text): text
                case .null: nil
                }
            }
            let result = Self.withCStrings(texts) { parameters in
                PQexecPrepared(handle, name, Int32(texts.count), parameters, nil, nil, 0)
            }
            defer { PQclear(result) }
            try check(result)
            guard let result else { return 0 }
            for row in 0..<PQntuples(result) {
                body(SQLRow(source: .postgres(result, row)))
            }
            return Int(String(cString: PQcmdTuples(result))) ?? 0
        }
    }

    /// The payloads of the notifications the server sent since the last call, read without
    /// waiting (`PQconsumeInput`, then `PQnotifies`).
    ///
    /// - Throws: ``SQLError/Kind/connectionLost`` when the connection broke.
    func takeNotifications() throws(SQLError) -> [String] {
        // A server that shuts down sends its goodbye, then closes: the first read takes the
        // message, and only a second one finds the end. Reading while the socket has more to
        // read (a few times at most: notifications may keep coming) sees both at once.
        var reads = 0
        repeat {
            guard PQstatus(handle) == CONNECTION_OK, PQconsumeInput(handle) == 1 else {
                throw SQLError(kind: .connectionLost, message: Self.oneLine(String(cString: PQerrorMessage(handle))))
            }
            reads += 1
        } while reads < 4 && socketHasInput()
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Whether the socket has something to read now, without waiting.
    private func socketHasInput() -> Bool {
        guard let socket else {
            return false
        }
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) == 1 && watched.revents != 0
    }

    /// Runs `body`, first making the connection again if it broke earlier; when `body` finds
    /// it broken with no transaction open, makes it again and runs `body` once more.
    private func withReconnection<Value>(_ body: () throws(SQLError) -> Value) throws(SQLError) -> Value {
        if PQstatus(handle) != CONNECTION_OK {
            try reconnect()
        }
        let wasIdle = PQtransactionStatus(handle) == PQTRANS_IDLE
        do {
            return try body()
        } catch where error.kind == .connectionLost && wasIdle {
            try reconnect()
            return try body()
        }
    }

    private func reconnect() throws(SQLError) {
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw SQLError(
                kind: .cannotConnect,
                message: "lost the connection and cannot make it again: "
                    + Self.oneLine(String(cString: PQerrorMessage(handle))))
        }
        Self.silenceNotices(handle)
        statements.removeAll()
        reconnections += 1
        for statement in sessionStatements {
            let result = PQexec(handle, statement)
            defer { PQclear(result) }
            try check(result)
        }
    }

    private func prepared(_ sql: String, parameters: Int) throws(SQLError) -> String {
        if let name = statements[sql] { return name }
        let name = "todo_\(statements.count + 1)"
        let result = PQprepare(handle, name, Self.numberedParameters(sql), Int32(parameters), nil)
        defer { PQclear(result) }
        try check(result)
        statements[sql] = name
        return name
    }

    /// Throws the error `result` reports, if any.
    private func check(_ result: OpaquePointer?) throws(SQLError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        throw error(result)
    }

    private func error(_ result: OpaquePointer?) -> SQLError {
        func field(_ code: Character) -> String? {
            guard let result, let ascii = code.asciiValue, let text = PQresultErrorField(result, Int32(ascii)) else {
                return nil
            }
            return String(cString: text)
        }
        let state = field("C") ?? ""
        let message = Self.oneLine(field("M") ?? String(cString: PQerrorMessage(handle)))
        if PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") || state.hasPrefix("57P") {
            return SQLError(kind: .connectionLost, message: message)
        }
        return SQLError(kind: Self.kind(ofState: state), message: message)
    }

    /// What an SQLSTATE means to the store: a lock not granted in time (`55P03`) or a deadlock
    /// (`40P01`) is another process's change in the way; a table or column missing (`42P01`,
    /// `42703`) is a database someone changed behind `todo`'s back.
    static func kind(ofState state: String) -> SQLError.Kind {
        switch state {
        case "55P03", "40P01": .busy
        case "42P01", "42703": .corrupt
        case _ where state.hasPrefix("08") || state.hasPrefix("57P"): .connectionLost
        default: .failed
        }
    }

    /// `sql` with each `?` outside quotes numbered as PostgreSQL's parameters are: `$1`, `$2`, ….
    static func numberedParameters(_ sql: String) -> String {
        var numbered = ""
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                numbered.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                numbered.append(character)
            } else if character == "?" {
                count += 1
                numbered += "$\(count)"
            } else {
                numbered.append(character)
            }
        }
        return numbered
    }

    /// A message of libpq's, which may run over several lines, as one: `connection to server
    /// … failed: Connection refused; Is the server running on that host …?`.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces).replacing("FATAL:  ", with: "") }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    /// The server's notices (`WARNING: there is no transaction in progress`) are not the
    /// user's business; libpq would print them on standard error.
    private static func silenceNotices(_ handle: OpaquePointer) {
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    /// Calls `body` with `strings` as an array of C strings (`nil` stays a null pointer), valid
    /// during the call.
    private static func withCStrings<Value>(
        _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Value
    ) -> Value {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { buffer in
            body(buffer.baseAddress)
        }
    }

    // MARK: Rows

    static func isNull(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Bool {
        PQgetisnull(result, row, column) == 1
    }

    /// The column's text as an integer, such as `42` or `-1`; 0 when it is not one.
    static func integer(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Int64 {
        let digits = bytes(result, row, column)
        var value: Int64 = 0
        var sign: Int64 = 1
        for (index, byte) in digits.enumerated() {
            if index == 0 && byte == UInt8(ascii: "-") {
                sign = -1
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return 0 }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (added, overflowAdd) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowShift, !overflowAdd else { return 0 }
            value = added
        }
        return sign * value
    }

    static func bytes(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = PQgetvalue(result, row, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        // libpq's `char` text read as the bytes it is (signed and unsigned bytes may alias).
        let start = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: Int(PQgetlength(result, row, column)))
    }
}
