import Foundation
import Testing
@testable import TODOKit

/// The journal's format and what loading makes of every state a crash can leave.
@Suite struct TODOStoreJournalTests {
    static let milk = TODOItem(title: "Buy milk", detail: "2 \"litres\"\nfresh", priority: .high)
    static let eggs = TODOItem(title: "Buy eggs 🥚", isDone: true)

    /// A store holding milk and eggs: a snapshot with milk at revision 1 and a journal with one
    /// record adding eggs.
    static func twoItems(in directory: TemporaryDirectory, options: TODOStore.Options = .init()) throws -> (TODOStore, TODOReplica) {
        let store = TODOStore(fileURL: directory.file("todo.json"), options: options)
        let replica = TODOReplica(store: store)
        try commit([.insert(milk, at: 0)], to: replica)
        try commit([.insert(eggs, at: 1)], to: replica)
        return (store, replica)
    }

    /// Locks, catches up and commits, as a `todo` process does for each line.
    @discardableResult
    static func commit(_ changes: [TODOList.Change], to replica: TODOReplica) throws -> UInt64 {
        let lock = try replica.store.lock()
        try replica.refresh()
        return try replica.commit(changes, holding: lock)
    }

    static func appending(_ bytes: [UInt8], to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test(arguments: [
        TODOStore.RecordedChange(change: .insert(milk, at: 0), itemID: nil),
        TODOStore.RecordedChange(change: .remove(at: 3), itemID: eggs.id),
        TODOStore.RecordedChange(change: .replace(at: 1, with: eggs), itemID: eggs.id),
        TODOStore.RecordedChange(change: .move(from: 4, to: 0), itemID: milk.id),
    ])
    func recordsReadBackExactly(change: TODOStore.RecordedChange) throws {
        let record = TODOStore.JournalRecord(revision: 8, changes: [change, change])
        let bytes = TODOStore.journalHeaderLine(baseRevision: 7) + TODOStore.journalRecordLine(record)
        let scan = try TODOStore.scanJournal(bytes[...])
        #expect(scan == TODOStore.JournalScan(baseRevision: 7, records: [record], recordCount: 1, validEnd: bytes.count, lineCount: 2))
        let line = String(decoding: TODOStore.journalRecordLine(record), as: UTF8.self)
        #expect(line.split(separator: "\n").count == 1, "one record, one line, whatever the titles hold")
    }

    @Test func aCommitAppendsOneLineAndRaisesTheRevisionByOne() throws {
        let directory = try TemporaryDirectory()
        let (store, replica) = try Self.twoItems(in: directory)
        #expect(replica.revision == 2)
        let before = try Data(contentsOf: store.journalURL)
        #expect(try Self.commit([.remove(at: 0)], to: replica) == 3)
        let after = try Data(contentsOf: store.journalURL)
        #expect(after.prefix(before.count) == before, "appends never rewrite what is there")
        #expect(after.dropFirst(before.count).filter { $0 == UInt8(ascii: "\n") }.count == 1)
        #expect(try store.load() == TODOStore.Contents(list: [Self.eggs], revision: 3))
        #expect(try Self.commit([], to: replica) == 3, "an empty commit writes nothing")
    }

    /// Whatever part of a record an interrupted append left, loading ignores it, and the next
    /// commit cuts it off before appending.
    @Test(arguments: [1, 8, 9, 40, -1, 0])
    func aTornLastLineIsIgnoredAndReplaced(keptBytes: Int) throws {
        let directory = try TemporaryDirectory()
        let (store, replica) = try Self.twoItems(in: directory)
        let torn = TODOStore.journalRecordLine(.init(revision: 3, changes: [.init(change: .remove(at: 0), itemID: Self.milk.id)]))
        var tail: [UInt8]
        switch keptBytes {
        case -1: tail = Array(torn.dropLast())                   // all but the newline
        case 0: tail = Array(torn.dropLast(2)) + [UInt8(ascii: "X"), UInt8(ascii: "\n")]   // complete but garbled
        default: tail = Array(torn.prefix(keptBytes))
        }
        try Self.appending(tail, to: store.journalURL)

        #expect(try store.load() == TODOStore.Contents(list: [Self.milk, Self.eggs], revision: 2))
        let other = TODOReplica(store: store)
        #expect(try Self.commit([.move(from: 1, to: 0)], to: other) == 3)
        #expect(try store.load() == TODOStore.Contents(list: [Self.eggs, Self.milk], revision: 3))
        let scan = try TODOStore.scanJournal(Array(Data(contentsOf: store.journalURL))[...])
        #expect(scan.validEnd == (try Data(contentsOf: store.journalURL)).count, "no torn bytes are left")
        #expect(try replica.refresh() == .changed(previousRevision: 2))
        #expect(replica.list == [Self.eggs, Self.milk])
    }

    @Test func aDamagedLineFollowedBySavedLinesIsAnErrorAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let (store, replica) = try Self.twoItems(in: directory)
        try Self.commit([.remove(at: 0)], to: replica)
        var bytes = try Data(contentsOf: store.journalURL)
        let range = try #require(bytes.range(of: Data("Buy eggs".utf8)))
        bytes[range.lowerBound + 4] = UInt8(ascii: "a")
        try bytes.write(to: store.journalURL)
        let snapshot = try Data(contentsOf: store.fileURL)

        let expected = TODOStoreError.corrupt(
            path: store.journalURL.path,
            reason: "line 2 is damaged (its checksum does not match) and saved changes follow it"
        )
        #expect(throws: expected) { try store.load() }
        #expect(throws: expected) { try store.save([]) }
        #expect(throws: expected) { try Self.commit([], to: TODOReplica(store: store)) }
        #expect(try Data(contentsOf: store.journalURL) == bytes)
        #expect(try Data(contentsOf: store.fileURL) == snapshot)
    }

