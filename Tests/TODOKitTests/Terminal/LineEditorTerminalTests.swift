import Foundation
import Testing
@testable import TODOKit

/// The real `todo` executable on a pseudo-terminal: keys typed as a terminal sends them, the
/// list checked in the file, and the terminal's mode checked after the program is gone.
@Suite(.serialized) struct LineEditorTerminalTests {
    static let prompt = ")> "

    static func start(_ file: URL) -> PseudoTerminal? {
        guard let executable = BuiltExecutable.url(named: "todo") else {
            Issue.record("the todo executable was not found next to the test runner")
            return nil
        }
        let terminal = PseudoTerminal(running: executable, arguments: ["--file", file.path], environment: ["TERM": "xterm"])
        #expect(terminal != nil, "a pseudo-terminal could be opened")
        return terminal
    }

    static func titles(_ file: URL) throws -> [String] {
        try TODOStore(fileURL: file).load().list.items.map(\.title)
    }

    /// Waits for the first prompt (drawn once the terminal is in raw mode).
    static func prompted(_ terminal: PseudoTerminal) -> Bool {
        terminal.waitFor { $0.contains(prompt) }
    }

    /// Waits for `output`, then for the prompt after it: the next line may be typed.
    static func answered(_ terminal: PseudoTerminal, _ output: String) -> Bool {
        terminal.waitFor { screen in
            guard let found = screen.range(of: output, options: .backwards) else { return false }
            return screen[found.upperBound...].contains(prompt)
        }
    }

    @Test func arrowsEditTheLineAndEnterSubmitsTheText() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add Tst\u{1B}[D\u{1B}[De\r")          // ← ← then e: "Test"
        #expect(Self.answered(terminal, "1. [ ] Test"), "\(terminal.screen.debugDescription)")
        terminal.type("add x\u{01}\u{0B}add Home and kill\r")  // Ctrl-A, Ctrl-K: the line replaced
        #expect(Self.answered(terminal, "2. [ ] Home and kill"))
        terminal.type("add one two\u{17}three\r")              // Ctrl-W deletes "two"
        #expect(Self.answered(terminal, "3. [ ] one three"))
        terminal.type("\u{04}")                                // Ctrl-D on an empty line quits
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == ["Test", "Home and kill", "one three"])
        #expect(terminal.isCooked)
    }

    @Test func upRecallsLinesOfAnEarlierSession() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let first = Self.start(file) else { return }
        #expect(Self.prompted(first))
        first.type("add Buy milk\r")
        #expect(Self.answered(first, "1. [ ] Buy milk"))
        first.type("\u{04}")
        #expect(first.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: file.path + ".lines"))

        guard let second = Self.start(file) else { return }
        #expect(Self.prompted(second))
        second.type("\u{1B}[A\r")                              // ↑ then Enter
        #expect(Self.answered(second, "2. [ ] Buy milk"))
        second.type("\u{04}")
        #expect(second.waitForExit() == 0)
        #expect(try Self.titles(file) == ["Buy milk", "Buy milk"])
    }

    @Test func ctrlCAbandonsTheLineAndCtrlDInMidLineDoesNothing() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add junk\u{03}")
        #expect(Self.answered(terminal, "^C"))
        terminal.type("add kept\u{04}")                         // Ctrl-D in mid-line: nothing
        terminal.type("\r")
        #expect(Self.answered(terminal, "1. [ ] kept"))
        terminal.type("\u{0C}")                                // Ctrl-L clears the screen
        #expect(terminal.waitFor { $0.contains("\u{1B}[2J") })
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == ["kept"])
        #expect(terminal.isCooked)
    }

    @Test func utf8EditsByCharacterAndLongLinesWork() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add 日本語👍🏽\u{7F}\r")                    // Backspace removes the emoji
        #expect(Self.answered(terminal, "1. [ ] 日本語"))
        let long = String(repeating: "x", count: 5_000)
        terminal.type("add \(long)\r")                          // past the 4,095-byte cooked limit
        #expect(Self.answered(terminal, "2. [ ] xxxxxxxxxx"))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == ["日本語", long])
    }

    @Test func sigtermAtThePromptLeavesTheTerminalCooked() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add half")
        #expect(terminal.waitFor { $0.hasSuffix("add half") || $0.contains("add half\u{1B}[K") })
        #expect(!terminal.isCooked, "raw while a line is typed")
        kill(terminal.processIdentifier, SIGTERM)
        #expect(terminal.waitForExit() != nil)
        #expect(terminal.isCooked)
        #expect(try Self.titles(file).isEmpty)
    }

    /// Every way text reaches the terminal is escaped: a line recalled from a recall file an
    /// older `todo` wrote raw, a typed or pasted C1 control (U+009B, the one-byte CSI), a tab.
    /// Nothing raw is written to the recall file (the hostile line is dropped when the next
    /// line is added), and the session, which showed each error as it happened, ends with
    /// status 0.
    @Test func recalledAndTypedControlCharactersReachTheTerminalEscaped() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let recall = URL(fileURLWithPath: file.path + ".lines")
        try Data("list\nadd \u{1B}]0;pwned\u{07} x \u{1B}[2J\n".utf8).write(to: recall)
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("\u{1B}[A")                                  // ↑: the hostile line
        #expect(terminal.waitFor { $0.contains("add \\u{1B}]0;pwned\\u{07} x \\u{1B}[2J") }, "\(terminal.screen.debugDescription)")
        terminal.type("\r")
        #expect(Self.answered(terminal, "unknown command \"pwned\\u{07}\""))
        terminal.type("add a\u{9B}2J b")                           // typed or pasted C1
        #expect(terminal.waitFor { $0.contains("add a\\u{9B}2J b") })
        terminal.type("\r")
        #expect(Self.answered(terminal, "(U+009B at character 2)"))
        terminal.type("add one\ttwo")
        // The cursor goes after the escape: "todo (0 items)> " (16) + "add one" (7) + 6 + "two" (3).
        #expect(terminal.waitFor { $0.contains("add one\\u{09}two\u{1B}[K\r\u{1B}[32C") }, "\(terminal.screen.suffix(80).debugDescription)")
        terminal.type("\r")
        #expect(Self.answered(terminal, "cannot contain tabs"))
        terminal.type("list\r")                                  // the recall file is written again
        #expect(Self.answered(terminal, "(empty)"))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        for raw in ["\u{1B}]0;", "\u{1B}[2J", "\u{07}", "\u{9B}", "\t"] {
            #expect(!terminal.screen.contains(raw), "\(raw.debugDescription) reached the terminal raw")
        }
        #expect(try String(contentsOf: recall, encoding: .utf8) == "list\n")
        #expect(try Self.titles(file).isEmpty)
    }
}
