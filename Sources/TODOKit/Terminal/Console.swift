import Foundation

/// Where the REPL reads its input and writes its output.
///
/// ``standard`` is the process's standard streams; tests build one from closures to feed
/// scripted input and capture what is written.
///
/// ```swift
/// var lines = ["add Buy milk", "list"][...]
/// var output = ""
/// let console = Console(
///     isInteractive: false,
///     readLine: { lines.popFirst() },
///     write: { output += $0 },
///     writeError: { output += $0 }
/// )
/// ```
public struct Console {
    /// Whether a person is typing: the REPL then shows a prompt and greets on standard output.
    public var isInteractive: Bool
    /// Returns the next line without its newline, or `nil` at the end of input.
    public var readLine: () -> String?
    /// Writes text to the output, control characters other than newline and tab escaped (see
    /// ``TerminalText``); the caller includes newlines.
    public var write: (String) -> Void
    /// Writes text to the error output, escaped as ``write`` does; the caller includes newlines.
    public var writeError: (String) -> Void
    /// Whether standard input and output are a terminal a ``TerminalLineReader`` can edit
    /// lines on: true only for ``standard`` in a terminal.
    public var usesTerminal = false
    /// Reads a line showing a prompt, when a line editor draws the prompt itself; `nil` uses
    /// ``readLine`` after writing the prompt. While it waits for keys it shows the changes the
    /// ``ChangeWatch`` reports, if one is given, above the prompt (``TerminalLineReader``).
    public var readLineWithPrompt: ((String, ChangeWatch?) -> String?)?
    /// Reads the next line as ``readLine`` does, showing the changes the ``ChangeWatch``
    /// reports while it waits between two lines (``PlainLineReader``): what a session whose
    /// input is not a terminal reads with, since its output is then at the end of a line.
    /// `nil` (a terminal typed into without a line editor, whose half-typed line would be
    /// cut by a change's line; a test's console) reads with ``readLine``, and changes show at
    /// the next line.
    public var readLineWatching: ((ChangeWatch) -> String?)?

    /// Creates a console from its parts.
    public init(
        isInteractive: Bool,
        readLine: @escaping () -> String?,
        write: @escaping (String) -> Void,
        writeError: @escaping (String) -> Void
    ) {
        self.isInteractive = isInteractive
        self.readLine = readLine
        // Every path to the terminal goes through these two: escaping here covers item titles
        // from any source, history names, undo messages, file paths in errors.
        self.write = { write(TerminalText.safe($0)) }
        self.writeError = { writeError(TerminalText.safe($0)) }
    }

    /// Standard input, output and error; interactive when standard input is a terminal.
    /// Input that is not a terminal is read watching for changes (``readLineWatching``).
    public static var standard: Console {
        let reader = PlainLineReader(input: STDIN_FILENO)
        var console = Console(
            isInteractive: isatty(STDIN_FILENO) == 1,
            readLine: { reader.readLine() },
            // FileHandle writes go straight to the descriptor, so a prompt without a newline
            // appears at once and output stays ordered with standard error.
            write: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
            writeError: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
        )
        console.usesTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if isatty(STDIN_FILENO) != 1 {
            console.readLineWatching = { reader.readLine(watching: $0) }
        }
        return console
    }
}
