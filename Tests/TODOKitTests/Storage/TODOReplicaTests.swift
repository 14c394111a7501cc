import Foundation
import Testing
@testable import TODOKit

@Suite struct TODOReplicaTests {
    @Test func refreshSaysWhatHappenedSinceTheLastOne() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"), options: .init(compactionMinimum: 2))
        let reader = TODOReplica(store: store), writer = TODOReplica(store: store)
        #expect(try reader.refresh() == .loaded)
        #expect(try reader.refresh() == .unchanged)
        #expect(reader.list == [] && reader.revision == 0)

        // The first commit creates the files; then appends, read incrementally; then
        // compactions, read in full. Each is seen once.
        for number in 0..<8 {
            try TODOStoreJournalTests.commit([.insert(TODOItem(title: "Item \(number)"), at: number)], to: writer)
            #expect(try reader.refresh() == .changed(previousRevision: UInt64(number)))
            #expect(reader.list == writer.list)
            #expect(reader.revision == writer.revision)
            #expect(try reader.refresh() == .unchanged)
            #expect(try writer.refresh() == .unchanged, "a replica's own commits are no news to it")
        }
    }

    /// A record that does not fit, appended by a buggy or foreign writer, is reported; once it
    /// is gone, the replica reads everything again and reports the change as a change.
    @Test func aJournalReadThatFailsHalfwayIsRetriedInFull() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let reader = TODOReplica(store: store), writer = TODOReplica(store: store)
        try TODOStoreJournalTests.commit([.insert(TODOItem(title: "First"), at: 0)], to: writer)
        try TODOStoreJournalTests.commit([.insert(TODOItem(title: "Second"), at: 1)], to: writer)
        try reader.refresh()
        let good = try Data(contentsOf: store.journalURL)
        let misfit = TODOStore.journalRecordLine(.init(revision: 3, changes: [
            .init(change: .insert(TODOItem(title: "Third"), at: 2), itemID: nil),
            .init(change: .remove(at: 0), itemID: UUID()),
        ]))
        try TODOStoreJournalTests.appending(misfit, to: store.journalURL)
        #expect(throws: TODOStoreError.corrupt(path: store.journalURL.path, reason: "line 3: change 2 of revision 3 does not fit the list")) {
            try reader.refresh()
        }
        try good.write(to: store.journalURL)
        try TODOStoreJournalTests.commit([.remove(at: 0)], to: TODOReplica(store: store))
        #expect(try reader.refresh() == .changed(previousRevision: 2))
        #expect(reader.list.items.map(\.title) == ["Second"])
    }

    @Test func aStaleReplicaIsRefusedAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let stale = TODOReplica(store: store), other = TODOReplica(store: store)
        try TODOStoreJournalTests.commit([.insert(TODOItem(title: "First"), at: 0)], to: other)
        try stale.refresh()
        try TODOStoreJournalTests.commit([.insert(TODOItem(title: "Second"), at: 1)], to: other)
        let bytes = try [Data(contentsOf: store.fileURL), Data(contentsOf: store.journalURL)]

        let lock = try store.lock()
        #expect(throws: TODOStoreError.conflict(path: store.fileURL.path)) {
            try stale.commit([.remove(at: 0)], holding: lock)
        }
        #expect(try [Data(contentsOf: store.fileURL), Data(contentsOf: store.journalURL)] == bytes)
        // The failed commit caught the replica up, so it can now retry on the current list.
        #expect(stale.list.count == 2)
        #expect(throws: TODOStoreError.conflict(path: store.fileURL.path)) {
            try stale.commit([.remove(at: 0), .remove(at: 5)], holding: lock)
        }
        #expect(stale.list.count == 2, "a commit that doesn't fit leaves the list as it was")
        #expect(try stale.commit([.remove(at: 0)], holding: lock) == 3)
        lock.release()
        #expect(try store.load().list.items.map(\.title) == ["Second"])
    }

    @Test func aCompanionFileIsReplacedAtomicallyUnderTheLock() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"))
        let replica = TODOReplica(store: store)
        let lock = try store.lock()
        try replica.refresh()
        let revision = try replica.commit([.insert(TODOItem(title: "Buy milk"), at: 0)], holding: lock)
        try store.writeCompanion(Array("history of revision \(revision)\n".utf8), suffix: "history", holding: lock)
        try store.writeCompanion(Array("history of revision \(revision), again\n".utf8), suffix: "history", holding: lock)
        lock.release()
        #expect(try String(contentsOf: store.companionURL(suffix: "history"), encoding: .utf8) == "history of revision 1, again\n")
        #expect(try directory.contents() == ["todo.json", "todo.json.history", "todo.json.journal", "todo.json.lock"])
    }

    /// Model-based: several replicas (as several processes would) take turns committing random
    /// changes, interrupted appends leave torn lines, and compactions happen often. After every
    /// step a fresh load must equal a reference list that applies the same changes.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func replicasTakingTurnsAgreeWithAReference(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"), options: .init(compactionMinimum: Int.random(in: 1...6, using: &random)))
        let replicas = (0..<3).map { _ in TODOReplica(store: store) }
        var reference = TODOList()
        var revision: UInt64 = 0

        for step in 0..<150 {
            if Int.random(in: 0..<10, using: &random) == 0 {
                // What a crash in the middle of an append leaves.
                if FileManager.default.fileExists(atPath: store.journalURL.path) {
                    let line = TODOStore.journalRecordLine(.init(revision: revision + 1, changes: [
                        .init(change: .insert(TODOItem(title: "torn"), at: 0), itemID: nil),
                    ]))
                    try TODOStoreJournalTests.appending(Array(line.prefix(Int.random(in: 1..<line.count, using: &random))), to: store.journalURL)
                }
                continue
            }
            let replica = replicas.randomElement(using: &random)!
            let lock = try store.lock()
            try replica.refresh()
            #expect(replica.list == reference, "step \(step): the replica caught up")
            var changes: [TODOList.Change] = []
            var list = reference
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let change = Self.randomChange(for: list, using: &random)
                list.apply(change)
                changes.append(change)
            }
            revision = try replica.commit(changes, holding: lock)
            lock.release()
            reference = list
            #expect(try store.load() == TODOStore.Contents(list: reference, revision: revision), "step \(step)")
        }
        #expect(revision > 100)
    }

    static func randomChange(for list: TODOList, using random: inout SplitMix64) -> TODOList.Change {
        let count = list.count
        switch count == 0 ? 0 : Int.random(in: 0..<5, using: &random) {
        case 0, 1:
            return .insert(TODOItem(title: "Item \(random.next() % 1000)"), at: Int.random(in: 0...count, using: &random))
        case 2:
            return .remove(at: Int.random(in: 0..<count, using: &random))
        case 3:
            let position = Int.random(in: 0..<count, using: &random)
            var item = list.items[position]
            item.isDone.toggle()
            item.title += "!"
            return .replace(at: position, with: item)
        default:
            return .move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
        }
    }
}

