import Foundation
import Testing
import TODOKit

/// Several real `todo` processes on one file at once: every change a process reports is in the
/// file afterwards, whatever the interleaving.
@Suite struct TodoExecutableConcurrencyTests {
    @Test func sixteenParallelOneShotAddsAllSurvive() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let processes = try (0..<16).map { number in
            try TodoProcess(["--file", file.path, "add", "parallel \(number)"], environment: ["TODO_LOCK_TIMEOUT": "60"])
        }
        for process in processes {
            #expect(process.finish() == 0, "stderr: \(process.errorLines)")
            #expect(process.outputLines.count == 1)
            #expect(process.errorLines == [])
        }
        let titles = try TODOStore(fileURL: file).load().list.items.map(\.title)
        #expect(titles.sorted() == (0..<16).map { "parallel \($0)" }.sorted())
        #expect(try TODOStore(fileURL: file).load().revision == 16)
    }

    /// The scenario of issue 28: a one-shot's change while a session is open is reloaded,
    /// and the session's undo takes its own steps, not the one-shot's.
    @Test func aSessionReloadsWhatAOneShotSavedAndUndoesOnlyItsOwnSteps() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let session = try TodoProcess(["--file", file.path])
        try session.send("add from the session")
        #expect(session.waitForOutput(lines: 1))

        guard let oneShot = try TodoExecutableTests.run(["--file", file.path, "add", "from one-shot"], input: "") else { return }
        #expect(oneShot.status == 0)
        #expect(oneShot.output == "2. [ ] from one-shot\n")
        #expect(oneShot.errors == "", "a one-shot has nothing to reload")

        try session.send("add again from the session")
        try session.send("undo")
        try session.send("undo")
        try session.send("list")
        #expect(session.finish() == 0)
        #expect(session.outputLines == [
            "1. [ ] from the session",
            "3. [ ] again from the session",
            "Undo Add \"again from the session\" (item 3 is gone)",
            "Undo Add \"from the session\" (item 1 is gone)",
            "1. [ ] from one-shot",
        ])
        #expect(session.errorLines == [
            "todo: using \(file.path)",
            "todo: the list changed on disk (another todo saved it); reloaded: 2 items",
        ])
        let titles = try TODOStore(fileURL: file).load().list.items.map(\.title)
        #expect(titles == ["from one-shot"])
    }

    @Test func twoSessionsTakeTurnsOnOneFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let first = try TodoProcess(["--file", file.path])
        let second = try TodoProcess(["--file", file.path])
        #expect(first.waitForError(containing: "todo: using"))
        #expect(second.waitForError(containing: "todo: using"))

        for round in 1...3 {
            try first.send("add first \(round)")
            #expect(first.waitForOutput(lines: round))
            try second.send("add second \(round)")
            #expect(second.waitForOutput(lines: round))
        }
        #expect(first.finish() == 0)
        #expect(second.finish() == 0)

        #expect(first.outputLines == ["1. [ ] first 1", "3. [ ] first 2", "5. [ ] first 3"])
        #expect(second.outputLines == ["2. [ ] second 1", "4. [ ] second 2", "6. [ ] second 3"])
        #expect(first.errorLines.filter { $0.contains("reloaded") } == [
            "todo: the list changed on disk (another todo saved it); reloaded: 2 items",
            "todo: the list changed on disk (another todo saved it); reloaded: 4 items",
        ])
        #expect(second.errorLines.filter { $0.contains("reloaded") } == [
            "todo: the list changed on disk (another todo saved it); reloaded: 1 item",
            "todo: the list changed on disk (another todo saved it); reloaded: 3 items",
            "todo: the list changed on disk (another todo saved it); reloaded: 5 items",
        ])
        let titles = try TODOStore(fileURL: file).load().list.items.map(\.title)
        #expect(titles == ["first 1", "second 1", "first 2", "second 2", "first 3", "second 3"])
    }

    /// Sessions and one-shots racing without any coordination by the test: every item a
    /// process reported is on disk at the end.
    @Test func racingSessionsAndOneShotsLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let environment = ["TODO_LOCK_TIMEOUT": "60"]
        let sessions = try (0..<3).map { session in
            let process = try TodoProcess(["--file", file.path], environment: environment)
            for number in 0..<40 {
                try process.send("add session \(session) item \(number)")
            }
            return process
        }
        let oneShots = try (0..<8).map { number in
            try TodoProcess(["--file", file.path, "add", "one-shot \(number)"], environment: environment)
        }
        var reported: Set<String> = []
        for process in sessions + oneShots {
            #expect(process.finish() == 0, "stderr: \(process.errorLines)")
            for line in process.outputLines {
                reported.insert(String(line.drop { $0 != "]" }.dropFirst(2)))
            }
        }
        let contents = try TODOStore(fileURL: file).load()
        #expect(reported.count == 3 * 40 + 8)
        #expect(Set(contents.list.items.map(\.title)) == reported)
        #expect(contents.list.count == reported.count)
        #expect(contents.revision == reported.count)
    }

    /// `kill -9` at random moments of a session that commits every line: the file always loads, holds every item the session printed, in order, and at most the
    /// one more it was committing when it died.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func killingASessionAtRandomLosesNoReportedItem(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let session = try TodoProcess(["--file", file.path])
        let count = 300
        // The whole script fits in the pipe's buffer, so writing it never blocks.
        for number in 1...count {
            try session.send("add Item \(number)")
        }
        let killAfter = Int.random(in: 1...count - 1, using: &random)
        #expect(session.waitForOutput(lines: killAfter))
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.003, using: &random))
        session.kill()

        let reported = session.outputLines
        #expect(reported == (0..<reported.count).map { "\($0 + 1). [ ] Item \($0 + 1)" })
        let contents = try TODOStore(fileURL: file).load()
        let titles = contents.list.items.map(\.title)
        #expect(titles == (0..<titles.count).map { "Item \($0 + 1)" })
        #expect(titles.count == reported.count || titles.count == reported.count + 1,
                "\(titles.count) items on disk, \(reported.count) reported")
        #expect(contents.revision == titles.count)
        // The undo history came with every change: its newest step is the newest item.
        #expect(try TODOStore(fileURL: file).savedStepTitles().last == titles.last.map { "Add \"\($0)\"" })

        // And the next process carries on from there.
        guard let next = try TodoExecutableTests.run(["--file", file.path, "add", "after the kill"], input: "") else { return }
        #expect(next.status == 0)
        #expect(next.output == "\(titles.count + 1). [ ] after the kill\n")
    }
}
