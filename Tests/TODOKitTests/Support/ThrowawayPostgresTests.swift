import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The harness the PostgreSQL tests stand on: it must start a real server as a non-root user,
/// reach it the ways the tests do, and leave nothing running whatever happens to the tests.
// Runs only where the server programs are (or `TODO_REQUIRE_POSTGRES=1` demands them, and then
// fails without them); `PostgresInstallation.testsRun` says loudly on stderr when it skips.
@Suite(.enabled(if: PostgresInstallation.testsRun, "needs the PostgreSQL server programs"))
struct ThrowawayPostgresTests {
    @Test func startsAcceptsConnectionsOnSocketAndLoopbackAndStops() throws {
        let server = try ThrowawayPostgres()
        let installation = server.installation
        let psql = installation.binaries.appendingPathComponent("psql").path

        // The way a person checks a server by hand: psql on the socket folder and port.
        let overSocket = try PostgresInstallation.run(psql, ["-h", server.socketDirectory, "-p", "\(server.port)", "-U", "postgres", "-d", "postgres", "-Atc", "select 1"], in: server.folder)
        #expect(overSocket == "1\n")
        // And over TCP on 127.0.0.1, as the tests' "other machine" does.
        let overTCP = try PostgresInstallation.run(psql, [server.tcpURL(database: "postgres"), "-Atc", "select inet_server_addr()"], in: server.folder)
        #expect(overTCP == "127.0.0.1\n")
        #expect(try server.psql("SHOW listen_addresses") == "127.0.0.1\n", "never listening beyond this machine")

        // Not root: the server refuses it, and the harness must have found a user.
        let postmaster = try #require(try Self.postmasterID(of: server))
        #expect(try Self.ownerID(ofProcess: postmaster) != 0, "the server runs as an ordinary user")

        server.stop()
        // `pg_ctl stop --wait` returns once the server removed its pid file, just before the
        // process ends; the bound only turns a hang into a failure.
        let deadline = Date(timeIntervalSinceNow: 30)
        while isAlive(postmaster) && Date() < deadline {
            usleep(50_000)
        }
        #expect(!isAlive(postmaster), "the server is gone")
        #expect(!FileManager.default.fileExists(atPath: server.folder.path), "its folder is removed")
        #expect(throws: PostgresInstallation.CommandFailed.self) {
            try PostgresInstallation.run(psql, ["-h", server.socketDirectory, "-p", "\(server.port)", "-U", "postgres", "-c", "select 1"], in: URL(fileURLWithPath: "/"))
        }
    }

    @Test func eachDatabaseIsSeparateAndDroppedWithItsObject() throws {
        let server = try ThrowawayPostgres.shared()
        var first: PostgresDatabase? = try server.makeDatabase()
        let second = try server.makeDatabase()
        let firstName = try #require(first?.name)
        try first?.psql("CREATE TABLE note (text text); INSERT INTO note VALUES ('first')")
        #expect(try first?.psql("SELECT text FROM note") == "first\n")
        #expect(throws: PostgresInstallation.CommandFailed.self, "a table of one database is not in another") {
            try second.psql("SELECT text FROM note")
        }
        first = nil
        #expect(try server.psql("SELECT count(*) FROM pg_database WHERE datname = '\(firstName)'") == "0\n")
        #expect(try server.psql("SELECT count(*) FROM pg_database WHERE datname = '\(second.name)'") == "1\n")
    }

    @Test func restartKeepsCommittedDataAndTheAddress() throws {
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        let database = try server.makeDatabase()
        try database.psql("CREATE TABLE note (text text); INSERT INTO note VALUES ('kept')")
        let before = try #require(try Self.postmasterID(of: server))

        try server.restart(mode: .immediate)

        let after = try #require(try Self.postmasterID(of: server))
        #expect(after != before, "a new server process")
        #expect(try database.psql("SELECT text FROM note") == "kept\n", "recovered from its log after a crash-like stop")
    }

    /// A test process that dies without stopping its server (SIGKILL: no `deinit`, no `defer`)
    /// leaves nothing running: the watchdog stops the server and removes its folder.
    @Test func aKilledTestProcessLeavesNoServerRunning() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("todokit-pg-marker-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        await #expect(processExitsWith: .signal(SIGKILL)) { [marker = marker as String] in
            let server = try ThrowawayPostgres()
            let postmaster = try String(contentsOf: server.dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
                .split(separator: "\n")[0]
            try Data("\(server.folder.path)\n\(postmaster)\n".utf8).write(to: URL(fileURLWithPath: marker))
            kill(getpid(), SIGKILL)
        }
        let lines = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n").map(String.init)
        let folder = lines[0]
        let postmaster = try #require(pid_t(lines[1]))
        // The watchdog looks once a second; this bound only turns a hang into a failure.
        let deadline = Date(timeIntervalSinceNow: 60)
        while (isAlive(postmaster) || FileManager.default.fileExists(atPath: folder)) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(!isAlive(postmaster), "the orphaned server was stopped")
        #expect(!FileManager.default.fileExists(atPath: folder), "and its folder removed")
    }

    // MARK: Helpers

    /// The server's main process, from the first line of its `postmaster.pid`.
    static func postmasterID(of server: ThrowawayPostgres) throws -> pid_t? {
        let text = try String(contentsOf: server.dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        return text.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// The real user id of a process, from `/proc/<pid>/status` (`Uid:\treal\teffective…`).
    static func ownerID(ofProcess process: pid_t) throws -> uid_t? {
        let status = try String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
        return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { uid_t($0) }
    }
}
