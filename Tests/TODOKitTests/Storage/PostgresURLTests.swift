import Testing
@testable import TODOKit

@Suite struct PostgresURLTests {
    /// A URL, and how messages name it: the password, after the user or as a parameter, never
    /// shows; everything else that says which server and database does.
    @Test(arguments: [
        ("postgres://alice@db.example/todo", "postgres://alice@db.example/todo"),
        ("postgresql://alice:secret@db.example:5433/todo", "postgresql://alice@db.example:5433/todo"),
        ("postgres://db.example/todo", "postgres://db.example/todo"),
        ("postgres:///todo?host=/tmp/pg&port=55431", "postgres:///todo?host=/tmp/pg&port=55431"),
        ("postgres://alice@localhost/todo?password=secret&connect_timeout=3",
         "postgres://alice@localhost/todo?connect_timeout=3"),
        ("postgres://al%40ice:se%3Acret@h1:5432,h2:5433/todo", "postgres://al%40ice@h1:5432,h2:5433/todo"),
        ("postgres://alice:secret@localhost", "postgres://alice@localhost"),
        ("postgres://alice:secret@localhost?sslmode=disable", "postgres://alice@localhost?sslmode=disable"),
    ])
    func describesTheServerWithoutThePassword(text: String, shown: String) throws {
        let url = try PostgresURL(text)
        #expect(url.description == shown)
        #expect("\(url)" == shown)
        #expect(String(reflecting: url) == shown)
        #expect(url.connectionString == text)
    }

    /// What is not a PostgreSQL URL is refused with libpq's reason, in which the password is
    /// written `***`.
    @Test(arguments: [
        ("mysql://alice@db.example/todo", "it does not start with postgres:// or postgresql://"),
        ("/home/me/todo.db", "it does not start with postgres:// or postgresql://"),
        ("postgres//db.example/todo", "it does not start with postgres:// or postgresql://"),
        ("POSTGRES://alice:secret@db.example/todo", "it does not start with postgres:// or postgresql://"),
        ("postgres://alice@localhost/todo?PASSWORD=secret", #"invalid URI query parameter: "PASSWORD""#),
        ("postgres://alice:secret@db.example/todo?nonsense=secret", #"invalid URI query parameter: "nonsense""#),
        ("postgres://alice:secret%ZZ@db.example/todo", #"invalid percent-encoded token: "***""#),
    ])
    func refusesWhatIsNotOne(text: String, reason: String) {
        let error = #expect(throws: PostgresURL.Invalid.self) { try PostgresURL(text) }
        #expect(error?.reason == reason)
        #expect(error?.reason.contains("secret") == false)
    }

    @Test func redactsThePasswordInAnyMessage() throws {
        let url = try PostgresURL("postgres://alice:p%40ss@db.example/todo?password=other")
        #expect(url.redacting("auth failed for p@ss, p%40ss and other") == "auth failed for ***, *** and ***")
    }
}

@Suite struct PostgresConnectionStatementTests {
    /// `?` outside quotes becomes `$1`, `$2`, …; inside a string or a quoted name it is text.
    @Test(arguments: [
        ("SELECT 1", "SELECT 1"),
        ("UPDATE list_state SET revision = ?", "UPDATE list_state SET revision = $1"),
        ("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", "INSERT INTO t (a, b, c) VALUES ($1, $2, $3)"),
        ("SELECT '?' || ? FROM \"what?\" WHERE x = ?", "SELECT '?' || $1 FROM \"what?\" WHERE x = $2"),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"),
    ])
    func numbersTheParameters(sql: String, numbered: String) {
        #expect(PostgresConnection.numberedParameters(sql) == numbered)
    }

    /// What an SQLSTATE means to the store.
    @Test(arguments: [
        ("55P03", SQLError.Kind.busy),
        ("40P01", .busy),
        ("42P01", .corrupt),
        ("42703", .corrupt),
        ("08006", .connectionLost),
        ("57P01", .connectionLost),
        ("23505", .failed),
        ("", .failed),
    ])
    func sortsTheServersErrors(state: String, kind: SQLError.Kind) {
        #expect(PostgresConnection.kind(ofState: state) == kind)
    }

    @Test func putsLibpqsMessagesOnOneLine() {
        let message = """
            connection to server at "localhost" (127.0.0.1), port 1 failed: Connection refused
            \tIs the server running on that host and accepting TCP/IP connections?

            """
        #expect(
            PostgresConnection.oneLine(message)
                == #"connection to server at "localhost" (127.0.0.1), port 1 failed: Connection refused; "#
                + "Is the server running on that host and accepting TCP/IP connections?")
    }
}
