import Foundation
import Testing
import UndoKit
@testable import TODOKit

/// The undo history file's format, and restoring a history onto a list.
@Suite struct SavedHistoryTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// A session with every kind of edit, grouped, some undone.
    static func busySession() throws -> EditingSession {
        let session = EditingSession()
        session.clock = { date }
        try session.add("Buy milk")
        try session.add("Pay rent", priority: .high)
        session.endEvent()
        session.beginGroup(named: "Tidy")
        try session.setTitle("Buy oat milk", at: 0)
        try session.setDetail("2 litres", at: 0)
        session.endEvent()
        try session.setPriority(.low, at: 1)
        try session.setDone(true, at: 1)
        try session.endGroup()
        session.endEvent()
        try session.add("Café “naïve” \\ \t 😀")
        try session.move(from: 2, to: 0)
        session.endEvent()
        try session.remove(at: 1)
        session.endEvent()
        try session.undo()
        return session
    }

    @Test func aHistoryEncodesAndDecodesAsItWas() throws {
        let session = try Self.busySession()
        let history = try #require(session.savableHistory())
        #expect(history.undoSteps.map(\.actionName) == ["Add \"Pay rent\"", "Tidy", "Move \"Café “naïve” \\ \t 😀\""])
        #expect(history.redoSteps.map(\.actionName) == ["Remove \"Buy oat milk\""])
        let saved = SavedHistory(revision: 7, history: history)
        let bytes = try saved.encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\"formatVersion\":2,\"revision\":7}\n{\"clean\":"))
        #expect(text.contains("},\"formatVersion\":2,\"redo\":["))
        #expect(try SavedHistory(decoding: bytes) == saved)
    }

    /// The file is written without `JSONEncoder`, for speed; UndoKit's own decoder must read it
    /// as the history it encodes itself.
    @Test func theDirectEncodingIsUndoKitsFormat() throws {
        var history = try #require(try Self.busySession().savableHistory())
        history.undoSteps[0].isDiscardable = true
        history.undoSteps[1].actionName = nil
        history.undoSteps[1].items.append(.group(.init(items: [.command(history.undoSteps[0].commands[0])])))
        let bytes = try SavedHistory(revision: 1, history: history).encoded()
        let body = Data(bytes[(try #require(bytes.firstIndex(of: 0x0A)) + 1)...])
        #expect(try UndoHistory<TODOCommand>(encoded: body) == history)
        let library = try JSONDecoder().decode(UndoHistory<TODOCommand>.self, from: history.encoded())
        #expect(library == history)
        #expect(try JSONSerialization.jsonObject(with: body) as? NSDictionary == JSONSerialization.jsonObject(with: history.encoded()) as? NSDictionary)
    }

    @Test func aRestoredHistoryUndoesAndRedoesAsTheOriginalWould() throws {
        let original = try Self.busySession()
        let saved = try SavedHistory(decoding: SavedHistory(revision: 1, history: #require(original.savableHistory())).encoded())
        let restored = EditingSession(list: original.list)
        try restored.restoreHistory(saved.history)
        #expect(restored.history == original.history)
        #expect(restored.takeChanges().isEmpty, "restoring changes nothing")
        for _ in 0..<3 {
            #expect(try restored.undo() == original.undo())
            #expect(restored.list == original.list)
        }
        for _ in 0..<4 {
            #expect(try restored.redo() == original.redo())
            #expect(restored.list == original.list)
        }
        #expect(restored.history.undoSteps.map(\.date) == [Self.date, Self.date, Self.date, Self.date])
    }

    @Test func aHistoryThatDoesNotFitTheListIsRefusedAndChangesNothing() throws {
        let original = try Self.busySession()
        let history = try #require(original.savableHistory())
        for list in [TODOList(), [TODOItem(title: "Someone else's")], TODOList(items: original.list.items.reversed())] {
            let session = EditingSession(list: list)
            #expect(throws: SavedHistoryError.doesNotFit) { try session.restoreHistory(history) }
            #expect(!session.canUndo && !session.canRedo)
            #expect(session.list == list && session.takeChanges().isEmpty)
        }
        // An empty step is never saved; one in a file is damage.
        let session = EditingSession(list: original.list)
        let withEmptyStep = UndoHistory<TODOCommand>(undoSteps: history.undoSteps + [.init(actionName: "Nothing")])
        #expect(throws: SavedHistoryError.doesNotFit) { try session.restoreHistory(withEmptyStep) }
    }

    @Test(arguments: [
        ("", SavedHistoryError.corrupt(reason: "no header line")),
        ("{\"formatVersion\":1,\"revision\":3}", .corrupt(reason: "no header line")),
        ("nonsense\n{}", .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")),
        ("{\"formatVersion\":1}\n{}", .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")),
        ("{\"formatVersion\":0,\"revision\":1}\n{}", .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")),
        ("{\"formatVersion\":1,\"revision\":-1}\n{}", .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")),
        ("{\"formatVersion\":3,\"revision\":1}\nanything", .unsupportedVersion(found: 3, supported: 2)),
        ("{\"formatVersion\":1,\"revision\":1}\n{\"formatVersion\":4,\"undo\":[],\"redo\":[]}", .unsupportedVersion(found: 4, supported: 2)),
    ])
    func badFilesThrowATypedError(text: String, expected: SavedHistoryError) {
        #expect(throws: expected) { try SavedHistory(decoding: Array(text.utf8)) }
    }

    @Test(arguments: [
        #"{"change":{"at":0,"op":"explode"},"date":0,"inverse":{"at":0,"op":"remove"},"name":"x"}"#,
        #"{"change":{"at":0,"op":"remove"},"date":99999999999999,"inverse":{"at":0,"op":"remove"},"name":"x"}"#,
        #"{"change":{"from":0,"op":"move"},"date":0,"inverse":{"at":0,"op":"remove"},"name":"x"}"#,
        #"{"change":{"at":0,"op":"insert"},"date":0,"inverse":{"at":0,"op":"remove"},"name":"x"}"#,
    ])
    func damagedCommandsMakeTheFileCorrupt(command: String) throws {
        let text = "{\"formatVersion\":1,\"revision\":1}\n{\"formatVersion\":1,\"redo\":[],\"undo\":[{\"items\":[{\"command\":\(command)}]}]}\n"
        #expect {
            try SavedHistory(decoding: Array(text.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? SavedHistoryError else { return false }
            return !reason.isEmpty
        }
    }

    @Test func aCommandRoundTripsThroughJSONToTheSecond() throws {
        let list: TODOList = [TODOItem(title: "Buy milk")]
        let command = TODOCommand(applying: .replace(at: 0, with: TODOItem(id: list.items[0].id, title: "Buy oat milk")),
                                  to: list, named: "Edit", at: Date(timeIntervalSince1970: 1_800_000_000.75))
        #expect(command.inverse == .replace(at: 0, with: list.items[0]))
        #expect(command.date == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try JSONDecoder().decode(TODOCommand.self, from: JSONEncoder().encode(command)) == command)
    }

    @Test(arguments: [
        ([:], 100),
        (["TODO_HISTORY_LIMIT": ""], 100),
        (["TODO_HISTORY_LIMIT": "0"], 0),
        (["TODO_HISTORY_LIMIT": "250"], 250),
    ] as [([String: String], Int)])
    func theLimitComesFromTheEnvironment(environment: [String: String], expected: Int) throws {
        #expect(try TODOStore.Options(environment: environment).historyLimit == expected)
    }

    @Test(arguments: ["-1", "1.5", "many", "1000001"])
    func anInvalidLimitIsRefused(value: String) {
        #expect(throws: TODOStore.Options.InvalidSetting.self) {
            try TODOStore.Options(environment: ["TODO_HISTORY_LIMIT": value])
        }
    }

    @Test func theREPLSavesABoundedHistoryAfterEveryCommitAndAFailedHistoryWriteIsOnlyAWarning() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.json")
        let store = TODOStore(fileURL: url, options: TODOStore.Options(historyLimit: 2))
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        for title in ["a", "b", "c"] {
            repl.handle(line: "add \(title)")
            #expect(try store.loadHistory()?.revision == store.load().revision)
        }
        #expect(try store.loadHistory()?.history.undoSteps.map(\.actionName) == ["Add \"b\"", "Add \"c\""])
        #expect(repl.session.undoManager.levelsOfUndo == 2)

        let failing = TODOStore(fileURL: url) { step in
            if case .wroteTemporaryFile(let temporary) = step, temporary.lastPathComponent.contains(".history.") { throw DiskFull() }
            if case .appendingHistoryChange = step { throw DiskFull() }
        }
        let failingConsole = ScriptedConsole()
        let other = REPL(session: EditingSession(), store: failing, console: failingConsole.console)
        other.handle(line: "add d")
        #expect(failingConsole.outputLines == ["4. [ ] d"])
        #expect(failingConsole.errorLines == ["todo: undo history not saved: cannot save \(store.historyURL.path): No space left on device"])
        #expect(!other.hadErrors, "the list is saved")
        #expect(try store.load().list.count == 4)
        #expect(try store.loadHistory()?.revision == 3, "the old history stays, and is now out of date")
    }

    /// Random edits, groups, undo and redo on one session; at random moments its history is
    /// saved, encoded, decoded and restored into a new session on the same list, which then
    /// takes over. Whatever the moment (a group open or not), the taken-over session has the
    /// same list and history, and the same further operations give the same results.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aSessionRestoredFromItsSavedHistoryCarriesOnAsTheOriginal(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let original = EditingSession()
        var copy = EditingSession()
        for session in [original, copy] {
            session.clock = { Self.date }
            // A restored session never merges into a restored step (the window ends with the
            // session), so the sessions compared here do not merge at all.
            session.coalescesEdits = false
        }
        for _ in 0..<300 {
            let count = original.list.count
            let operation = Int(random.next() % 10)
            let position = count > 0 ? Int(random.next() % UInt64(count)) : 0
            let other = count > 0 ? Int(random.next() % UInt64(count)) : 0
            let title = "Item \(random.next() % 1000)"
            for session in [original, copy] {
                switch operation {
                case 0, 1: try session.add(title)
                case 2 where count > 0: try session.setTitle(title, at: position)
                case 3 where count > 0: try session.setDone(position % 2 == 0, at: position)
                case 4 where count > 0: try session.remove(at: position)
                case 5 where count > 0: try session.move(from: position, to: other)
                case 6 where !session.isGroupOpen: try session.undo()
                case 7 where !session.isGroupOpen: try session.redo()
                case 8 where session.isGroupOpen: try session.endGroup()
                case 8: session.beginGroup(named: position % 2 == 0 ? "Group" : nil)
                default: break
                }
                session.endEvent()
            }
            // Each session draws its own identities for new items; the rest must agree.
            #expect(copy.list.lines == original.list.lines)
            #expect(copy.history == original.history)
            if random.next() % 7 == 0 {
                // Take over from the copy's saved history, as a new process would.
                let saved = try SavedHistory(decoding: SavedHistory(revision: 0, history: #require(copy.savableHistory())).encoded())
                let openGroups = copy.isGroupOpen ? 1 : 0
                let next = EditingSession(list: copy.list)
                next.clock = { Self.date }
                next.coalescesEdits = false
                try next.restoreHistory(saved.history)
                #expect(next.list == copy.list)
                // An open group is saved as a closed step, so the new session has it closed.
                if openGroups == 0 {
                    #expect(next.history == copy.history)
                } else {
                    // Close the original's group the same way, so the two stay comparable.
                    while original.isGroupOpen { try original.endGroup() }
                    original.endEvent()
                    #expect(next.history == original.history)
                }
                copy = next
            }
        }
    }
}
