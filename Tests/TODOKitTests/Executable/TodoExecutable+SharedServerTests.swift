import Foundation
import Testing
@testable import TODOKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `todo` program on a list several machines share: sessions as separate processes on
/// separate connections (TCP to 127.0.0.1, the way two machines reach one server), a server
/// that restarts under a session, a client killed in the middle of its transaction, and a
/// history damaged by another program. The tests that take a `Backend` run on both; the ones
/// about a server need PostgreSQL (`PostgresInstallation.testsRun` says loudly when they skip).
@Suite struct TodoExecutableSharedServerTests {
    /// A clean environment whose home is the test's directory: where a PostgreSQL session
    /// keeps the lines typed at its prompt.
    static func environment(_ list: TestList) -> [String: String] {
        ["HOME": list.directory.url.path]
    }

    static func todo(_ list: TestList, _ arguments: String...) throws -> TodoExecutableTests.Run? {
        try TodoExecutableTests.run(list.todoArguments + arguments, input: "", environment: environment(list))
    }

    static func session(_ list: TestList, as person: String) throws -> TodoProcess {
        try TodoProcess(list.todoArguments + ["--as", person], environment: environment(list))
    }

    /// Alice and Bob, each a session of their own on their own connection, take turns; each
    /// undo takes the person's own newest step, never the other's, and the shared history
    /// holds every step in the order it was made.
    @Test(arguments: Backend.available)
    func twoSessionsOnTwoConnectionsEachUndoOnlyTheirOwnEdits(backend: Backend) throws {
        let list = try backend.makeList()
        let alice = try Self.session(list, as: "alice")
        let bob = try Self.session(list, as: "bob")
        try alice.send("add one")
        #expect(alice.waitForOutput(lines: 1))
        try bob.send("add two")
        #expect(bob.waitForOutput(lines: 1))
        try alice.send("add three")
        #expect(alice.waitForOutput(lines: 2))
        if let database = list.database {
            // Both sessions are connected at once, over TCP from 127.0.0.1.
            let clients = try database.psql(
                "SELECT count(DISTINCT client_port) FROM pg_stat_activity WHERE datname = current_database() AND client_addr = '127.0.0.1'")
            #expect((Int(clients.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 2, "connections: \(clients)")
        }
        try bob.send("undo")
        #expect(bob.waitForOutput(lines: 2))
        try alice.send("undo; undo")
        #expect(alice.waitForOutput(lines: 4))
        try bob.send("redo")
        #expect(alice.finish() == 0)
        #expect(bob.finish() == 0)
        #expect(alice.outputLines == ["1. [ ] one", "3. [ ] three", "Undo Add \"three\" (item 2 is gone)", "Undo Add \"one\" (item 1 is gone)"])
        #expect(bob.outputLines == ["2. [ ] two", "Undo Add \"two\" (item 2 is gone)", "Redo Add \"two\" (item 1 is back)"])
        #expect(alice.errorLines.filter { $0.hasPrefix("error") } == [])
        #expect(bob.errorLines.filter { $0.hasPrefix("error") } == [])
        #expect(bob.errorLines.contains(backend.reloaded("3 items")), "bob hears of alice's edits")
        let store = try list.store()
        #expect(try store.load().list.items.map(\.title) == ["two"])
        #expect(try store.savedSteps().map { "\($0.person): \($0.title)" } == [
            "alice: Add \"one\"", "bob: Add \"two\"", "alice: Add \"three\"", "bob: Undo Add \"two\"",
            "alice: Undo Add \"three\"", "alice: Undo Add \"one\"", "bob: Redo Add \"two\"",
        ])
    }

    /// A step's changes in a state `todo` never writes, as another program can leave them:
    /// `list` reads no history; `undo` that reaches the step fails with the same clear error on
    /// both backends and changes nothing; a new change is saved, and undone, as ever.
    @Test(arguments: Backend.available, [
        "UPDATE step_change SET op = 'garbage' WHERE step = 2",
        "UPDATE step_change SET item = 'not a uuid' WHERE step = 2",
        "UPDATE step_change SET priority = 'urgent' WHERE step = 2",
    ])
    func aDamagedStepIsTheSameClearErrorOnBothBackends(backend: Backend, damage: String) throws {
        let list = try backend.makeList()
        let store = try list.store()
        _ = try Self.todo(list, "add", "Buy milk")
        _ = try Self.todo(list, "add", "Buy eggs")
        try list.damage(damage)
        let before = try store.load()

        guard let listed = try Self.todo(list, "list") else { return }
        #expect(listed.status == 0)
        #expect(listed.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n")

        guard let undo = try Self.todo(list, "undo") else { return }
        #expect(undo.status == 1)
        #expect(undo.output == "")
        #expect(undo.errors == "error: \(list.location) is damaged: a change of step 2 of the history is not one todo writes; nothing changed\n")
        #expect(try store.load() == before, "the list is not affected")

        guard let add = try Self.todo(list, "add", "Bread") else { return }
        #expect(add.output == "3. [ ] Bread\n")
        guard let again = try Self.todo(list, "undo") else { return }
        #expect(again.output == "Undo Add \"Bread\" (item 3 is gone)\n")
        #expect(again.errors == "")
    }
}

