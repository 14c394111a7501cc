import Foundation
import Testing
@testable import TODOKit

/// Two REPLs on one file stand for two `todo` sessions: each undoes its own steps; a step whose
/// item the other changed since is refused, with what happened, and nothing changes, until it
/// is undone anyway or dropped; `history` and `goto` are the list's, shared.
@Suite struct REPLOwnStepsTests {
    /// Two sessions on one new file, whose clocks say 2027-01-15 08:00 UTC.
    static func twoSessions() throws -> (TemporaryDirectory, TODOStore, mine: (REPL, ScriptedConsole), theirs: (REPL, ScriptedConsole)) {
        let (directory, store, mine, theirs) = try REPLSavingTests.twoSessions()
        for repl in [mine.0, theirs.0] {
            repl.session.clock = { Date(timeIntervalSince1970: 1_800_000_000) }
            repl.timeZone = TimeZone(identifier: "UTC")!
        }
        return (directory, store, mine, theirs)
    }

    static let run = REPLSavingTests.run
    static let other = "another todo (pid \(getpid())) at 08:00"
    static let nothingToRedo = "Nothing to redo in this session (\"history\" shows every step of the list, which \"goto\" reaches)"

    @Test func aStepWhoseItemTheOtherSessionEditedIsRefusedAndNothingChanges() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add One; add Two", theirs, theirConsole)
        _ = Self.run("add From me", mine, myConsole)
        _ = Self.run("edit 3 From me, edited by them; done 3", theirs, theirConsole)
        let before = try store.load()

        let refused = Self.run("undo", mine, myConsole)
        #expect(refused.output == [])
        #expect(refused.errors == [
            REPLSavingTests.reloadedThree,
            "error: cannot undo Add \"From me\": item 3 \"From me, edited by them\" was edited and marked done by \(Self.other); "
                + "nothing changed. Type \"undo!\" to undo it anyway, or \"drop\" to forget that step",
        ])
        #expect(try store.load() == before, "the list and its revision")
        #expect(mine.session.list == before.list)
        #expect(try store.savedStepNames() == (undo: ["Add \"Two\"", "Add \"From me\"", "Mark \"From me, edited by them\" Done"], redo: []))

        #expect(Self.run("undo!", mine, myConsole) == (["Undo Add \"From me\" (item 3 is gone)"], []))
        #expect(try store.load().list.items.map(\.title) == ["One", "Two"])
        #expect(try store.savedStepNames().undo.last == "Undo Add \"From me\"", "a step of the list's history")

        // Their steps are on the item my undo removed: refused, and dropped.
        let theirRefusal = Self.run("undo", theirs, theirConsole).errors.last
        #expect(theirRefusal == "error: cannot undo Mark \"From me, edited by them\" Done: \"From me, edited by them\" was removed by "
            + "another todo at 08:00; nothing changed. Type \"undo!\" to undo it anyway, or \"drop\" to forget that step",
                "a removed item has no row to say who removed it")
        #expect(Self.run("drop", theirs, theirConsole).output == [
            "Dropped Mark \"From me, edited by them\" Done: its change stays, and undo goes on before it",
        ])
        #expect(Self.run("undo", theirs, theirConsole).output == ["Undo Add \"Two\" (items 1 and 2 are gone)"], "their first line")
        #expect(try store.load().list.items.isEmpty)
        #expect(Self.run("add x; drop", theirs, theirConsole).errors
            == ["error: cannot drop a step on a line that changed the list; type drop on a line of its own"])
    }

    @Test func aRedoWhoseItemTheOtherSessionChangedIsRefusedUntilRedoneAnywayOrDropped() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add Milk", mine, myConsole)
        _ = Self.run("done 1; priority 1 high", mine, myConsole)
        _ = Self.run("undo", mine, myConsole)
        _ = Self.run("detail 1 2 litres", theirs, theirConsole)
        #expect(Self.run("redo", mine, myConsole).errors.last == "error: cannot redo Set Priority of \"Milk\": item 1 \"Milk\" was given "
            + "another detail by \(Self.other); nothing changed. Type \"redo!\" to redo it anyway, or \"drop redo\" to forget that step")
        #expect(try store.load().list.items[0].detail == "2 litres")
        #expect(Self.run("redo!", mine, myConsole).output == ["Redo Set Priority of \"Milk\" (item 1 changed)"])
        #expect(try store.load().list.items == mine.session.list.items)
        #expect(mine.session.list.items[0].isDone && mine.session.list.items[0].detail == "", "over their detail, as recorded")
        _ = Self.run("undo", mine, myConsole)
        _ = Self.run("edit 1 Oat milk", theirs, theirConsole)
        #expect(Self.run("drop redo", mine, myConsole).output == ["Dropped Set Priority of \"Milk\" from redo: it will not be redone"])
        #expect(Self.run("redo", mine, myConsole).output == [Self.nothingToRedo])
    }

    /// `history` shows the list's steps, everyone's; `goto` moves through them, and a session's
    /// own steps on items the goto changed are refused, like any change from elsewhere.
    @Test func historyAndGotoAreTheListsSharedHistory() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add a", mine, myConsole)
        _ = Self.run("add b", theirs, theirConsole)
        _ = Self.run("add c", mine, myConsole)
        #expect(Self.run("history", theirs, theirConsole).output.dropFirst(2).map { String($0.dropFirst(26)) }
            == ["Add \"a\"", "Add \"b\"", "Add \"c\""])
        #expect(Self.run("goto 1", mine, myConsole).output == ["At step 1 (undid 2):", "1. [ ] a"])
        #expect(try store.load().list.items.map(\.title) == ["a"])
        #expect(Self.run("undo", mine, myConsole).errors == ["error: cannot undo Add \"c\": \"c\" was removed by your goto 1 at 08:00; "
            + "nothing changed. Type \"undo!\" to undo it anyway, or \"drop\" to forget that step"])
        #expect(Self.run("drop; undo", mine, myConsole).output == [
            "Dropped Add \"c\": its change stays, and undo goes on before it", "Undo Add \"a\" (item 1 is gone)",
        ])
        #expect(try store.load().list.items.isEmpty, "an undo a drop made possible is saved")
        #expect(try store.savedStepNames() == (undo: [], redo: ["Add \"a\"", "Add \"b\"", "Add \"c\""]),
                "my undo of a was a move back over its step, the current one after the goto")
        #expect(Self.run("goto 3", theirs, theirConsole).output == ["At step 3 (redid 3):", "1. [ ] a", "2. [ ] b", "3. [ ] c"])
        let history = Self.run("history", mine, myConsole).output
        #expect(history.dropFirst(2).map { String($0.prefix(1)) + " " + String($0.dropFirst(26)) }
            == ["  Add \"a\"", "  Add \"b\"", "* Add \"c\""])
        #expect(try store.load().list.items.map(\.title) == ["a", "b", "c"])
    }
}
