import Foundation
import Testing
@testable import TODOKit

/// The real `todo` program against databases in every state a crash, another process, another
/// program or an older version can leave them in.
@Suite struct TodoExecutableStorageTests {
    /// A list of three items made by three one-shot commands.
    static func threeItems(in directory: TemporaryDirectory) throws -> URL? {
        let file = directory.file("todo.db")
        for title in ["Buy milk", "Buy eggs", "Bread"] {
            guard let run = try TodoExecutableTests.run(["--file", file.path, "add", title], input: "") else { return nil }
            #expect(run.status == 0)
        }
        return file
    }

    /// The files' bytes, the database's and its write-ahead log's.
    static func bytes(of file: URL) throws -> [Data?] {
        [file, URL(fileURLWithPath: file.path + "-wal")].map { try? Data(contentsOf: $0) }
    }

    /// The fixtures: files an earlier `todo` wrote, copied into `directory`.
    static func legacyFixture(_ name: String, into directory: TemporaryDirectory) throws -> URL {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Legacy/\(name)")
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(file), to: directory.file(file))
        }
        return directory.file("todo.json")
    }

    @Test func aListBusyTooLongIsReportedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        guard let file = try Self.threeItems(in: directory) else { return }
        let message = "todo: \(file.path) is busy: another todo has been changing it for 0.2 s; try again\n"
        let holder = TODODatabase(store: TODOStore(fileURL: file))
        try holder.write { () throws(TODOStoreError) in
            guard let add = try? TodoExecutableTests.run(
                ["--file", file.path, "add", "Too late"], input: "", environment: ["TODO_LOCK_TIMEOUT": "0.2"]
            ) else { return }
            #expect(add.status == 1)
            #expect(add.output == "")
            #expect(add.errors == message)

            // A session skips the line it can't save, says why, and goes on: reading never waits.
            guard let session = try? TodoExecutableTests.run(
                ["--file", file.path], input: "add Too late\nlist\n", environment: ["TODO_LOCK_TIMEOUT": "0.2"]
            ) else { return }
            #expect(session.status == 1)
            #expect(session.output == "1. [ ] Buy milk\n2. [ ] Buy eggs\n3. [ ] Bread\n")
            #expect(session.errors == "todo: using \(file.path)\n" + message)
        }
        #expect(try TODOStore(fileURL: file).load().revision == 3)
        guard let retry = try TodoExecutableTests.run(["--file", file.path, "add", "In time"], input: "") else { return }
        #expect(retry.status == 0)
        #expect(retry.output == "4. [ ] In time\n")
    }

    @Test func anInvalidLockTimeoutIsAnInvalidSetting() throws {
        let directory = try TemporaryDirectory()
        guard let run = try TodoExecutableTests.run(
            ["--file", directory.file("todo.db").path, "list"], input: "", environment: ["TODO_LOCK_TIMEOUT": "soon"]
        ) else { return }
        #expect(run.status == 2)
        #expect(run.errors == "todo: TODO_LOCK_TIMEOUT must be a number of seconds, not \"soon\"\n")
        #expect(try directory.contents() == [])
    }

    /// A database damaged on disk (here cut short, as a bad copy leaves it): every way of using
    /// it stops with the file and the problem, and writes nothing.
    @Test func aDamagedDatabaseStopsTodoAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let made = try TodoExecutableTests.run(["--file", file.path], input: (0..<300).map { "add Item \($0)\n" }.joined()) else { return }
        #expect(made.status == 0)
        let bytes = try Data(contentsOf: file)
        #expect(bytes.count > 16_384, "the list takes several pages")
        try bytes.prefix(bytes.count / 2).write(to: file)
        let damaged = try Self.bytes(of: file)

        for (arguments, input) in [(["list"], ""), (["add", "Jam"], ""), ([], "add Jam\n"), (["undo"], "")] {
            guard let run = try TodoExecutableTests.run(["--file", file.path] + arguments, input: input) else { return }
            #expect(run.status == 1, "\(arguments)")
            #expect(run.output == "")
            #expect(run.errors.hasPrefix("todo: \(file.path) is damaged: "), "\(run.errors)")
            #expect(run.errors.split(separator: "\n").count == 1)
        }
        #expect(try Self.bytes(of: file) == damaged)
    }

    /// An earlier version's files are imported, once, by the first `todo` to use the list:
    /// the list, its revision and its undo history, tree and all; the old files stay, renamed.
    @Test func anOldListIsImportedOnceAndItsFilesKeptRenamed() throws {
        let directory = try TemporaryDirectory()
        let old = try Self.legacyFixture("session", into: directory)
        let file = directory.file("todo.db")

        // Several at once, as a user's first commands after an upgrade may be.
        let processes = try (0..<4).map { _ in try TodoProcess(["--file", old.path, "list"]) }
        for process in processes {
            #expect(process.finish() == 0, "\(process.errorLines)")
            #expect(process.outputLines == ["1. [x] Buy eggs", "2. [ ] Bread", "3. [ ] Green tea"])
        }
        let notices = processes.flatMap(\.errorLines)
        #expect(notices == ["todo: imported \(old.path) (3 items) into \(file.path); the old files end in .imported now; their 8 undo steps were not imported"])
        // (SQLite's -wal and -shm files come and go with its connections.)
        #expect(try directory.contents().filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == [
            "todo.db", "todo.db.lines",
            "todo.json.history.imported", "todo.json.imported", "todo.json.journal.imported", "todo.json.lines.imported",
        ])
        #expect(try TODOStore(fileURL: file).load().revision == 9)
        #expect(try String(contentsOf: directory.file("todo.db.lines"), encoding: .utf8) == "add Buy milk\nlist\nhistory\n",
                "the lines typed at the prompt, less the one with control characters")

        guard let history = try TodoExecutableTests.run(["--file", file.path, "history"], input: "") else { return }
        #expect(history.output == "No history yet: every change anyone makes to the list is a step here\n", "the list, not its history")
        guard let again = try TodoExecutableTests.run(["--file", old.path, "list"], input: "") else { return }
        #expect(again.errors == "", "imported once")
    }

    /// Old files that are damaged: the import stops with the file and the problem, and neither
    /// creates a database nor renames anything, so nothing is lost.
    @Test(arguments: [
        ("journal", "Bread", "line 2 is damaged (its checksum does not match) and saved changes follow it"),
        ("journal", "\"formatVersion\":2}", "line 1 is damaged (its checksum does not match) and saved changes follow it"),
        ("snapshot", "\"items\"", "it is not a todo.json file (JSON with a \"formatVersion\")"),
    ])
    func aDamagedOldListIsReportedAndLeftAsItIs(file damaged: String, text: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let old = try Self.legacyFixture("session", into: directory)
        let path = damaged == "journal" ? old.path + ".journal" : old.path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = try #require(bytes.range(of: Data(text.utf8)))
        bytes[range.lowerBound] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = try directory.contents()

        for arguments in [["list"], ["add", "Jam"]] {
            guard let run = try TodoExecutableTests.run(["--file", old.path] + arguments, input: "") else { return }
            #expect(run.status == 1)
            #expect(run.output == "")
            #expect(run.errors == "todo: \(path) is damaged: \(reason)\n")
        }
        #expect(try directory.contents() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aVersion1FileIsImportedAsItIs() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json")
        // Exactly what the first version wrote: one JSON document, no revision, no history.
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

        guard let add = try TodoExecutableTests.run(["--file", file.path, "add", "Bread"], input: "") else { return }
        #expect(add.status == 0)
        #expect(add.output == "3. [ ] Bread\n")
        #expect(try String(contentsOf: directory.file("todo.json.imported"), encoding: .utf8) == version1)
        let contents = try TODOStore(fileURL: file).load()
        #expect(contents.revision == 1)
        #expect(contents.list.items.map(\.title) == ["Buy milk", "Pay \"rent\" / bills", "Bread"])
        #expect(contents.list.items[0] == TODOItem(
            id: try #require(UUID(uuidString: "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10")),
            title: "Buy milk", detail: "2 litres", isDone: true, priority: .high
        ))
        guard let undo = try TodoExecutableTests.run(["--file", file.path, "undo", "2"], input: "") else { return }
        #expect(undo.output == "Undo Add \"Bread\" (item 3 is gone)\n(nothing to undo after 1 of 2)\n")
    }
}
