import Foundation
import Testing
@testable import TODOKit

/// The recall file (`todo.db.lines`) as sessions on one list share it, through the real `todo`
/// on a pseudo-terminal.
extension LineEditorTerminalTests {
    /// Two sessions on one list, their lines interleaved: whichever quits first, the recall
    /// file keeps the lines of both, in the order they were typed.
    @Test(arguments: [true, false])
    func twoSessionsKeepEachOthersLinesToRecall(firstQuitsFirst: Bool) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let first = Self.start(file) else { return }
        #expect(Self.prompted(first))
        guard let second = Self.start(file) else { return }
        #expect(Self.prompted(second))
        first.type("add a1\r")
        #expect(Self.answered(first, "1. [ ] a1"))
        second.type("add b1\r")
        #expect(Self.answered(second, "2. [ ] b1"))
        first.type("add a2\r")
        #expect(Self.answered(first, "3. [ ] a2"))
        second.type("add b2\r")
        #expect(Self.answered(second, "4. [ ] b2"))
        for session in firstQuitsFirst ? [first, second] : [second, first] {
            session.type("\u{04}")
            #expect(session.waitForExit() == 0)
        }
        let recall = try String(contentsOf: URL(fileURLWithPath: file.path + ".lines"), encoding: .utf8)
        #expect(recall == "add a1\nadd b1\nadd a2\nadd b2\n")

        guard let third = Self.start(file) else { return }
        #expect(Self.prompted(third))
        third.type("\u{1B}[A\u{1B}[A")                            // ↑ ↑: the first session's last line
        #expect(third.waitFor { $0.contains("add a2\u{1B}[K") })
        third.type("\u{03}\u{04}")
        #expect(third.waitForExit() == 0)
    }

    /// A recall file that can't be read or written (a FIFO: a plain open to read it would wait
    /// for a writer) never stops `todo`: the prompt comes, the lines run and are saved in the
    /// list, recall goes on in memory, and the problem is said once.
    @Test func aRecallFileThatCannotBeUsedNeverStopsTodo() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        #expect(mkfifo(file.path + ".lines", 0o644) == 0)
        guard let terminal = Self.start(file) else { return }
        #expect(Self.prompted(terminal), "\(terminal.screen.debugDescription)")
        terminal.type("add one\r")
        #expect(Self.answered(terminal, "1. [ ] one"))
        terminal.type("add two\r")
        #expect(Self.answered(terminal, "2. [ ] two"))
        terminal.type("\u{1B}[A")                                 // recall in memory goes on
        #expect(terminal.waitFor { $0.hasSuffix("add two\u{1B}[K\r\u{1B}[23C") })
        terminal.type("\u{03}\u{04}")
        #expect(terminal.waitForExit() == 0)
        let notices = terminal.screen.components(separatedBy: "the lines typed are not kept").count - 1
        #expect(notices == 1, "\(terminal.screen.debugDescription)")
        #expect(try Self.titles(file) == ["one", "two"])
        #expect(terminal.isCooked)
    }
}
