import Foundation
import Testing
@testable import TODOKit

/// Real `todo` processes on one list: a session on a pseudo-terminal, one-shot commands, and a
/// second session on pipes. Each session's `undo` and `redo` take its own steps; a step whose
/// item another process changed since is refused, and nothing changes, until it is undone
/// anyway; a one-shot `undo` takes the newest step of the list, whoever made it.
@Suite(.serialized) struct TodoExecutableOwnStepsTests {
    typealias Terminal = LineEditorTerminalTests

    /// Runs one-shot `todo` with `arguments` on `file`, and returns it, finished.
    static func oneShot(_ file: URL, _ arguments: String...) throws -> TodoProcess {
        let process = try TodoProcess(["--file", file.path] + arguments)
        #expect(process.finish() == 0, "stderr: \(process.errorLines)")
        return process
    }

    /// A list of two, and a session on a terminal that added a third item.
    static func sessionThatAddedAnItem(_ file: URL) throws -> PseudoTerminal? {
        _ = try oneShot(file, "add", "one")
        _ = try oneShot(file, "add", "two")
        guard let session = Terminal.start(file) else { return nil }
        #expect(Terminal.prompted(session))
        session.type("add from session A\r")
        #expect(Terminal.answered(session, "3. [ ] from session A"))
        return session
    }