@Suite struct TODOStoreLockTests {
    @Test func aHeldLockMakesOthersFailNamingTheHolder() throws {
        let directory = try TemporaryDirectory()
        var store = TODOStore(fileURL: directory.file("todo.json"))
        store.options.lockTimeout = .milliseconds(50)
        let lock = try store.lock()
        #expect(try String(contentsOf: store.lockURL, encoding: .utf8) == "\(getpid()) \(ProcessInfo.processInfo.processName)\n")

        let error = #expect(throws: TODOStoreError.self) { _ = try store.lock() }
        #expect(error == .locked(path: store.fileURL.path, pid: getpid(), program: ProcessInfo.processInfo.processName))
        store.options.lockTimeout = .zero
        #expect(throws: TODOStoreError.self) { _ = try store.lock() }

        lock.release()
        #expect(try String(contentsOf: store.lockURL, encoding: .utf8) == "", "a released lock names no holder")
        // The waiter the 50-ms attempt above left blocked takes the lock for a moment when it
        // is released, then lets go (it was abandoned): wait for that rather than race it.
        store.options.lockTimeout = .seconds(5)
        _ = try store.lock()
    }

    /// A waiter blocked in `lock()` gets the lock when the holder lets go.
    @Test func aWaiterGetsTheLockOnceItIsReleased() async throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.json"), options: .init(lockTimeout: .seconds(60)))
        let lock = try store.lock()
        let waiter = Task.detached { () throws(TODOStoreError) -> Int32 in
            let lock = try store.lock()
            return lock.descriptor
        }
        try await Task.sleep(for: .milliseconds(20))
        lock.release()
        #expect(try await waiter.value >= 0)
    }

    @Test(arguments: [
        ("", nil, nil),
        ("12345 todo\n", 12345, "todo"),
        ("77 my editor\n", 77, "my editor"),
        ("garbage", nil, nil),
        ("-4 todo", nil, nil),
    ] as [(String, Int32?, String?)])
    func theHolderIsReadFromTheLockFile(contents: String, pid: Int32?, program: String?) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.json.lock")
        try Data(contents.utf8).write(to: file)
        let holder = TODOStore.holder(of: file.path)
        #expect(holder?.pid == pid)
        #expect(holder?.program == program)
    }

    @Test(arguments: [
        (TODOStoreError.locked(path: "/t/todo.json", pid: 12345, program: "todo"), "/t/todo.json is locked by todo, pid 12345; try again"),
        (.locked(path: "/t/todo.json", pid: nil, program: nil), "/t/todo.json is locked by another process; try again"),
        (.conflict(path: "/t/todo.json"), "cannot save /t/todo.json: it changed since it was loaded; load it again first"),
        (.unsupportedVersion(path: "/t/todo.json", found: 3, supported: 2), "/t/todo.json has format version 3; this todo reads versions 1 to 2"),
        (.unsupportedVersion(path: "/t/todo.json", found: 2, supported: 1), "/t/todo.json has format version 2; this todo reads only version 1"),
    ])
    func storeErrorsReadAsOneLine(error: TODOStoreError, description: String) {
        #expect(error.description == description)
    }

    @Test(arguments: [
        ([:], TODOStore.Options()),
        (["TODO_LOCK_TIMEOUT": "0.25", "TODO_COMPACTION_MINIMUM": "7"], TODOStore.Options(lockTimeout: .milliseconds(250), compactionMinimum: 7)),
        (["TODO_LOCK_TIMEOUT": "", "TODO_COMPACTION_MINIMUM": ""], TODOStore.Options()),
        (["TODO_LOCK_TIMEOUT": "0"], TODOStore.Options(lockTimeout: .zero)),
    ] as [([String: String], TODOStore.Options)])
    func optionsComeFromTheEnvironment(environment: [String: String], options: TODOStore.Options) throws {
        #expect(try TODOStore.Options(environment: environment) == options)
    }

    @Test(arguments: [
        ["TODO_LOCK_TIMEOUT": "soon"], ["TODO_LOCK_TIMEOUT": "-1"], ["TODO_LOCK_TIMEOUT": "nan"],
        ["TODO_COMPACTION_MINIMUM": "0"], ["TODO_COMPACTION_MINIMUM": "1.5"],
    ])
    func invalidSettingsAreRefused(environment: [String: String]) {
        #expect(throws: TODOStore.Options.InvalidSetting.self) { try TODOStore.Options(environment: environment) }
    }
}
