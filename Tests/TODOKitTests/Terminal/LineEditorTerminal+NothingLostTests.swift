import Foundation
import Testing
@testable import TODOKit

/// The real `todo` on a pseudo-terminal, as a person uses it: pasting several lines, typing
/// ahead, a line longer than the window, a resize, two sessions on one list.
extension LineEditorTerminalTests {
    /// Lines that arrive in one read (a paste) all run, in order; so do the keys that follow
    /// an Enter in the same read, even when a character or an escape sequence among them is
    /// cut between two reads.
    @Test func linesThatArriveTogetherAreAllRun() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add one\radd two\radd three\r")            // pasted: one write, one read
        #expect(Self.answered(terminal, "3. [ ] three"), "\(terminal.screen.debugDescription)")

        let wide = Array("日".utf8)
        terminal.type(bytes: Array("add four\radd ".utf8) + wide[..<2])
        #expect(Self.answered(terminal, "4. [ ] four"))
        terminal.type(bytes: Array(wide[2...]) + Array("本\u{1B}[".utf8))   // ← cut after "ESC ["
        #expect(terminal.waitFor { $0.hasSuffix("add 日本\u{1B}[K\r\u{1B}[24C") }, "\(terminal.screen.suffix(60).debugDescription)")
        terminal.type("Dx\r")                                     // the ← ends: "x" goes before 本
        #expect(Self.answered(terminal, "5. [ ] 日x本"), "\(terminal.screen.suffix(200).debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == ["one", "two", "three", "four", "日x本"])
        #expect(terminal.isCooked)
    }

    /// A line longer than the window scrolls sideways while it is edited; once submitted it
    /// is shown whole, from its start, wrapped by the terminal, not as the end that was in view.
    @Test func aLongSubmittedLineIsShownWhole() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        let title = (1...30).map(String.init).joined(separator: " ")   // 80 characters, 60 columns
        terminal.type("add \(title)")
        #expect(terminal.waitFor { $0.hasSuffix("\u{1B}[K\r\u{1B}[58C") }, "\(terminal.screen.suffix(120).debugDescription)")
        #expect(!terminal.screen.contains("add 1 2 3"), "scrolled while edited: the start is out of view")
        terminal.type("\r")
        #expect(Self.answered(terminal, "1. [ ] 1 2 3"))
        // The terminal's output processing turns the "\n" after it into "\r\n".
        #expect(terminal.screen.contains("\r\u{1B}[Jtodo (0 items)> add \(title)\r\r\n"), "\(terminal.screen.suffix(300).debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == [title])
    }

    /// When the window narrows while a long line is edited, a terminal that rewraps has put
    /// the cursor on the old row's second piece: the line is drawn again from the row it
    /// starts on, everything below cleared, and fitting the new width.
    @Test func aResizeRedrawsTheLineForTheNewWidth() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add " + String(repeating: "w", count: 50))
        #expect(terminal.waitFor { $0.hasSuffix("\u{1B}[K\r\u{1B}[58C") })
        let before = terminal.screen.count
        terminal.resize(columns: 30)
        // Up one row (column 58 is on the second row of 30), clear, then the line: the prompt
        // and 13 of its characters, the cursor after them (16 + 13 = 29 columns of 30).
        let redraw = "\r\u{1B}[1A\u{1B}[J\rtodo (0 items)> " + String(repeating: "w", count: 12) + "\u{1B}[K\r\u{1B}[28C"
        #expect(terminal.waitFor { String($0.dropFirst(before)).contains(redraw) }, "\(terminal.screen.suffix(120).debugDescription)")
        terminal.type("\r")
        #expect(Self.answered(terminal, "1. [ ] www"))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try Self.titles(file) == [String(repeating: "w", count: 50)])
        #expect(terminal.isCooked)
    }
}
