import Foundation
import Testing
@testable import TODOKit

@Suite struct TODOCommandLineTests {
    static func run(_ arguments: [String], environment: [String: String] = [:], input: [String] = []) -> (status: Int32, console: ScriptedConsole) {
        let console = ScriptedConsole(input)
        let status = TODOCommandLine.run(arguments: arguments, environment: environment, console: console.console)
        return (status, console)
    }

    /// Each option with a value takes it as the next word or after `=`.
    @Test(arguments: [
        (["--file", "a.db", "list"], "a.db", nil, nil, ["list"]),
        (["--file=a.db"], "a.db", nil, nil, []),
        (["--database", "postgres://h/d"], nil, "postgres://h/d", nil, []),
        (["--as", " Ann ", "--", "-x"], nil, nil, "Ann", ["-x"]),
        (["--as=Ann", "add", "-5"], nil, nil, "Ann", ["add", "-5"]),
    ] as [([String], String?, String?, String?, [String])])
    func optionsWithAValue(
        arguments: [String], file: String?, database: String?, person: String?, command: [String]
    ) throws {
        let invocation = try TODOCommandLine.Invocation(arguments: arguments)
        #expect(invocation.file == file)
        #expect(invocation.database == database)
        #expect(invocation.person == person)
        #expect(invocation.command == command)
    }

