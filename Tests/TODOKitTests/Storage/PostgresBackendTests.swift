import Foundation
import Testing
@testable import TODOKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgreSQL backend's own behaviour, on a throwaway server: the connection's values and
/// reconnection, the write lock between two connections, the notifications a waiting session
/// hears, and what it refuses. (The storage and session tests run on both backends besides.)
@Suite(.enabled(if: PostgresInstallation.testsRun, "needs the PostgreSQL server programs"))
struct PostgresBackendTests {
    static func store(_ database: PostgresDatabase, lockTimeout: Duration = .seconds(5)) throws -> TODOStore {
        TODOStore(
            databaseURL: try PostgresURL(database.tcpURL), linesDirectory: FileManager.default.temporaryDirectory,
            options: .init(lockTimeout: lockTimeout))
    }

    /// Adds an item at the end of the list, as a line of a session does.
    static func add(_ title: String, to database: TODODatabase) throws {
        try database.write { () throws(TODOStoreError) in
            _ = try database.refresh()
            let count = try database.readList().count
            try database.commit([.init(change: .insert(TODOItem(title: title), at: count), itemID: nil)])
        }
    }

    static func titles(_ database: PostgresDatabase) throws -> [String] {
        try database.psql("SELECT title FROM item ORDER BY position").split(separator: "\n").map(String.init)
    }

