import Foundation
import Testing
@testable import TODOKit

/// The real `todo` program's saved undo history: undo across processes, sessions and one-shots
/// taking turns, crashes, and history files in every bad state.
@Suite struct TodoExecutableHistoryTests {
    static func todo(_ file: URL, _ arguments: String..., environment: [String: String] = [:]) throws -> TodoExecutableTests.Run? {
        try TodoExecutableTests.run(["--file", file.path] + arguments, input: "", environment: environment)
    }

    static func titles(_ file: URL) throws -> [String] {
        try TODOStore(fileURL: file).load().list.items.map(\.title)
    }

    @Test func undoAndRedoWorkInLaterProcesses() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        _ = try Self.todo(file, "add", "Buy milk")
        _ = try Self.todo(file, "add", "Buy eggs")

        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.status == 0)
        #expect(undo.output == "Undo Add \"Buy eggs\" (item 2 is gone)\n")
        #expect(try Self.titles(file) == ["Buy milk"])

        guard let redo = try Self.todo(file, "redo") else { return }
        #expect(redo.output == "Redo Add \"Buy eggs\" (item 2 is back)\n")
        #expect(try Self.titles(file) == ["Buy milk", "Buy eggs"])

        _ = try Self.todo(file, "undo")
        _ = try Self.todo(file, "undo")
        #expect(try Self.titles(file) == [])
        guard let history = try Self.todo(file, "history") else { return }
        let lines = history.output.split(separator: "\n").map { String($0) }
        #expect(lines.count == 8)
        #expect(lines[1] == "   0  the start")
        #expect(lines[2].hasPrefix("   1  ") && lines[2].hasSuffix("  someone  Add \"Buy milk\"  (undone by step 6)"))
        #expect(lines[3].hasSuffix("  someone  Add \"Buy eggs\"  (undone by step 5)"))
        #expect(lines[4].hasSuffix("  someone  Undo Add \"Buy eggs\"  (step 2)"))
        #expect(lines[5].hasSuffix("  someone  Redo Add \"Buy eggs\"  (step 2)"))
        #expect(lines[6].hasSuffix("  someone  Undo Add \"Buy eggs\"  (step 2)"))
        #expect(lines[7].hasSuffix("  someone  Undo Add \"Buy milk\"  (step 1)"))

        // goto brings the list back to just after any step, as a step of its own; a one-shot
        // says what changed, not the whole list.
        _ = try Self.todo(file, "add", "Bread")
        guard let jump = try Self.todo(file, "goto", "2") else { return }
        #expect(jump.output == "At step 2 (reverted what 5 steps changed since) (items 1 and 2 are back; item 1 is gone)\n")
        #expect(try Self.titles(file) == ["Buy milk", "Buy eggs"])
        guard let after = try Self.todo(file, "history") else { return }
        #expect(after.output.split(separator: "\n").last?.hasSuffix("  someone  Go to step 2") == true)
        #expect(history.errors == "")
    }

    static let nothingOfItsOwn = "Nothing to undo of yours (\"history\" shows every step of the list, which \"goto\" reaches)"

    /// A session undoes only its own steps; a one-shot, which has none, undoes the newest step
    /// of the list, whoever made it.
    @Test func aSessionUndoesOnlyItsOwnStepsAndOneShotsTheNewestOfAll() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        _ = try Self.todo(file, "--as", "bob", "add", "from a one-shot")
        let arguments = ["--file", file.path, "--as", "alice"]
        guard let session = try TodoExecutableTests.run(arguments, input: "undo\nadd from the session; add and more\n") else { return }
        #expect(session.status == 0)
        #expect(session.output == "\(Self.nothingOfItsOwn)\n2. [ ] from the session\n3. [ ] and more\n")

        guard let undo = try Self.todo(file, "--as", "bob", "undo") else { return }
        #expect(undo.output == "Undo Add \"and more\" (alice's step 2) (items 2 and 3 are gone)\n", "the session's line is one step")
        #expect(try Self.titles(file) == ["from a one-shot"])
        guard let older = try Self.todo(file, "--as", "bob", "undo") else { return }
        #expect(older.output == "Undo Add \"from a one-shot\" (item 1 is gone)\n", "the session's undo found nothing: no step")
    }

    /// A session's undo is a step of the list's history, which a one-shot undo never undoes
    /// (no "Undo Undo"): it takes the newest edit still done. The session's redo of its step,
    /// whose item is back, is refused, saying who.
    @Test func aOneShotUndoTakesTheNewestEditNeverAnUndo() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let session = try TodoProcess(["--file", file.path, "--as", "alice"])
        try session.send("add a")
        #expect(session.waitForOutput(lines: 1))
        _ = try Self.todo(file, "--as", "bob", "add", "b")
        try session.send("undo")
        #expect(session.waitForOutput(lines: 2))
        guard let undo = try Self.todo(file, "--as", "bob", "undo") else { return }
        #expect(undo.output == "Undo Add \"b\" (item 1 is gone)\n")
        guard let redo = try Self.todo(file, "--as", "bob", "redo") else { return }
        #expect(redo.output == "Redo Add \"b\" (item 1 is back)\n")
        _ = try Self.todo(file, "--as", "bob", "add", "c")
        try session.send("redo")
        try session.send("list")
        #expect(session.finish() == 0)
        #expect(session.outputLines == ["1. [ ] a", "Undo Add \"a\" (item 1 is gone)", "Redo Add \"a\" (item 1 is back)", "1. [ ] a", "2. [ ] b", "3. [ ] c"])
        #expect(try Self.titles(file) == ["a", "b", "c"])
        #expect(try TODOStore(fileURL: file).savedStepTitles() == [
            "Add \"a\"", "Add \"b\"", "Undo Add \"a\"", "Undo Add \"b\"", "Redo Add \"b\"", "Add \"c\"", "Redo Add \"a\"",
        ])
    }

    /// Two sessions at once, each undoing and redoing its own steps; the shared history holds
    /// every step and every undo, in the order they were made.
    @Test func twoSessionsAtOnceEachUndoTheirOwnSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let first = try TodoProcess(["--file", file.path])
        let second = try TodoProcess(["--file", file.path])
        try first.send("add one")
        #expect(first.waitForOutput(lines: 1))
        try second.send("add two")
        #expect(second.waitForOutput(lines: 1))
        try first.send("add three")
        #expect(first.waitForOutput(lines: 2))
        try second.send("undo")
        #expect(second.waitForOutput(lines: 2))
        try first.send("undo; undo")
        #expect(first.waitForOutput(lines: 4))
        try second.send("redo")
        #expect(first.finish() == 0)
        #expect(second.finish() == 0)
        #expect(first.outputLines == ["1. [ ] one", "3. [ ] three", "Undo Add \"three\" (item 2 is gone)", "Undo Add \"one\" (item 1 is gone)"])
        #expect(second.outputLines == ["2. [ ] two", "Undo Add \"two\" (item 2 is gone)", "Redo Add \"two\" (item 1 is back)"])
        #expect(try Self.titles(file) == ["two"])
        #expect(try TODOStore(fileURL: file).savedStepTitles() == [
            "Add \"one\"", "Add \"two\"", "Add \"three\"", "Undo Add \"two\"", "Undo Add \"three\"", "Undo Add \"one\"", "Redo Add \"two\"",
        ])
    }

    @Test func theHistoryKeepsTheConfiguredNumberOfSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let script = (1...8).map { "add \($0)" }.joined(separator: "\n") + "\n"
        guard let run = try TodoExecutableTests.run(["--file", file.path], input: script, environment: ["TODO_HISTORY_LIMIT": "3"]) else { return }
        #expect(run.status == 0)
        #expect(try TODOStore(fileURL: file).savedStepTitles() == ["Add \"6\"", "Add \"7\"", "Add \"8\""])
        // Each undo is a step too, and the oldest step goes: the third undo finds none left.
        for expected in ["Undo Add \"8\" (item 8 is gone)", "Undo Add \"7\" (item 7 is gone)", "Nothing to undo"] {
            #expect(try Self.todo(file, "undo", environment: ["TODO_HISTORY_LIMIT": "3"])?.output == expected + "\n")
        }
        guard let invalid = try Self.todo(file, "list", environment: ["TODO_HISTORY_LIMIT": "lots"]) else { return }
        #expect(invalid.status == 2)
        #expect(invalid.errors == "todo: TODO_HISTORY_LIMIT must be a whole number from 0 to 1000000, not \"lots\"\n")
    }

    /// A step's changes in a state todo never writes, as another program can leave them:
    /// `list` reads no history; `undo` that reaches the step fails with a clear error and
    /// changes nothing; a new change is saved, and undone, as ever.
    @Test(arguments: [
        "UPDATE step_change SET op = 'garbage' WHERE step = 2",
        "UPDATE step_change SET item = 'not a uuid' WHERE step = 2",
        "UPDATE step_change SET priority = 'urgent' WHERE step = 2",
    ])
    func aDamagedStepIsAnErrorAndTheListIsUntouched(damage: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let store = TODOStore(fileURL: file)
        _ = try Self.todo(file, "add", "Buy milk")
        _ = try Self.todo(file, "add", "Buy eggs")
        try store.execute("PRAGMA ignore_check_constraints = ON; " + damage + "; PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try store.load()

        guard let list = try Self.todo(file, "list") else { return }
        #expect(list.status == 0)
        #expect(list.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n")
        #expect(list.errors == "", "list reads no history")

        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.status == 1)
        #expect(undo.output == "")
        #expect(undo.errors == "error: \(file.path) is damaged: a change of step 2 of the history is not one todo writes; nothing changed\n")
        #expect(try store.load() == before, "the list is not affected")

        guard let add = try Self.todo(file, "add", "Bread") else { return }
        #expect(add.status == 0)
        #expect(add.output == "3. [ ] Bread\n")
        guard let again = try Self.todo(file, "undo") else { return }
        #expect(again.output == "Undo Add \"Bread\" (item 3 is gone)\n")
        #expect(again.errors == "")
        #expect(try Self.titles(file) == ["Buy milk", "Buy eggs"])
    }

    /// `kill -9` at random moments of a session whose lines add, change, undo and redo, each
    /// saving the list and its undo step in one transaction: afterwards the two always fit,
    /// whatever the moment; the list holds every change the session reported, and the next
    /// `todo` undoes from there.
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func killingASessionAtRandomLeavesAListAndAHistoryThatFit(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let store = TODOStore(fileURL: file)
        let session = try TodoProcess(["--file", file.path], environment: ["TODO_HISTORY_LIMIT": "20"])
        let lines = 200
        // Every line prints exactly one line, and the whole script fits in the pipe's buffer.
        for number in 1...lines {
            switch number % 5 {
            case 0: try session.send("undo")
            case 2: try session.send("redo")
            case 4: try session.send("done 1")
            default: try session.send("add Item \(number)")
            }
        }
        let killAfter = Int.random(in: 1...lines - 1, using: &random)
        #expect(session.waitForOutput(lines: killAfter))
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.003, using: &random))
        session.kill()

        let contents = try store.load()
        // The history came with every change: its newest step made the list's revision.
        #expect(try store.savedSteps().last?.revision == contents.revision)

        guard let next = try Self.todo(file, "add", "after the kill") else { return }
        #expect(next.status == 0)
        #expect(next.output == "\(contents.list.count + 1). [ ] after the kill\n")
        guard let undo = try Self.todo(file, "undo", "2") else { return }
        let undone = undo.output.split(separator: "\n")
        #expect(undone.first == "Undo Add \"after the kill\"")
        #expect(undone.count == 2, "a step saved before the kill is undone too: \(undone)")
        #expect(undo.errors == "")
    }
}
