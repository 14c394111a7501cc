import Foundation

/// Reads lines from a terminal with a ``LineEditor``: raw mode while a line is typed, cooked
/// mode (the terminal as it was) at every other moment.
///
/// The terminal is put back after each line, so output of the commands, and a crash while
/// they run, find it as the user left it; on Ctrl-Z (stopped and continued: raw mode is
/// entered again and the line redrawn), on SIGTERM, SIGHUP and SIGQUIT, and on a trap of our
/// own while a line is typed, the signal handlers put it back before the process stops.
///
/// Nothing typed is lost: the keys that arrive after an Enter, in the same read (a pasted
/// block of lines, fast typing) or while the line's commands run, begin the next line, and a
/// key whose bytes are split between reads (an escape sequence, a UTF-8 character) waits for
/// the rest. A submitted line is shown whole, wrapped over as many rows as it needs, even if
/// only its end was in view while it was edited; and when the window is resized while a line
/// is edited (SIGWINCH), the line is drawn again for the new width.
///
/// While it waits for keys it can watch for another process's change (``ChangeWatch``): when
/// one comes, the prompt's row is cleared, the watch writes its lines there, and the prompt it
/// returns is drawn below them with the line as it was, the cursor where it was.
///
/// ```swift
/// let reader = TerminalLineReader(input: STDIN_FILENO, output: STDOUT_FILENO, history: [])
/// while let line = reader.readLine(prompt: "todo> ") { print(line) }
/// ```
public final class TerminalLineReader {
    private let input: Int32
    private let output: Int32
    private var editor: LineEditor
    private var decoder = LineEditor.KeyDecoder()
    /// Keys read but not handled yet: those after the Enter that ended the last line.
    private var typedAhead: ArraySlice<LineEditor.Key> = []
    /// The column the cursor was left in by the last draw, counted from the prompt's start.
    private var drawnCursorColumn = 0
    /// The prompt of the line being read: the one given, or the one a change shown while
    /// waiting returned.
    private var prompt = ""
    /// What the line being read watches while it waits for keys.
    private var waiting = ChangeWatch.Waiting(nil)

    /// The lines typed so far, oldest first, earlier sessions' included: what ↑ recalls.
    public var history: [String] { editor.history }

    /// A reader of `input` that draws on `output`, both a terminal, recalling `history`.
    public init(input: Int32, output: Int32, history: [String]) {
        self.input = input
        self.output = output
        editor = LineEditor(history: history)
    }

    /// Reads one line, showing `prompt`; `nil` at the end of input (Ctrl-D on an empty line,
    /// or the terminal closed). Ctrl-C abandons the line and shows the prompt again. While it
    /// waits for keys, a change `watch` reports is shown above the prompt, and the prompt it
    /// returns replaces `prompt`.
    ///
    /// ```swift
    /// let line = reader.readLine(prompt: "todo (3 items)> ", watching: watch)
    /// ```
    public func readLine(prompt: String, watching watch: ChangeWatch? = nil) -> String? {
        guard let rawMode = TerminalMode.enterRaw(input) else { return nil }
        defer { rawMode.restore() }
        self.prompt = prompt
        waiting = ChangeWatch.Waiting(watch)
        defer { waiting = ChangeWatch.Waiting(nil) }
        // A resize while the last line's commands ran needs no redraw: this draw asks the width.
        ResizeSignal.install()
        ResizeSignal.drain()
        draw()
        while true {
            if typedAhead.isEmpty {
                guard let keys = readKeys() else {
                    write("\r\n")
                    return nil
                }
                typedAhead = keys[...]
            }
            while let key = typedAhead.popFirst() {
                switch editor.handle(key) {
                case .redraw, .none:
                    continue
                case .submit(let line):
                    write(LineEditor.renderSubmitted(line, prompt: self.prompt, width: columns))
                    return line
                case .abandon:
                    write("^C\r\n")
                case .endOfInput:
                    write("\r\n")
                    return nil
                case .clearScreen:
                    write("\u{1B}[H\u{1B}[2J")
                case .suspend:
                    rawMode.restore()
                    write("\r\n")
                    // Stops here with the terminal as the shell expects it; `fg` continues.
                    raise(SIGTSTP)
                    rawMode.reenter()
                }
            }
            draw()
        }
    }

