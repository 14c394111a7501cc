import Foundation

/// A terminal in raw mode (no line buffering, no echo, control keys delivered as bytes) for as
/// long as a line is typed, and the way back to the attributes it had.
///
/// ```swift
/// if let raw = TerminalMode.enterRaw(STDIN_FILENO) {
///     defer { raw.restore() }
///     // read keys
/// }
/// ```
struct TerminalMode {
    private let descriptor: Int32
    private let original: termios

    /// Puts the terminal on `descriptor` in raw mode; `nil`, changing nothing, if it is not a
    /// terminal.
    static func enterRaw(_ descriptor: Int32) -> TerminalMode? {
        var attributes = termios()
        guard tcgetattr(descriptor, &attributes) == 0 else { return nil }
        let mode = TerminalMode(descriptor: descriptor, original: attributes)
        mode.reenter()
        return mode
    }

    /// Raw mode again (after ``restore()``, when the process was stopped and continued).
    func reenter() {
        var raw = original
        // Input: no CR-to-NL, no flow control, no stripping; local: no echo, no canonical
        // lines, no signals from Ctrl-C/Ctrl-Z/Ctrl-\ (the editor handles them), no extended
        // processing. Output processing stays on, so "\n" still starts a new line for
        // whatever else writes.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        RestoreOnSignal.arm(descriptor: descriptor, attributes: original, raw: raw)
        tcsetattr(descriptor, TCSADRAIN, &raw)
    }

    /// The terminal's attributes as they were before raw mode.
    func restore() {
        var attributes = original
        tcsetattr(descriptor, TCSADRAIN, &attributes)
        RestoreOnSignal.disarm()
    }
}

/// Puts the terminal back before the process dies of a signal while a line is typed: a
/// termination request (SIGTERM, SIGHUP, SIGQUIT, and SIGINT sent by another process: Ctrl-C
/// itself is a key in raw mode) or a trap of our own (SIGILL, SIGTRAP, SIGABRT, SIGSEGV,
/// SIGBUS); and around a stop by SIGTSTP sent from outside (Ctrl-Z is a key too): the terminal
/// as the shell expects it while stopped, raw mode again once continued.
///
/// A signal handler can reach only global state, and may only make async-signal-safe calls
/// (`tcsetattr`, `signal`, `raise` are). The state below is written by the main thread only
/// while the handlers are not installed (`arm` stores, then installs; `disarm` uninstalls
/// first), and read only by the handler, which runs on the thread the signal interrupts, so
/// there is no concurrent access to guard: hence `nonisolated(unsafe)`.
private enum RestoreOnSignal {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var attributes = termios()
    nonisolated(unsafe) static var raw = termios()
    static let signals = [SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS]

    static func arm(descriptor: Int32, attributes: termios, raw: termios) {
        disarm()
        Self.descriptor = descriptor
        Self.attributes = attributes
        Self.raw = raw
        _ = Foundation.signal(SIGTSTP, restoreAndStop)
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in signals + [SIGTSTP] {
            if signal != SIGTSTP { _ = Foundation.signal(signal, restoreAndDie) }
            sigaddset(&handled, signal)
        }
        // A parent may have started us with these blocked (a blocked mask is inherited);
        // blocked, a SIGTERM would wait forever and the handler could not put the terminal
        // back when it finally ends the process.
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    static func disarm() {
        _ = Foundation.signal(SIGTSTP, SIG_DFL)
        for signal in signals { _ = Foundation.signal(signal, SIG_DFL) }
    }
}

/// The handler: the terminal back as it was, then the signal's default action.
private func restoreAndDie(_ signal: Int32) {
    var attributes = RestoreOnSignal.attributes
    tcsetattr(RestoreOnSignal.descriptor, TCSADRAIN, &attributes)
    _ = Foundation.signal(signal, SIG_DFL)
    raise(signal)
}

/// The SIGTSTP handler: the terminal back as it was, stopped with the default action, and,
/// once continued (execution resumes after `raise`), raw mode and this handler again.
private func restoreAndStop(_ signal: Int32) {
    var attributes = RestoreOnSignal.attributes
    tcsetattr(RestoreOnSignal.descriptor, TCSADRAIN, &attributes)
    _ = Foundation.signal(SIGTSTP, SIG_DFL)
    // A handler runs with its own signal blocked: unblocked, the raise stops the process
    // here, instead of once the handler has returned and installed itself again.
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    pthread_sigmask(SIG_UNBLOCK, &stop, nil)
    raise(SIGTSTP)
    _ = Foundation.signal(SIGTSTP, restoreAndStop)
    var raw = RestoreOnSignal.raw
    tcsetattr(RestoreOnSignal.descriptor, TCSADRAIN, &raw)
}
