import Foundation
import Testing
@testable import TODOKit

@Suite struct REPLTests {
    /// A REPL over an in-memory session, optionally saving to `store`.
    static func make(
        _ list: TODOList = [],
        store: TODOStore? = nil,
        interactive: Bool = false
    ) -> (REPL, ScriptedConsole) {
        let console = ScriptedConsole(isInteractive: interactive)
        let repl = REPL(session: EditingSession(list: list), store: store, console: console.console)
        // 2027-01-15 08:00 UTC, so that `history` prints known dates.
        repl.session.clock = { Date(timeIntervalSince1970: 1_800_000_000) }
        repl.timeZone = TimeZone(identifier: "UTC")!
        return (repl, console)
    }

    /// Runs `line` and returns what it printed on standard output.
    static func run(_ line: String, _ repl: REPL, _ console: ScriptedConsole) -> [String] {
        console.clear()
        repl.handle(line: line)
        return console.outputLines
    }

    // MARK: The Core Data article's scenarios, one line per event

    @Test(arguments: CoreDataScenario.allCases)
    func coreDataScenarioThroughTheREPL(scenario: CoreDataScenario) throws {
        let (repl, console) = Self.make(scenario.start)
        let session = repl.session

        _ = Self.run(scenario.command, repl, console)
        #expect(scenario.isChanged(session.list))
        let changed = session.list
        #expect(session.undoManager.groupingLevel == 0, "the line's tick closed the automatic group")
        #expect(session.canUndo)
        #expect(!session.canRedo)

        // The line names the step, then where its items went (see TODOList.changes(to:)).
        #expect(Self.run("undo", repl, console) == ["Undo \(scenario.actionName)" + changed.changes(to: scenario.start)])
        #expect(session.list == scenario.start)
        #expect(!session.canUndo)
        #expect(session.canRedo)

        #expect(Self.run("redo", repl, console) == ["Redo \(scenario.actionName)" + scenario.start.changes(to: changed)])
        #expect(session.list == changed)
        #expect(session.canUndo)
        #expect(!session.canRedo)
        #expect(console.errors.isEmpty)
    }

    // MARK: Output

    @Test func commandsPrintWhatTheyDid() {
        let (repl, console) = Self.make()
        #expect(Self.run("list", repl, console) == ["(empty)"])
        #expect(Self.run("add Buy milk", repl, console) == ["1. [ ] Buy milk"])
        #expect(Self.run("add Buy eggs", repl, console) == ["2. [ ] Buy eggs"])
        #expect(Self.run("edit 2 Buy ten eggs", repl, console) == ["2. [ ] Buy ten eggs"])
        #expect(Self.run("detail 2 free range", repl, console) == ["2. [ ] Buy ten eggs  — free range"])
        #expect(Self.run("detail 2", repl, console) == ["2. [ ] Buy ten eggs"])
        #expect(Self.run("priority 1 high", repl, console) == ["1. [ ] Buy milk  (high priority)"])
        #expect(Self.run("done 1", repl, console) == ["1. [x] Buy milk  (high priority)"])
        #expect(Self.run("done 1", repl, console) == ["1. [x] Buy milk  (high priority)  (unchanged)"])
        #expect(Self.run("undone 1", repl, console) == ["1. [ ] Buy milk  (high priority)"])
        #expect(Self.run("mv 2 1", repl, console) == ["1. [ ] Buy ten eggs"])
        #expect(Self.run("list", repl, console) == ["1. [ ] Buy ten eggs", "2. [ ] Buy milk  (high priority)"])
        #expect(Self.run("rm 2", repl, console) == ["Removed \"Buy milk\""])
        #expect(Self.run("undo", repl, console) == ["Undo Remove \"Buy milk\" (item 2 is back)"])
        #expect(Self.run("redo", repl, console) == ["Redo Remove \"Buy milk\" (item 2 is gone)"])
        #expect(Self.run("redo", repl, console) == ["Nothing to redo"])
        #expect(console.errors.isEmpty)
        #expect(!repl.hadErrors)
    }

