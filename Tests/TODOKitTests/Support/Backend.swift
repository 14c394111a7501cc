import Foundation
import Testing
@testable import TODOKit

/// Where a test's list lives: the two backends a storage or session test runs on.
///
/// A parameterized test takes `Backend.available`: both where the PostgreSQL server programs
/// are (or `TODO_REQUIRE_POSTGRES=1` demands them), SQLite alone elsewhere, after
/// `PostgresInstallation.testsRun` said loudly on stderr that the PostgreSQL cases skip.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static var available: [Backend] {
        PostgresInstallation.testsRun ? allCases : [.sqlite]
    }

    /// A new, empty list of the test's own: a file in a new directory, or a new database on the
    /// shared throwaway server.
    func makeList() throws -> TestList {
        switch self {
        case .sqlite: try TestList(backend: self, database: nil)
        case .postgres: try TestList(backend: self, database: ThrowawayPostgres.shared().makeDatabase())
        }
    }
}

extension Backend {
    /// Where a session says the list changed: a file changes on disk, a database on its server.
    var changedPlace: String {
        self == .sqlite ? "changed on disk" : "changed on the server"
    }

    /// The line a session prints when another process's change leaves `count` items.
    func reloaded(_ count: String) -> String {
        "todo: the list \(changedPlace) (another todo saved it); reloaded: \(count)"
    }
}

/// A list of one test, on one backend, and what keeps it: the temporary directory (the SQLite
/// file, or PostgreSQL's lines files) and the PostgreSQL database, both removed with this object.
final class TestList {
    let backend: Backend
    let directory: TemporaryDirectory
    let database: PostgresDatabase?

    init(backend: Backend, database: PostgresDatabase?) throws {
        self.backend = backend
        self.directory = try TemporaryDirectory()
        self.database = database
    }

    /// The SQLite file (`todo.db` in the directory); unused on PostgreSQL.
    var fileURL: URL { directory.file("todo.db") }

    /// A store on the list, as a process opens it. On PostgreSQL it connects over TCP to
    /// 127.0.0.1, as a client on another machine would.
    func store(options: TODOStore.Options = .init(), beforeCommit: @escaping @Sendable () throws -> Void = {}) throws -> TODOStore {
        guard let database else {
            return TODOStore(fileURL: fileURL, options: options, beforeCommit: beforeCommit)
        }
        return TODOStore(
            databaseURL: try PostgresURL(database.tcpURL), linesDirectory: directory.url, options: options,
            beforeCommit: beforeCommit)
    }

    /// The `todo` arguments that name this list: `--file PATH` or `--database URL`.
    var todoArguments: [String] {
        if let database {
            ["--database", database.tcpURL]
        } else {
            ["--file", fileURL.path]
        }
    }

    /// The list's place as `todo`'s messages name it: the file's path, or the URL.
    var location: String {
        database?.tcpURL ?? fileURL.path
    }

    /// Runs `sql` as another program could, without the schema's checks: SQLite's
    /// `ignore_check_constraints`; on PostgreSQL, the `CHECK` constraints of the list's tables
    /// dropped first (for good: the test's database is its own).
    func damage(_ sql: String) throws {
        let store = try store()
        switch backend {
        case .sqlite:
            try store.execute("PRAGMA ignore_check_constraints = ON; " + sql + "; PRAGMA wal_checkpoint(TRUNCATE)")
        case .postgres:
            try store.execute("""
                DO $$
                DECLARE c record;
                BEGIN
                    FOR c IN SELECT conrelid::regclass AS owner, conname FROM pg_constraint
                             WHERE contype = 'c' AND connamespace = current_schema()::regnamespace
                    LOOP
                        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.owner, c.conname);
                    END LOOP;
                END $$;
                """ + sql)
        }
    }
}
