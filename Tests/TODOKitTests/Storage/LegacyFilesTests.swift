import Foundation
import Testing
@testable import TODOKit

/// Importing the files of earlier versions, written by them (see `Fixtures/Legacy`): the
/// session fixture is a session's nine lines, the compacted one seven one-shot adds, an undo
/// and a `done`, with the journal compacted into the snapshot along the way.
@Suite struct LegacyFilesTests {
    static func fixture(_ name: String) throws -> (TemporaryDirectory, URL) {
        let directory = try TemporaryDirectory()
        return (directory, try TodoExecutableStorageTests.legacyFixture(name, into: directory))
    }

    /// The list is imported; its undo history is not (the old files do not say who made each
    /// step), and the notice says so.
    @Test func aCompactedListImportsWithItsRevisionButNotItsHistory() throws {
        let (directory, old) = try Self.fixture("compacted")
        let store = TODOStore(fileURL: old)
        let contents = try store.load()
        #expect(contents.list.items.map(\.title) == (1...6).map { "Item \($0)" })
        #expect(contents.list.items.map(\.isDone) == [false, true, false, false, false, false])
        #expect(contents.revision == 9)
        #expect(try store.savedStepTitles() == [])
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(try directory.contents().contains("todo.json.journal.imported"))
    }

    /// What a crash while appending left: the last journal line cut short. It was never
    /// reported as saved, so the import leaves it out, as the old versions did.
    @Test func aTornLastJournalLineIsLeftOut() throws {
        let (directory, old) = try Self.fixture("session")
        let journal = URL(fileURLWithPath: old.path + ".journal")
        let torn = #"7ab3c0de {"changes":[{"at":3,"item":{"detail":"","id":"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10","isDone":false,"prio"#
        try (Data(contentsOf: journal) + Data(torn.utf8)).write(to: journal)
        let contents = try TODOStore(fileURL: old).load()
        #expect(contents.list.items.map(\.title) == ["Buy eggs", "Bread", "Green tea"])
        #expect(contents.revision == 9)
        withExtendedLifetime(directory) {}
    }

    /// A history behind its list (a crash between the two writes of an old version): the list
    /// is imported, the history is not, and the note says why.
    @Test func aHistoryBehindItsListIsLeftOutWithANote() throws {
        let (directory, old) = try Self.fixture("session")
        let historyURL = URL(fileURLWithPath: old.path + ".history")
        let lines = try String(contentsOf: historyURL, encoding: .utf8).split(separator: "\n")
        try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: historyURL)
        let database = TODODatabase(store: TODOStore(fileURL: old))
        #expect(try database.refresh() == .loaded(try TODOStore(fileURL: old).load().list))
        #expect(database.notices.last == "\(old.path): its undo history is not imported: it belongs to revision 8 of the list, which is at revision 9")
        #expect(try TODOStore(fileURL: old).savedStepTitles() == [])
        withExtendedLifetime(directory) {}
    }

    /// A crash after the import's commit and before the old files were renamed: the next
    /// `todo` renames them, and imports nothing twice.
    @Test func oldFilesLeftBesideTheirImportAreRenamedNextTime() throws {
        let (directory, old) = try Self.fixture("session")
        let store = TODOStore(fileURL: old)
        let imported = try store.load()
        for name in try directory.contents() where name.hasSuffix(".imported") {
            try FileManager.default.moveItem(at: directory.file(name), to: directory.file(String(name.dropLast(".imported".count))))
        }
        #expect(try store.load() == imported)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: old.path + ".imported"))
    }

    @Test func theListFileOfExportReadsAnOldSnapshotToo() throws {
        let (directory, old) = try Self.fixture("session")
        let file = try TODOListFile(decoding: Data(contentsOf: old))
        #expect(file.items.map(\.title) == ["Buy milk"], "the snapshot, at revision 1")
        #expect(try TODOListFile(decoding: TODOListFile(list: TODOList(items: file.items)).encoded()) == TODOListFile(list: TODOList(items: file.items)))
        withExtendedLifetime(directory) {}
    }

    /// A version 1 history file (a header and the history, whose steps have no ids), with redo
    /// steps: imported, every step gets an id, and undo and redo work on it. (The fuzzer found
    /// this file trapping the importer.)
    @Test func aVersion1HistoryWithRedoStepsDoesNotStopTheImport() throws {
        let directory = try TemporaryDirectory()
        let old = directory.file("todo.json")
        try Data(#"""
            {"formatVersion": 2, "revision": 6, "items": [{"detail": "", "id": "4282BAC8-194F-4736-BBEA-4BB2FBE1367B",
             "isDone": false, "priority": "medium", "title": "a"}]}
            """#.utf8).write(to: old)
        try Data(#"""
            {"formatVersion":1,"revision":6}
            {"formatVersion":1,"redo":[{"items":[{"command":{"change":{"at":3,"item":{"detail":"","id":"F7749410-E546-4C69-99F9-398B6EB7FAB6","isDone":false,"priority":"medium","title":"d"},"op":"insert"},"date":1795433767,"inverse":{"at":3,"op":"remove"},"name":"Add \"d\""}}],"name":"Add \"d\""},{"items":[{"command":{"change":{"at":0,"item":{"detail":"","id":"4282BAC8-194F-4736-BBEA-4BB2FBE1367B","isDone":true,"priority":"medium","title":"a"},"op":"replace"},"date":1795433767,"inverse":{"at":0,"item":{"detail":"","id":"4282BAC8-194F-4736-BBEA-4BB2FBE1367B","isDone":false,"priority":"medium","title":"a"},"op":"replace"},"name":"Mark \"a\" Done"}},{"command":{"change":{"at":2,"item":{"detail":"","id":"9C9D29DC-A1FA-4717-A5A2-B9906E7280E4","isDone":false,"priority":"medium","title":"c"},"op":"insert"},"date":1795433767,"inverse":{"at":2,"op":"remove"},"name":"Add \"c\""}},{"command":{"change":{"at":1,"item":{"detail":"","id":"3C4900C4-BF14-438F-A961-7EA13AC59373","isDone":false,"priority":"medium","title":"b"},"op":"insert"},"date":1795433767,"inverse":{"at":1,"op":"remove"},"name":"Add \"b\""}}],"name":"Plan Week"}],"undo":[{"items":[{"command":{"change":{"at":0,"item":{"detail":"","id":"4282BAC8-194F-4736-BBEA-4BB2FBE1367B","isDone":false,"priority":"medium","title":"a"},"op":"insert"},"date":1795433767,"inverse":{"at":0,"op":"remove"},"name":"Add \"a\""}}],"name":"Add \"a\""}]}
            """#.utf8).write(to: URL(fileURLWithPath: old.path + ".history"))
        let store = TODOStore(fileURL: old)
        #expect(try store.load().list.items.map(\.title) == ["a"])
        #expect(try store.savedStepTitles() == [], "the list is imported, not its history")
        let console = ScriptedConsole(["redo", "undo"])
        let oneShot = REPL(session: EditingSession(), store: store, console: console.console)
        oneShot.ownStepsOnly = false
        #expect(oneShot.run() == 0)
        #expect(console.outputLines == ["Nothing to redo", "Nothing to undo"])
    }
}