    @Test func undoAndRedoSayWhenThereIsNothingToDo() {
        let (repl, console) = Self.make()
        #expect(Self.run("undo", repl, console) == ["Nothing to undo"])
        #expect(Self.run("redo", repl, console) == ["Nothing to redo"])
        #expect(console.errors.isEmpty)
    }

    @Test func historyDrawsTheTreeAndGotoMovesAcrossBranches() {
        let (repl, console) = Self.make()
        _ = Self.run("add Buy milk", repl, console)
        _ = Self.run("add Buy eggs; add Bread", repl, console)
        _ = Self.run("done 1", repl, console)
        _ = Self.run("undo", repl, console)
        let legend = "History (* current step, > redo path; goto <step> moves anywhere, goto 0 to the start):"
        #expect(Self.run("history", repl, console) == [
            legend,
            "     0                    (start)",
            "     1  2027-01-15 08:00  Add \"Buy milk\"",
            "*    2  2027-01-15 08:00  Add \"Bread\"",
            ">    3  2027-01-15 08:00  Mark \"Buy milk\" Done",
        ])
        repl.session.clock = { Date(timeIntervalSince1970: 1_800_000_000 + 3 * 3600 + 25 * 60) }
        #expect(Self.run("rm 1; history", repl, console) == [
            "Removed \"Buy milk\"",
            legend,
            "     0                    (start)",
            "     1  2027-01-15 08:00  Add \"Buy milk\"",
            "     2  2027-01-15 08:00  Add \"Bread\"",
            // The line's first edit took the redo step into a branch.
            "     3  2027-01-15 08:00  Mark \"Buy milk\" Done",
            "*       2027-01-15 11:25  Remove \"Buy milk\"  (in progress)",
        ])
        // Once the line ends the step is in the tree, and the undone step stays as a branch.
        #expect(Self.run("history", repl, console) == [
            legend,
            "     0                    (start)",
            "     1  2027-01-15 08:00  Add \"Buy milk\"",
            "     2  2027-01-15 08:00  Add \"Bread\"",
            "     3  2027-01-15 08:00  | Mark \"Buy milk\" Done",
            "*    4  2027-01-15 11:25  Remove \"Buy milk\"",
        ])
        #expect(Self.run("goto 3", repl, console) == [
            "At step 3 (undid 1, redid 1):",
            "1. [x] Buy milk",
            "2. [ ] Buy eggs",
            "3. [ ] Bread",
        ])
    }

    @Test(arguments: [
        (0.0, "UTC", "1970-01-01 00:00"),
        (1_800_000_000, "UTC", "2027-01-15 08:00"),
        (1_800_000_000, "Asia/Kolkata", "2027-01-15 13:30"),
        (1_800_000_059, "America/New_York", "2027-01-15 03:00"),
    ])
    func historyDatesAreLocalTimeToTheMinute(seconds: Double, zone: String, expected: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(REPL.timestamp(Date(timeIntervalSince1970: seconds), in: timeZone) == expected)
    }

    @Test func helpListsEveryCommandAndSaysWhereHistoryLives() {
        let (repl, console) = Self.make()
        let help = Self.run("help", repl, console).joined(separator: "\n")
        for verb in Command.Verb.allCases {
            #expect(help.contains("  \(verb.usage) "))
        }
        #expect(help.contains("with its history"))
        #expect(help.contains("undo and redo take only your own steps"), "whose undo is whose")
        #expect(help.contains("TODO_HISTORY_LIMIT"))
        // The rule `theExitStatusSaysHowTheRunEnded` checks.
        #expect(help.contains("Exit status: 0 when all went well; 1 when a command failed or its change could not"))
    }

    // MARK: Grouping

    @Test func oneLineIsOneUndoStep() {
        let (repl, console) = Self.make()
        _ = Self.run("add Buy milk", repl, console)
        _ = Self.run("add Buy eggs; add Bread; done 1", repl, console)
        #expect(repl.session.list.count == 3)
        #expect(Self.run("undo", repl, console) == ["Undo Mark \"Buy milk\" Done (items 2 and 3 are gone; item 1 changed)"])
        #expect(repl.session.list.lines == ["1. [ ] Buy milk"])
        #expect(Self.run("undo", repl, console) == ["Undo Add \"Buy milk\" (item 1 is gone)"])
        #expect(Self.run("redo; redo", repl, console) == ["Redo Add \"Buy milk\" (item 1 is back)", "Redo Mark \"Buy milk\" Done (items 2 and 3 are back; item 1 changed)"])
        #expect(repl.session.list.lines == ["1. [x] Buy milk", "2. [ ] Buy eggs", "3. [ ] Bread"])
    }

    @Test func beginAndEndMakeOneStepOfSeveralLines() {
        let (repl, console) = Self.make()
        _ = Self.run("add Buy milk", repl, console)
        #expect(Self.run("begin Shopping", repl, console) == ["Group \"Shopping\" started; type end to finish it"])
        _ = Self.run("add Buy eggs", repl, console)
        _ = Self.run("add Bread", repl, console)
        _ = Self.run("done 1", repl, console)
        #expect(Self.run("end", repl, console) == ["Group ended"])
        #expect(Self.run("undo", repl, console) == ["Undo Shopping (items 2 and 3 are gone; item 1 changed)"])
        #expect(repl.session.list.lines == ["1. [ ] Buy milk"])
        #expect(Self.run("redo", repl, console) == ["Redo Shopping (items 2 and 3 are back; item 1 changed)"])
        #expect(repl.session.list.count == 3)
        #expect(console.errors.isEmpty)
    }

    /// Regression: an edit that finds nothing to change (`done 1` on a done item) left an
    /// empty, unnamed step, which `undo` then "undid"; and as the first edit of a `begin`
    /// group it opened the group on the manager, whose empty close cleared redo.
    @Test(arguments: [["done 1"], ["done 1; undone 2"], ["begin", "done 1", "end"], ["begin Week", "done 1; done 1", "end"]])
    func editsThatChangeNothingLeaveNoStepAndKeepRedo(lines: [String]) {
        let (repl, console) = Self.make()
        _ = Self.run("add Buy milk; add Buy eggs", repl, console)
        _ = Self.run("done 1", repl, console)
        _ = Self.run("add Bread", repl, console)
        _ = Self.run("undo", repl, console)
        let history = repl.session.historySteps
        for line in lines { _ = Self.run(line, repl, console) }
        #expect(repl.session.historySteps == history)
        #expect(Self.run("redo", repl, console) == ["Redo Add \"Bread\" (item 3 is back)"])
        #expect(Self.run("undo; undo", repl, console).last == "Undo Mark \"Buy milk\" Done (item 1 changed)")
    }

    @Test func aNewEditClearsRedo() {
        let (repl, console) = Self.make()
        _ = Self.run("add Buy milk", repl, console)
        _ = Self.run("undo", repl, console)
        #expect(repl.session.canRedo)
        _ = Self.run("add Buy eggs", repl, console)
        #expect(!repl.session.canRedo)
        #expect(Self.run("redo", repl, console) == ["Nothing to redo"])
    }

    // MARK: Bad input

    static let badInput: [(setup: [String], line: String, error: String)] = [
        ([], "frob", "error: unknown command \"frob\" (type help for the list of commands)"),
        ([], "add", "error: missing <title> (usage: add <title>)"),
        ([], "add   ", "error: missing <title> (usage: add <title>)"),
        ([], "edit 1", "error: missing <title> (usage: edit <n> <title>)"),
        ([], "done", "error: missing <n> (usage: done <n>)"),
        ([], "rm x", "error: \"x\" is not an item number (items are numbered from 1) (usage: rm <n>)"),
        ([], "done 0", "error: \"0\" is not an item number (items are numbered from 1) (usage: done <n>)"),
        ([], "done 3", "error: no item 3; the list has 2 items (usage: done <n>)"),
        ([], "rm 9", "error: no item 9; the list has 2 items (usage: rm <n>)"),
        ([], "mv 1 3", "error: no item 3; the list has 2 items (usage: mv <n> <m>)"),
        ([], "edit 5 New", "error: no item 5; the list has 2 items (usage: edit <n> <title>)"),
        ([], "priority 1 urgent", "error: \"urgent\" is not a priority (usage: priority <n> low|medium|high)"),
        ([], "list all", "error: unexpected \"all\" after list (usage: list)"),
        ([], "end", "error: \"end\" without \"begin\" (usage: begin [name], then end)"),
        (["begin"], "undo", "error: cannot undo while a group is open; type \"end\" first"),
        (["begin", "done 1"], "redo", "error: cannot redo while a group is open; type \"end\" first"),
        ([], "add Bread; frob", "error: unknown command \"frob\" (type help for the list of commands)"),
    ]

    @Test(arguments: badInput)
    func badInputPrintsOneLineAndChangesNothing(setup: [String], line: String, error: String) {
        let (repl, console) = Self.make([TODOItem(title: "Buy milk"), TODOItem(title: "Buy eggs")])
        _ = Self.run("rm 2", repl, console)
        _ = Self.run("undo", repl, console)
        for setupLine in setup {
            _ = Self.run(setupLine, repl, console)
        }
        let list = repl.session.list
        let history = repl.session.history
        let groupOpen = repl.session.isGroupOpen

        #expect(Self.run(line, repl, console) == [])
        #expect(console.errorLines == [error])
        #expect(repl.hadErrors)
        #expect(repl.session.list == list)
        #expect(repl.session.history == history)
        #expect(repl.session.isGroupOpen == groupOpen)

        // The session goes on.
        #expect(Self.run("add Bread", repl, console) == ["\(list.count + 1). [ ] Bread"])
    }

    @Test func itemNumbersOnALineReferToTheListAsShownBeforeIt() {
        let (repl, console) = Self.make()
        _ = Self.run("add a; add b; add c; add d", repl, console)
        #expect(Self.run("rm 1; rm 2", repl, console) == ["Removed \"a\"", "Removed \"b\""])
        #expect(repl.session.list.items.map(\.title) == ["c", "d"])
        #expect(Self.run("undo", repl, console) == ["Undo Remove \"b\" (items 1 and 2 are back)"])
        #expect(repl.session.list.items.map(\.title) == ["a", "b", "c", "d"])
        #expect(Self.run("done 4; rm 1; done 2", repl, console) == ["4. [x] d", "Removed \"a\"", "1. [x] b"])
        #expect(console.errorLines.isEmpty)
    }

    /// Numbers follow their items through every change the line makes: moves, insertions,
    /// removals, and an undo that brings a removed item back.
    @Test(arguments: [
        ("mv 3 1; done 3", ["c", "a", "b", "d"], "1. [x] c"),
        ("add e; mv 1 5; done 1", ["b", "c", "d", "e", "a"], "5. [x] a"),
        ("rm 2; done 3", ["a", "c", "d"], "2. [x] c"),
        ("rm 1; undo; done 1", ["a", "b", "c", "d"], "1. [x] a"),
    ])
    func itemNumbersFollowTheirItemsThroughTheLine(line: String, titles: [String], last: String) {
        let (repl, console) = Self.make()
        _ = Self.run("add a; add b; add c; add d", repl, console)
        #expect(Self.run(line, repl, console).last == last)
        #expect(repl.session.list.items.map(\.title) == titles)
        #expect(console.errorLines.isEmpty)
    }

    @Test func aNumberRemovedEarlierOnTheLineFailsTheLine() {
        let (repl, console) = Self.make()
        _ = Self.run("add a; add b", repl, console)
        #expect(Self.run("rm 1; done 1", repl, console) == [])
        #expect(console.errorLines.first == "error: item 1 was removed earlier on this line (numbers refer to the list as it was before the line) (usage: done <n>)")
        #expect(repl.session.list.items.map(\.title) == ["a", "b"])
    }

    @Test func aLineOfEditsWithAFailingCommandAppliesNothing() {
        let (repl, console) = Self.make()
        #expect(Self.run("add Bread; undo", repl, console) == ["1. [ ] Bread", "Undo Add \"Bread\" (item 1 is gone)"])
        let history = repl.session.history
        #expect(Self.run("add Buy milk; rm 5; add Buy eggs", repl, console) == [])
        #expect(console.errorLines == [
            "error: no item 5; the list is empty (usage: rm <n>)",   // as shown before the line
            "error: the line was not applied: none of its commands changed the list",
        ])
        #expect(repl.session.list.isEmpty)
        #expect(repl.session.history == history)
        #expect(repl.session.takeChanges().isEmpty)
        // The redo step that was there before the line is still there.
        #expect(Self.run("redo", repl, console) == ["Redo Add \"Bread\" (item 1 is back)"])
        #expect(Self.run("undo", repl, console) == ["Undo Add \"Bread\" (item 1 is gone)"])
    }

    @Test func aLineWithUndoStopsAtAFailingCommandAndKeepsWhatRanBefore() {
        let (repl, console) = Self.make()
        #expect(Self.run("add Buy milk; undo; rm 5", repl, console) == ["1. [ ] Buy milk", "Undo Add \"Buy milk\" (item 1 is gone)"])
        #expect(console.errorLines == ["error: no item 5; the list is empty (usage: rm <n>)"])
        #expect(repl.session.list.isEmpty)
        #expect(Self.run("redo", repl, console) == ["Redo Add \"Buy milk\" (item 1 is back)"])
    }

    // MARK: Driving the loop

    @Test func quitStopsReadingAndTheRestOfItsLine() {
        let console = ScriptedConsole(["add Buy milk; quit; add Buy eggs", "add Bread"])
        let repl = REPL(session: EditingSession(), store: nil, console: console.console)
        #expect(repl.run() == 0)
        #expect(repl.session.list.items.map(\.title) == ["Buy milk"])
    }

    @Test func theEndOfInputQuitsAndTheStatusReportsErrors() {
        let console = ScriptedConsole(["add Buy milk", "frob", "list"])
        let repl = REPL(session: EditingSession(), store: nil, console: console.console)
        #expect(repl.run() == 1)
        #expect(console.outputLines == ["1. [ ] Buy milk", "1. [ ] Buy milk"])
        #expect(console.errorLines == ["error: unknown command \"frob\" (type help for the list of commands)"])
    }

    @Test func interactiveSessionsGreetAndPromptWithTheItemCount() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let console = ScriptedConsole(["add Buy milk", "begin", "add Buy eggs", "end"], isInteractive: true)
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        repl.database?.person = "alice"
        #expect(repl.run() == 0)
        #expect(console.output == """
            UndoKit TODO: using \(store.fileURL.path), as alice
            Type "help" for commands; undo and redo take back alice's own steps, those of earlier
            sessions too; "history" shows everyone's steps, and "goto" returns to any.
            todo (0 items)> 1. [ ] Buy milk
            todo (1 item)> Group started; type end to finish it
            todo (1 item, group open)> 2. [ ] Buy eggs
            todo (2 items, group open)> Group ended
            todo (2 items)> \n
            """)
        #expect(console.errors.isEmpty)
    }

    @Test func scriptsGetNoPromptAndTheFileIsNamedOnStandardError() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let console = ScriptedConsole(["add Buy milk", "list"])
        #expect(REPL(session: EditingSession(), store: store, console: console.console).run() == 0)
        #expect(console.output == "1. [ ] Buy milk\n1. [ ] Buy milk\n")
        #expect(console.errors == "todo: using \(store.fileURL.path)\n")
    }

    // MARK: Saving

    @Test func everyChangeIncludingUndoAndRedoIsSavedBeforeTheNextLine() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let (repl, console) = Self.make(store: store)
        for (line, titles) in [
            ("add Buy milk", ["Buy milk"]),
            ("add Buy eggs", ["Buy milk", "Buy eggs"]),
            ("undo", ["Buy milk"]),
            ("redo", ["Buy milk", "Buy eggs"]),
            ("mv 2 1", ["Buy eggs", "Buy milk"]),
            ("rm 1; rm 2", []),   // numbers refer to the list as shown before the line
            ("undo", ["Buy eggs", "Buy milk"]),
        ] {
            _ = Self.run(line, repl, console)
            #expect(try store.load().list.items.map(\.title) == titles, "after \(line)")
            #expect(try store.load().list == repl.session.list)
        }
        #expect(console.errors.isEmpty)
    }

    @Test func linesThatChangeNothingDoNotWrite() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let (repl, console) = Self.make(store: store)
        _ = Self.run("list", repl, console)
        _ = Self.run("undo", repl, console)
        _ = Self.run("frob", repl, console)
        #expect(try directory.contents().isEmpty)
    }

    /// A line that cannot be saved is not applied: the session stays the list on disk, says
    /// why, shows nothing as done; once the location can be written, lines are saved again.
    @Test func aLineThatCannotBeSavedIsRolledBackAndALaterOneIsSaved() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("data")
        try Data("a file where the directory should be".utf8).write(to: blocker)
        let store = TODOStore(fileURL: blocker.appendingPathComponent("todo.db"))
        let (repl, console) = Self.make(store: store)

        #expect(Self.run("add Buy milk", repl, console) == [])
        #expect(console.errorLines == ["error: cannot save \(store.fileURL.path): cannot create the directory \(blocker.path); nothing was changed"])
        #expect(repl.session.list.isEmpty && !repl.session.canUndo)
        #expect(Self.run("list", repl, console) == ["(empty)"])

        try FileManager.default.removeItem(at: blocker)
        #expect(Self.run("add Buy eggs", repl, console) == ["1. [ ] Buy eggs"])
        #expect(Self.run("done 1", repl, console) == ["1. [x] Buy eggs"])
        #expect(console.errors.isEmpty)
        #expect(try store.load().list == repl.session.list)
        #expect(Self.run("undo", repl, console) == ["Undo Mark \"Buy eggs\" Done (item 1 changed)"])
        #expect(try store.load().list.items.map(\.isDone) == [false])
    }

    /// The exit status says how the run ended: a script that had a failure exits with 1, so
    /// that whatever runs it can tell; an interactive session, whose errors were shown as they
    /// happened, with 0 when it ends with `quit` or the end of input.
    @Test(arguments: [
        (["add Buy milk", "frob", "list"], false, 1),
        (["add Buy milk", "list"], false, 0),
        (["add Buy milk", "frob", "rm 7", "quit"], true, 0),
        (["frob"], true, 0),
    ] as [([String], Bool, Int32)])
    func theExitStatusSaysHowTheRunEnded(lines: [String], interactive: Bool, status: Int32) throws {
        let directory = try TemporaryDirectory()
        let console = ScriptedConsole(lines, isInteractive: interactive)
        let repl = REPL(session: EditingSession(), store: TODOStore(fileURL: directory.file("todo.db")), console: console.console)
        #expect(repl.run() == status)
    }

    @Test func aScriptWhoseChangeCannotBeSavedExitsWithOne() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("data")
        try Data().write(to: blocker)
        let store = TODOStore(fileURL: blocker.appendingPathComponent("todo.db"))
        let console = ScriptedConsole(["add Buy milk"])
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        #expect(repl.run() == 1)
        #expect(console.output == "")
        #expect(console.errorLines.last?.hasSuffix("; nothing was changed") == true)
    }
}