/// The sessions that need a PostgreSQL server of their own, or its view of the connections.
// Runs only where the server programs are (or `TODO_REQUIRE_POSTGRES=1` demands them, and then
// fails without them); `PostgresInstallation.testsRun` says loudly on stderr when it skips.
@Suite(.enabled(if: PostgresInstallation.testsRun, "needs the PostgreSQL server programs"))
struct TodoExecutablePostgresServerTests {
    /// The server restarts between two lines of a session (`pg_ctl restart -m fast`: every
    /// connection is ended). The next line reconnects and is saved; the tables hold whole
    /// changes only: the list's revision is its newest step's, and every step's changes are
    /// there.
    @Test func aServerRestartMidSessionReconnectsAndLeavesNothingHalfWritten() throws {
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        let database = try server.makeDatabase()
        let list = try TestList(backend: .postgres, database: database)
        let session = try TodoExecutableSharedServerTests.session(list, as: "alice")
        try session.send("add one")
        #expect(session.waitForOutput(lines: 1))

        try server.restart(mode: .fast)

        try session.send("add two")
        #expect(session.waitForOutput(lines: 2))
        try session.send("undo")
        #expect(session.waitForOutput(lines: 3))
        #expect(session.finish() == 0)
        #expect(session.outputLines == ["1. [ ] one", "2. [ ] two", "Undo Add \"two\" (item 2 is gone)"])
        #expect(session.errorLines.filter { !$0.hasPrefix("todo: using") } == [])
        try Self.expectWholeChanges(in: database)
        #expect(try list.store().load().list.items.map(\.title) == ["one"])
    }

    /// The server stops while a session waits at its prompt and stays down for a line: that
    /// line fails, saying it cannot reach the server and naming it, and is not saved; once the
    /// server is back, the next line is. The session's exit status says a line failed.
    @Test func aLineWhileTheServerIsDownSaysSoAndTheNextOneWorks() throws {
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        let database = try server.makeDatabase()
        let list = try TestList(backend: .postgres, database: database)
        let session = try TodoExecutableSharedServerTests.session(list, as: "alice")
        try session.send("add one")
        #expect(session.waitForOutput(lines: 1))

        server.stopServer(mode: .fast)
        try session.send("add lost")
        #expect(session.waitForError(containing: "cannot connect"))
        try server.start()
        try session.send("add two")
        #expect(session.waitForOutput(lines: 2))
        #expect(session.finish() == 1, "a line failed")

        #expect(session.outputLines == ["1. [ ] one", "2. [ ] two"])
        let errors = session.errorLines.filter { !$0.hasPrefix("todo: using") }
        #expect(errors.count == 1, "one error, for the line the server missed: \(errors)")
        #expect(errors.first?.hasPrefix("todo: cannot connect to \(list.location): ") == true, "\(errors)")
        #expect(errors.first?.contains("Connection refused") == true, "libpq's reason: \(errors)")
        try Self.expectWholeChanges(in: database)
        #expect(try list.store().load().list.items.map(\.title) == ["one", "two"])
    }

