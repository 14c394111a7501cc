import Foundation
import Testing
@testable import TODOKit

@Suite struct TODOStoreTests {
    static let sample: TODOList = [
        TODOItem(title: "Buy milk", detail: "2 litres", priority: .high),
        TODOItem(title: "Pay rent", isDone: true),
    ]

    @Test func aMissingFileIsAnEmptyList() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        #expect(try store.load().list == TODOList())
        #expect(try directory.contents().isEmpty, "loading must not create the file")
    }

    @Test func savedListsLoadBackExactly() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try store.save(Self.sample)
        #expect(try store.load().list == Self.sample)
        try store.save(TODOList())
        #expect(try store.load().list == TODOList())
    }

    @Test func theFileIsVersionedPrettyPrintedWithSortedKeys() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let id = try #require(UUID(uuidString: "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10"))
        try store.save([TODOItem(id: id, title: "Buy milk")])
        let text = try String(contentsOf: store.fileURL, encoding: .utf8)
        #expect(text == """
            {
              "formatVersion" : 2,
              "items" : [
                {
                  "detail" : "",
                  "id" : "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10",
                  "isDone" : false,
                  "priority" : "medium",
                  "title" : "Buy milk"
                }
              ],
              "revision" : 1
            }

            """)
    }

    @Test func savingCreatesMissingDirectoriesAndLeavesNoTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.url.appendingPathComponent("a/b/todo.json"))
        try store.save(Self.sample)
        try store.save(Self.sample)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("a/b").path).sorted()
            == ["todo.json", "todo.json.journal", "todo.json.lock"])
    }

    @Test func savingKeepsThePermissionsTheUserChose() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try store.save(Self.sample)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.fileURL.path)
        try store.save(TODOList())
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    static let corruptFiles: [(contents: String, reason: String)] = [
        ("", "not valid JSON"),
        ("{\"formatVersion\": 1, \"items\": [", "not valid JSON"),
        ("hello", "not valid JSON"),
        ("[]", "unexpected value at the top level"),
        ("{\"items\": []}", "no \"formatVersion\" field"),
        ("{\"formatVersion\": \"1\", \"items\": []}", "unexpected value at formatVersion"),
        ("{\"formatVersion\": 1}", "missing \"items\" at the top level"),
        ("{\"formatVersion\": 1, \"items\": [{\"id\": \"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10\", \"detail\": \"\", \"isDone\": false, \"priority\": \"low\"}]}",
         "missing \"title\" at items[0]"),
        ("{\"formatVersion\": 1, \"items\": [{\"id\": \"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10\", \"title\": \"x\", \"detail\": \"\", \"isDone\": false, \"priority\": \"urgent\"}]}",
         "invalid value at items[0].priority"),
        ("{\"formatVersion\": 1, \"items\": [{\"id\": \"not-a-uuid\", \"title\": \"x\", \"detail\": \"\", \"isDone\": false, \"priority\": \"low\"}]}",
         "invalid value at items[0].id"),
    ]

    @Test(arguments: corruptFiles)
    func corruptFilesAreReportedAndLeftUntouched(contents: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let bytes = Data(contents.utf8)
        try bytes.write(to: store.fileURL)

        #expect(throws: TODOStoreError.corrupt(path: store.fileURL.path, reason: reason)) {
            try store.load()
        }
        #expect(try Data(contentsOf: store.fileURL) == bytes)
        #expect(try directory.contents() == ["todo.json"])
    }

    @Test(arguments: [0, 3, 99, -1])
    func unknownVersionsAreReportedAndLeftUntouched(version: Int) throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        // A future version may change anything but the version field itself.
        let bytes = Data("{\"formatVersion\": \(version), \"entries\": {\"x\": 1}}\n".utf8)
        try bytes.write(to: store.fileURL)

        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        #expect(error == .unsupportedVersion(path: store.fileURL.path, found: version, supported: 2))
        #expect(error?.description == "\(store.fileURL.path) has format version \(version); this todo reads versions 1 to 2")
        #expect(try Data(contentsOf: store.fileURL) == bytes)
    }

    @Test func errorMessagesNameTheFileAndTheProblem() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try Data("nope".utf8).write(to: store.fileURL)
        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        #expect(error?.description == "\(store.fileURL.path) is not a valid TODO file: not valid JSON")
    }

    @Test func aDirectoryInPlaceOfTheFileIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.url)
        #expect(throws: TODOStoreError.unreadable(path: directory.url.path, reason: "is a directory")) {
            try store.load()
        }
    }

    @Test func anUnwritableLocationIsReportedAndALaterSaveWritesEverything() throws {
        let directory = try TemporaryDirectory()
        // A regular file where the directory should be: unwritable even for root, unlike
        // permission bits.
        let blocker = directory.file("data")
        try Data("not a directory".utf8).write(to: blocker)
        let store = TODOStore(fileURL: blocker.appendingPathComponent("todo.json"))

        let error = #expect(throws: TODOStoreError.self) { try store.save(Self.sample) }
        guard case .unwritable(let path, _)? = error else {
            Issue.record("expected .unwritable, got \(String(describing: error))")
            return
        }
        #expect(path == store.fileURL.path)
        #expect(error?.description.hasPrefix("cannot save \(store.fileURL.path): ") == true)

        try FileManager.default.removeItem(at: blocker)
        try store.save(Self.sample)
        #expect(try store.load().list == Self.sample)
    }

    @Test func aSaveInterruptedBetweenWriteAndRenameLeavesTheOldFile() throws {
        struct Interrupted: Error {}
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.json")
        try TODOStore(fileURL: url).save(Self.sample)
        let before = try Data(contentsOf: url)

        let store = TODOStore(fileURL: url) { step in
            guard case .wroteTemporaryFile(let temporary) = step else { return }
            // The new contents are complete on disk, next to the data file, under another name.
            #expect(temporary.deletingLastPathComponent() == url.deletingLastPathComponent())
            #expect(try TODOStore.decodeSnapshot(Array(Data(contentsOf: temporary))).items == [])
            throw Interrupted()
        }
        #expect(throws: TODOStoreError.self) { try store.save(TODOList()) }

        #expect(try Data(contentsOf: url) == before)
        #expect(try TODOStore(fileURL: url).load().list == Self.sample)
        #expect(try directory.contents() == ["todo.json", "todo.json.journal", "todo.json.lock"], "the abandoned temporary file is removed")
    }

    @Test func leftoverTemporaryFilesFromACrashDoNotDisturbLoadingAndTheNextSaveRemovesThem() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try store.save(Self.sample)
        try Data("{\"formatVersion\": 1, \"ite".utf8).write(to: directory.file(".todo.json.crashed.tmp"))
        try Data("2a".utf8).write(to: directory.file(".todo.json.journal.crashed.tmp"))
        try Data("someone else's".utf8).write(to: directory.file(".other.json.crashed.tmp"))
        #expect(try store.load().list == Self.sample)
        try store.save(TODOList())
        #expect(try store.load().list == TODOList())
        #expect(try directory.contents() == [".other.json.crashed.tmp", "todo.json", "todo.json.journal", "todo.json.lock"])
    }
}
