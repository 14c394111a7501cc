import TODOKit

/// A console fed from a list of lines that records everything written to it.
final class ScriptedConsole {
    private var input: ArraySlice<String>
    private(set) var output = ""
    private(set) var errors = ""
    let isInteractive: Bool

    init(_ lines: [String] = [], isInteractive: Bool = false) {
        input = lines[...]
        self.isInteractive = isInteractive
    }

    var console: Console {
        Console(
            isInteractive: isInteractive,
            readLine: { [self] in input.popFirst() },
            write: { [self] in output += $0 },
            writeError: { [self] in errors += $0 }
        )
    }

    var outputLines: [String] { Self.lines(output) }
    var errorLines: [String] { Self.lines(errors) }

    /// Forgets what was written so far, so a test can look at one line's output.
    func clear() {
        output = ""
        errors = ""
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