    /// Ends every other connection to the database, and waits until they are gone: what a
    /// server restart or a broken network does to a client.
    static func cutConnections(to database: PostgresDatabase) throws {
        try database.psql(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    }

    /// Whether `descriptor` becomes readable within `milliseconds`.
    static func becomesReadable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, milliseconds) == 1 && watched.revents & Int16(POLLIN) != 0
    }

    @Test func valuesGoAndComeBackAsTheyWere() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let connection = try PostgresConnection(url: try PostgresURL(database.socketURL))
        try connection.executeScript("CREATE TABLE value (number BIGINT, real DOUBLE PRECISION, text TEXT)")
        let rows: [(Int64, Double, String?)] = [
            (0, 0.5, "plain"),
            (-1, -1e-7, "it's ? \"quoted\" $1 ; -- not a comment"),
            (Int64.max, 1_764_000_000.25, "ünïcødé 🎉 ← →"),
            (Int64.min + 1, 3, nil),
        ]
        for (number, real, text) in rows {
            let changed = try connection.execute(
                "INSERT INTO value (number, real, text) VALUES (?, ?, ?)",
                [.integer(number), .real(real), text.map(SQLValue.text) ?? .null])
            #expect(changed == 1)
        }
        var read: [(Int64, String, Bool)] = []
        try connection.forEachRow("SELECT number, text, text IS NULL FROM value WHERE real = ? OR number <> ?", [
            .real(0.5), .integer(0),
        ]) { row in
            read.append((row.integer(0), row.text(1), row.isNull(1)))
        }
        #expect(read.map(\.0) == rows.map(\.0))
        #expect(read.map(\.1) == rows.map { $0.2 ?? "" })
        #expect(read.map(\.2) == rows.map { $0.2 == nil })
        #expect(try connection.execute("UPDATE value SET text = ? WHERE number < ?", [.text("negative"), .integer(0)]) == 2)
    }

    @Test func aMissingListReadsEmptyAndOnlyAChangeMakesTheTables() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let store = try Self.store(database)
        #expect(try store.load() == TODOStore.Contents(list: TODOList(), revision: 0))
        #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")

        try Self.add("Buy milk", to: TODODatabase(store: store))
        #expect(try database.psql("SELECT application, version FROM todo_schema") == "UndoKit TODO|4\n")
        #expect(try store.load().list.items.map(\.title) == ["Buy milk"])
        #expect(try store.load().revision == 1)
    }

    @Test func aSecondWriterWaitsForTheLockAndGivesUpHavingWrittenNothing() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let first = TODODatabase(store: try Self.store(database))
        let second = TODODatabase(store: try Self.store(database, lockTimeout: .milliseconds(200)))
        try Self.add("first", to: first)
        var error: TODOStoreError?
        let started = ContinuousClock.now
        try first.write { () throws(TODOStoreError) in
            _ = try first.refresh()
            do {
                try Self.add("second", to: second)
            } catch let caught as TODOStoreError {
                error = caught
            } catch {
                Issue.record("not a store error: \(error)")
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(error == .locked(path: try PostgresURL(database.tcpURL).description, timeout: .milliseconds(200)))
        #expect(try Self.titles(database) == ["first"])
        // Once the lock is free, the second writer's change goes in.
        try Self.add("second", to: second)
        #expect(try Self.titles(database) == ["first", "second"])
    }

    @Test func anotherProcessesChangeIsHeardOnTheSocketAndOurOwnIsNot() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let mine = TODODatabase(store: try Self.store(database))
        let theirs = TODODatabase(store: try Self.store(database))
        try Self.add("first", to: theirs)
        _ = try mine.refresh()
        let descriptor = try #require(mine.changeDescriptor)
        #expect(try !mine.hasChangedElsewhere())
        #expect(!Self.becomesReadable(descriptor, within: 100))

        try Self.add("second", to: theirs)
        #expect(Self.becomesReadable(descriptor, within: 5000))
        #expect(try mine.hasChangedElsewhere())
        #expect(try mine.hasChangedElsewhere(), "it says yes until refresh() reads the change")
        guard case .changed(let list) = try mine.refresh() else {
            Issue.record("refresh() did not read the other connection's change")
            return
        }
        #expect(list.items.map(\.title) == ["first", "second"])
        #expect(try !mine.hasChangedElsewhere())

        // Its own change notifies too, and is ignored; the other connection hears it.
        try Self.add("third", to: mine)
        #expect(theirs.changeDescriptor.map { Self.becomesReadable($0, within: 5000) } == true)
        #expect(try theirs.hasChangedElsewhere())
        _ = Self.becomesReadable(descriptor, within: 200)
        #expect(try !mine.hasChangedElsewhere())
    }

    @Test func tablesOfAnotherProgramAreRefusedAndLeftAlone() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        try database.psql("CREATE TABLE item (sku TEXT)")
        let store = try Self.store(database)
        let error = #expect(throws: TODOStoreError.self) { try Self.add("Buy milk", to: TODODatabase(store: store)) }
        guard case .foreign(let path, let reason)? = error else {
            Issue.record("not refused as another program's: \(String(describing: error))")
            return
        }
        #expect(path == "postgres://postgres@127.0.0.1:\(database.server.port)/\(database.name)")
        #expect(reason.contains("a table named item that todo did not make"))
        #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "1\n")
    }

    @Test func aNewerSchemaIsRefused() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let store = try Self.store(database)
        try Self.add("Buy milk", to: TODODatabase(store: store))
        try database.psql("UPDATE todo_schema SET version = 99")
        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        #expect(error == .unsupportedVersion(path: store.location, found: 99, supported: TODODatabase.schemaVersion))
    }

    @Test func aServerThatIsDownIsNamedWithoutThePassword() throws {
        // Port 1 on this machine: nothing listens there.
        let store = TODOStore(
            databaseURL: try PostgresURL("postgres://alice:secret@127.0.0.1:1/todo"),
            linesDirectory: FileManager.default.temporaryDirectory)
        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        guard case .unreachable(let server, let reason)? = error else {
            Issue.record("not reported as unreachable: \(String(describing: error))")
            return
        }
        #expect(server == "postgres://alice@127.0.0.1:1/todo")
        #expect(reason.contains("Connection refused"))
        #expect(!"\(error.map { "\($0)" } ?? "")".contains("secret"))
    }

    @Test func aConnectionCutBetweenTwoChangesIsMadeAgain() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let todo = TODODatabase(store: try Self.store(database))
        try Self.add("before", to: todo)
        try Self.cutConnections(to: database)
        try Self.add("after", to: todo)
        #expect(try Self.titles(database) == ["before", "after"])
        #expect(todo.serverConnection?.reconnections == 1)
    }

    @Test func aConnectionCutDuringAChangeWritesNothingAndSaysSo() throws {
        let database = try ThrowawayPostgres.shared().makeDatabase()
        let todo = TODODatabase(store: try Self.store(database))
        try Self.add("before", to: todo)
        let error = #expect(throws: TODOStoreError.self) {
            try todo.write { () throws(TODOStoreError) in
                _ = try todo.refresh()
                try todo.commit([.init(change: .insert(TODOItem(title: "cut short"), at: 1), itemID: nil)])
                do {
                    try Self.cutConnections(to: database)
                } catch {
                    Issue.record("psql could not end the connection: \(error)")
                }
            }
        }
        guard case .connectionLost(let server, _)? = error else {
            Issue.record("not reported as a lost connection: \(String(describing: error))")
            return
        }
        #expect(server == todo.store.location)
        #expect(try Self.titles(database) == ["before"])
        #expect(try database.psql("SELECT revision FROM list_state") == "1\n")
        // The next operation connects again and reads the list as the server kept it, even
        // at the revision this process last saw: whoever ran the change lost their copy.
        #expect(todo.revision == 1)
        guard case .changed(let list) = try todo.refresh() else {
            Issue.record("the refresh after a lost change did not read the list")
            return
        }
        #expect(list.items.map(\.title) == ["before"])
        #expect(try todo.refresh() == .unchanged)
        try Self.add("after", to: todo)
        #expect(try Self.titles(database) == ["before", "after"])
    }

    /// A session waiting at its prompt when the server stops: told once (so that it refreshes
    /// and says what happened), not again while the server is away; its next refresh after
    /// the server is back connects again.
    @Test func aWaitingSessionIsToldOnceThatTheServerWentAndConnectsAgainLater() throws {
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        let database = try server.makeDatabase()
        let todo = TODODatabase(store: try Self.store(database))
        try Self.add("before", to: todo)
        let descriptor = try #require(todo.changeDescriptor)

        server.stopServer(mode: .fast)
        #expect(Self.becomesReadable(descriptor, within: 5000), "the server's goodbye arrives on the socket")
        #expect(try todo.hasChangedElsewhere())
        #expect(try !todo.hasChangedElsewhere(), "said once")
        let error = #expect(throws: TODOStoreError.self) { try todo.refresh() }
        guard case .unreachable(let named, _)? = error else {
            Issue.record("not reported as unreachable: \(String(describing: error))")
            return
        }
        #expect(named == todo.store.location)

        try server.start()
        #expect(try todo.refresh() == .unchanged)
        try Self.add("after", to: todo)
        #expect(try Self.titles(database) == ["before", "after"])
        #expect(todo.changeDescriptor != nil)
    }
}
