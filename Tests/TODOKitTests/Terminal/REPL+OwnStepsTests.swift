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
    /// Who changed what, as alice's session says it of bob's.
    static let other = "bob at 08:00"
    static let nothingToRedo = "Nothing to redo of yours (\"history\" shows every step of the list, which \"goto\" reaches)"
    static let anywayOrDrop = "Type \"undo!\" to undo it anyway, over those changes (only the fields the step changed), "
        + "or \"drop\" to forget that step"

    @Test func aStepWhoseItemTheOtherSessionEditedIsRefusedAndNothingChanges() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add One; add Two", theirs, theirConsole)
        _ = Self.run("add From me", mine, myConsole)
        #expect(Self.run("edit 3 From me, edited by them", theirs, theirConsole).errors == [
            REPLSavingTests.reloadedThree,
            "error: no item 3 in the list as you last saw it (2 items); it changed since, and nothing changed; the list now, "
                + "to retype with its numbers:",
        ], "a number they never saw")
        _ = Self.run("list", theirs, theirConsole)
        _ = Self.run("edit 3 From me, edited by them; done 3", theirs, theirConsole)
        let before = try store.load()

        let refused = Self.run("undo", mine, myConsole)
        #expect(refused.output == [])
        #expect(refused.errors == [
            REPLSavingTests.reloadedThree,
            "error: cannot undo Add \"From me\": item 3 \"From me, edited by them\" was edited and marked done by \(Self.other); "
                + "nothing changed. " + Self.anywayOrDrop,
        ])
        #expect(try store.load() == before, "the list and its revision")
        #expect(mine.session.list == before.list)
        #expect(try store.savedStepTitles() == ["Add \"Two\"", "Add \"From me\"", "Mark \"From me, edited by them\" Done"])

        #expect(Self.run("undo!", mine, myConsole) == (["Undo Add \"From me\" (item 3 is gone)"], []))
        #expect(try store.load().list.items.map(\.title) == ["One", "Two"])
        #expect(try store.savedStepTitles().last == "Undo Add \"From me\"", "a step of the list's history")

        // Their steps are on the item my undo removed: refused, saying who removed it, with no
        // undo! to offer (it could do nothing); dropped, saying what became of their change.
        let theirRefusal = Self.run("undo", theirs, theirConsole).errors.last
        #expect(theirRefusal == "error: cannot undo Mark \"From me, edited by them\" Done: \"From me, edited by them\" was removed by "
            + "alice at 08:00; nothing changed. Its item is gone, so undo can do nothing with it: type \"drop\" to forget that step")
        #expect(Self.run("drop", theirs, theirConsole).output == [
            "Dropped Mark \"From me, edited by them\" Done: undo goes on before it; since, "
                + "\"From me, edited by them\" was removed by alice at 08:00",
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
            + "another detail by \(Self.other); nothing changed. Type \"redo!\" to redo it anyway, over those changes (only the "
            + "fields the step changed), or \"drop redo\" to forget that step")
        #expect(try store.load().list.items[0].detail == "2 litres")
        #expect(Self.run("redo!", mine, myConsole).output == ["Redo Set Priority of \"Milk\" (item 1 changed)"])
        #expect(try store.load().list.items == mine.session.list.items)
        let milk = mine.session.list.items[0]
        #expect(milk.isDone && milk.priority == .high && milk.detail == "2 litres", "only the fields the step changed: their detail stays")
        _ = Self.run("undo", mine, myConsole)
        _ = Self.run("edit 1 Oat milk", theirs, theirConsole)
        #expect(Self.run("drop redo", mine, myConsole).output == ["Dropped Set Priority of \"Milk\" from redo: it will not be redone"])
        #expect(Self.run("redo", mine, myConsole).output == [Self.nothingToRedo])
    }

    /// `history` shows the list's steps, everyone's, who made each, in the order made; `goto`
    /// brings the list back to just after a step, as a step of its own, and a session's own
    /// steps on items the goto changed are refused, like any change from elsewhere.
    @Test func historyAndGotoAreTheListsSharedHistory() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add a", mine, myConsole)
        _ = Self.run("add b", theirs, theirConsole)
        _ = Self.run("add c", mine, myConsole)
        #expect(Self.run("history", theirs, theirConsole).output == [
            "History, oldest first (\"goto <step>\" takes the list to just after it):",
            "   0  the start",
            "   1  2027-01-15 08:00  alice  Add \"a\"",
            "   2  2027-01-15 08:00  bob    Add \"b\"",
            "   3  2027-01-15 08:00  alice  Add \"c\"",
        ])
        #expect(Self.run("goto 1", mine, myConsole).output == ["At step 1 (reverted what 2 steps changed since) (items 2 and 3 are gone)", "1. [ ] a"])
        #expect(try store.load().list.items.map(\.title) == ["a"])
        #expect(Self.run("undo", mine, myConsole).errors == ["error: cannot undo Add \"c\": \"c\" was removed by your goto 1 at 08:00; "
            + "nothing changed. Its item is gone, so undo can do nothing with it: type \"drop\" to forget that step"])
        #expect(Self.run("drop; undo", mine, myConsole).output == [
            "Dropped Add \"c\": undo goes on before it; since, \"c\" was removed by your goto 1 at 08:00", "Undo Add \"a\" (item 1 is gone)",
        ])
        #expect(try store.load().list.items.isEmpty, "an undo a drop made possible is saved")
        #expect(try store.savedStepTitles() == ["Add \"a\"", "Add \"b\"", "Add \"c\"", "Go to step 1", "Undo Add \"a\""])
        #expect(Self.run("goto 3", theirs, theirConsole).output == [
            "At step 3 (reverted what 2 steps changed since) (items 1, 2 and 3 are back)", "1. [ ] a", "2. [ ] b", "3. [ ] c",
        ])
        let history = Self.run("history", mine, myConsole).output
        #expect(Array(history.dropFirst(2)) == [
            "   1  2027-01-15 08:00  alice  Add \"a\"  (undone by step 5)",
            "   2  2027-01-15 08:00  bob    Add \"b\"",
            "   3  2027-01-15 08:00  alice  Add \"c\"",
            "   4  2027-01-15 08:00  alice  Go to step 1",
            "   5  2027-01-15 08:00  alice  Undo Add \"a\"  (step 1)",
            "   6  2027-01-15 08:00  bob    Go to step 3",
        ])
        #expect(try store.load().list.items.map(\.title) == ["a", "b", "c"])
    }
}
