import Foundation
import Testing
@testable import TODOKit

/// What a live-update test does with its list: `todo` processes of people on it, in the
/// list's directory as `HOME`, and the titles as another program reads them.
extension TestList {
    /// The environment of a `todo` of `person` on this list.
    func environment(person: String) -> [String: String] {
        ["USER": person, "HOME": directory.url.path, "TERM": "xterm"]
    }

    /// The list's titles, in order, read as another program would.
    func titles() throws -> [String] {
        if let database {
            return try database.psql("SELECT title FROM item ORDER BY position").split(separator: "\n").map(String.init)
        }
        return try TODOStore(fileURL: directory.file("todo.db")).load().list.items.map(\.title)
    }

    /// Runs `todo` as `person` on the list with `command` to its end, as another terminal
    /// (or machine) would; its status.
    @discardableResult
    func runOneShot(_ command: [String], as person: String = "ben") throws -> Int32 {
        let executable: URL = try #require(BuiltExecutable.url(named: "todo"))
        let process = Process()
        process.executableURL = executable
        process.arguments = todoArguments + command
        process.environment = environment(person: person)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A `todo` session of `person` on the list, on a pseudo-terminal of its own.
    func startSession(as person: String = "ana") -> PseudoTerminal? {
        guard let executable = BuiltExecutable.url(named: "todo") else {
            Issue.record("the todo executable was not found next to the test runner")
            return nil
        }
        let terminal = PseudoTerminal(running: executable, arguments: todoArguments, environment: environment(person: person))
        #expect(terminal != nil, "a pseudo-terminal could be opened")
        return terminal
    }
}

/// Two real `todo` processes on one list: a session on a pseudo-terminal, waiting at a
/// half-typed prompt, and another process that changes the list, on SQLite and on PostgreSQL.
/// The session shows the change as it comes, with no key pressed: a line above the prompt,
/// the prompt with the new count, the half-typed line as it was. (How soon is measured by
/// Benchmarks/TODO/live.sh; here the waits are bounded only to turn a hang into a failure.)
extension LineEditorTerminalTests {
    @Test(arguments: Backend.available)
    func aChangeElsewhereIsShownAboveAHalfTypedPrompt(backend: Backend) throws {
        let list = try backend.makeList()
        guard let terminal = list.startSession() else { return }
        #expect(Self.prompted(terminal))
        // "add mlk", the cursor moved back before "lk": "todo (0 items)> add m" is 21 columns.
        terminal.type("add mlk\u{1B}[D\u{1B}[D")
        let halfTyped = "\rtodo (0 items)> add mlk\u{1B}[K\r\u{1B}[21C"
        #expect(terminal.waitFor { $0.hasSuffix(halfTyped) }, "\(terminal.screen.suffix(120).debugDescription)")
        let before = terminal.screen.count

        #expect(try list.runOneShot(["add", "Bread"]) == 0)

        // No key pressed: the prompt's row cleared, the line written there (the terminal
        // turns its "\n" into "\r\n"), the prompt drawn below it with the new count, the
        // half-typed text, and the cursor where it was: and nothing else.
        let shown = "\r\u{1B}[J" + backend.reloaded("1 item") + "\r\n" + "\rtodo (1 item)> add mlk\u{1B}[K\r\u{1B}[20C"
        #expect(terminal.waitFor { String($0.dropFirst(before)) == shown }, "\(String(terminal.screen.dropFirst(before)).debugDescription)")

        // The line is still being edited, the cursor where it was: "i" makes "milk".
        terminal.type("i\r")
        #expect(Self.answered(terminal, "2. [ ] milk"), "\(terminal.screen.suffix(200).debugDescription)")
        #expect(terminal.screen.contains("todo (2 items)> "))
        terminal.type("\u{04}")
        #expect(terminal.waitForExit() == 0)
        #expect(try list.titles() == ["Bread", "milk"])
        #expect(terminal.isCooked)
        #expect(terminal.screen.components(separatedBy: backend.changedPlace).count == 2, "the change was said once")
    }

    /// A prompt nobody changes the list under draws nothing more, however long it waits
    /// (on SQLite the session asks four times a second, and says nothing when the answer is
    /// no; on PostgreSQL it sleeps until a notification comes).
    @Test(arguments: Backend.available)
    func anIdlePromptDrawsNothing(backend: Backend) throws {
        let list = try backend.makeList()
        guard let terminal = list.startSession() else { return }
        #expect(Self.prompted(terminal))
        terminal.type("add x")
        #expect(terminal.waitFor { $0.hasSuffix("add x\u{1B}[K\r\u{1B}[21C") })
        let drawn = terminal.screen
        terminal.waitFor(seconds: 1.5) { _ in false }   // six intervals
        #expect(terminal.screen == drawn, "\(String(terminal.screen.dropFirst(drawn.count)).debugDescription)")
        terminal.type("\u{03}\u{04}")
        #expect(terminal.waitForExit() == 0)
    }

    /// A session whose standard input is a pipe (a script, a program driving `todo`) shows a
    /// change only between commands, on standard error, as its next line would have: its
    /// standard output holds only what its commands print, and a line it is sent in pieces
    /// runs whole.
    @Test(arguments: Backend.available)
    func aPipeSessionShowsAChangeBetweenCommandsOnly(backend: Backend) throws {
        let list = try backend.makeList()
        let outputFile = list.directory.file("out.txt")
        let errorFile = list.directory.file("err.txt")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let executable: URL = try #require(BuiltExecutable.url(named: "todo"))
        let process = Process()
        process.executableURL = executable
        process.arguments = list.todoArguments
        process.environment = list.environment(person: "ana")
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        func text(_ url: URL) -> String {
            (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        }
        func waitUntil(_ predicate: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while !predicate() {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return true
        }

        try input.fileHandleForWriting.write(contentsOf: Data("add one\n".utf8))
        #expect(waitUntil { text(outputFile) == "1. [ ] one\n" })
        try input.fileHandleForWriting.write(contentsOf: Data("add tw".utf8))   // half a line
        #expect(try list.runOneShot(["add", "Bread"]) == 0)
        let reloaded = backend.reloaded("2 items") + "\n"
        #expect(waitUntil { text(errorFile).hasSuffix(reloaded) }, "\(text(errorFile).debugDescription)")
        #expect(text(outputFile) == "1. [ ] one\n", "nothing on standard output")

        // "quit" rather than the end of input: a pipe's write end may have leaked into a
        // process another test started meanwhile (Foundation's pipes are not close-on-exec).
        try input.fileHandleForWriting.write(contentsOf: Data("o\nlist\nquit\n".utf8))
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 0)
        #expect(text(outputFile) == "1. [ ] one\n3. [ ] two\n1. [ ] one\n2. [ ] Bread\n3. [ ] two\n")
        let errors = text(errorFile).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(errors.count == 3 && errors[0].hasPrefix(backend == .sqlite ? "todo: using /" : "todo: using postgres://") && errors[1] + "\n" == reloaded && errors[2].isEmpty,
                "said once, between the lines: \(errors)")
        #expect(try list.titles() == ["one", "Bread", "two"])
    }
}
