import Foundation
import Testing
@testable import TODOKit

/// The findings of issue 35, tried as a new user would with two sessions side by side and
/// one-shots, each a test: stale numbers, whose step is whose, `undo!` and `drop`, restarted
/// sessions, a readable `history`.
@Suite struct REPLHistoryTests {
    static let run = REPLSavingTests.run

    static func twoSessions() throws -> (TemporaryDirectory, TODOStore, mine: (REPL, ScriptedConsole), theirs: (REPL, ScriptedConsole)) {
        try REPLOwnStepsTests.twoSessions()
    }

    // MARK: Stale references

    /// A listed, B moved items, A's `rm 2` removed a different item than the one A saw as 2.
    @Test func aNumberTypedAfterAnotherSessionMovedItemsActsOnTheItemThePersonSaw() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add One; add Two; add Three", mine, myConsole)
        _ = Self.run("list", theirs, theirConsole)
        _ = Self.run("mv 3 1", theirs, theirConsole)
        let removed = Self.run("rm 2", mine, myConsole)
        #expect(removed.output == ["Removed \"Two\""], "the item alice saw as 2, now item 3")
        #expect(try store.load().list.items.map(\.title) == ["Three", "One"])
        // Her next line sees the list as this one left it.
        #expect(Self.run("rm 2", mine, myConsole).output == ["Removed \"One\""])
    }

    /// An item the person saw was removed elsewhere: the line stops, saying by whom.
    @Test func aNumberOfAnItemRemovedElsewhereStopsTheLineAndSaysWho() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add One; add Two", mine, myConsole)
        _ = Self.run("rm 2", theirs, theirConsole)
        let refused = Self.run("done 2; done 1", mine, myConsole)
        #expect(refused.output == ["1. [ ] One"], "the list now, to retype with its numbers")
        #expect(refused.errors.contains(
            "error: item 2 \"Two\", as you last saw the list, was removed by bob at 08:00; nothing changed; the list now, "
                + "to retype with its numbers:"))
        #expect(try store.load().list.items.map(\.isDone) == [false], "the line applies completely or not at all")
    }

    /// `history` step numbers shifted when another session added a step, so `goto 16` landed
    /// elsewhere: a step's number is its row id, which never changes, and trimming only drops
    /// the oldest.
    @Test func stepNumbersNeverChangeWhenOthersAddStepsOrOldOnesAreTrimmed() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        let (mine, myConsole) = REPLSavingTests.make(TODOStore(fileURL: url, options: TODOStore.Options(historyLimit: 3)), as: "alice")
        let (theirs, theirConsole) = REPLSavingTests.make(TODOStore(fileURL: url, options: TODOStore.Options(historyLimit: 3)), as: "bob")
        _ = Self.run("add a", mine, myConsole)
        _ = Self.run("add b", mine, myConsole)
        let numbered = try TODOStore(fileURL: url).savedSteps().map { "\($0.id) \($0.title)" }
        #expect(numbered == ["1 Add \"a\"", "2 Add \"b\""])
        _ = Self.run("add c", theirs, theirConsole)
        _ = Self.run("add d", theirs, theirConsole)
        #expect(try TODOStore(fileURL: url).savedSteps().map { "\($0.id) \($0.title)" } == ["2 Add \"b\"", "3 Add \"c\"", "4 Add \"d\""])
        #expect(Self.run("goto 2", mine, myConsole).output.first == "At step 2 (reverted what 2 steps changed since) (items 3 and 4 are gone)")
        #expect(try TODOStore(fileURL: url).load().list.items.map(\.title) == ["a", "b"])
        let history = Self.run("history", mine, myConsole).output
        #expect(history.dropFirst().first == "   0  before step 3: older steps are not kept (TODO_HISTORY_LIMIT=3)",
                "after 2,000 adds, (start) meant a list of 1,903 items")
        #expect(Self.run("goto 1", mine, myConsole).errors == [
            "error: no step 1; history shows steps 1 to 5 (0: before the first step) (usage: goto <step>)",
        ])
    }

    // MARK: Whose step is whose

    /// `undo!` restored the whole item: undoing a priority change also reverted another
    /// person's title edit. It sets back only the fields its step changed.
    @Test func undoAnywayRevertsOnlyTheFieldsItsStepChanged() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add Milk", mine, myConsole)
        _ = Self.run("priority 1 high", mine, myConsole)
        _ = Self.run("list", theirs, theirConsole)
        _ = Self.run("edit 1 Oat milk", theirs, theirConsole)
        let refused = Self.run("undo", mine, myConsole).errors.last
        #expect(refused == "error: cannot undo Set Priority of \"Milk\": item 1 \"Oat milk\" was edited by bob at 08:00; nothing changed. "
            + REPLOwnStepsTests.anywayOrDrop)
        #expect(Self.run("undo!", mine, myConsole).output == ["Undo Set Priority of \"Milk\" (item 1 changed)"])
        let item = try #require(try store.load().list.items.first)
        #expect(item.title == "Oat milk", "bob's title stays")
        #expect(item.priority == .medium, "alice's priority change is undone")
    }

    /// A restarted session could not undo its earlier edits while the banner said "Undo
    /// history is saved with the list": a person's steps come back with the next session.
    @Test func aRestartedSessionUndoesItsPersonsEarlierStepsAndNotOthers() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add Milk", mine, myConsole)
        _ = Self.run("add Eggs; undo", mine, myConsole)
        _ = Self.run("add Bread", theirs, theirConsole)
        let (restarted, console) = REPLSavingTests.make(store, as: "alice")
        #expect(Self.run("redo", restarted, console).output == ["Redo Add \"Eggs\" (item 2 is back)"], "her undone step, to redo")
        #expect(Self.run("undo 2", restarted, console).output == ["Undo Add \"Eggs\"", "Undo Add \"Milk\" (items 1 and 2 are gone)"])
        #expect(Self.run("undo", restarted, console).output == [REPLSavingTests.nothingOfMine], "bob's step is not hers")
        #expect(try store.load().list.items.map(\.title) == ["Bread"])
    }

    /// Two terminals of one person share the steps each found when it started; the steps one
    /// makes after that are its own, and an undo in one of a step both hold is, for the
    /// other, a change made elsewhere: refused, saying it was you in another todo.
    @Test func twoTerminalsOfOnePersonShareTheStepsMadeBeforeEitherStarted() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let (first, firstConsole) = REPLSavingTests.make(store, as: "alice")
        _ = Self.run("add Milk", first, firstConsole)
        let (second, secondConsole) = REPLSavingTests.make(store, as: "alice")
        _ = Self.run("list", second, secondConsole)
        _ = Self.run("add Eggs", first, firstConsole)
        #expect(Self.run("undo", first, firstConsole).output == ["Undo Add \"Eggs\" (item 2 is gone)"])
        #expect(Self.run("undo", first, firstConsole).output == ["Undo Add \"Milk\" (item 1 is gone)"])
        let refused = Self.run("undo", second, secondConsole).errors.last
        #expect(refused?.hasPrefix("error: cannot undo Add \"Milk\": \"Milk\" was removed by you (alice) in another todo at ") == true,
                "\(refused ?? "")")
    }

    // MARK: A readable history

    /// A one-shot `history` shows the newest steps, saying how many it leaves out; a
    /// one-shot `goto` says what changed, not the whole list.
    @Test func aOneShotHistoryIsBoundedAndItsGotoPrintsNoList() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let (session, console) = REPLSavingTests.make(store)
        for number in 1...30 {
            _ = Self.run("add \(number)", session, console)
        }
        let oneShotConsole = ScriptedConsole()
        let oneShot = REPL(session: EditingSession(), store: store, console: oneShotConsole.console)
        oneShot.ownStepsOnly = false
        oneShot.reportsOutsideChanges = false
        let history = Self.run("history", oneShot, oneShotConsole).output
        #expect(history.count == 2 + REPL.oneShotHistoryLength)
        #expect(history[1] == "   …  10 older steps (a session's \"history\" shows them all)")
        #expect(Self.run("goto 28", oneShot, oneShotConsole).output == ["At step 28 (reverted what 2 steps changed since) (items 29 and 30 are gone)"])
        #expect(try store.load().list.count == 28)
    }

    /// A database of today's schema (version 2) opens: its list is kept, its tree of steps is
    /// dropped, said once.
    @Test func aVersion2DatabaseKeepsItsListAndDropsItsTreeWithOneNotice() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let id = "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10"
        try SQLiteConnection(path: store.fileURL.path, creating: true).executeScript("""
            PRAGMA journal_mode = WAL;
            \(TODODatabase.migrations[0])
            \(TODODatabase.migrations[1])
            INSERT INTO item (id, position, title, detail, is_done, priority) VALUES ('\(id)', 0, 'Buy milk', '', 0, 'medium');
            INSERT INTO step (id, parent, place, name, made_by, saved_in, body) VALUES (1, NULL, 'undo', 'Add "Buy milk"', 'x', 1, '{}');
            UPDATE list_state SET revision = 1, history_revision = 1, current_step = 1;
            PRAGMA application_id = \(0x544F_444F); PRAGMA user_version = 2;
            """)
        let (repl, console) = REPLSavingTests.make(store)
        let first = Self.run("list", repl, console)
        #expect(first.output == ["1. [ ] Buy milk"])
        #expect(first.errors == [
            "todo: upgraded \(store.fileURL.path) from version 2 to \(TODODatabase.schemaVersion)",
            "todo: the list is kept; its undo step from an earlier todo was dropped: it was saved as a tree that does not "
                + "say who made each step or when, which the history now shows",
        ])
        #expect(Self.run("add Eggs", repl, console).errors == [], "said once")
        let (next, nextConsole) = REPLSavingTests.make(store)
        #expect(Self.run("list", next, nextConsole).errors == [], "and never again")
        #expect(try store.load().list.items.map(\.title) == ["Buy milk", "Eggs"])
    }

    /// A database of version 3 (before steps could be marked dropped) opens: every step is
    /// kept, none dropped, and its person's next session undoes them.
    @Test func aVersion3DatabaseKeepsEveryStepUndroppedWithOneNotice() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let id = "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10"
        try SQLiteConnection(path: store.fileURL.path, creating: true).executeScript("""
            PRAGMA journal_mode = WAL;
            \(TODODatabase.migrations[0])
            \(TODODatabase.migrations[1])
            \(TODODatabase.migrations[2])
            INSERT INTO item (id, position, title, detail, is_done, priority, changed_in) VALUES ('\(id)', 0, 'Buy milk', '', 0, 'medium', 1);
            INSERT INTO step (id, kind, target, name, person, origin, made_at, revision) VALUES (1, 'edit', NULL, 'Add "Buy milk"', 'alice', 'x', 1800000000, 1);
            INSERT INTO step_change (revision, number, step, op, item, position, title, detail, is_done, priority) VALUES (1, 0, 1, 'insert', '\(id)', 0, 'Buy milk', '', 0, 'medium');
            UPDATE list_state SET revision = 1;
            PRAGMA application_id = \(0x544F_444F); PRAGMA user_version = 3;
            """)
        let (repl, console) = REPLSavingTests.make(store, as: "alice")
        let first = Self.run("list", repl, console)
        #expect(first.output == ["1. [ ] Buy milk"])
        #expect(first.errors == ["todo: upgraded \(store.fileURL.path) from version 3 to \(TODODatabase.schemaVersion)"])
        #expect(try store.savedStepTitles() == ["Add \"Buy milk\""], "the step is kept")
        #expect(Self.run("undo", repl, console).output == ["Undo Add \"Buy milk\" (item 1 is gone)"], "and not dropped")
    }

    // MARK: Dropped steps

    /// A session's `drop` was forgotten when the person quit: their next session offered the
    /// dropped step again, and refused it as stale. It stays dropped.
    @Test func aDroppedUndoStepStaysDroppedInThePersonsNextSession() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add Eggs", mine, myConsole)
        _ = Self.run("add Milk", mine, myConsole)
        _ = Self.run("list", theirs, theirConsole)
        _ = Self.run("edit 2 Oat milk", theirs, theirConsole)
        #expect(Self.run("undo", mine, myConsole).errors.last?.hasPrefix("error: cannot undo Add \"Milk\"") == true)
        #expect(Self.run("drop", mine, myConsole).output.first?.hasPrefix("Dropped Add \"Milk\"") == true)

        let (restarted, console) = REPLSavingTests.make(store, as: "alice")
        let undo = Self.run("undo", restarted, console)
        #expect(undo.errors == [], "the dropped step is not offered again")
        #expect(undo.output == ["Undo Add \"Eggs\" (item 1 is gone)"], "undo goes on before it")
        #expect(try store.load().list.items.map(\.title) == ["Oat milk"])
        #expect(try store.savedSteps().filter(\.isDropped).map(\.name) == ["Add \"Milk\""], "only the step dropped")
    }

    /// `drop redo` was forgotten too: the next session offered the dropped redo again.
    @Test func aDroppedRedoStepStaysDroppedInThePersonsNextSession() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("add Milk", mine, myConsole)
        _ = Self.run("edit 1 Oat milk", mine, myConsole)
        _ = Self.run("undo", mine, myConsole)
        _ = Self.run("list", theirs, theirConsole)
        _ = Self.run("edit 1 Soy milk", theirs, theirConsole)
        #expect(Self.run("redo", mine, myConsole).errors.last?.hasPrefix("error: cannot redo Edit \"Oat milk\"") == true)
        #expect(Self.run("drop redo", mine, myConsole).output == ["Dropped Edit \"Oat milk\" from redo: it will not be redone"])

        let (restarted, console) = REPLSavingTests.make(store, as: "alice")
        let redo = Self.run("redo", restarted, console)
        #expect(redo.errors == [], "the dropped step is not offered again")
        #expect(redo.output == [REPLOwnStepsTests.nothingToRedo])
        #expect(try store.load().list.items.map(\.title) == ["Soy milk"])
    }
}
