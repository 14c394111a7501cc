import Foundation
import Testing
@testable import TODOKit

/// What a REPL watches while it waits for a line, with two REPLs on one SQLite file (two
/// connections: what one commits, the other's `data_version` sees, as across processes).
@Suite struct REPLWatchingTests {
    static let reloadedOne = "todo: the list changed on disk (another todo saved it); reloaded: 1 item"

    /// A console that reads `lines` in turn, each through `readLineWatching`, after
    /// `beforeLine[index]`, given the watch, has run; and records what is written.
    final class Script {
        private(set) var output = ""
        private(set) var errors = ""
        private var lines: ArraySlice<String>
        private var beforeLine: ArraySlice<(ChangeWatch) -> Void>

        init(lines: [String], beforeLine: [(ChangeWatch) -> Void]) {
            self.lines = lines[...]
            self.beforeLine = beforeLine[...]
        }

        var console: Console {
            var console = Console(
                isInteractive: false,
                readLine: { nil },
                write: { [self] in output += $0 },
                writeError: { [self] in errors += $0 }
            )
            console.readLineWatching = { [self] watch in
                beforeLine.popFirst()?(watch)
                return lines.popFirst()
            }
            return console
        }

        var outputLines: [String] { output.split(separator: "\n").map(String.init) }
        var errorLines: [String] { errors.split(separator: "\n").map(String.init) }
    }

    static func oneShot(_ line: String, store: TODOStore, person: String) {
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        repl.database?.person = person
        repl.ownStepsOnly = false
        repl.reportsOutsideChanges = false
        repl.handle(line: line)
    }

    /// While the session waits, another connection removes the first item: the watch says
    /// so, showing it prints the line every line's catch-up prints and returns the prompt with
    /// the new count; the next line's numbers still mean the items as the person saw them.
    @Test func aChangeWhileWaitingIsShownAndNumbersKeepTheirMeaning() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        var prompts: [String] = []
        var answers: [Bool] = []
        let script = Script(
            lines: ["add a; add b", "done 2", "list"],
            beforeLine: [
                { watch in answers.append(watch.hasChanged()) },
                { watch in
                    answers.append(watch.hasChanged())
                    Self.oneShot("rm 1", store: store, person: "ben")
                    answers.append(watch.hasChanged())
                    answers.append(watch.hasChanged())   // asking does not take the change
                    prompts.append(watch.show())
                    answers.append(watch.hasChanged())   // showing does
                },
                { watch in answers.append(watch.hasChanged()) },
            ])
        let repl = REPL(session: EditingSession(), store: store, console: script.console)
        repl.database?.person = "ana"
        #expect(repl.run() == 0)
        #expect(answers == [false, false, true, true, false, false])
        #expect(prompts == ["todo (1 item)> "])
        #expect(script.errorLines.filter { $0.contains("changed on disk") } == [Self.reloadedOne], "said once, when it came")
        // "done 2" is b, as the person saw it listed, though b is item 1 now.
        #expect(script.outputLines == ["1. [ ] a", "2. [ ] b", "1. [x] b", "1. [x] b"])
        #expect(try store.load().list.items.map(\.title) == ["b"])
    }

    /// Another program damages the list while the session waits: the watch says so once,
    /// then asks no more until the next line, whose own catch-up says it again; the session
    /// goes on.
    @Test func aCatchUpThatFailsWhileWaitingIsSaidOnceALine() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let damage = "the list's revision is missing or out of range"
        var answers: [Bool] = []
        let script = Script(
            lines: ["add a", "list"],
            beforeLine: [
                { _ in },
                { watch in
                    try? store.execute("PRAGMA ignore_check_constraints = ON; UPDATE list_state SET revision = -3")
                    answers.append(watch.hasChanged())
                    _ = watch.show()
                    answers.append(watch.hasChanged())
                    answers.append(watch.hasChanged())
                },
            ])
        let repl = REPL(session: EditingSession(), store: store, console: script.console)
        #expect(repl.run() == 1, "a script whose list could not be read fails")
        #expect(answers == [true, false, false])
        let said = script.errorLines.filter { $0.contains(damage) }
        #expect(said.count == 2, "once while waiting, once at the line: \(script.errorLines)")
        #expect(script.outputLines == ["1. [ ] a"])
    }

    /// A list kept in memory only has nothing to watch.
    @Test func aSessionInMemoryWatchesNothing() {
        let repl = REPL(session: EditingSession(), store: nil, console: ScriptedConsole().console)
        #expect(repl.changeWatch == nil)
    }

    /// The watch is the database's seam: SQLite's has no descriptor and the seam's interval.
    @Test func theWatchIsTheDatabasesSeam() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let repl = REPL(session: EditingSession(), store: store, console: ScriptedConsole().console)
        let watch = try #require(repl.changeWatch)
        let database = try #require(repl.database)
        #expect(watch.descriptor() == database.changeDescriptor)
        #expect(watch.descriptor() == nil)
        #expect(watch.interval == database.changePollInterval)
    }
}