    /// A `todo` killed (SIGKILL) while it holds the write lock in the middle of a long line —
    /// one transaction of two thousand adds — leaves nothing of that line: the server sees the
    /// connection close and rolls the transaction back, the lock goes, and the other session
    /// carries on.
    @Test func aClientKilledMidTransactionIsRolledBackAndTheOtherSessionCarriesOn() throws {
        let list = try Backend.postgres.makeList()
        let database = try #require(list.database)
        let bob = try TodoExecutableSharedServerTests.session(list, as: "bob")
        try bob.send("add bob's")
        #expect(bob.waitForOutput(lines: 1))
        let before = try list.store().load()

        let alice = try TodoExecutableSharedServerTests.session(list, as: "alice")
        try alice.send((1...2000).map { "add alice \($0)" }.joined(separator: "; "))
        #expect(Self.waitUntil { try Self.writeLocksHeld(in: database) == 1 }, "alice's line holds the write lock")
        alice.kill()
        #expect(alice.outputLines.isEmpty, "the line never finished")

        #expect(Self.waitUntil { try Self.writeLocksHeld(in: database) == 0 }, "the server let go of the lock")
        #expect(try list.store().load() == before, "nothing of alice's line")
        try Self.expectWholeChanges(in: database)
        #expect(try database.psql("SELECT count(*) FROM step WHERE person = 'alice'") == "0\n")

        try bob.send("add after")
        #expect(bob.waitForOutput(lines: 2))
        try bob.send("undo")
        #expect(bob.waitForOutput(lines: 3))
        #expect(bob.finish() == 0)
        #expect(bob.outputLines == ["1. [ ] bob's", "2. [ ] after", "Undo Add \"after\" (item 2 is gone)"])
        #expect(bob.errorLines.filter { !$0.hasPrefix("todo: using") } == [])
    }

    // MARK: Helpers

    /// The tables hold whole changes only: the list's revision is that of the newest step,
    /// every step's revision has its changes, and no change is newer than the list.
    static func expectWholeChanges(in database: PostgresDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try database.psql("""
            SELECT (SELECT revision FROM list_state) = (SELECT coalesce(max(revision), 0) FROM step),
                   NOT EXISTS (SELECT 1 FROM step s WHERE s.revision > 0
                               AND NOT EXISTS (SELECT 1 FROM step_change c WHERE c.revision = s.revision)),
                   NOT EXISTS (SELECT 1 FROM step_change WHERE revision > (SELECT revision FROM list_state)),
                   (SELECT count(*) FROM item) = (SELECT count(DISTINCT position) FROM item)
            """)
        #expect(check == "t|t|t|t\n", "revision of the newest step | every step has changes | no change beyond the list | positions distinct", sourceLocation: sourceLocation)
    }

    /// How many connections hold the write lock of a change (`EXCLUSIVE` on `list_state`).
    static func writeLocksHeld(in database: PostgresDatabase) throws -> Int {
        let count = try database.psql("""
            SELECT count(*) FROM pg_locks
            WHERE locktype = 'relation' AND relation = 'list_state'::regclass AND mode = 'ExclusiveLock' AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """)
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Polls `condition` until it holds; the bound only turns a hang into a failure.
    static func waitUntil(_ condition: () throws -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TodoProcess.patience)
        while Date() < deadline {
            if (try? condition()) == true {
                return true
            }
            usleep(20_000)
        }
        return false
    }
}
