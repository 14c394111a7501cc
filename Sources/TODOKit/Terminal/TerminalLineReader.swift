import Foundation

/// Reads lines from a terminal with a ``LineEditor``: raw mode while a line is typed, cooked
/// mode (the terminal as it was) at every other moment.
///
/// The terminal is put back after each line, so output of the commands, and a crash while
/// they run, find it as the user left it; on Ctrl-Z (stopped and continued: raw mode is
/// entered again and the line redrawn), on SIGTERM, SIGHUP and SIGQUIT, and on a trap of our
/// own while a line is typed, the signal handlers put it back before the process stops.
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

    /// The lines typed so far, oldest first, earlier sessions' included: what ↑ recalls.
    public var history: [String] { editor.history }

    /// A reader of `input` that draws on `output`, both a terminal, recalling `history`.
    public init(input: Int32, output: Int32, history: [String]) {
        self.input = input
        self.output = output
        editor = LineEditor(history: history)
    }

    /// Reads one line, showing `prompt`; `nil` at the end of input (Ctrl-D on an empty line,
    /// or the terminal closed). Ctrl-C abandons the line and shows the prompt again.
    public func readLine(prompt: String) -> String? {
        guard let rawMode = TerminalMode.enterRaw(input) else { return nil }
        defer { rawMode.restore() }
        draw(prompt)
        while true {
            guard let bytes = read() else {
                write("\r\n")
                return nil
            }
            var keys = decoder.keys(from: bytes)
            if decoder.isWaitingAfterEscape, !inputIsReady(withinMilliseconds: 50) { keys += decoder.flushEscape() }
            for key in keys {
                switch editor.handle(key) {
                case .redraw, .none:
                    continue
                case .submit(let line):
                    draw(prompt, text: line)
                    write("\r\n")
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
            draw(prompt)
        }
    }

    private func draw(_ prompt: String, text: String? = nil) {
        if let text {
            // The submitted line as typed, cursor at its end, before the newline.
            var shown = LineEditor(history: [])
            for character in text { shown.handle(.character(character)) }
            write(shown.render(prompt: prompt, width: columns))
        } else {
            write(editor.render(prompt: prompt, width: columns))
        }
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
            let count = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func inputIsReady(withinMilliseconds milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
