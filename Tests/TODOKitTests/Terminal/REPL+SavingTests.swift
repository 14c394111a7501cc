import Foundation
import Testing
@testable import TODOKit

/// Two REPLs on one file in one process stand for two `todo` sessions: what one saves, the
/// other reloads before its next line.
@Suite struct REPLSavingTests {
    static func make(_ store: TODOStore, as person: String = "alice") -> (REPL, ScriptedConsole) {
        let console = ScriptedConsole()
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        repl.database?.person = person
        return (repl, console)
    }

    /// Two REPLs on one new file, alice's (mine) and bob's (theirs); the directory lives as
    /// long as the caller keeps it.
    static func twoSessions() throws -> (TemporaryDirectory, TODOStore, mine: (REPL, ScriptedConsole), theirs: (REPL, ScriptedConsole)) {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        return (directory, store, make(store, as: "alice"), make(store, as: "bob"))
    }

    static func run(_ line: String, _ repl: REPL, _ console: ScriptedConsole) -> (output: [String], errors: [String]) {
        console.clear()
        repl.handle(line: line)
        return (console.outputLines, console.errorLines)
    }

    static let reloadedOne = "todo: the list changed on disk (another todo saved it); reloaded: 1 item"
    static let reloadedTwo = "todo: the list changed on disk (another todo saved it); reloaded: 2 items"
    static let reloadedThree = "todo: the list changed on disk (another todo saved it); reloaded: 3 items"

    static let nothingOfMine = "Nothing to undo of yours (\"history\" shows every step of the list, which \"goto\" reaches)"

