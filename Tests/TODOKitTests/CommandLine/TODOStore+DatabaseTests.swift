import Foundation
import Testing
@testable import TODOKit

/// Which list the command line names: `--database`, else `--file`, else `TODO_DATABASE_URL`,
/// else the SQLite file of `TODO_FILE` or the default.
@Suite struct TODOStoreDatabaseChoiceTests {
    static let home = ["HOME": "/home/me"]

    @Test(arguments: [
        (nil, "postgres://a@h/d", [String: String](), "postgres://a@h/d"),
        ("/x/todo.db", nil, ["TODO_DATABASE_URL": "postgres://a@h/d"], "/x/todo.db"),
        (nil, nil, ["TODO_DATABASE_URL": "postgresql://a:pw@h/d"], "postgresql://a@h/d"),
        (nil, nil, ["TODO_DATABASE_URL": "postgres://a@h/d", "TODO_FILE": "/f.db"], "postgres://a@h/d"),
        (nil, nil, ["TODO_DATABASE_URL": "", "TODO_FILE": "/f.db"], "/f.db"),
        (nil, nil, [:], "/home/me/.local/share/undokit-todo/todo.db"),
    ])
    func choosesTheList(file: String?, database: String?, environment: [String: String], location: String) throws {
        let store = try TODOStore(
            file: file, database: database, environment: environment.merging(Self.home) { $1 }, options: .init())
        #expect(store.location == location)
        #expect((store.databaseURL != nil) == location.hasPrefix("postgres"))
    }

    @Test func keepsThePostgresListsTypedLinesOnThisMachine() throws {
        let store = try TODOStore(
            file: nil, database: "postgres://alice:pw@db.example:5433/todo",
            environment: ["XDG_DATA_HOME": "/xdg", "TODO_FILE": "/elsewhere/todo.db"], options: .init())
        #expect(store.linesURL.path == "/xdg/undokit-todo/postgres-alice-db.example-5433-todo.db.lines")
    }

    @Test(arguments: [
        ("--database", "mysql://h/d", "--database takes a PostgreSQL URL such as postgres://alice@db.example/todo: it does not start with postgres:// or postgresql:// (an SQLite file is --file PATH)"),
        ("TODO_DATABASE_URL", "todo.db", "TODO_DATABASE_URL must be a PostgreSQL URL such as postgres://alice@db.example/todo: it does not start with postgres:// or postgresql:// (an SQLite file is --file PATH)"),
    ])
    func refusesWhatIsNotAPostgresURL(source: String, text: String, message: String) {
        let error = #expect(throws: TODOCommandLine.Invocation.Failure.self) {
            try TODOStore(
                file: nil, database: source == "--database" ? text : nil,
                environment: source == "--database" ? [:] : [source: text], options: .init())
        }
        #expect(error?.message == message)
    }

    @Test(arguments: [
        (["--database", "postgres://h/d", "list"], "postgres://h/d", ["list"]),
        (["--database=postgres://h/d"], "postgres://h/d", []),
    ])
    func readsTheOption(arguments: [String], database: String, command: [String]) throws {
        let invocation = try TODOCommandLine.Invocation(arguments: arguments)
        #expect(invocation.database == database)
        #expect(invocation.command == command)
    }

    @Test(arguments: [
        (["--database"], "--database needs a URL, such as postgres://alice@db.example/todo"),
        (["--database="], "--database needs a URL, such as postgres://alice@db.example/todo"),
        (["--file", "a.db", "--database", "postgres://h/d"],
         "--file names an SQLite file and --database a PostgreSQL database; give one of them"),
    ])
    func refusesAMissingOrSecondList(arguments: [String], message: String) {
        let error = #expect(throws: TODOCommandLine.Invocation.Failure.self) {
            try TODOCommandLine.Invocation(arguments: arguments)
        }
        #expect(error?.message == message)
    }

    /// A bad URL stops `todo` with status 2 before anything is tried, and never prints the
    /// password.
    @Test func aBadURLIsAnInvalidOption() {
        let console = ScriptedConsole()
        let status = TODOCommandLine.run(
            arguments: ["--database", "postgres://alice:secret@h/d?bogus=1", "list"], environment: [:],
            console: console.console)
        #expect(status == 2)
        #expect(console.errors.contains(#"invalid URI query parameter: "bogus""#))
        #expect(!console.errors.contains("secret"))
    }
}
