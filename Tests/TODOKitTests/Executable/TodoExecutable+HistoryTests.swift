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
        let file = directory.file("todo.json")
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
        let lines = history.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("*    0 ") && lines[1].hasSuffix("(start)"))
        #expect(lines[2].hasPrefix(">    1 ") && lines[2].hasSuffix("  Add \"Buy milk\""))
        #expect(lines[3].hasPrefix(">    2 ") && lines[3].hasSuffix("  Add \"Buy eggs\""))

        // An edit after undo keeps the undone step as a branch, which goto reaches from a
        // later process.
        _ = try Self.todo(file, "redo")
        _ = try Self.todo(file, "add", "Bread")
        #expect(try Self.titles(file) == ["Buy milk", "Bread"])
        guard let jump = try Self.todo(file, "goto", "2") else { return }
        #expect(jump.output == "At step 2 (undid 1, redid 1):\n1. [ ] Buy milk\n2. [ ] Buy eggs\n")
        #expect(try Self.titles(file) == ["Buy milk", "Buy eggs"])
        guard let tree = try Self.todo(file, "history") else { return }
        let drawn = tree.output.split(separator: "\n").dropFirst().map { String($0.dropFirst(26)) }
        #expect(drawn == ["(start)", "Add \"Buy milk\"", "| Add \"Buy eggs\"", "Add \"Bread\""])
        #expect(history.errors == "")
    }

    @Test func aSessionStartsWithTheSavedHistoryAndLeavesItsOwn() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        _ = try Self.todo(file, "add", "from a one-shot")
        guard let session = try TodoExecutableTests.run(["--file", file.path], input: "undo\nadd from the session; add and more\n") else { return }
        #expect(session.status == 0)
        #expect(session.output == "Undo Add \"from a one-shot\" (item 1 is gone)\n1. [ ] from the session\n2. [ ] and more\n")

        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.output == "Undo Add \"and more\" (items 1 and 2 are gone)\n", "the session's line is one step")
        #expect(try Self.titles(file) == [])
        guard let nothing = try Self.todo(file, "undo") else { return }
        #expect(nothing.output == "Nothing to undo\n", "the session's undo was not a step of its own")
    }

    @Test func aSessionAndOneShotsInterleavedShareOneLinearHistory() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        let session = try TodoProcess(["--file", file.path])
        try session.send("add a")
        #expect(session.waitForOutput(lines: 1))
        _ = try Self.todo(file, "add", "b")
        try session.send("undo")
        #expect(session.waitForOutput(lines: 2))
        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.output == "Undo Add \"a\" (item 1 is gone)\n")
        try session.send("redo")
        try session.send("list")
        #expect(session.finish() == 0)
        #expect(session.outputLines == ["1. [ ] a", "Undo Add \"b\" (item 2 is gone)", "Redo Add \"a\" (item 1 is back)", "1. [ ] a"])
        #expect(session.errorLines.filter { $0.contains("reloaded") } == [
            "todo: the list changed on disk (another todo saved it); reloaded: 2 items and its undo history (2 steps)",
            "todo: the list changed on disk (another todo saved it); reloaded: 0 items and its undo history (2 steps)",
        ])
        guard let redo = try Self.todo(file, "redo") else { return }
        #expect(redo.output == "Redo Add \"b\" (item 2 is back)\n")
        #expect(try Self.titles(file) == ["a", "b"])
    }

    @Test func twoSessionsAtOnceUndoEachOthersStepsInOrder() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        let first = try TodoProcess(["--file", file.path])
        let second = try TodoProcess(["--file", file.path])
        try first.send("add one")
        #expect(first.waitForOutput(lines: 1))
        try second.send("add two")
        #expect(second.waitForOutput(lines: 1))
        try first.send("add three")
        #expect(first.waitForOutput(lines: 2))
        try second.send("undo; undo")
        #expect(second.waitForOutput(lines: 3))
        try first.send("redo")
        #expect(first.finish() == 0)
        #expect(second.finish() == 0)
        #expect(second.outputLines == ["2. [ ] two", "Undo Add \"three\" (item 3 is gone)", "Undo Add \"two\" (item 2 is gone)"])
        #expect(first.outputLines == ["1. [ ] one", "3. [ ] three", "Redo Add \"two\" (item 2 is back)"])
        #expect(try Self.titles(file) == ["one", "two"])
        let saved = try #require(try TODOStore(fileURL: file).loadHistory())
        #expect(saved.revision == (try TODOStore(fileURL: file).load().revision))
        #expect(saved.history.undoSteps.map(\.actionName) == ["Add \"one\"", "Add \"two\""])
        #expect(saved.history.redoSteps.map(\.actionName) == ["Add \"three\""])
    }

    @Test func theHistoryKeepsTheConfiguredNumberOfSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        let script = (1...8).map { "add \($0)" }.joined(separator: "\n") + "\n"
        guard let run = try TodoExecutableTests.run(["--file", file.path], input: script, environment: ["TODO_HISTORY_LIMIT": "3"]) else { return }
        #expect(run.status == 0)
        #expect(try TODOStore(fileURL: file).loadHistory()?.history.undoSteps.count == 3)
        for expected in ["Undo Add \"8\" (item 8 is gone)", "Undo Add \"7\" (item 7 is gone)", "Undo Add \"6\" (item 6 is gone)", "Nothing to undo"] {
            #expect(try Self.todo(file, "undo", environment: ["TODO_HISTORY_LIMIT": "3"])?.output == expected + "\n")
        }
        guard let invalid = try Self.todo(file, "list", environment: ["TODO_HISTORY_LIMIT": "lots"]) else { return }
        #expect(invalid.status == 2)
        #expect(invalid.errors == "todo: TODO_HISTORY_LIMIT must be a whole number from 0 to 1000000, not \"lots\"\n")
    }

    /// A history file in a bad state: each is dropped with one clear warning, the list is shown
    /// and edited as usual, and the next change writes a good history again.
    enum Damage: String, CaseIterable, Sendable {
        case empty, garbage, truncated, futureHeader, futureUndoKitFormat, mismatchedRevision, doesNotFit

        /// `good` is a header, the base (the first add) and one change (the second add).
        func apply(to good: String, revision: UInt64) -> String {
            let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            switch self {
            case .empty: return ""
            case .garbage: return "\u{1}\u{2}not a history\n{]"
            // Cut in the middle of the base, where a crash cannot leave it (it is replaced whole).
            case .truncated: return lines[0] + "\n" + lines[1].prefix(lines[1].count / 2)
            case .futureHeader:
                return good.replacingOccurrences(of: "{\"formatVersion\":2,\"revision\"", with: "{\"formatVersion\":9,\"revision\"")
            case .futureUndoKitFormat:
                return good.replacingOccurrences(of: "\"formatVersion\":2,\"redo\"", with: "\"formatVersion\":5,\"redo\"")
            // The last change lost, as after a power cut: the history is a revision behind.
            case .mismatchedRevision: return lines[0 ..< 2].joined(separator: "\n") + "\n"
            // Undoing the newest step would remove the first item rather than the one it added;
            // the change line is framed again, as if written so.
            case .doesNotFit:
                let payload = String(lines[2].dropFirst(9))
                    .replacingOccurrences(of: "\"inverse\":{\"at\":1", with: "\"inverse\":{\"at\":0")
                let framed = String(decoding: TODOStore.framedLine(Array(payload.utf8)), as: UTF8.self)
                return lines[0 ..< 2].joined(separator: "\n") + "\n" + framed
            }
        }

        var problem: String {
            switch self {
            case .empty: "is damaged: no header line"
            case .garbage: "is damaged: the header is not"
            case .truncated: "is damaged: "
            case .futureHeader: "has format version 9; this todo reads versions 1 to 2"
            case .futureUndoKitFormat: "has format version 5; this todo reads versions 1 to 2"
            case .mismatchedRevision: "belongs to revision 1 of the list, which is at revision 2"
            case .doesNotFit: "does not fit the list"
            }
        }
    }

    /// A history file in a bad state: each is dropped with one clear warning, the list is shown
    /// and edited as usual, and the next change writes a good history again.
    @Test(arguments: Damage.allCases)
    func aBadHistoryIsDroppedWithAWarningAndTheListIsUntouched(damage: Damage) throws {
        let name = damage.rawValue
        let problem = damage.problem
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        let store = TODOStore(fileURL: file)
        _ = try Self.todo(file, "add", "Buy milk")
        _ = try Self.todo(file, "add", "Buy eggs")
        let good = try String(contentsOf: store.historyURL, encoding: .utf8)
        let revision = try store.load().revision
        try Data(damage.apply(to: good, revision: revision).utf8).write(to: store.historyURL)
        let listBefore = try Data(contentsOf: file)
        let journalBefore = try Data(contentsOf: store.journalURL)

        guard let list = try Self.todo(file, "list") else { return }
        #expect(list.status == 0, "\(name)")
        #expect(list.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n")
        let warnings = list.errors.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("todo: undo history dropped: \(store.historyURL.path) \(problem)") == true, "\(list.errors)")
        #expect(warnings.first?.hasSuffix("; the list is not affected") == true)
        #expect(try Data(contentsOf: file) == listBefore && Data(contentsOf: store.journalURL) == journalBefore, "reading wrote nothing")

        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.status == 0)
        #expect(undo.output == "Nothing to undo\n")
        guard let add = try Self.todo(file, "add", "Bread") else { return }
        #expect(add.status == 0)
        #expect(add.output == "3. [ ] Bread\n")
        guard let again = try Self.todo(file, "undo") else { return }
        #expect(again.output == "Undo Add \"Bread\" (item 3 is gone)\n")
        #expect(again.errors == "", "the history written after the drop is good")
        #expect(try Self.titles(file) == ["Buy milk", "Buy eggs"])
    }

    /// `kill -9` at random moments of a session whose lines add, change, undo and redo, each
    /// saving the list and then its history (compacting often): afterwards the two are a
    /// consistent pair, or the history is one revision behind and is dropped with a warning;
    /// the list always loads, and the next `todo` carries on.
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func killingASessionAtRandomLeavesAListAndHistoryThatFitOrADroppableHistory(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        let store = TODOStore(fileURL: file)
        let session = try TodoProcess(["--file", file.path], environment: ["TODO_COMPACTION_MINIMUM": "3", "TODO_HISTORY_LIMIT": "20"])
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
        let saved: SavedHistory
        do {
            saved = try #require(try store.loadHistory())
        } catch {
            Issue.record("the history file does not load after the kill: \(error)")
            return
        }
        if saved.revision == contents.revision {
            let check = EditingSession(list: contents.list)
            try check.restoreHistory(saved.history)
            #expect(check.canUndo)
        } else {
            #expect(saved.revision + 1 == contents.revision, "the kill fell between the two saves")
        }

        guard let next = try Self.todo(file, "add", "after the kill") else { return }
        #expect(next.status == 0)
        #expect(next.output == "\(contents.list.count + 1). [ ] after the kill\n")
        guard let undo = try Self.todo(file, "undo") else { return }
        #expect(undo.output.hasPrefix("Undo Add \"after the kill\" (item ") && undo.output.hasSuffix(" is gone)\n"))
        #expect(undo.errors == "")
        #expect(try store.load().list == contents.list)
    }
}
