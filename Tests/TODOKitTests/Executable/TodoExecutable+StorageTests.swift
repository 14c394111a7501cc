import Foundation
import Testing
@testable import TODOKit

/// The real `todo` program against data files in every state a crash, another process or an
/// older version can leave them in.
@Suite struct TodoExecutableStorageTests {
    /// A file with three items made by three one-shot commands (so a snapshot and a journal of
    /// two records).
    static func threeItems(in directory: TemporaryDirectory) throws -> URL? {
        let file = directory.file("todo.json")
        for title in ["Buy milk", "Buy eggs", "Bread"] {
            guard let run = try TodoExecutableTests.run(["--file", file.path, "add", title], input: "") else { return nil }
            #expect(run.status == 0)
        }
        return file
    }

    static func bytes(of files: URL...) throws -> [Data] {
        try files.map { try Data(contentsOf: $0) }
    }

    @Test func aLockHeldTooLongIsReportedWithItsHolderAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        guard let file = try Self.threeItems(in: directory) else { return }
        let store = TODOStore(fileURL: file)
        let before = try Self.bytes(of: file, store.journalURL)
        let holder = "\(ProcessInfo.processInfo.processName), pid \(getpid())"

        let lock = try store.lock()
        guard let add = try TodoExecutableTests.run(
            ["--file", file.path, "add", "Too late"], input: "", environment: ["TODO_LOCK_TIMEOUT": "0.2"]
        ) else { return }
        #expect(add.status == 1)
        #expect(add.output == "")
        #expect(add.errors == "todo: \(file.path) is locked by \(holder); try again\n")

        // A session skips the line it can't lock, says why, and goes on.
        guard let session = try TodoExecutableTests.run(
            ["--file", file.path], input: "add Too late\nlist\n", environment: ["TODO_LOCK_TIMEOUT": "0.2"]
        ) else { return }
        #expect(session.status == 1)
        #expect(session.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n3. [ ] Bread\n")
        #expect(session.errors == "todo: using \(file.path)\ntodo: \(file.path) is locked by \(holder); try again\n")
        #expect(try Self.bytes(of: file, store.journalURL) == before)

        lock.release()
        guard let retry = try TodoExecutableTests.run(["--file", file.path, "add", "In time"], input: "") else { return }
        #expect(retry.status == 0)
        #expect(retry.output == "4. [ ] In time\n")
    }

    @Test func anInvalidLockTimeoutIsAnInvalidSetting() throws {
        let directory = try TemporaryDirectory()
        guard let run = try TodoExecutableTests.run(
            ["--file", directory.file("todo.json").path, "list"], input: "", environment: ["TODO_LOCK_TIMEOUT": "soon"]
        ) else { return }
        #expect(run.status == 2)
        #expect(run.errors == "todo: TODO_LOCK_TIMEOUT must be a number of seconds, not \"soon\"\n")
        #expect(try directory.contents() == [])
    }

    @Test func aTornLastJournalLineIsIgnoredAndCutOffByTheNextSave() throws {
        let directory = try TemporaryDirectory()
        guard let file = try Self.threeItems(in: directory) else { return }
        let journal = TODOStore(fileURL: file).journalURL
        // What a crash in the middle of appending a record leaves: part of a line.
        let record = TODOStore.journalRecordLine(.init(revision: 4, changes: [
            .init(change: .insert(TODOItem(title: "Never saved"), at: 3), itemID: nil),
        ]))
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(record.prefix(record.count / 2)))
        try handle.close()

        guard let list = try TodoExecutableTests.run(["--file", file.path, "list"], input: "") else { return }
        #expect(list.status == 0)
        #expect(list.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n3. [ ] Bread\n")

        guard let add = try TodoExecutableTests.run(["--file", file.path, "add", "Jam"], input: "") else { return }
        #expect(add.status == 0)
        #expect(add.output == "4. [ ] Jam\n")
        let text = try String(contentsOf: journal, encoding: .utf8)
        #expect(!text.contains("Never saved"))
        #expect(text.hasSuffix("\n"))
        let contents = try TODOStore(fileURL: file).load()
        #expect(contents.list.items.map(\.title) == ["Buy milk", "Buy eggs", "Bread", "Jam"])
        #expect(contents.revision == 4)
    }

    @Test func aDamagedJournalLineWithSavedChangesAfterItStopsTodoAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        guard let file = try Self.threeItems(in: directory) else { return }
        let store = TODOStore(fileURL: file)
        var journal = try Data(contentsOf: store.journalURL)
        // Flip a letter of the first record's title ("Buy eggs"), in line 2 of 3.
        let range = try #require(journal.range(of: Data("Buy eggs".utf8)))
        journal[range.lowerBound] = UInt8(ascii: "G")
        try journal.write(to: store.journalURL)
        let before = try Self.bytes(of: file, store.journalURL)
        let message = "todo: \(store.journalURL.path) is not a valid TODO file: line 2 is damaged (its checksum does not match) and saved changes follow it\n"

        for (arguments, input) in [(["list"], ""), (["add", "Jam"], ""), ([], "add Jam\n")] {
            guard let run = try TodoExecutableTests.run(["--file", file.path] + arguments, input: input) else { return }
            #expect(run.status == 1)
            #expect(run.output == "")
            #expect(run.errors == message)
        }
        #expect(try Self.bytes(of: file, store.journalURL) == before)
    }

    @Test func aVersion1FileIsReadAsIsAndMigratedByTheFirstChange() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        // Exactly what the previous version wrote.
        let version1 = """
            {
              "formatVersion" : 1,
              "items" : [
                {
                  "detail" : "2 litres",
                  "id" : "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10",
                  "isDone" : true,
                  "priority" : "high",
                  "title" : "Buy milk"
                },
                {
                  "detail" : "",
                  "id" : "6A1B3C4D-0000-4C47-9D43-2C1E2E7B9A10",
                  "isDone" : false,
                  "priority" : "medium",
                  "title" : "Pay \\"rent\\" \\/ bills"
                }
              ]
            }

            """
        try Data(version1.utf8).write(to: file)

        guard let list = try TodoExecutableTests.run(["--file", file.path, "list"], input: "") else { return }
        #expect(list.status == 0)
        #expect(list.output == "1. [x] Buy milk  (high priority)  — 2 litres\n2. [ ] Pay \"rent\" / bills\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == version1, "reading never writes")
        #expect(try directory.contents() == ["todo.json"])

        guard let add = try TodoExecutableTests.run(["--file", file.path, "add", "Bread"], input: "") else { return }
        #expect(add.status == 0)
        #expect(add.output == "3. [ ] Bread\n")
        let store = TODOStore(fileURL: file)
        let snapshot = try TODOStore.decodeSnapshot(Array(Data(contentsOf: file)))
        #expect(snapshot.formatVersion == 2)
        #expect(snapshot.revision == 1)
        #expect(snapshot.items.map(\.title) == ["Buy milk", "Pay \"rent\" / bills", "Bread"])
        #expect(snapshot.items[0] == TODOItem(
            id: try #require(UUID(uuidString: "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10")),
            title: "Buy milk", detail: "2 litres", isDone: true, priority: .high
        ))
        #expect(try TODOStore.scanJournal(Array(Data(contentsOf: store.journalURL))[...]).baseRevision == 1)
        #expect(try store.load() == TODOStore.Contents(list: TODOList(items: snapshot.items), revision: 1))
    }
}