    static let badJournals: [(lines: [String], reason: String)] = [
        (["{\"formatVersion\":2}"], "line 1: missing \"baseRevision\" at the top level"),
        (["{\"baseRevision\":1}"], "line 1: no \"formatVersion\" field"),
        (["[]"], "line 1: unexpected value at the top level"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":3,\"changes\":[]}"],
         "line 2: revision 3 does not follow revision 1"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2}"], "line 2: missing \"changes\" at the top level"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[{\"op\":\"remove\",\"at\":0}]}"],
         "line 2: missing \"id\" at changes[0]"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[{\"op\":\"swap\",\"at\":0}]}"],
         "line 2: invalid value at changes[0].op"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[{\"op\":\"remove\",\"at\":-1,\"id\":\"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10\"}]}"],
         "line 2: invalid value at changes[0].at"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[{\"op\":\"remove\",\"at\":5,\"id\":\"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10\"}]}"],
         "line 2: change 1 of revision 2 does not fit the list"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[{\"op\":\"remove\",\"at\":0,\"id\":\"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10\"}]}"],
         "line 2: change 1 of revision 2 does not fit the list"),
        (["{\"baseRevision\":5,\"formatVersion\":2}"],
         "it continues revision 5, but todo.json is at revision 1; the two files do not belong together"),
        (["{\"baseRevision\":1,\"formatVersion\":2}", "{\"revision\":2,\"changes\":[]} trailing"], "line 2: not valid JSON"),
    ]

    /// Well-framed lines (correct checksums) with contents that don't fit: each is reported,
    /// naming the journal, the line and the problem.
    @Test(arguments: badJournals)
    func journalsThatDoNotFitAreReportedAndLeftUntouched(lines: [String], reason: String) throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try store.save([Self.milk])
        let bytes = lines.flatMap { line in
            Array(String(CRC32.checksum(Array(line.utf8)), radix: 16).leftPadded(to: 8).utf8) + [UInt8(ascii: " ")] + Array(line.utf8) + [10]
        }
        try Data(bytes).write(to: store.journalURL)
        #expect(throws: TODOStoreError.corrupt(path: store.journalURL.path, reason: reason)) { try store.load() }
        #expect(try Data(contentsOf: store.journalURL) == Data(bytes))
    }

    @Test func aJournalOfANewerVersionIsReportedAsSuchAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        try store.save([Self.milk])
        let header = "{\"baseRevision\":1,\"formatVersion\":3,\"compressed\":true}"
        let bytes = Data((String(CRC32.checksum(Array(header.utf8)), radix: 16).leftPadded(to: 8) + " " + header + "\n¿?\n").utf8)
        try bytes.write(to: store.journalURL)
        let error = #expect(throws: TODOStoreError.self) { try store.load() }
        #expect(error == .unsupportedVersion(path: store.journalURL.path, found: 3, supported: 2))
        #expect(throws: TODOStoreError.self) { try Self.commit([.remove(at: 0)], to: TODOReplica(store: store)) }
        #expect(try Data(contentsOf: store.journalURL) == bytes)
    }

    /// A crash after a compaction put its snapshot in place and before it replaced the journal
    /// leaves the new snapshot beside the old journal: nothing is applied twice, nothing lost,
    /// and the next commits go on from there.
    @Test func aCrashBetweenTheTwoStepsOfACompactionLosesAndRepeatsNothing() throws {
        struct Crash: Error {}
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.json")
        let journalPath = url.path + ".journal"
        // Every compaction but the one creating the first journal dies between its two steps.
        let crashing = TODOStore(fileURL: url, options: .init(compactionMinimum: 2)) { step in
            if step == .replacedSnapshot, FileManager.default.fileExists(atPath: journalPath) { throw Crash() }
        }
        let replica = TODOReplica(store: crashing)
        var expected: [TODOItem] = []
        for number in 0..<7 {
            let item = TODOItem(title: "Item \(number)")
            expected.append(item)
            let revision = try Self.commit([.insert(item, at: number)], to: replica)
            #expect(revision == UInt64(number + 1))
            // A fresh process sees exactly the committed list.
            #expect(try TODOStore(fileURL: url).load() == TODOStore.Contents(list: TODOList(items: expected), revision: revision))
        }
        let snapshot = try TODOStore.decodeSnapshot(Array(Data(contentsOf: url)))
        let journal = try TODOStore.scanJournal(Array(Data(contentsOf: crashing.journalURL))[...])
        #expect(journal.baseRevision! < snapshot.revision, "the journal was never replaced")

        // A process without the crash compacts for real, and everything is still there once.
        let healthy = TODOReplica(store: TODOStore(fileURL: url, options: .init(compactionMinimum: 2)))
        for number in 7..<12 {
            expected.append(TODOItem(title: "Item \(number)"))
            try Self.commit([.insert(expected[number], at: number)], to: healthy)
        }
        #expect(try TODOStore(fileURL: url).load() == TODOStore.Contents(list: TODOList(items: expected), revision: 12))
    }

    @Test func theJournalIsCompactedOnceItOutgrowsTheSnapshot() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"), options: .init(compactionMinimum: 4))
        let replica = TODOReplica(store: store)
        var list = TODOList()
        for number in 0..<40 {
            let change = TODOList.Change.insert(TODOItem(title: "Item \(number)"), at: list.count)
            list.apply(change)
            try Self.commit([change], to: replica)
            let snapshot = try TODOStore.decodeSnapshot(Array(Data(contentsOf: store.fileURL)))
            let journal = try TODOStore.scanJournal(Array(Data(contentsOf: store.journalURL))[...])
            #expect(journal.recordCount <= max(4, snapshot.items.count))
            #expect(journal.baseRevision == snapshot.revision)
            #expect(snapshot.revision + UInt64(journal.recordCount) == UInt64(number + 1))
        }
        #expect(try store.load().list == list)
    }

    @Test func aSnapshotMissingBesideItsJournalIsReported() throws {
        let directory = try TemporaryDirectory()
        let (store, _) = try Self.twoItems(in: directory)
        try FileManager.default.removeItem(at: store.fileURL)
        #expect(throws: TODOStoreError.corrupt(
            path: store.journalURL.path,
            reason: "it continues revision 1, but todo.json is at revision 0; the two files do not belong together"
        )) { try store.load() }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