    /// A missing or empty value names what the option needs; an unknown option is named.
    @Test(arguments: [
        (["--file"], "--file needs a path"),
        (["--file="], "--file needs a path"),
        (["--file", ""], "--file needs a path"),
        (["--as"], "--as needs a name"),
        (["--as="], "--as needs a name"),
        (["--as", "  "], "--as needs a name"),
        (["--filename", "a.db"], "unknown option --filename"),
    ])
    func optionsWithoutTheirValue(arguments: [String], message: String) {
        let error = #expect(throws: TODOCommandLine.Invocation.Failure.self) {
            try TODOCommandLine.Invocation(arguments: arguments)
        }
        #expect(error?.message == message)
    }

    @Test func oneShotCommandsRunAgainstTheFileAndExit() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db").path

        var result = Self.run(["--file", file, "add", "Buy", "milk"])
        #expect(result.status == 0)
        #expect(result.console.output == "1. [ ] Buy milk\n")
        #expect(result.console.errors.isEmpty, "one-shot commands don't announce the file")

        // A `;` of its own separates commands; inside an argument it is text.
        result = Self.run(["--file=\(file)", "ADD", "Buy eggs", ";", "done", "1"])
        #expect(result.console.outputLines == ["2. [ ] Buy eggs", "1. [x] Buy milk"])

        result = Self.run(["--file", file, "list"])
        #expect(result.console.outputLines == ["1. [x] Buy milk", "2. [ ] Buy eggs"])

        // Undo history outlives each process: the last line's step is undone and redone whole.
        result = Self.run(["--file", file, "undo"])
        #expect(result.status == 0)
        #expect(result.console.outputLines == ["Undo Mark \"Buy milk\" Done (item 2 is gone; item 1 changed)"])
        #expect(try TODOStore(fileURL: URL(fileURLWithPath: file)).load().list.lines == ["1. [ ] Buy milk"])
        result = Self.run(["--file", file, "redo"])
        #expect(result.console.outputLines == ["Redo Mark \"Buy milk\" Done (item 2 is back; item 1 changed)"])
        #expect(try TODOStore(fileURL: URL(fileURLWithPath: file)).load().list.lines == ["1. [x] Buy milk", "2. [ ] Buy eggs"])
    }

    @Test func aFailingOneShotCommandExitsNonZeroAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db")
        #expect(Self.run(["--file", file.path, "add", "Buy milk"]).status == 0)
        let before = try Data(contentsOf: file)

        let result = Self.run(["--file", file.path, "rm", "2"])
        #expect(result.status == 1)
        #expect(result.console.errorLines == ["error: no item 2; the list has 1 item (usage: rm <n>)"])
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func titlesMayStartWithADash() throws {
        let directory = try TemporaryDirectory()
        let result = Self.run(["--file", directory.file("todo.db").path, "add", "-5", "degrees:", "wear", "a", "coat"])
        #expect(result.console.output == "1. [ ] -5 degrees: wear a coat\n")
    }

    @Test func withoutACommandItReadsStandardInput() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db").path
        let result = Self.run(["--file", file], input: ["add Buy milk", "add Buy eggs; done 1", "undo", "list"])
        #expect(result.status == 0)
        #expect(result.console.outputLines == ["1. [ ] Buy milk", "2. [ ] Buy eggs", "1. [x] Buy milk", "Undo Mark \"Buy milk\" Done (item 2 is gone; item 1 changed)", "1. [ ] Buy milk"])
        #expect(result.console.errors == "todo: using \(file)\n")
    }

    @Test func theDataFileComesFromTheEnvironmentUnlessGiven() throws {
        let directory = try TemporaryDirectory()
        let fromVariable = directory.file("env.json")
        let xdg = directory.url.appendingPathComponent("xdg")

        #expect(Self.run(["add", "a"], environment: ["TODO_FILE": fromVariable.path, "XDG_DATA_HOME": xdg.path]).status == 0)
        #expect(try TODOStore(fileURL: fromVariable).load().list.count == 1)

        #expect(Self.run(["add", "b"], environment: ["XDG_DATA_HOME": xdg.path]).status == 0)
        #expect(try TODOStore(fileURL: xdg.appendingPathComponent("undokit-todo/todo.json")).load().list.count == 1)

        #expect(Self.run(["add", "c"], environment: ["HOME": directory.url.path]).status == 0)
        #expect(try TODOStore(fileURL: directory.url.appendingPathComponent(".local/share/undokit-todo/todo.json")).load().list.count == 1)

        let flag = directory.file("flag.json")
        #expect(Self.run(["--file", flag.path, "add", "d"], environment: ["TODO_FILE": fromVariable.path]).status == 0)
        #expect(try TODOStore(fileURL: flag).load().list.count == 1)
        #expect(try TODOStore(fileURL: fromVariable).load().list.count == 1)
    }

    /// A file an earlier version would have read and this one cannot: never overwritten, and
    /// no database is made beside it.
    @Test(arguments: [
        ("todo.json", "not json", "is damaged: it is not a todo.json file (JSON with a \"formatVersion\")"),
        ("todo.json", "{\"formatVersion\": 3, \"items\": []}", "has version 3; this todo reads versions up to 2"),
        ("todo.db", "not a database, not even JSON", "is not a TODO list: file is not a database"),
    ])
    func anUnreadableFileStopsTheProgramAndStaysUntouched(name: String, contents: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file(name)
        let bytes = Data(contents.utf8)
        try bytes.write(to: file)

        for arguments in [["--file", file.path], ["--file", file.path, "add", "Buy milk"]] {
            let result = Self.run(arguments, input: ["add Buy milk"])
            #expect(result.status == 1)
            #expect(result.console.errors == "todo: \(file.path) \(problem)\n")
            #expect(result.console.output.isEmpty)
            #expect(try Data(contentsOf: file) == bytes)
            #expect(try directory.contents() == [name])
        }
    }

    @Test(arguments: [["--frobnicate"], ["--file"], ["--file="], ["-x", "list"]])
    func invalidOptionsPrintUsageAndExitWithTwo(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 2)
        #expect(result.console.errors.hasPrefix("todo: "))
        #expect(result.console.errors.contains("usage: todo [--file PATH]"))
        #expect(result.console.output.isEmpty)
    }

    @Test func helpOptionPrintsUsageAndCommands() {
        let result = Self.run(["--help"])
        #expect(result.status == 0)
        #expect(result.console.output.hasPrefix("usage: todo [--file PATH]"))
        #expect(result.console.output.contains("add <title>"))
    }

    @Test func exportWritesTheListAsJSONAndImportAddsWhatTheListLacks() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db").path
        let backup = directory.file("backup.json").path
        #expect(Self.run(["--file", file, "add", "Buy milk", ";", "add", "Pay rent"]).status == 0)
        #expect(Self.run(["--file", file, "done", "2"]).status == 0)
        let printed = Self.run(["--file", file, "export"])
        #expect(printed.status == 0)
        #expect(printed.console.output.hasPrefix("{\n  \"formatVersion\" : 2,\n  \"items\" : [\n    {\n      \"detail\" : \"\",\n"))
        #expect(Self.run(["--file", file, "export", backup]).console.output == "Exported 2 items to \(backup)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == Data(printed.console.output.utf8))

        #expect(Self.run(["--file", file, "rm", "1"]).status == 0)
        let imported = Self.run(["--file", file, "import", backup])
        #expect(imported.console.output == "Imported 1 item from \(backup) (1 already in the list)\n")
        #expect(Self.run(["--file", file, "list"]).console.outputLines == ["1. [x] Pay rent", "2. [ ] Buy milk"])
        #expect(Self.run(["--file", file, "undo"]).console.outputLines == ["Undo Import \"backup.json\" (item 2 is gone)"])
    }

    @Test(arguments: [
        ("[1, 2]", "cannot import %@: it is not a TODO list file (JSON with a \"formatVersion\")"),
        ("{\"formatVersion\": 7, \"items\": []}", "cannot import %@: it has format version 7; this todo reads versions 1 to 2"),
        ("{\"formatVersion\": 2, \"items\": [{\"title\": \"x\"}]}", "cannot import %@: its items cannot be read (at items[0].id)"),
        (#"{"formatVersion": 2, "items": [{"detail": "", "id": "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10", "isDone": false, "priority": "low", "title": "a\u001b[2J"}]}"#,
         "item 1 of the file: titles and details cannot contain control characters (U+001B at character 2) (usage: import <path>)"),
    ])
    func aFileThatCannotBeImportedChangesNothing(contents: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db").path
        let bad = directory.file("bad.json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: bad))
        #expect(Self.run(["--file", file, "add", "Buy milk"]).status == 0)
        let result = Self.run(["--file", file, "import", bad])
        #expect(result.status == 1)
        #expect(result.console.errorLines == ["error: " + message.replacingOccurrences(of: "%@", with: bad)])
        #expect(try TODOStore(fileURL: URL(fileURLWithPath: file)).load().revision == 1)
    }
}

@Suite struct TODOCommandLineHabitsTests {
    @Test(arguments: [("ls", Command.list), ("LS", .list), ("del 2", .remove(item: 2)), ("delete 1", .remove(item: 1)), ("exit", .quit)])
    func aliasesNameTheirCommands(text: String, command: Command) throws {
        #expect(try Command(parsing: text) == command)
    }

    @Test func helpListsTheAliases() {
        #expect(TODOCommandLine.helpText.contains("remove item n (also del, delete)"))
        #expect(TODOCommandLine.helpText.contains("(also ls)"))
    }

    @Test func versionPrintsTheVersionAndExits() {
        let result = TODOCommandLineTests.run(["--version"])
        #expect(result.status == 0)
        #expect(result.console.output == "todo \(TODOCommandLine.version), the UndoKit sample\n")
    }

    @Test(arguments: [["begin", "Week"], ["end"], ["add", "milk", ";", "begin"]])
    func groupsAreRefusedInOneShotMode(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("todo.db").path
        let result = TODOCommandLineTests.run(["--file", file] + arguments)
        #expect(result.status == 2)
        #expect(result.console.errors.contains("works only in a session"))
        #expect(result.console.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file), "nothing ran")
    }
}