    @Test func anOutsideChangeIsReloadedAndEachSessionUndoesItsOwnSteps() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }

        _ = Self.run("add Buy milk", mine, myConsole)
        #expect(Self.run("add Buy eggs", theirs, theirConsole) == (["2. [ ] Buy eggs"], []),
                "a REPL's first line loads silently")
        #expect(Self.run("list", mine, myConsole) == (["1. [ ] Buy milk", "2. [ ] Buy eggs"], [Self.reloadedTwo]))
        #expect(Self.run("undo", mine, myConsole) == (["Undo Add \"Buy milk\" (item 1 is gone)"], []), "my step, not theirs")
        #expect(Self.run("undo; redo", mine, myConsole).output == [Self.nothingOfMine, "Redo Add \"Buy milk\" (item 1 is back)"])
        #expect(Self.run("list", theirs, theirConsole).errors == [Self.reloadedTwo])
        #expect(Self.run("undo", theirs, theirConsole) == (["Undo Add \"Buy eggs\" (item 2 is gone)"], []), "theirs, not mine")
        #expect(!mine.hadErrors, "reloading is not an error")
        #expect(try store.load().list.items.map(\.title) == ["Buy milk"])
        // The list's history: every undo and redo is a step of its own, in the order made.
        #expect(try store.savedStepTitles() == [
            "Add \"Buy milk\"", "Add \"Buy eggs\"", "Undo Add \"Buy milk\"", "Redo Add \"Buy milk\"", "Undo Add \"Buy eggs\"",
        ])
    }

    /// Regression: `redo` with nothing to redo in memory read only, so it took no lock; the
    /// reloaded history then made it redo, and the change was left unsaved. (One-shots, whose
    /// undo takes the newest step of the shared history.)
    @Test func aRedoThatOnlyTheReloadedHistoryMakesPossibleIsSaved() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        (mine.ownStepsOnly, theirs.ownStepsOnly) = (false, false)
        _ = Self.run("add Buy milk", mine, myConsole)
        #expect(Self.run("undo", theirs, theirConsole).output == ["Undo Add \"Buy milk\" (alice's step 1) (item 1 is gone)"])
        #expect(!mine.session.canRedo)
        #expect(Self.run("redo", mine, myConsole).output == ["Redo Add \"Buy milk\" (item 1 is back)"])
        #expect(!mine.hadErrors)
        #expect(try store.load().list.items.map(\.title) == ["Buy milk"])
        #expect(try store.savedStepTitles() == ["Add \"Buy milk\"", "Undo Add \"Buy milk\"", "Redo Add \"Buy milk\""])
    }

    /// A todo without history changes the list without steps: the others' steps stay, and
    /// their undo works, but goto cannot go back past that change.
    @Test func aTodoThatSavesNoHistoryLeavesAGapGotoDoesNotCross() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        let (mine, myConsole) = Self.make(TODOStore(fileURL: url))
        let (theirs, theirConsole) = Self.make(TODOStore(fileURL: url, options: TODOStore.Options(historyLimit: 0)))
        _ = Self.run("add Buy milk", mine, myConsole)
        _ = Self.run("add Buy eggs", theirs, theirConsole)
        #expect(Self.run("undo", mine, myConsole) == (["Undo Add \"Buy milk\" (item 1 is gone)"], [Self.reloadedTwo]))
        #expect(Self.run("add Bread; undo", mine, myConsole).output == ["2. [ ] Bread", "Undo Add \"Bread\" (item 2 is gone)"])
        #expect(try TODOStore(fileURL: url).savedStepTitles() == [
            "Add \"Buy milk\"", "Undo Add \"Buy milk\"", "Add \"Bread\"", "Undo Add \"Bread\"",
        ])
        #expect(Self.run("goto 1", mine, myConsole).errors == [
            "error: cannot go back to step 1: a todo that keeps no undo history changed the list since; nothing changed",
        ])
        #expect(try TODOStore(fileURL: url).load().list.items.map(\.title) == ["Buy eggs"])
    }

    @Test func aReloadIsSaidOnceAndLoadsNoHistory() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("list", mine, myConsole)
        _ = Self.run("add Buy milk", theirs, theirConsole)
        #expect(Self.run("list", mine, myConsole).errors == [Self.reloadedOne])
        #expect(Self.run("list", mine, myConsole).errors == [])
        #expect(try store.load().revision == 1)
    }

    /// My group goes on across their change, and undo takes all of it, and only it; the list's
    /// history holds it as one step, listed once.
    @Test func anOpenGroupStaysOpenAcrossAReloadAndIsUndoneAsOneStep() throws {
        let (directory, store, (mine, myConsole), (theirs, theirConsole)) = try Self.twoSessions()
        defer { withExtendedLifetime(directory) {} }
        _ = Self.run("begin Week", mine, myConsole)
        _ = Self.run("add Monday", mine, myConsole)
        _ = Self.run("add Tuesday", theirs, theirConsole)
        #expect(Self.run("add Wednesday", mine, myConsole) == (["3. [ ] Wednesday"], [Self.reloadedTwo]))
        #expect(mine.session.isGroupOpen)
        #expect(Self.run("add Thursday", mine, myConsole).output == ["4. [ ] Thursday"])
        #expect(try store.savedStepTitles() == ["Week", "Add \"Tuesday\""], "one step, which grows")
        #expect(Self.run("end", mine, myConsole).output == ["Group ended"])
        #expect(Self.run("undo", mine, myConsole).output == ["Undo Week (items 1, 3 and 4 are gone)"])
        #expect(mine.session.list.items.map(\.title) == ["Tuesday"])
        #expect(try store.load().list.items.map(\.title) == ["Tuesday"])
        #expect(Self.run("undo", mine, myConsole).output == [Self.nothingOfMine])
        #expect(try store.savedStepTitles() == ["Week", "Add \"Tuesday\"", "Undo Week"])
        #expect(try store.load().list.items.map(\.title) == ["Tuesday"])
    }

    @Test func aLineThatCannotBeSavedChangesNothingAndTheNextSeesTheOtherProcesssChange() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        let (theirs, theirConsole) = Self.make(TODOStore(fileURL: url))
        _ = Self.run("add Buy milk", theirs, theirConsole)
        let (mine, myConsole) = Self.make(TODOStore(fileURL: url, beforeCommit: { throw DiskFull() }))

        let failed = Self.run("rm 1", mine, myConsole)
        #expect(failed.output == [], "nothing it did is shown as done")
        #expect(failed.errors == ["error: cannot save \(url.path): No space left on device; nothing was changed"])
        #expect(mine.session.list.items.map(\.title) == ["Buy milk"])

        _ = Self.run("add Buy eggs", theirs, theirConsole)
        #expect(Self.run("list", mine, myConsole) == (["1. [ ] Buy milk", "2. [ ] Buy eggs"], [Self.reloadedTwo]))
        #expect(mine.hadErrors)
        #expect(try TODOStore(fileURL: url).load().list.items.map(\.title) == ["Buy milk", "Buy eggs"])
    }

    @Test func aLockedFileSkipsTheLineButReadingNeedsNoLock() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"), options: .init(lockTimeout: .zero))
        let (repl, console) = Self.make(store)
        _ = Self.run("add Buy milk", repl, console)
        let holder = TODODatabase(store: TODOStore(fileURL: store.fileURL))
        try holder.write { () throws(TODOStoreError) in
            let locked = Self.run("add Buy eggs; list", repl, console)
            #expect(locked.output == [])
            #expect(locked.errors == ["todo: \(store.fileURL.path) is busy: another todo has been changing it for 0 s; try again"])
            #expect(repl.hadErrors)
            #expect(Self.run("list", repl, console) == (["1. [ ] Buy milk"], []))
            #expect(Self.run("undo", repl, console).errors.count == 1, "undo changes the list, so it needs the lock")
        }
        #expect(Self.run("undo", repl, console) == (["Undo Add \"Buy milk\" (item 1 is gone)"], []))
        #expect(try store.load().list == [])
    }

    @Test func outputIsPrintedOnlyOnceTheLineIsSaved() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        var savedWhenPrinted: [Int] = []
        let console = Console(isInteractive: false, readLine: { nil }, write: { _ in
            savedWhenPrinted.append((try? store.load().list.count) ?? -1)
        }, writeError: { _ in })
        let repl = REPL(session: EditingSession(), store: store, console: console)
        repl.handle(line: "add Buy milk; add Buy eggs")
        repl.handle(line: "rm 1")
        #expect(savedWhenPrinted == [2, 1], "one write per line, after the commit")
    }
}

