import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgreSQL server programs on this machine (`initdb`, `pg_ctl`, `postgres`, `psql`), and
/// the user that runs them: the tests' own throwaway servers (`ThrowawayPostgres`) need them.
///
/// The server refuses to run as root, and the tests run as root in CI and on the shared
/// machines, so as root the programs run as the `postgres` system user that Debian's
/// `postgresql` package creates (through `runuser`, which only root may use, so it never asks
/// for a password); as anyone else they run as that user directly.
///
/// When the programs are missing the PostgreSQL tests are skipped, and say so loudly on
/// standard error: a skip must never pass for a run. `TODO_REQUIRE_POSTGRES=1` (what `.ci/run`
/// sets) turns the skip into a failure.
struct PostgresInstallation: Sendable {
    /// The folder holding `initdb`, `pg_ctl`, `postgres` and `psql`.
    let binaries: URL
    /// The user the server runs as when the tests run as root; `nil` when they do not.
    let serverUser: String?

    /// The installation found on this machine, or why there is none.
    static let found: Result<PostgresInstallation, Unavailable> = find()

    /// Whether the environment asks for the PostgreSQL tests to fail rather than skip.
    static let isRequired = ProcessInfo.processInfo.environment["TODO_REQUIRE_POSTGRES"] == "1"

    /// Whether the PostgreSQL tests run: the programs are here, or they are required (and then
    /// fail, saying what is missing). Says loudly on standard error, once, when they skip.
    ///
    /// For `.enabled(if:)` and for the backends a parameterized test runs over.
    static let testsRun: Bool = {
        switch found {
        case .success:
            return true
        case .failure(let unavailable) where isRequired:
            FileHandle.standardError.write(Data("""
                error: PostgreSQL tests are required (TODO_REQUIRE_POSTGRES=1) but cannot run: \(unavailable)

                """.utf8))
            return true
        case .failure(let unavailable):
            FileHandle.standardError.write(Data("""
                warning: *** PostgreSQL tests SKIPPED: \(unavailable). \
                Install the server (apt-get install postgresql) to run them; \
                TODO_REQUIRE_POSTGRES=1 makes this a failure. ***

                """.utf8))
            return false
        }
    }()

    /// Why the server programs cannot be used.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The installation, or the reason there is none as an error (so a required but missing
    /// server fails the test that needs it).
    static func require() throws -> PostgresInstallation {
        try found.get()
    }

    /// Runs `tool` (a program of `binaries`, or a path) as the server's user, with `arguments`,
    /// in `directory`, and returns what it wrote to standard output and standard error. Throws
    /// when it exits with a failure status, with that output.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], in directory: URL, asServerUser: Bool = true) throws -> String {
        let program = tool.hasPrefix("/") ? tool : binaries.appendingPathComponent(tool).path
        if asServerUser, let serverUser {
            return try Self.run("/usr/sbin/runuser", ["-u", serverUser, "--", program] + arguments, in: directory)
        }
        return try Self.run(program, arguments, in: directory)
    }

    /// Runs `program` with `arguments` in `directory` and waits for it; standard output and
    /// error go to one file, read once the program has exited.
    ///
    /// Not `Process` with a `Pipe`: the tests start processes from many threads at once, and
    /// Foundation's pipes are not close-on-exec, so a pipe made for one program leaks into a
    /// program another thread starts at that moment (an exit test's child, a server) and its
    /// reader never sees the end. A file has no end to wait for: `posix_spawn` opens it in the
    /// child only, and `waitpid` says when the program is done.
    ///
    /// The environment is this process's without the `PG…` variables: libpq and the server
    /// programs read `PGHOST`, `PGPORT`, `PGDATA` and the like, and a harness that must never
    /// touch a server it did not start passes every address explicitly instead.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in directory: URL) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("todokit-pg-output-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard let addChdir = GlibcSpawnExtensions.addChdir, let addCloseFrom = GlibcSpawnExtensions.addCloseFrom else {
            throw Unavailable(description: "this C library lacks posix_spawn_file_actions_addchdir_np or _addclosefrom_np (glibc 2.34 or later has both)")
        }
        _ = addChdir(&actions, directory.path)
        // And the other way round: whatever this process has open (other tests' pipes) must
        // not live on in a server that `pg_ctl` starts and that outlives this call.
        _ = addCloseFrom(&actions, 3)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = cleanEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CommandFailed(command: program, status: -1, output: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS are macros Swift does not import: the low 7 bits are the
        // signal that ended it (0 when it exited), the next 8 the exit status.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let command = ([program] + arguments).joined(separator: " ")
            throw CommandFailed(command: command, status: status & 0x7F == 0 ? (status >> 8) & 0xFF : -(status & 0x7F), output: text)
        }
        return text
    }

    /// This process's environment without libpq's and the server's `PG…` variables, with a
    /// bound on how long a connection attempt waits.
    static let cleanEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["PGCONNECT_TIMEOUT"] = "10"
        return environment
    }()

    struct CommandFailed: Error, CustomStringConvertible {
        let command: String
        /// The exit status, or minus the signal that ended it.
        let status: Int32
        let output: String

        var description: String { "`\(command)` failed (status \(status)):\n\(output)" }
    }

    // MARK: Finding the programs

    private static let programs = ["initdb", "pg_ctl", "postgres", "psql"]

    private static func find() -> Result<PostgresInstallation, Unavailable> {
        let candidates = binaryFolders()
        guard let binaries = candidates.first(where: hasPrograms) else {
            let looked = candidates.isEmpty ? "no candidate folder" : candidates.map(\.path).joined(separator: ", ")
            return .failure(Unavailable(description: "no PostgreSQL server programs (\(programs.joined(separator: ", "))) in /usr/lib/postgresql/*/bin or `pg_config --bindir` (looked in: \(looked))"))
        }
        guard getuid() == 0 else {
            return .success(PostgresInstallation(binaries: binaries, serverUser: nil))
        }
        // Root: the server needs an ordinary user. `postgres` is the one the package creates.
        guard getpwnam("postgres") != nil else {
            return .failure(Unavailable(description: "running as root, and there is no `postgres` user to run the server as (PostgreSQL refuses root)"))
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else {
            return .failure(Unavailable(description: "running as root without /usr/sbin/runuser to run the server as `postgres`"))
        }
        return .success(PostgresInstallation(binaries: binaries, serverUser: "postgres"))
    }

    /// Debian's versioned folders, newest version first, then what `pg_config --bindir` says
    /// (`pg_config` comes with libpq-dev, which the sample's build needs anyway).
    private static func binaryFolders() -> [URL] {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap { name in Int(name).map { (version: $0, name: name) } }
            .sorted { $0.version > $1.version }
        var folders = versions.map { root.appendingPathComponent($0.name).appendingPathComponent("bin") }
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        if let pgConfig = searchPath.map({ "\($0)/pg_config" }).first(where: FileManager.default.isExecutableFile(atPath:)),
           let bindir = try? run(pgConfig, ["--bindir"], in: URL(fileURLWithPath: "/")) {
            folders.append(URL(fileURLWithPath: bindir.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return folders
    }

    private static func hasPrograms(_ folder: URL) -> Bool {
        programs.allSatisfy { FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path) }
    }
}

/// Two of glibc's `posix_spawn` file actions that its headers declare only for `_GNU_SOURCE`,
/// which Swift's Glibc module does not define: looked up by name instead.
private enum GlibcSpawnExtensions {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        // A null handle is RTLD_DEFAULT: the symbols already loaded, glibc's among them.
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}
