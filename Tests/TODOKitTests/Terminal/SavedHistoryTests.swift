import Foundation
import Testing
import UndoKit
@testable import TODOKit

/// The undo history file's format, and restoring a history onto a list.
@Suite struct SavedHistoryTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// A session with every kind of edit, grouped, some undone.
    static func busySession() throws -> EditingSession {
        let session = EditingSession()
        session.clock = { date }
        try session.add("Buy milk")
        try session.add("Pay rent", priority: .high)
        session.endEvent()
        session.beginGroup(named: "Tidy")
        try session.setTitle("Buy oat milk", at: 0)
        try session.setDetail("2 litres", at: 0)
        session.endEvent()
        try session.setPriority(.low, at: 1)
        try session.setDone(true, at: 1)
        try session.endGroup()
        session.endEvent()
        try session.add("Café “naïve” \\ 😀")
        try session.move(from: 2, to: 0)
        session.endEvent()
        try session.remove(at: 1)
        session.endEvent()
        try session.undo()
        return session
    }

    /// A REPL on `store` whose undo and redo take the newest step of the list's history, as a
    /// one-shot `todo`'s do: the shared history, read and saved, is what these tests are about.
    static func sharing(_ store: TODOStore, _ console: ScriptedConsole = ScriptedConsole()) -> REPL {
        let repl = REPL(session: EditingSession(), store: store, console: console.console)
        repl.ownStepsOnly = false
        return repl
    }

    /// Runs `lines` through a REPL on `store`, as one `todo` session would, and returns it.
    @discardableResult
    static func session(_ store: TODOStore, _ lines: [String], sharing: Bool = false) -> REPL {
        let repl = sharing ? Self.sharing(store) : REPL(session: EditingSession(), store: store, console: ScriptedConsole().console)
        repl.session.clock = { date }
        lines.forEach { repl.handle(line: $0) }
        return repl
    }

    /// Each step of `history` by id, with its name, commands, and place in the tree (a step's
    /// nesting and parts aside: a group saved as it grew has its commands in a row).
    static func steps(_ history: UndoHistory<TODOCommand>) -> [String] {
        func step(_ step: UndoHistory<TODOCommand>.Group, _ place: String) -> String {
            "\(step.id?.rawValue ?? 0) \(place) \(step.actionName ?? "") \(step.commands)"
        }
        return history.undoSteps.map { step($0, "undo") } + history.redoSteps.map { step($0, "redo") }
            + history.branches.map { step($0.step, "branch of \($0.parent?.rawValue ?? 0)") }
    }

    /// The busy session's lines, a history that keeps branches.
    static let busyLines = [
        "add Buy milk; add Pay rent", "begin Tidy", "edit 1 Buy oat milk; detail 1 2 litres", "priority 2 low; done 2", "end",
        "add Café “naïve” \\ 😀", "mv 3 1", "rm 2", "undo", "add Tea", "undo", "goto 5",
    ]

    @Test func whatASessionSavesIsTheHistoryItHadStepForStep() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let original = Self.session(store, Self.busyLines, sharing: true)
        let saved = try store.savedHistory()
        #expect(saved == (try original.session.undoManager.undoHistory(of: TODOCommand.self)), "ids, dates, branches and all")
        // A session alone, undoing its own steps, saves the same tree: each undo and redo a move
        // over its step's row. (Its goto moves the shared history only.)
        let alone = TODOStore(fileURL: directory.file("alone.db"))
        let session = Self.session(alone, Self.busyLines.dropLast())
        #expect(Self.steps(try alone.savedHistory()) == Self.steps(try session.session.undoManager.undoHistory(of: TODOCommand.self)))
        #expect(saved.branches.map(\.step.actionName) == ["Add \"Tea\""])
        #expect(try store.text("SELECT count(*) FROM step WHERE place = 'branch'") == "1")
        #expect(try store.text("SELECT group_concat(name, ' | ') FROM (SELECT name FROM step ORDER BY id)")
            == "Add \"Pay rent\" | Tidy | Add \"Café “naïve” \\ 😀\" | Move \"Café “naïve” \\ 😀\" | Remove \"Buy oat milk\" | Add \"Tea\"")
    }

    @Test func aRestoredHistoryUndoesAndRedoesAsTheOriginalWould() throws {
        let original = try Self.busySession()
        let saved = try original.undoManager.undoHistory(of: TODOCommand.self)
        let restored = EditingSession(list: original.list)
        try restored.restoreHistory(saved)
        #expect(restored.history == original.history)
        #expect(restored.takeChanges().isEmpty, "restoring changes nothing")
        for _ in 0..<3 {
            #expect(try restored.undo() == original.undo())
            #expect(restored.list == original.list)
        }
        for _ in 0..<4 {
            #expect(try restored.redo() == original.redo())
            #expect(restored.list == original.list)
        }
        #expect(restored.history.undoSteps.map(\.date) == [Self.date, Self.date, Self.date, Self.date])
    }

    @Test func aHistoryThatDoesNotFitTheListIsRefusedAndChangesNothing() throws {
        let original = try Self.busySession()
        let history = try original.undoManager.undoHistory(of: TODOCommand.self)
        for list in [TODOList(), [TODOItem(title: "Someone else's")], TODOList(items: original.list.items.reversed())] {
            let session = EditingSession(list: list)
            #expect(throws: EditingSession.RestoreError.doesNotFit) { try session.restoreHistory(history) }
            #expect(!session.canUndo && !session.canRedo)
            #expect(session.list == list && session.takeChanges().isEmpty)
        }
        // An empty step is never saved; one in a file is damage.
        let session = EditingSession(list: original.list)
        let withEmptyStep = UndoHistory<TODOCommand>(undoSteps: history.undoSteps + [.init(actionName: "Nothing")])
        #expect(throws: EditingSession.RestoreError.doesNotFit) { try session.restoreHistory(withEmptyStep) }
    }

    /// Steps whose undo applies by position but not on the item they name: restored, undo or
    /// redo would find nothing or the wrong item, so the history is refused. The first was
    /// found by the SavedSteps fuzzer (its input is a seed, `replace-of-another-item`).
    @Test func aStepThatDoesNotFindItsItemWhereItWasRecordedIsRefused() throws {
        let (milk, rent, otherRent) = (TODOItem(title: "Buy milk"), TODOItem(title: "Pay rent"), TODOItem(title: "Pay rent"))
        var urgentRent = rent
        urgentRent.priority = .high
        let cases: [(list: TODOList, step: TODOCommand)] = [
            // A replace between two items: undo puts another item in the place of the urgent
            // rent, which redo, looking for the urgent rent, would not find.
            ([milk, urgentRent], TODOCommand(change: .replace(at: 1, with: urgentRent), inverse: .replace(at: 1, with: otherRent),
                                             name: "Set Priority", date: Self.date)),
            // A move saved as a move of the rent, whose undo would move milk.
            ([milk, rent], TODOCommand(change: .move(from: 1, to: 0), inverse: .move(from: 0, to: 1), name: "Move", date: Self.date,
                                       movedItem: rent.id)),
            // A removal of milk, which the list still holds: undo would find it back already.
            ([milk, rent], TODOCommand(change: .remove(at: 0), inverse: .insert(milk, at: 0), name: "Remove", date: Self.date)),
            // Two items with one identity: no step can be trusted to find its own.
            ([milk, rent, rent], TODOCommand(change: .insert(milk, at: 0), inverse: .remove(at: 0), name: "Add", date: Self.date)),
        ]
        for (list, step) in cases {
            let session = EditingSession(list: list)
            let history = UndoHistory<TODOCommand>(undoSteps: [.init(actionName: step.name, items: [.command(step)])])
            #expect(throws: EditingSession.RestoreError.doesNotFit) { try session.restoreHistory(history) }
            #expect(session.list == list && !session.canUndo)
        }
    }

    /// Step rows `todo` never writes: the history is dropped with the reason, never the list,
    /// and the next change saves a good one in its place.
    @Test(arguments: [
        ("UPDATE step SET body = '{\"items\":[{\"command\":{\"change\":{\"at\":0,\"op\":\"explode\"}}}]}' WHERE id = 2",
         "step 2 cannot be read"),
        ("UPDATE step SET body = 'not JSON' WHERE id = 1", "step 1 cannot be read"),
        ("UPDATE step SET place = 'sideways' WHERE id = 1", "step 1 cannot be read"),
        ("UPDATE step SET parent = 7 WHERE id = 2", "its steps do not form one path from the start to the current step"),
        ("UPDATE list_state SET current_step = 9", "its steps do not form one path from the start to the current step"),
        ("UPDATE step SET place = 'redo' WHERE id = 1", "its steps do not form one path from the start to the current step"),
        ("UPDATE step SET body = replace(body, '\"inverse\":{\"at\":1', '\"inverse\":{\"at\":0') WHERE id = 2", "it does not fit the list"),
        ("UPDATE list_state SET history_revision = 1",
         "it belongs to revision 1 of the list, which a todo that keeps no undo history changed since (it is at revision 2)"),
    ])
    func damagedStepsAreDroppedWithTheReasonAndReplacedByTheNextChange(damage: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        Self.session(store, ["add Buy milk", "add Buy eggs"])
        try store.execute("PRAGMA ignore_check_constraints = ON; " + damage)
        let console = ScriptedConsole(["undo", "add Bread", "undo", "undo"])
        #expect(Self.sharing(store, console).run() == 0)
        #expect(console.errorLines.dropFirst() == ["todo: undo history dropped: \(reason); the list is not affected"])
        #expect(console.outputLines == ["Nothing to undo", "3. [ ] Bread", "Undo Add \"Bread\" (item 3 is gone)", "Nothing to undo"])
        #expect(try store.load().list.items.map(\.title) == ["Buy milk", "Buy eggs"])
        #expect(try store.savedStepNames() == (undo: [], redo: ["Add \"Bread\""]))
    }

    @Test func aCommandRoundTripsThroughJSONToTheSecond() throws {
        let list: TODOList = [TODOItem(title: "Buy milk")]
        let command = TODOCommand(applying: .replace(at: 0, with: TODOItem(id: list.items[0].id, title: "Buy oat milk")),
                                  to: list, named: "Edit", at: Date(timeIntervalSince1970: 1_800_000_000.75))
        #expect(command.inverse == .replace(at: 0, with: list.items[0]))
        #expect(command.date == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try JSONDecoder().decode(TODOCommand.self, from: JSONEncoder().encode(command)) == command)
    }

    @Test(arguments: [
        ([:], 100),
        (["TODO_HISTORY_LIMIT": ""], 100),
        (["TODO_HISTORY_LIMIT": "0"], 0),
        (["TODO_HISTORY_LIMIT": "250"], 250),
    ] as [([String: String], Int)])
    func theLimitComesFromTheEnvironment(environment: [String: String], expected: Int) throws {
        #expect(try TODOStore.Options(environment: environment).historyLimit == expected)
    }

    @Test(arguments: ["-1", "1.5", "many", "1000001"])
    func anInvalidLimitIsRefused(value: String) {
        #expect(throws: TODOStore.Options.InvalidSetting.self) {
            try TODOStore.Options(environment: ["TODO_HISTORY_LIMIT": value])
        }
    }

    @Test func theDatabaseKeepsTheConfiguredNumberOfStepsBranchesFirst() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"), options: TODOStore.Options(historyLimit: 3))
        Self.session(store, ["add a", "add b", "undo", "add c"])
        #expect(try store.savedStepNames() == (undo: ["Add \"a\"", "Add \"c\""], redo: []))
        #expect(try store.savedHistory().branches.map(\.step.actionName) == ["Add \"b\""])
        // A one-shot add saves its step without reading the history: trimming happens in SQL.
        let oneShot = REPL(session: EditingSession(), store: store, console: ScriptedConsole().console)
        oneShot.handle(line: "add d")
        #expect(try store.savedStepNames() == (undo: ["Add \"a\"", "Add \"c\"", "Add \"d\""], redo: []), "the branch went first")
        oneShot.handle(line: "add e")
        #expect(try store.savedStepNames() == (undo: ["Add \"c\"", "Add \"d\"", "Add \"e\""], redo: []), "then the oldest step")
        #expect(try store.savedHistory().undoSteps.first?.id.map { try store.text("SELECT parent IS NULL FROM step WHERE id = \($0.rawValue)") } == "1")
    }

    /// A change saved without the history in memory (a one-shot `add`, or any edit before the
    /// first undo) hangs below the current step, and what redo would have redone stays, as a
    /// branch: the history it did not read is as if it had.
    @Test func aStepSavedWithoutReadingTheHistoryHangsBelowTheCurrentStep() throws {
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        Self.session(store, ["add a", "add b", "add c", "undo", "undo"])
        let oneShot = REPL(session: EditingSession(), store: store, console: ScriptedConsole().console)
        oneShot.handle(line: "add d")
        #expect(!oneShot.savedHistory.isLoaded)
        let history = try store.savedHistory()
        #expect(history.undoSteps.map(\.actionName) == ["Add \"a\"", "Add \"d\""])
        #expect(history.redoSteps.isEmpty)
        #expect(history.branches.map { "\($0.parent.map { "\($0.rawValue)" } ?? "start") <- \($0.step.actionName ?? "")" }
            == ["1 <- Add \"b\"", "2 <- Add \"c\""])
        let later = Self.session(store, ["goto 3"])
        #expect(later.session.list.items.map(\.title) == ["a", "b", "c"])
    }

    @Test func noHistoryIsWrittenWhenTheLimitIsZero() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        Self.session(TODOStore(fileURL: url), ["add a"])
        let stepsBefore = try TODOStore(fileURL: url).text("SELECT group_concat(id || saved_in || body) FROM step")
        let noHistory = TODOStore(fileURL: url, options: TODOStore.Options(historyLimit: 0))
        let repl = Self.session(noHistory, ["add b", "add c; done 1", "undo"])
        #expect(repl.session.list.items.map(\.title) == ["a", "b"], "undo lasts as long as the process")
        #expect(try noHistory.text("SELECT group_concat(id || saved_in || body) FROM step") == stepsBefore)
        #expect(try noHistory.text("SELECT history_revision FROM list_state") == "1")
        // The saved steps belong to the list as it was: the next todo that keeps a history
        // says so once, and starts a new one.
        let console = ScriptedConsole(["undo", "add d", "undo"])
        #expect(Self.sharing(TODOStore(fileURL: url), console).run() == 0)
        #expect(console.outputLines == ["Nothing to undo", "3. [ ] d", "Undo Add \"d\" (item 3 is gone)"])
        #expect(console.errorLines.filter { $0.contains("undo history dropped") }.count == 1)
    }

    @Test func aChangeThatCannotBeSavedLeavesNeitherTheListNorTheHistory() throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db")
        Self.session(TODOStore(fileURL: url), ["add a", "add b"])
        let failing = TODOStore(fileURL: url, beforeCommit: { throw DiskFull() })
        let console = ScriptedConsole(["undo", "add c"])
        let repl = Self.sharing(failing, console)
        #expect(repl.run() == 1)
        #expect(console.output == "")
        #expect(console.errorLines.dropFirst() == [
            "error: cannot save \(failing.fileURL.path): No space left on device; nothing was changed",
            "error: cannot save \(failing.fileURL.path): No space left on device; nothing was changed",
        ])
        #expect(repl.session.list.items.map(\.title) == ["a", "b"])
        #expect(try TODOStore(fileURL: url).load() == TODOStore.Contents(list: repl.session.list, revision: 2))
        #expect(try TODOStore(fileURL: url).savedStepNames() == (undo: ["Add \"a\"", "Add \"b\""], redo: []))
    }

    /// Random edits, groups, undo and redo, each a line of a `todo` session on a database, and
    /// the same calls on a session in memory. At random moments a new `todo` takes over from
    /// the database, as another process would, reading the history the lines saved. Whatever
    /// the moment (a group open or not, the history read or not yet), the new one has the
    /// same list and history as the session in memory, and carries on as it does.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aTodoTakingOverFromTheDatabaseCarriesOnAsTheSessionInMemory(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"), options: TODOStore.Options(historyLimit: 1000))
        func takeOver() -> REPL {
            let repl = Self.sharing(store)
            repl.session.clock = { Self.date }
            // A restored session never merges into a restored step (the window ends with the
            // session), so the sessions compared here do not merge at all.
            repl.session.coalescesEdits = false
            return repl
        }
        let original = EditingSession()
        original.clock = { Self.date }
        original.coalescesEdits = false
        var todo = takeOver()
        for _ in 0..<300 {
            let count = original.list.count
            let operation = Int(random.next() % 10)
            let position = count > 0 ? Int(random.next() % UInt64(count)) : 0
            let other = count > 0 ? Int(random.next() % UInt64(count)) : 0
            let title = "Item \(random.next() % 1000)"
            var line: String?
            switch operation {
            case 0, 1: try original.add(title); line = "add \(title)"
            case 2 where count > 0: try original.setTitle(title, at: position); line = "edit \(position + 1) \(title)"
            case 3 where count > 0:
                try original.setDone(position % 2 == 0, at: position)
                line = "\(position % 2 == 0 ? "done" : "undone") \(position + 1)"
            case 4 where count > 0: try original.remove(at: position); line = "rm \(position + 1)"
            case 5 where count > 0: try original.move(from: position, to: other); line = "mv \(position + 1) \(other + 1)"
            case 6 where !original.isGroupOpen: try original.undo(); line = "undo"
            case 7 where !original.isGroupOpen: try original.redo(); line = "redo"
            case 8 where original.isGroupOpen: try original.endGroup(); line = "end"
            case 8: original.beginGroup(named: position % 2 == 0 ? "Group" : nil); line = position % 2 == 0 ? "begin Group" : "begin"
            default: break
            }
            original.endEvent()
            if let line { todo.handle(line: line) }
            // Each session draws its own identities for new items; the rest must agree.
            #expect(todo.session.list.lines == original.list.lines, "\(line ?? "")")
            #expect(try store.load().list == todo.session.list, "saved after \(line ?? "")")
            if random.next() % 7 == 0 {
                todo = takeOver()
                todo.handle(line: "history")
                #expect(todo.savedHistory.isLoaded)
                #expect(todo.session.list.lines == original.list.lines)
                if original.isGroupOpen {
                    // An open group is saved as a step as far as it has got, so the new todo
                    // has it closed: close the original's the same way.
                    while original.isGroupOpen { try original.endGroup() }
                    original.endEvent()
                }
            }
            #expect(todo.session.history == original.history, "after \(line ?? "")")
        }
    }

    /// `history`'s steps by their place in it, ids aside: a session's own node ids and the
    /// database's row ids are counted apart.
    static func shape(_ history: UndoHistory<TODOCommand>) -> [String] {
        let ordered = history.undoSteps + history.redoSteps.reversed() + history.branches.map(\.step)
        let index = Dictionary(ordered.enumerated().map { ($1.id, $0) }) { first, _ in first }
        return steps(UndoHistory(undoSteps: history.undoSteps, redoSteps: history.redoSteps, branches: history.branches.map {
            .init(parent: $0.parent.flatMap { index[$0] }.map { UndoTree.NodeID(rawValue: UInt64($0)) }, step: $0.step)
        })).map { $0.drop { $0 != " " }.description }
    }

    /// A session alone, undoing only its own steps, saves the list's history as its own, step
    /// for step: each undo and redo is a move over its step's row, a line's edits then undone
    /// the step it undid, a change after undo a branch.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aSessionAloneSavesItsOwnHistoryStepForStep(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"), options: TODOStore.Options(historyLimit: 1000))
        let repl = Self.session(store, [])
        repl.session.coalescesEdits = false
        for _ in 0..<200 {
            let count = repl.session.list.count
            let item = count > 0 ? random.next() % UInt64(count) + 1 : 0
            let line = switch (random.next() % 9, count > 0) {
            case (0, _), (1, _): "add Item \(random.next() % 100)"
            case (2, true): "edit \(item) Item \(random.next() % 100); done \(item)"
            case (3, true): "rm \(item)"
            case (4, true): "mv \(item) \(random.next() % UInt64(count) + 1)"
            case (5, true): "undone \(item); undo"
            case (6, _): "undo"
            case (7, _): "redo"
            case (8, _): repl.session.isGroupOpen ? "end" : "begin Group"
            default: "list"
            }
            repl.handle(line: line)
            #expect(try store.load().list == repl.session.list, "after \(line)")
            guard !repl.session.isGroupOpen else { continue }
            #expect(Self.shape(try store.savedHistory()) == Self.shape(try repl.session.undoManager.undoHistory(of: TODOCommand.self)),
                    "after \(line)")
        }
        let history = try store.savedHistory()
        #expect(history.undoSteps.count + history.redoSteps.count > 10 && !history.branches.isEmpty, "the lines made a tree")
    }
}
