import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server of the tests' own: `initdb` into a new folder under `/tmp` (trust
/// authentication, superuser `postgres`), started with `pg_ctl`, listening on a Unix socket in
/// that folder and on 127.0.0.1 only, on a free port; stopped and its folder removed at the
/// end.
///
/// Most tests share one server per test process (`shared`) and take a database of their own
/// from it (`makeDatabase()`), which is their isolation: starting a server takes seconds,
/// creating a database milliseconds. A test that stops or restarts the server starts its own.
///
/// **Nothing is left running.** A server stops when its owner calls `stop()`, when the object
/// goes (`deinit`), and — for the shared server, which lives as long as the test process, and
/// for a test process that crashes or is killed — when a watchdog sees the test process gone.
/// The watchdog is a shell loop in a session of its own (so a Ctrl-C to `swift test` does not
/// take it down with the tests) that checks once a second that the test process is alive and
/// the folder still there, and otherwise stops the server with `pg_ctl stop -m immediate` and
/// removes the folder. A parent-death signal on the server itself would not do: `pg_ctl`
/// detaches the server into a session of its own, and Linux sends that signal when the
/// spawning *thread* ends, not the process. As a last resort, the first server a test process
/// starts sweeps the folders of earlier runs (`/tmp/todokit-pg-*`, this harness's prefix)
/// whose owning process is gone, stopping their servers: that covers a watchdog killed along
/// with its tests.
///
/// It never touches a server it did not start: every command names this server's folder,
/// socket and port, and the `PG…` environment variables that could point libpq elsewhere are
/// removed (`PostgresInstallation.cleanEnvironment`).
///
/// The server is tuned for tests, not durability (`fsync=off`, `full_page_writes=off`): a
/// stop, even an immediate one, or a killed client still leaves what was committed, since a
/// commit still writes its log to the operating system and only a crash of the operating
/// system loses unsynced writes. (`synchronous_commit` stays on: off, an immediate stop loses
/// the last commits, which the restart tests would rightly call a bug.)
final class ThrowawayPostgres: Sendable {
    let installation: PostgresInstallation
    /// The folder holding the data directory, the socket and the log; owned by the server's user.
    let folder: URL
    let port: Int
    private let isRunning = Mutex(false)

    static let prefix = "todokit-pg-"
    static let superuser = "postgres"

    /// The server the tests of this process share, started by the first test that asks.
    /// Its databases are each test's own (`makeDatabase()`); it stops when the process ends.
    static func shared() throws -> ThrowawayPostgres {
        try sharedServer.get()
    }

    private static let sharedServer = Result { try ThrowawayPostgres() }

    /// Starts a new server: a new data directory, a free port, and waits until it takes
    /// connections.
    init() throws {
        installation = try PostgresInstallation.require()
        Self.sweepOnce()
        folder = URL(fileURLWithPath: "/tmp", isDirectory: true)
            .appendingPathComponent(Self.prefix + UUID().uuidString.prefix(8).lowercased(), isDirectory: true)
        // `/tmp` rather than the temporary directory: a Unix socket path holds at most 107
        // bytes, and `TMPDIR` may be long.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("\(getpid())\n".utf8).write(to: folder.appendingPathComponent("owner.pid"))
        do {
            if let user = installation.serverUser {
                try PostgresInstallation.run("/bin/chown", [user, folder.path], in: folder)
            }
            try Self.startWatchdog(installation: installation, folder: folder)
            try installation.run("initdb", [
                "--pgdata=\(folder.appendingPathComponent("data").path)", "--username=\(Self.superuser)", "--auth=trust",
                "--encoding=UTF8", "--no-locale", "--no-sync",
            ], in: folder)
            port = try Self.startOnFreePort(installation: installation, folder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        isRunning.withLock { $0 = true }
        try waitUntilAcceptingConnections()
    }

    deinit {
        stop()
    }

    var dataDirectory: URL { folder.appendingPathComponent("data", isDirectory: true) }
    /// The folder of the server's Unix socket (`.s.PGSQL.<port>`), for libpq's `host`.
    var socketDirectory: String { folder.path }
    var logFile: URL { folder.appendingPathComponent("server.log") }

    /// A libpq URL for `database` over TCP on 127.0.0.1, as a client on another machine connects.
    func tcpURL(database: String) -> String {
        "postgres://\(Self.superuser)@127.0.0.1:\(port)/\(database)"
    }

    /// A libpq URL for `database` over the Unix socket.
    func socketURL(database: String) -> String {
        "postgres://\(Self.superuser)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// Runs `sql` with `psql` on `database` over the socket and returns the rows unaligned,
    /// tuples only (`-At`), one per line; throws with psql's message on an error.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try installation.run("psql", [
            "--no-psqlrc", "--host=\(socketDirectory)", "--port=\(port)", "--username=\(Self.superuser)",
            "--dbname=\(database)", "--set=ON_ERROR_STOP=1", "--no-align", "--tuples-only", "--command=\(sql)",
        ], in: folder, asServerUser: false)
    }

