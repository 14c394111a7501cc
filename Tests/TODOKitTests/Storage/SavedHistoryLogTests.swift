import Foundation
import Testing
import UndoKit
@testable import TODOKit

/// The history file as a base and appended changes: what a REPL appends reads back as the
/// whole history it would have written, and damage after the base is dropped the safe way.
@Suite struct SavedHistoryLogTests {
    /// A REPL over a file, editing at random (adds, edits, undo, redo, goto), line by line; after
    /// every line the file must read back as the session's own history.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func appendedChangesReadBackAsTheWholeHistory(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"), options: TODOStore.Options(historyLimit: 12))
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        var appended = 0
        for step in 0..<120 {
            let count = repl.session.list.count
            let line: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3: line = "add item \(step)"
            case 4 where count > 0: line = "edit \(Int.random(in: 1...count, using: &random)) renamed \(step)"
            case 5...6: line = "undo \(Int.random(in: 1...2, using: &random))"
            case 7: line = "redo"
            case 8: line = "goto \(Int.random(in: 0...repl.session.historySteps.count, using: &random))"
            default: line = "add a; add b"
            }
            repl.handle(line: line)
            // Nothing is saved before the first change.
            guard let saved = try store.loadHistory() else {
                #expect(repl.session.historySteps.isEmpty, "after \(line)")
                continue
            }
            #expect(saved.revision == (try store.load().revision), "after \(line)")
            appended = max(appended, saved.changeCount)
            let expected = try repl.session.undoManager.undoHistory(of: TODOCommand.self)
            // The file's history restored into a fresh manager draws the same tree.
            let restored = EditingSession(list: repl.session.list)
            try restored.restoreHistory(saved.history)
            #expect(restored.historySteps.map(\.name) == repl.session.historySteps.map(\.name), "after \(line)")
            #expect(restored.historySteps.map(\.isCurrent) == repl.session.historySteps.map(\.isCurrent), "after \(line)")
            #expect(restored.historySteps.map(\.isOnRedoPath) == repl.session.historySteps.map(\.isOnRedoPath), "after \(line)")
            #expect(saved.history.undoSteps.map(\.id) == expected.undoSteps.map(\.id), "after \(line)")
            #expect(saved.history.redoSteps.map(\.id) == expected.redoSteps.map(\.id), "after \(line)")
        }
        #expect(appended > 10, "most saves appended a change")
        #expect(!repl.hadErrors || console.errorLines.allSatisfy { !$0.contains("undo history") })
    }

    /// Builds a file of a base and two changes by running a REPL.
    private func fileWithTwoChanges() throws -> (TemporaryDirectory, TODOStore, [String]) {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        for line in ["add a", "add b", "undo"] {
            repl.handle(line: line)
        }
        let text = try String(contentsOf: store.historyURL, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "a header, the base and two changes")
        return (directory, store, lines)
    }

    @Test func aChangeCutShortLeavesTheHistoryAtTheChangeBefore() throws {
        let (directory, store, lines) = try fileWithTwoChanges()
        defer { withExtendedLifetime(directory) {} }
        let torn = lines[0 ..< 3].joined(separator: "\n") + "\n" + lines[3].prefix(20)
        let saved = try SavedHistory(decoding: Array(torn.utf8))
        #expect(saved.revision == (try store.load().revision) - 1)
        #expect(saved.changeCount == 1)
    }

    @Test func aDamagedChangeBeforeAnotherIsCorrupt() throws {
        // The directory goes with the tuple: only the lines are used.
        let lines = try fileWithTwoChanges().2
        var damaged = lines
        damaged[2] = String(damaged[2].dropLast(3)) + "xyz"
        #expect(throws: SavedHistoryError.self) {
            try SavedHistory(decoding: Array((damaged.joined(separator: "\n") + "\n").utf8))
        }
    }

    @Test(arguments: [
        (#"{"current":null,"redo":[],"removed":[],"revision":1,"steps":[]}"#, "is for revision 1, not after"),
        (#"{"current":99,"redo":[],"removed":[],"revision":9,"steps":[]}"#, "names step #99"),
        (#"{"current":null,"redo":[],"removed":[]}"#, "is not a history change"),
    ])
    func aChangeThatDoesNotFollowIsCorrupt(payload: String, problem: String) throws {
        // The directory goes with the tuple: only the lines are used.
        let lines = try fileWithTwoChanges().2
        let framed = String(decoding: TODOStore.framedLine(Array(payload.utf8)), as: UTF8.self)
        let text = lines[0 ..< 2].joined(separator: "\n") + "\n" + framed
        do {
            _ = try SavedHistory(decoding: Array(text.utf8))
            Issue.record("read as a history")
        } catch {
            #expect("\(error)".contains(problem), "\(error)")
        }
    }

    @Test func aVersionOneFileStillReads() throws {
        let session = EditingSession()
        try session.add("a")
        session.endEvent()
        // Version 1 as an older todo wrote it: no ids, no dates, no clean mark, no changes.
        var history = try #require(session.savableHistory())
        history.undoSteps[0].id = nil
        history.undoSteps[0].date = nil
        var text = String(decoding: try SavedHistory(revision: 3, history: history).encoded(), as: UTF8.self)
        text = text.replacingOccurrences(of: "{\"formatVersion\":2,\"revision\":3}", with: "{\"formatVersion\":1,\"revision\":3}")
            .replacing(/\{"clean":\{[^}]*\},"formatVersion":2,/, with: "{\"formatVersion\":1,")
        #expect(text.hasPrefix("{\"formatVersion\":1,\"revision\":3}\n{\"formatVersion\":1,\"redo\":[]"))
        let saved = try SavedHistory(decoding: Array(text.utf8))
        #expect(saved.revision == 3)
        #expect(saved.history.undoSteps.map(\.actionName) == ["Add \"a\""])
        #expect(saved.layout == nil && saved.changeCount == 0)
        let restored = EditingSession(list: session.list)
        try restored.restoreHistory(saved.history)
        try restored.undo()
        #expect(restored.list.isEmpty)
    }
}

extension SavedHistoryLogTests {
    /// Coalescing changes a step in place: the change appended must carry it again.
    @Test func aStepMergedInPlaceIsSavedAgain() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        for line in ["add Buy mlk", "edit 1 Buy mik", "edit 1 Buy milk"] {
            repl.handle(line: line)
        }
        #expect(repl.session.history.undo == ["Edit \"Buy milk\"", "Add \"Buy mlk\""])
        let saved = try #require(try store.loadHistory())
        #expect(saved.changeCount == 2)
        #expect(saved.history.undoSteps.map(\.actionName) == ["Add \"Buy mlk\"", "Edit \"Buy milk\""])
        #expect(saved.history.undoSteps.last?.commands.count == 2)
        let restored = EditingSession(list: repl.session.list)
        try restored.restoreHistory(saved.history)
        try restored.undo()
        #expect(restored.list.items.map(\.title) == ["Buy mlk"])
    }
}
