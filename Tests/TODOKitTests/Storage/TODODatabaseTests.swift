import Foundation
import Testing
@testable import TODOKit
import UndoKit

@Suite struct TODODatabaseTests {
    static let sample: TODOList = [
        TODOItem(title: "Buy milk", detail: "2 litres", priority: .high),
        TODOItem(title: "Pay rent", isDone: true),
    ]

    /// Commits `changes` made to the list on disk, as one transaction.
    static func commit(_ changes: [TODOList.Change], to database: TODODatabase) throws {
        try database.write { () throws(TODOStoreError) in
            var list: TODOList
            switch try database.refresh() {
            case .loaded(let loaded), .changed(let loaded): list = loaded
            case .unchanged: list = try database.readList()
            }
            try database.commit(changes.map { change in
                defer { list.apply(change) }
                return list.identified(change)
            })
        }
    }

    // The tests that take a `Backend` run on SQLite and on PostgreSQL (a database of their own
    // on the throwaway server); `Backend.available` says loudly when PostgreSQL skips.

    @Test(arguments: Backend.available)
    func aMissingDatabaseIsAnEmptyListAndNothingIsCreated(backend: Backend) throws {
        let list = try backend.makeList()
        let store = try list.store()
        #expect(try store.load() == TODOStore.Contents(list: TODOList(), revision: 0))
        #expect(try list.directory.contents().isEmpty, "reading must not create the file")
        if backend == .postgres {
            #expect(try store.text("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == "0", "nor the tables")
        }
    }

    /// Every kind of change, at every kind of position: what is loaded back is the list the
    /// same changes make in memory.
    @Test(arguments: Backend.available, [
        [.insert(TODOItem(title: "Bread"), at: 0)],
        [.insert(TODOItem(title: "Bread"), at: 1), .insert(TODOItem(title: "Jam"), at: 3)],
        [.remove(at: 0)],
        [.remove(at: 1), .remove(at: 0)],
        [.replace(at: 1, with: TODOItem(id: sample.items[1].id, title: "Pay the rent", detail: "by Friday", isDone: false, priority: .low))],
        [.move(from: 0, to: 1)],
        [.move(from: 1, to: 0), .insert(TODOItem(title: "Tea"), at: 1), .move(from: 2, to: 0)],
    ] as [[TODOList.Change]])
    func committedChangesLoadBackExactly(backend: Backend, changes: [TODOList.Change]) throws {
        let list = try backend.makeList()
        let store = try list.store()
        let database = TODODatabase(store: store)
        try Self.commit(Self.sample.items.enumerated().map { .insert($1, at: $0) }, to: database)
        try Self.commit(changes, to: database)
        var expected = Self.sample
        changes.forEach { expected.apply($0) }
        #expect(try store.load() == TODOStore.Contents(list: expected, revision: 2))
        #expect(database.revision == 2)
    }