    /// A new empty database on this server, dropped when the returned object goes.
    func makeDatabase() throws -> PostgresDatabase {
        let name = "todo_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try psql("CREATE DATABASE \(name)")
        return PostgresDatabase(server: self, name: name)
    }

    // MARK: Stopping and restarting

    /// How `stop` ends the server's connections: `fast` rolls back their transactions and
    /// shuts down cleanly; `immediate` kills everything as a crash would (the next start
    /// recovers from the write-ahead log).
    enum StopMode: String {
        case fast, immediate
    }

    /// Stops the server and removes its folder. Does nothing if already stopped.
    func stop() {
        stopServer(mode: .fast)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the server, keeping its data for `start()`.
    func stopServer(mode: StopMode) {
        let wasRunning = isRunning.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        do {
            try installation.run("pg_ctl", ["stop", "--pgdata=\(dataDirectory.path)", "--mode=\(mode.rawValue)", "--wait", "--timeout=60"], in: folder)
        } catch {
            _ = try? installation.run("pg_ctl", ["stop", "--pgdata=\(dataDirectory.path)", "--mode=immediate", "--wait"], in: folder)
        }
    }

    /// Starts the server again on the same data, port and socket after `stopServer(mode:)`.
    func start() throws {
        try isRunning.withLock { running in
            guard !running else { return }
            try Self.startServer(installation: installation, folder: folder, port: port)
            running = true
        }
        try waitUntilAcceptingConnections()
    }

    /// Stops the server (as `mode` says) and starts it again on the same address.
    func restart(mode: StopMode = .fast) throws {
        stopServer(mode: mode)
        try start()
    }

    // MARK: Starting

    /// The port is chosen by binding port 0 and letting it go, so another program may take it
    /// before the server does: then the start fails, and another port is tried.
    private static func startOnFreePort(installation: PostgresInstallation, folder: URL) throws -> Int {
        var lastError: any Error = PostgresInstallation.Unavailable(description: "no free port")
        for _ in 0..<5 {
            let port = try freePort()
            do {
                try startServer(installation: installation, folder: folder, port: port)
                return port
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func startServer(installation: PostgresInstallation, folder: URL, port: Int) throws {
        let data = folder.appendingPathComponent("data").path
        let options = [
            "-c listen_addresses=127.0.0.1",
            "-c port=\(port)",
            "-c unix_socket_directories=\(folder.path)",
            "-c fsync=off",
            "-c full_page_writes=off",
            "-c max_connections=200",
            "-c shared_buffers=32MB",
        ].joined(separator: " ")
        try installation.run("pg_ctl", [
            "start", "--pgdata=\(data)", "--log=\(folder.appendingPathComponent("server.log").path)",
            "--options=\(options)", "--wait", "--timeout=120",
        ], in: folder)
    }

    /// `pg_ctl --wait` returns once the server says it is ready; a connection is the proof.
    private func waitUntilAcceptingConnections() throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while true {
            do {
                _ = try psql("SELECT 1")
                return
            } catch where Date() < deadline {
                usleep(100_000)
            }
        }
    }

    private static func freePort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw PostgresInstallation.Unavailable(description: "socket() failed: errno \(errno)") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard bound else { throw PostgresInstallation.Unavailable(description: "no free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: Never leaving a server behind

    /// The command that stops this server at once, as the server's user: what the watchdog and
    /// the sweep run.
    private static func immediateStopCommand(installation: PostgresInstallation, folder: URL) -> [String] {
        let stop = [installation.binaries.appendingPathComponent("pg_ctl").path, "stop", "--pgdata=\(folder.appendingPathComponent("data").path)", "--mode=immediate", "--wait"]
        guard let user = installation.serverUser else { return stop }
        return ["/usr/sbin/runuser", "-u", user, "--"] + stop
    }

    /// Starts the watchdog described on the type, before the server, so no server is ever
    /// without one. `setsid --fork` gives it a session of its own and returns at once; the
    /// watchdog exits by itself once the folder is gone (`stop()` removes it).
    private static func startWatchdog(installation: PostgresInstallation, folder: URL) throws {
        let script = """
            owner="$1"; folder="$2"; shift 2
            while kill -0 "$owner" 2>/dev/null && [ -d "$folder" ]; do sleep 1; done
            if [ -d "$folder" ]; then "$@" >/dev/null 2>&1; rm -rf "$folder"; fi
            """
        try PostgresInstallation.run(
            "/usr/bin/setsid",
            ["--fork", "/bin/sh", "-c", script, "todokit-pg-watchdog", "\(getpid())", folder.path]
                + immediateStopCommand(installation: installation, folder: folder),
            in: URL(fileURLWithPath: "/")
        )
    }

    private static let sweep: Void = {
        sweepStaleServers()
    }()

    private static func sweepOnce() {
        _ = sweep
    }

    /// Stops the servers of earlier test processes that are gone, found by this harness's own
    /// folder prefix and the owner's process id it wrote there; a folder whose owner lives
    /// (another test process running now) is left alone.
    private static func sweepStaleServers() {
        guard let installation = try? PostgresInstallation.require() else { return }
        let tmp = URL(fileURLWithPath: "/tmp", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let folder = tmp.appendingPathComponent(name, isDirectory: true)
            guard let owner = try? String(contentsOf: folder.appendingPathComponent("owner.pid"), encoding: .utf8),
                  let ownerID = pid_t(owner.trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue }
            guard !isAlive(ownerID) else { continue }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/postmaster.pid").path) {
                let command = immediateStopCommand(installation: installation, folder: folder)
                _ = try? PostgresInstallation.run(command[0], Array(command.dropFirst()), in: tmp)
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }
}

/// Whether process `id` runs: it exists and is not a zombie waiting to be reaped (a stopped
/// server's parent is init, which may reap it a moment later).
func isAlive(_ id: pid_t) -> Bool {
    guard kill(id, 0) == 0 || errno == EPERM else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
          let afterName = stat.range(of: ") ", options: .backwards)
    else { return true }
    return stat[afterName.upperBound...].first != "Z"
}

/// A database of a `ThrowawayPostgres` for one test, dropped (its connections ended) when the
/// test drops this object, so a long test run does not fill `/tmp` with copies of the template.
final class PostgresDatabase: Sendable {
    let server: ThrowawayPostgres
    let name: String

    init(server: ThrowawayPostgres, name: String) {
        self.server = server
        self.name = name
    }

    deinit {
        _ = try? server.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Over TCP on 127.0.0.1: how a client on another machine reaches the list.
    var tcpURL: String { server.tcpURL(database: name) }
    /// Over the server's Unix socket.
    var socketURL: String { server.socketURL(database: name) }

    @discardableResult
    func psql(_ sql: String) throws -> String {
        try server.psql(sql, database: name)
    }
}