@Suite struct EditingSessionChangesTests {
    /// Random edits, undo, redo and groups: after every event, the changes taken from the
    /// session turn the previous list into the current one.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func takenChangesReplayTheSessionsList(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let session = EditingSession(list: [TODOItem(title: "Start")])
        var mirror = session.list
        var groups = 0
        for _ in 0..<400 {
            let count = session.list.count
            switch Int.random(in: 0..<10, using: &random) {
            case 0: try session.add("Item \(random.next() % 100)")
            case 1 where count > 0: try session.remove(at: Int.random(in: 0..<count, using: &random))
            case 2 where count > 0: try session.setDone(Bool.random(using: &random), at: Int.random(in: 0..<count, using: &random))
            case 3 where count > 0: try session.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            case 4 where groups == 0: try session.undo()
            case 5 where groups == 0: try session.redo()
            case 6: session.beginGroup(); groups += 1
            case 7 where groups > 0: try session.endGroup(); groups -= 1
            default: break
            }
            session.endEvent()
            for change in session.takeChanges() {
                #expect(mirror.canApply(change))
                mirror.apply(change)
            }
            #expect(mirror == session.list)
        }
    }

    @Test func replacingTheListDropsTheHistoryAndKeepsGroupsOpen() throws {
        let session = EditingSession()
        try session.add("Buy milk")
        session.endEvent()
        session.beginGroup(named: "Plan")
        try session.add("Buy eggs")
        session.endEvent()

        #expect(session.replaceList([TODOItem(title: "From disk")]))
        #expect(session.takeChanges() == [])
        #expect(!session.canUndo && !session.canRedo)
        #expect(session.historyNames == HistoryNames(undo: [], redo: []))
        #expect(session.isGroupOpen)
        try session.add("Bread")
        session.endEvent()
        try session.endGroup()
        session.endEvent()
        #expect(try session.undo() == "Undo Plan")
        #expect(session.list.items.map(\.title) == ["From disk"])
        #expect(session.replaceList([]), "the undone step could still be redone")
        #expect(!EditingSession().replaceList([]), "no history, nothing dropped")
    }
}

@Suite struct REPLPromptTests {
    @Test func thePromptCountsTheItemsOnDiskBeforeEachLine() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        let other = REPL(session: EditingSession(), store: TODOStore(fileURL: url),
                         console: ScriptedConsole().console)
        var output = ""
        var lines = ["list"][...]
        var reads = 0
        let console = Console(
            isInteractive: true,
            readLine: {
                reads += 1
                if reads == 1 {
                    // Another todo adds two items while this one waits at its prompt.
                    other.handle(line: "add one; add two")
                }
                return lines.popFirst()
            },
            write: { output += $0 },
            writeError: { _ in }
        )
        let repl = REPL(session: EditingSession(), store: TODOStore(fileURL: url), console: console)
        #expect(repl.run() == 0)
        // The first prompt came before the other todo's change; the second shows it.
        #expect(output.contains("todo (0 items)> "))
        #expect(output.contains("todo (2 items)> "))
        #expect(output.contains("1. [ ] one\n2. [ ] two\n"))
    }
}

@Suite struct REPLPromptAfterAFailedSaveTests {
    @Test func thePromptCountsTheItemsOnDiskAfterALineThatCannotBeSaved() throws {
        let directory = try TemporaryDirectory()
        let notADirectory = directory.file("plain-file")
        try Data().write(to: notADirectory)
        let store = TODOStore(fileURL: notADirectory.appendingPathComponent("todo.db"))
        let console = ScriptedConsole(["add hi", "undo"], isInteractive: true)
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        #expect(repl.run() == 0, "an interactive session that ends with the end of input")
        let prompts = console.output.matches(of: #/todo \([^)]*\)> /#).map { String($0.output) }
        // Before the line, after the failed save, after the undo that found nothing to undo.
        #expect(prompts == ["todo (0 items)> ", "todo (0 items)> ", "todo (0 items)> "])
        #expect(!console.output.contains("[ ] hi"))
        #expect(console.errorLines.first?.hasSuffix("; nothing was changed") == true)
        #expect(console.output.contains("Nothing to undo"))
    }
}
