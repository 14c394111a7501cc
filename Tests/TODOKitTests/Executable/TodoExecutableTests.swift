import Foundation
import Testing
import TODOKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the real `todo` program, as a newcomer would, with a script on standard input.
@Suite struct TodoExecutableTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> Run? {
        guard let executable = BuiltExecutable.url(named: "todo") else {
            Issue.record("the todo executable was not found next to the test runner (\(CommandLine.arguments[0]))")
            return nil
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // A clean environment, so the developer's own TODO_FILE is never touched.
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // The scripts are small, so neither pipe can fill up while the other is drained.
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self)
        )
    }

    @Test func aScriptOnStandardInputProducesCleanOutputAndTheFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let script = """
            add Buy milk
            add Buy eggs; add Bread
            list
            undo
            list
            redo
            done 2
            rm 1
            frob
            history
            """
        guard let run = try Self.run(["--file", file.path], input: script + "\n") else { return }

        // `history` dates each step; they are checked apart, the rest as it is.
        let stamp = /\ \ \d{4}-\d\d-\d\d \d\d:\d\d\ \ /
        #expect(run.output.matches(of: stamp).count == 6)
        #expect(run.output.replacing(stamp, with: "  ") == """
            1. [ ] Buy milk
            2. [ ] Buy eggs
            3. [ ] Bread
            1. [ ] Buy milk
            2. [ ] Buy eggs
            3. [ ] Bread
            Undo Add "Bread" (items 2 and 3 are gone)
            1. [ ] Buy milk
            Redo Add "Bread" (items 2 and 3 are back)
            2. [x] Buy eggs
            Removed "Buy milk"
            History, oldest first ("goto <step>" takes the list to just after it):
               0  the start
               1  someone  Add "Buy milk"
               2  someone  Add "Bread"
               3  someone  Undo Add "Bread"  (step 2)
               4  someone  Redo Add "Bread"  (step 2)
               5  someone  Mark "Buy eggs" Done
               6  someone  Remove "Buy milk"

            """)
        #expect(run.errors == """
            todo: using \(file.path)
            error: unknown command "frob" (type help for the list of commands)

            """)
        #expect(run.status == 1, "a failed command makes the exit status 1")

        let saved = try TODOStore(fileURL: file).load().list
        #expect(saved.lines == ["1. [x] Buy eggs", "2. [ ] Bread"])
        #expect(try TODOStore(fileURL: file).text("SELECT group_concat(title, ', ') FROM (SELECT title FROM item ORDER BY position)")
            == "Buy eggs, Bread", "a database anyone can query")
    }

    @Test func theOneShotFormUsesTODO_FILE() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let add = try Self.run(["add", "Buy", "milk"], input: "", environment: ["TODO_FILE": file.path]) else { return }
        #expect(add.status == 0)
        #expect(add.output == "1. [ ] Buy milk\n")
        #expect(add.errors == "")
        guard let list = try Self.run(["list"], input: "", environment: ["TODO_FILE": file.path]) else { return }
        #expect(list.output == "1. [ ] Buy milk\n")
    }

    @Test func hostileTitlesInTheFileReachTheTerminalEscaped() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        // Written by another program: every kind of control character a terminal acts on.
        let titles = ["\u{1B}[31mRED", "bell\u{07}", "\u{9B}2J", "del\u{7F}", "\u{1B}]0;title\u{07}", "ok\ttab",
                      "forged\nerror: a line todo did not write", "invoice\u{202E}fdp.exe", "\u{2067}isolate\u{200F}"]
        let items = titles.enumerated().map { index, title in
            ["id": "A156091C-75E6-485A-B5A8-6259D46B44C\(index)", "title": title, "detail": "\u{1B}[2J",
             "isDone": false, "priority": "medium"] as [String: Any]
        }
        let store = TODOStore(fileURL: file)
        guard let made = try Self.run(["--file", file.path, "add", "placeholder"], input: "") else { return }
        #expect(made.status == 0)
        try store.execute("DELETE FROM item; DELETE FROM step")
        for (position, item) in items.enumerated() {
            func quoted(_ text: Any?) -> String { "'" + "\(text!)".replacingOccurrences(of: "'", with: "''") + "'" }
            try store.execute("""
                INSERT INTO item (id, position, title, detail, is_done, priority) VALUES
                (\(quoted(item["id"])), \(position), \(quoted(item["title"])), \(quoted(item["detail"])), 0, 'medium')
                """)
        }
        for arguments in [["list"], ["done", "1"], ["undo"], ["history"], ["rm", "2"]] {
            guard let run = try Self.run(["--file", file.path] + arguments, input: "") else { return }
            let bytes = Array(run.output.utf8) + Array(run.errors.utf8)
            let hostile = bytes.enumerated().filter { _, byte in
                (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F
            }
            #expect(hostile.isEmpty, "\(arguments): \(run.output) \(run.errors)")
            #expect(!run.output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
            let bidirectional: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                              0x2066, 0x2067, 0x2068, 0x2069]
            let reordering = (run.output + run.errors).unicodeScalars.filter { bidirectional.contains($0.value) }
            #expect(reordering.isEmpty, "\(arguments): a bidirectional control reached the terminal raw")
        }
        guard let list = try Self.run(["--file", file.path, "list"], input: "") else { return }
        #expect(list.output.contains("\\u{1B}[31mRED"))
        #expect(list.output.contains("[ ] invoice\\u{202E}fdp.exe"))
        #expect(list.output.contains("[ ] \\u{2067}isolate\\u{200F}"))
        // A newline in a title stays inside its line: no line can be forged.
        #expect(list.output.contains("[ ] forged\\u{0A}error: a line todo did not write"))
        #expect(!list.output.split(separator: "\n").contains { $0.hasPrefix("error:") })
    }

    @Test func aOneShotChangeThatCannotBeSavedSaysSoAndFails() throws {
        let directory = try TemporaryDirectory()
        let notADirectory = directory.file("plain-file")
        try Data().write(to: notADirectory)
        let file = notADirectory.appendingPathComponent("todo.json")
        guard let run = try Self.run(["--file", file.path, "add", "hi"], input: "") else { return }
        #expect(run.status == 1)
        #expect(run.output == "", "stdout reports only what is on disk")
        #expect(run.errors == "error: cannot save \(notADirectory.path)/todo.db: cannot create the directory \(notADirectory.path); nothing was changed\n")
    }

    @Test func aLineWithAFailingCommandIsNotAppliedNorSaved() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        guard let first = try Self.run(["--file", file.path, "--as", "bob"], input: "add a\n") else { return }
        #expect(first.status == 0)
        guard let run = try Self.run(["--file", file.path, "--as", "alice"], input: "add x; rm 99; add y\nlist\nundo\n") else { return }
        #expect(run.status == 1)
        #expect(run.output == "1. [ ] a\nNothing to undo of yours (\"history\" shows every step of the list, which \"goto\" reaches)\n",
                "a was added by someone else")
        #expect(run.errors.contains("error: the line was not applied: none of its commands changed the list"))
        guard let list = try Self.run(["--file", file.path, "list"], input: "") else { return }
        #expect(list.output == "1. [ ] a\n")   // x and y never added
    }

    @Test func aCorruptFileStopsTheProgramAndStaysUntouched() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        let bytes = Data("{\"formatVersion\": 1, \"items\": [".utf8)
        try bytes.write(to: file)
        guard let run = try Self.run(["--file", file.path], input: "add Buy milk\n") else { return }
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(run.errors == "todo: \(file.path) is not a TODO list: file is not a database\n")
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func killingItWhileItSavesNeverLeavesATornFile() throws {
        guard let executable = BuiltExecutable.url(named: "todo") else {
            Issue.record("the todo executable was not found next to the test runner")
            return
        }
        let directory = try TemporaryDirectory()
        // Every line saves, so the process spends its time in the write-flush-rename cycle. The
        // script fits in a pipe's buffer, so writing it never blocks and never hits the killed
        // process's closed pipe.
        let title = "with a title long enough to take a moment to write"
        let script = (1...500).map { "add Item \($0) \(title)" }.joined(separator: "\n") + "\n"
        for delay in [0.05, 0.1, 0.2] {
            let file = directory.file("todo-\(delay).db")
            let process = Process()
            process.executableURL = executable
            process.arguments = ["--file", file.path]
            process.environment = [:]
            let stdin = Pipe()
            process.standardInput = stdin
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try stdin.fileHandleForWriting.write(contentsOf: Data(script.utf8))
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()

            // Whatever moment the kill hit, the file is a complete list: missing, or valid
            // with some prefix of the script's items.
            let list = try TODOStore(fileURL: file).load().list
            #expect(list.items.map(\.title) == (0..<list.count).map { "Item \($0 + 1) \(title)" })
        }
    }
}