    /// The scenario of issue 28: a one-shot adds an item while the session is open; the
    /// session's undo takes its own step, not the one-shot's.
    @Test func aSessionOnATerminalUndoesItsOwnStepNotTheOneShotsMadeSince() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let session = try Self.sessionThatAddedAnItem(file) else { return }
        #expect(try Self.oneShot(file, "add", "one-shot from B while A is open").outputLines == ["4. [ ] one-shot from B while A is open"])
        session.type("undo\r")
        #expect(Terminal.answered(session, "Undo Add \"from session A\" (item 3 is gone)"), "\(session.screen.debugDescription)")
        #expect(session.screen.contains("todo: the list changed on disk (another todo saved it); reloaded: 4 items"))
        #expect(try Terminal.titles(file) == ["one", "two", "one-shot from B while A is open"])
        session.type("redo\r")
        #expect(Terminal.answered(session, "Redo Add \"from session A\" (item 3 is back)"))
        #expect(try Terminal.titles(file) == ["one", "two", "from session A", "one-shot from B while A is open"])
        session.type("\u{04}")
        #expect(session.waitForExit() == 0)
    }

    /// Another process edited the session's item: its undo is refused, saying which item and
    /// what happened, and the list on disk is as it was; `undo!` undoes it anyway.
    @Test func aStepWhoseItemAOneShotEditedIsRefusedUntilUndoneAnyway() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let session = try Self.sessionThatAddedAnItem(file) else { return }
        _ = try Self.oneShot(file, "--as", "bob", "edit", "3", "from session A, edited by B")
        let before = try TODOStore(fileURL: file).load()
        session.type("undo\r")
        #expect(Terminal.answered(session, "to forget that step"), "\(session.screen.debugDescription)")
        let refusal = try #require(session.screen.split(whereSeparator: \.isNewline).last { $0.hasPrefix("error: ") }.map(String.init))
        #expect(refusal.wholeMatch(of: try Regex(
            #"error: cannot undo Add "from session A": item 3 "from session A, edited by B" was edited by bob at \d\d:\d\d; "#
                + #"nothing changed. Type "undo!" to undo it anyway, over those changes \(only the fields the step changed\), "#
                + #"or "drop" to forget that step\r?"#)) != nil, "\(refusal)")
        #expect(try TODOStore(fileURL: file).load() == before, "nothing changed: the list and its revision")

        session.type("undo!\r")
        #expect(Terminal.answered(session, "Undo Add \"from session A\" (item 3 is gone)"))
        #expect(try Terminal.titles(file) == ["one", "two"])
        // A one-shot's undo takes the newest edit of the list, bob's, whose item the session's
        // undo removed: refused, saying who and when, and nothing changes.
        let undo = try TodoProcess(["--file", file.path, "--as", "bob", "undo"])
        #expect(undo.finish() == 1)
        let error = try #require(undo.errorLines.last)
        #expect(error.wholeMatch(of: try Regex(
            #"error: cannot undo step 4 Edit "from session A, edited by B" \(you \(bob\)\): "from session A, edited by B" was removed since, "#
                + #"by someone at \d\d:\d\d \(step 5\); nothing changed"#)) != nil, "\(error)")
        #expect(try Terminal.titles(file) == ["one", "two"])
        session.type("\u{04}")
        #expect(session.waitForExit() == 0)
    }

    /// Two sessions, one on a terminal and one on pipes, each undoing and redoing its own
    /// steps between the other's: the list's history holds their undos as steps, and their
    /// redos move back over them.
    @Test func twoSessionsEachUndoAndRedoTheirOwnSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let first = Terminal.start(file) else { return }
        #expect(Terminal.prompted(first))
        let second = try TodoProcess(["--file", file.path])
        first.type("add a1\r")
        #expect(Terminal.answered(first, "1. [ ] a1"))
        try second.send("add c1")
        #expect(second.waitForOutput(lines: 1))
        first.type("add a2\r")
        #expect(Terminal.answered(first, "3. [ ] a2"))
        try second.send("undo")
        #expect(second.waitForOutput(lines: 2))
        first.type("undo\r")
        #expect(Terminal.answered(first, "Undo Add \"a2\" (item 2 is gone)"))
        #expect(try Terminal.titles(file) == ["a1"])
        first.type("redo\r")
        #expect(Terminal.answered(first, "Redo Add \"a2\" (item 2 is back)"))
        try second.send("redo")
        #expect(second.waitForOutput(lines: 3))
        #expect(second.finish() == 0)
        #expect(second.outputLines == ["2. [ ] c1", "Undo Add \"c1\" (item 2 is gone)", "Redo Add \"c1\" (item 2 is back)"])
        #expect(try Terminal.titles(file) == ["a1", "c1", "a2"])
        #expect(try TODOStore(fileURL: file).savedStepTitles() == [
            "Add \"a1\"", "Add \"c1\"", "Add \"a2\"", "Undo Add \"c1\"", "Undo Add \"a2\"", "Redo Add \"a2\"", "Redo Add \"c1\"",
        ], "one timeline, every undo and redo a step of its own")
        first.type("\u{04}")
        #expect(first.waitForExit() == 0)
    }

    /// A number of the list as the person saw it, whose item a one-shot removed since, or past
    /// what they saw: the line stopped, and the person had to type `list` to learn the new
    /// numbers. The line shows the list now, and the prompt counts it.
    @Test func aStaleNumberOnATerminalStopsTheLineAndShowsTheListNow() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let session = try Self.sessionThatAddedAnItem(file) else { return }
        _ = try Self.oneShot(file, "--as", "bob", "rm", "2")
        _ = try Self.oneShot(file, "--as", "bob", "add", "from bob")
        session.type("done 2\r")
        #expect(Terminal.answered(session, "the list now, to retype with its numbers:"), "\(session.screen.debugDescription)")
        #expect(Terminal.answered(session, "3. [ ] from bob"), "\(session.screen.debugDescription)")
        let afterError = try #require(session.screen.range(of: "to retype with its numbers:", options: .backwards))
        let shown = session.screen[afterError.upperBound...].replacingOccurrences(of: "\r", with: "")
        let list = try #require(shown.range(of: "\n1. [ ] one\n2. [ ] from session A\n3. [ ] from bob\n"), "the list now: \(shown.debugDescription)")
        #expect(shown[list.upperBound...].contains("todo (3 items)> "), "then a prompt that counts it: \(shown.debugDescription)")
        #expect(try TODOStore(fileURL: file).load().list.items.map(\.isDone) == [false, false, false], "nothing changed")

        session.type("done 4\r")
        #expect(Terminal.answered(session, "no item 4; the list has 3 items"), "the numbers are the list's now")
        session.type("done 2\r")
        #expect(Terminal.answered(session, "2. [x] from session A"), "the number retyped from the list shown")
        session.type("\u{04}")
        #expect(session.waitForExit() == 0)
    }

    /// A restarted session could not undo its earlier edits while the banner said "Undo
    /// history is saved with the list": the banner names the person, and their steps come
    /// back with the next session on the terminal.
    @Test func aRestartedSessionOnATerminalUndoesItsPersonsEarlierSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let first = Terminal.start(file) else { return }
        #expect(Terminal.prompted(first))
        #expect(first.screen.contains("UndoKit TODO: using \(file.path), as someone"))
        #expect(first.screen.contains("undo and redo take back someone's own steps, those of earlier"))
        first.type("add Milk\r")
        #expect(Terminal.answered(first, "1. [ ] Milk"))
        first.type("\u{04}")
        #expect(first.waitForExit() == 0)
        _ = try Self.oneShot(file, "--as", "bob", "add", "Bread")

        guard let second = Terminal.start(file) else { return }
        #expect(Terminal.prompted(second))
        second.type("undo\r")
        #expect(Terminal.answered(second, "Undo Add \"Milk\" (item 1 is gone)"), "\(second.screen.debugDescription)")
        second.type("undo\r")
        #expect(Terminal.answered(second, "Nothing to undo of yours"), "bob's step is not theirs")
        #expect(try Terminal.titles(file) == ["Bread"])
        second.type("\u{04}")
        #expect(second.waitForExit() == 0)
    }
}