    /// The keys of the next bytes typed, redrawing the line whenever the window is resized
    /// or a change is shown while waiting; `nil` at the end of input.
    private func readKeys() -> [LineEditor.Key]? {
        while true {
            guard waitForInput() else { return nil }
            guard let bytes = read() else { return nil }
            var keys = decoder.keys(from: bytes)
            if decoder.isWaitingAfterEscape, !inputIsReady(withinMilliseconds: 50) {
                keys += decoder.flushEscape()
            }
            if !keys.isEmpty {
                return keys
            }
        }
    }

    /// Waits until `input` is readable, redrawing the line at each resize and showing each
    /// change the watch reports; `false` if waiting failed.
    private func waitForInput() -> Bool {
        while true {
            guard let (revents, isDue) = waiting.wait(input: input, others: [ResizeSignal.readEnd]) else {
                return false
            }
            if revents[1] != 0, ResizeSignal.drain() {
                redrawAfterResize()
            }
            if isDue, let watch = waiting.watch {
                showChange(watch)
            }
            if revents[0] != 0 {
                return true
            }
        }
    }

    /// When `watch` has a change: the prompt's row cleared (and any rows below it), the
    /// watch's lines written there, and the line drawn again below them with the watch's
    /// prompt, the text and the cursor as they were. Nothing is written while nothing
    /// changed, so an idle prompt never flickers.
    private func showChange(_ watch: ChangeWatch) {
        guard watch.hasChanged() else {
            return
        }
        write("\r\u{1B}[J")
        prompt = watch.show()
        draw()
        waiting.askBeforeNextWait()
    }

    /// Draws the line again for the terminal's new width. A terminal that rewraps its rows on
    /// resize (most do: tmux, VTE, kitty, iTerm2…) has moved the cursor down one row for each
    /// full new width before it: go up as many, then clear from there down, the old line's
    /// wrapped pieces with it. (A terminal that cuts rows instead clears a row or two of
    /// earlier output above the prompt; the line is right either way.)
    private func redrawAfterResize() {
        let rowsDown = drawnCursorColumn / columns
        var bytes = "\r"
        if rowsDown > 0 {
            bytes += "\u{1B}[\(rowsDown)A"
        }
        write(bytes + "\u{1B}[J")
        draw()
    }

    private func draw() {
        let layout = editor.layout(prompt: prompt, width: columns)
        drawnCursorColumn = layout.cursorColumn
        write(layout.bytes)
    }

    /// The terminal's width, asked on every draw so that a resized window is drawn right.
    private var columns: Int {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                Foundation.read(input, bytes.baseAddress, bytes.count)
            }
            if count > 0 {
                return Array(buffer[..<count])
            }
            guard count < 0, errno == EINTR else { return nil }
        }
    }

    private func inputIsReady(withinMilliseconds milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(output, buffer.baseAddress, buffer.count)
            }
            if written < 0, errno == EINTR {
                continue
            }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// SIGWINCH, the window resized, as a byte in a pipe the reader polls beside the terminal
/// (the self-pipe trick: a handler may only make async-signal-safe calls, and `write` is one).
///
/// The pipe is made and the handler installed once, by the main thread, before the first
/// signal can reach the handler; the handler only reads the write end's number, so there is
/// no concurrent access to guard: hence `nonisolated(unsafe)`. SIGWINCH is otherwise
/// ignored, so the handler may stay installed while commands run.
private enum ResizeSignal {
    nonisolated(unsafe) static var readEnd: Int32 = -1
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    static func install() {
        guard readEnd < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = Foundation.signal(SIGWINCH, noteResize)
        // A parent may have started us with it blocked (a blocked mask is inherited).
        var resize = sigset_t()
        sigemptyset(&resize)
        sigaddset(&resize, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &resize, nil)
    }

    /// Empties the pipe; whether the window was resized since the last call.
    @discardableResult
    static func drain() -> Bool {
        guard readEnd >= 0 else { return false }
        var resized = false
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                Foundation.read(readEnd, bytes.baseAddress, bytes.count)
            }
            guard count > 0 else { break }
            resized = true
        }
        return resized
    }
}

/// The SIGWINCH handler: one byte in the pipe (dropped if the pipe is full: it is not empty).
private func noteResize(_ signal: Int32) {
    // The interrupted code may be about to read errno: a full pipe's EAGAIN must not reach it.
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = Foundation.write(ResizeSignal.writeEnd, &byte, 1)
    errno = savedErrno
}