    @Test func theFileIsATODOListInWALModeWithItsSchemaVersion() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.url.appendingPathComponent("a/b/todo.json"))
        #expect(store.fileURL.lastPathComponent == "todo.db", "a .json name stands for the .db beside it")
        try Self.commit([.insert(TODOItem(title: "Buy milk"), at: 0)], to: TODODatabase(store: store))
        #expect(try store.text("PRAGMA journal_mode") == "wal")
        #expect(try store.text("PRAGMA user_version") == "\(TODODatabase.schemaVersion)")
        #expect(try store.text("PRAGMA application_id") == "\(0x544F_444F)")
        #expect(try store.text("SELECT title FROM item WHERE position = 0") == "Buy milk")
    }

    @Test(arguments: Backend.available)
    func refreshSaysWhatHappenedSinceTheLastOne(backend: Backend) throws {
        let list = try backend.makeList()
        let store = try list.store()
        let mine = TODODatabase(store: store)
        let theirs = TODODatabase(store: store)
        #expect(try mine.refresh() == .loaded(TODOList()))
        #expect(try mine.refresh() == .unchanged, "no database yet, and still none")
        try Self.commit([.insert(Self.sample.items[0], at: 0)], to: theirs)
        #expect(try mine.refresh() == .changed([Self.sample.items[0]]))
        #expect(try mine.refresh() == .unchanged)
        try Self.commit([.insert(Self.sample.items[1], at: 1)], to: mine)
        #expect(try mine.refresh() == .unchanged, "its own change is no news")
        #expect(try theirs.refresh() == .changed(Self.sample))
        #expect((mine.revision, theirs.revision) == (2, 2))
    }

    @Test(arguments: Backend.available)
    func aChangeCutShortBeforeItsCommitLeavesNothing(backend: Backend) throws {
        struct Interrupted: Error {}
        let list = try backend.makeList()
        try Self.commit([.insert(Self.sample.items[0], at: 0)], to: TODODatabase(store: try list.store()))
        let failing = TODODatabase(store: try list.store(beforeCommit: { throw Interrupted() }))
        #expect(throws: TODOStoreError.self) {
            try Self.commit([.remove(at: 0), .insert(Self.sample.items[1], at: 0)], to: failing)
        }
        #expect(failing.revision == 1)
        #expect(try list.store().load() == TODOStore.Contents(list: [Self.sample.items[0]], revision: 1))
    }

    @Test(arguments: Backend.available)
    func aWriterMakesOthersWaitAndThenGiveUpNamingTheFile(backend: Backend) throws {
        let list = try backend.makeList()
        let holder = TODODatabase(store: try list.store())
        let waiter = TODODatabase(store: try list.store(options: .init(lockTimeout: .milliseconds(200))))
        try Self.commit([.insert(Self.sample.items[0], at: 0)], to: holder)
        try holder.write { () throws(TODOStoreError) in
            let error = #expect(throws: TODOStoreError.self) { try Self.commit([.remove(at: 0)], to: waiter) }
            #expect(error == .locked(path: list.location, timeout: .milliseconds(200)))
            #expect(error?.description == "\(list.location) is busy: another todo has been changing it for 0.2 s; try again")
            #expect(try waiter.refresh() == .loaded([Self.sample.items[0]]), "reading does not wait")
        }
        try Self.commit([.remove(at: 0)], to: waiter)
        #expect(try list.store().load().list.isEmpty)
    }

    /// Files that are not a TODO list of this version: each is refused with a message naming
    /// it, and left byte for byte.
    enum Refused: String, CaseIterable, Sendable {
        case text, oldJSON, emptyDatabaseOfAnotherProgram, anotherProgramsDatabase, newerSchema, truncated, garbledPage

        func make(at url: URL, from good: Data) throws -> Data {
            switch self {
            case .text: return Data("buy milk\n".utf8)
            case .oldJSON: return Data("{\"formatVersion\": 2, \"items\": [], \"revision\": 0}\n".utf8)
            case .truncated: return good.prefix(good.count / 2 + 100)
            case .garbledPage:
                var bytes = good
                // The schema's page, just after the file header: its b-tree header and cells.
                for offset in 100 ..< 400 { bytes[offset] = 0xA5 }
                return bytes
            case .emptyDatabaseOfAnotherProgram, .anotherProgramsDatabase, .newerSchema:
                let connection = try SQLiteConnection(path: url.path, creating: true)
                switch self {
                case .emptyDatabaseOfAnotherProgram: try connection.executeScript("PRAGMA application_id = 42")
                case .anotherProgramsDatabase: try connection.executeScript("CREATE TABLE notes (text TEXT)")
                default:
                    try connection.executeScript(TODODatabase.migrations.joined() + "PRAGMA application_id = \(0x544F_444F); PRAGMA user_version = 99")
                }
                return try Data(contentsOf: url)
            }
        }

        func isExpected(_ error: TODOStoreError?, path: String) -> Bool {
            switch (self, error) {
            case (.text, .foreign(path, "file is not a database")?), (.oldJSON, .foreign(path, "file is not a database")?): true
            case (.emptyDatabaseOfAnotherProgram, .foreign(path, "it is the SQLite database of another program")?),
                 (.anotherProgramsDatabase, .foreign(path, "it is the SQLite database of another program")?): true
            case (.newerSchema, .unsupportedVersion(path, 99, TODODatabase.schemaVersion)?): true
            case (.truncated, .corrupt(path, _)?), (.garbledPage, .corrupt(path, _)?): true
            default: false
            }
        }
    }

    @Test(arguments: Refused.allCases)
    func filesThatAreNotATODOListOfThisVersionAreRefusedAndLeftAsTheyAre(refused: Refused) throws {
        let directory = try TemporaryDirectory()
        let goodURL = directory.file("good.db")
        try Self.commit((0..<200).map { .insert(TODOItem(title: "Item \($0)"), at: $0) }, to: TODODatabase(store: TODOStore(fileURL: goodURL)))
        try TODOStore(fileURL: goodURL).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let url = directory.file("todo.db")
        let bytes = try refused.make(at: url, from: Data(contentsOf: goodURL))
        try bytes.write(to: url)

        for attempt in ["load", "write"] {
            let database = TODODatabase(store: TODOStore(fileURL: url))
            let error = #expect(throws: TODOStoreError.self, "\(attempt)") {
                if attempt == "load" {
                    _ = try database.refresh()
                } else {
                    try Self.commit([.insert(TODOItem(title: "Never saved"), at: 0)], to: database)
                }
            }
            #expect(refused.isExpected(error, path: url.path), "\(attempt): \(String(describing: error))")
            #expect(try Data(contentsOf: url) == bytes, "\(attempt) wrote nothing")
        }
    }

    /// Rows `todo` never writes, written by another program: reported as damage, naming the item,
    /// in the same words on both backends.
    @Test(arguments: Backend.available, [
        ("UPDATE item SET priority = 'urgent' WHERE position = 1", "item 2 has a priority or done state todo never writes"),
        ("UPDATE item SET id = 'not-a-uuid' WHERE position = 0", "item 1 has the id \"not-a-uuid\", which is not a UUID"),
        ("UPDATE item SET position = 5 WHERE position = 1", "the items' positions skip or repeat at item 2"),
        ("UPDATE list_state SET revision = -3", "the list's revision is missing or out of range"),
    ])
    func rowsTodoNeverWritesAreReportedAsDamage(backend: Backend, damage: (String, String)) throws {
        let (sql, reason) = damage
        let list = try backend.makeList()
        let store = try list.store()
        try Self.commit(Self.sample.items.enumerated().map { .insert($1, at: $0) }, to: TODODatabase(store: store))
        try list.damage(sql)
        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        #expect(error == .corrupt(path: list.location, reason: reason))
        #expect(error?.description == "\(list.location) is damaged: \(reason)")
    }

    @Test func aDirectoryInPlaceOfTheFileIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: TODOStoreError.self) { try TODOStore(fileURL: directory.url).load() }
        guard case .unreadable(let path, _)? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == directory.url.path)
    }

    @Test func anUnwritableLocationIsReportedAndALaterChangeIsSaved() throws {
        let directory = try TemporaryDirectory()
        // A regular file where the directory should be: unwritable even for root, unlike
        // permission bits.
        let blocker = directory.file("data")
        try Data("not a directory".utf8).write(to: blocker)
        let store = TODOStore(fileURL: blocker.appendingPathComponent("todo.db"))
        let database = TODODatabase(store: store)

        let error = #expect(throws: TODOStoreError.self) { try Self.commit([.insert(Self.sample.items[0], at: 0)], to: database) }
        #expect(error == .unwritable(path: store.fileURL.path, reason: "cannot create the directory \(blocker.path)"))
        #expect(error?.description == "cannot save \(store.fileURL.path): cannot create the directory \(blocker.path)")

        try FileManager.default.removeItem(at: blocker)
        try Self.commit([.insert(Self.sample.items[0], at: 0)], to: database)
        #expect(try store.load().list == [Self.sample.items[0]])
    }

    /// A refresh that finds another process's commit says which items that process changed,
    /// and who it was: its pid, from the origin table. Removed items have no row to tell, and
    /// this process's own changes are not another's.
    @Test(arguments: Backend.available)
    func aRefreshSaysWhichItemsAnotherProcessChangedAndWho(backend: Backend) throws {
        let list = try backend.makeList()
        let store = try list.store()
        let (mine, theirs) = (TODODatabase(store: store), TODODatabase(store: store))
        mine.person = "alice"
        theirs.person = "bob"
        try Self.commit(Self.sample.items.enumerated().map { .insert($1, at: $0) }, to: mine)
        #expect(try theirs.refresh() == .loaded(Self.sample))
        #expect(theirs.changedElsewhere.isEmpty, "a first read finds no change")
        var edited = Self.sample.items[1]
        edited.title = "Pay the rent"
        try Self.commit([.replace(at: 1, with: edited), .remove(at: 0)], to: mine)
        #expect(try theirs.refresh() == .changed([edited]))
        #expect(theirs.changedElsewhere == [edited.id: "alice"], "who, by name")
        try Self.commit([.insert(TODOItem(title: "Theirs"), at: 0)], to: theirs)
        #expect(try theirs.refresh() == .unchanged, "its own commit is not another's change")
        let changed = try #require(try mine.refresh().changedList, "mine sees their change")
        #expect(mine.changedElsewhere == [changed.items[0].id: "bob"])
    }

    /// A database made by the first migration only, as a `todo` of that schema left it: the
    /// next `todo` upgrades it in one transaction, keeps every item, and starts its history.
    @Test func aDatabaseOfAnOlderSchemaIsUpgradedAndKeepsItsList() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let id = try #require(UUID(uuidString: "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10"))
        try SQLiteConnection(path: store.fileURL.path, creating: true).executeScript("""
            PRAGMA journal_mode = WAL;
            \(TODODatabase.migrations[0])
            INSERT INTO item (id, position, title, detail, is_done, priority) VALUES
                ('\(id.uuidString)', 0, 'Buy milk', '2 litres', 1, 'high'), ('6A1B3C4D-0000-4C47-9D43-2C1E2E7B9A10', 1, 'Pay rent', '', 0, 'medium');
            UPDATE list_state SET revision = 7;
            PRAGMA application_id = \(0x544F_444F); PRAGMA user_version = 1;
            """)
        let console = ScriptedConsole(["list", "undo", "add Bread", "undo"])
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        #expect(repl.run() == 0)
        #expect(console.errorLines == [
            "todo: using \(store.fileURL.path)",
            "todo: upgraded \(store.fileURL.path) from version 1 to \(TODODatabase.schemaVersion)",
        ])
        #expect(console.outputLines == [
            "1. [x] Buy milk  (high priority)  — 2 litres", "2. [ ] Pay rent",
            "Nothing to undo of yours (\"history\" shows every step of the list, which \"goto\" reaches)", "3. [ ] Bread",
            "Undo Add \"Bread\" (item 3 is gone)",
        ])
        #expect(try store.text("PRAGMA user_version") == "\(TODODatabase.schemaVersion)")
        #expect(try store.load() == TODOStore.Contents(list: [
            TODOItem(id: id, title: "Buy milk", detail: "2 litres", isDone: true, priority: .high),
            TODOItem(id: try #require(UUID(uuidString: "6A1B3C4D-0000-4C47-9D43-2C1E2E7B9A10")), title: "Pay rent"),
        ], revision: 9))
    }
}

extension TODODatabase.Refresh {
    /// The list another process changed, if it did.
    var changedList: TODOList? {
        if case .changed(let list) = self { list } else { nil }
    }
}
