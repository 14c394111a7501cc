import Foundation

/// A pseudo-terminal pair from the test itself (`posix_openpt`): the executable under test
/// gets the terminal side as its standard input, output and error, so `isatty` is true and
/// raw mode works as in a real terminal; the test types into the controlling side and reads
/// what the program draws.
final class PseudoTerminal {
    let controller: Int32
    let terminal: Int32
    private(set) var screen = ""
    private let process = Process()

    /// Starts `executable` with `arguments` on a new terminal `columns` wide.
    init?(running executable: URL, arguments: [String], environment: [String: String], columns: UInt16 = 60) {
        // posix_openpt, grantpt, unlockpt and ptsname are what this does, but Glibc's module
        // map does not bring them into Swift: open the multiplexer, unlock the new terminal
        // and ask its number with the ioctls they wrap (Linux's values, the same on x86_64
        // and arm64; grantpt has nothing to do with devpts).
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        let getNumber: UInt = 0x8004_5430, setLock: UInt = 0x4004_5431   // TIOCGPTN, TIOCSPTLCK
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard controller >= 0, ioctl(controller, setLock, &unlock) == 0, ioctl(controller, getNumber, &number) == 0
        else { return nil }
        terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        do { try process.run() } catch { return nil }
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(controller)
        close(terminal)
    }

    /// Types `text` (bytes as a terminal sends them for those keys).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Types `bytes` as they are: a key may be cut between two calls, as between two reads.
    func type(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Resizes the terminal to `columns` and tells the program, as a terminal window does (the
    /// terminal is not the program's controlling one, so the kernel would not send SIGWINCH).
    func resize(columns: UInt16) {
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        kill(process.processIdentifier, SIGWINCH)
    }

    /// Reads what the program wrote until `predicate` holds for everything read so far, or
    /// `seconds` pass; returns whether it held.
    @discardableResult
    func waitFor(seconds: TimeInterval = 10, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !predicate(screen) {
            guard Date() < deadline else { return false }
            var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { return predicate(screen) }
            screen += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return true
    }

    /// Waits for the program to exit and returns its status; `nil` if it does not in time.
    func waitForExit(seconds: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else { return nil }
            waitFor(seconds: 0.05) { _ in false }
        }
        return process.terminationStatus
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the terminal is in cooked mode: line editing and echo on, as a shell leaves it.
    var isCooked: Bool {
        var attributes = termios()
        guard tcgetattr(terminal, &attributes) == 0 else { return false }
        return attributes.c_lflag & tcflag_t(ICANON) != 0 && attributes.c_lflag & tcflag_t(ECHO) != 0
    }
}
