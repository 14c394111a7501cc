import Foundation
import UndoKit

/// The commands that work on the history: `undo`, `redo`, `drop`, `goto`, `history`. What the
/// history is, and who undoes what, is explained in `TODODatabase+History.swift`.
extension REPL {
    /// Undoes (or, with `redo`, redoes) up to `count` steps and says what it did: in a
    /// session, its person's own steps with UndoKit, `anyway` or refusing one changed elsewhere
    /// since; in a one-shot, the list's newest steps, whoever made them. A refusal after a step
    /// ran keeps that step, as a failing command of such a line does.
    func undo(_ count: Int, redo: Bool, anyway: Bool) throws(EditingSessionError) {
        if !ownStepsOnly, let database, steps.limit > 0 {
            try undoListSteps(count, redo: redo, in: database)
            return
        }
        let before = session.list
        let manager = session.undoManager
        var titles: [String] = []
        var refusal: EditingSessionError?
        for _ in 0..<count {
            let start = session.appliedChanges.count
            do {
                let title: String?
                if redo {
                    title = try session.redo(anyway: anyway)
                } else {
                    title = try session.undo(anyway: anyway)
                }
                guard let title else {
                    break
                }
                titles.append(title)
                let end = session.appliedChanges.count
                if redo, let node = manager.currentHistoryNodeID {
                    steps.markEdits(upTo: start, of: nil, named: nil)
                    steps.mark(.redo(node: node, name: manager.undoActionName), upTo: end)
                } else if !redo, let node = manager.historyTree.redoPath.first {
                    // The line's edits before the undo were the step it undid.
                    steps.markEdits(upTo: start, of: node, named: manager.redoActionName)
                    steps.mark(.undo(node: node, name: manager.redoActionName), upTo: end)
                }
            } catch {
                refusal = error
                break
            }
        }
        var nothing = redo ? "Nothing to redo" : "Nothing to undo"
        if database != nil && titles.isEmpty {
            nothing += " of yours (\"history\" shows every step of the list, which \"goto\" reaches)"
        }
        if refusal == nil || !titles.isEmpty {
            let asked = refusal == nil ? count : titles.count
            report(titles, asked: asked, from: before, nothing: nothing)
        }
        if let refusal {
            throw refusal
        }
    }

    /// A one-shot's `undo`: the newest step of the list that is done (an edit, whoever made
    /// it), if its items are as it left them; `redo`: the step the newest undo undid, if no
    /// edit was made since and its items are as the undo left them.
    private func undoListSteps(_ count: Int, redo: Bool, in database: TODODatabase) throws(EditingSessionError) {
        let before = session.list
        var titles: [String] = []
        // The steps this line took already: not written until the line is saved.
        var taken: Set<Int64> = []
        for _ in 0..<count {
            let all: [TODODatabase.HistoryStep]
            do {
                all = try database.readSteps()
            } catch {
                throw .historyUnusable(reason: "\(error)")
            }
            let undone = TODODatabase.HistoryStep.undone(in: all)
            var target: TODODatabase.HistoryStep?
            for step in all.reversed() {
                if redo {
                    if step.kind == .edit && !taken.contains(step.id) {
                        break
                    }
                    if step.kind == .undo, let id = step.target, undone[id] == step, !taken.contains(id) {
                        target = all.first { $0.id == id }
                        break
                    }
                } else if step.kind == .edit && undone[step.id] == nil && !taken.contains(step.id) {
                    target = step
                    break
                }
            }
            guard let target else {
                break
            }
            let changes: [TODODatabase.StepChange]
            do {
                changes = try database.readChanges(ofSteps: [target.id])[target.id] ?? []
            } catch {
                throw .historyUnusable(reason: "\(error)")
            }
            let verb = redo ? "redo" : "undo"
            let described = "\(verb) step \(target.id) \(target.name) (\(database.name(of: target.person)))"
            let since = redo ? (undone[target.id]?.revision ?? target.revision) : target.revision
            if let reason = changedSince(changes, redo: redo, after: since, in: database) {
                throw .stepChangedSince(step: described, reason: reason)
            }
            let start = session.appliedChanges.count
            if redo {
                for change in changes {
                    _ = session.applyRecorded(change.change, item: change.item)
                }
                steps.mark(.redoRow(target.id, name: target.name), upTo: session.appliedChanges.count)
            } else {
                for change in changes.reversed() {
                    _ = session.applyRecorded(change.inverse, item: change.item)
                }
                steps.mark(.undoRow(target.id, name: target.name), upTo: session.appliedChanges.count)
            }
            if session.appliedChanges.count == start {
                break
            }
            taken.insert(target.id)
            let by = target.person == database.person ? "" : " (\(target.person)'s step \(target.id))"
            titles.append((redo ? "Redo " : "Undo ") + target.name + by)
        }
        report(titles, asked: count, from: before, nothing: redo ? "Nothing to redo" : "Nothing to undo")
    }

    /// Why the items of a step (its `changes`) are not as it left them (or, for a redo, as its
    /// undo left them) after revision `since`, with who changed them: what a one-shot undo or
    /// redo would overwrite. `nil` if they are.
    private func changedSince(
        _ changes: [TODODatabase.StepChange], redo: Bool, after since: Int, in database: TODODatabase
    ) -> String? {
        // Each item as the step left it (redo: as it was before the step): `nil` if gone.
        var expected: [TODOItem.ID: TODOItem?] = [:]
        let ordered = redo ? changes.reversed() : changes
        for change in ordered {
            let state = redo ? change.inverse : change.change
            switch state {
            case .insert(let item, _), .replace(_, let item):
                expected[change.item] = .some(item)
            case .remove:
                expected[change.item] = .some(nil)
            case .move:
                if let position = session.list.position(of: change.item) {
                    expected[change.item] = .some(session.list.items[position])
                } else {
                    expected[change.item] = .some(nil)
                }
            }
        }
        var reasons: [String] = []
        for (id, wanted) in expected.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let now = session.list.position(of: id).map { session.list.items[$0] }
            guard now != wanted else {
                continue
            }
            let title = (now ?? wanted)?.title ?? ""
            let what = now == nil ? "was removed" : wanted == nil ? "is back" : "was changed"
            let who = (try? database.lastChange(to: id, after: since, in: timeZone)) ?? nil
            reasons.append("\"\(title)\" \(what) since, by \(who ?? "a todo that keeps no undo history")")
        }
        guard !reasons.isEmpty else {
            return nil
        }
        return reasons.joined(separator: ", and ")
    }

    /// Forgets the session's next undo (or redo) step, saying what becomes of its change.
    func drop(redo: Bool) throws(EditingSessionError) {
        let manager = session.undoManager
        let stale = redo ? manager.staleRedoStep : manager.staleUndoStep
        let changes = stale.map { session.changesSince($0) } ?? []
        // Which step it is, read before it is gone: saving the line marks its row dropped, so
        // that the person's next session does not offer it again.
        let node = redo ? manager.historyTree.redoPath.first : manager.currentHistoryNodeID
        guard let name = try session.dropStep(redo: redo) else {
            say(redo ? "Nothing to redo" : "Nothing to undo")
            return
        }
        if let node {
            steps.dropped(node)
        }
        if redo {
            say("Dropped \(name) from redo: it will not be redone")
        } else if changes.isEmpty {
            say("Dropped \(name): its change stays, and undo goes on before it")
        } else {
            say("Dropped \(name): undo goes on before it; since, " + changes.joined(separator: ", and "))
        }
    }

    /// What a refused undo or redo of the session's own says, and what the person can do.
    func refusal(_ error: EditingSessionError, isUndo: Bool) -> String {
        let verb = isUndo ? "undo" : "redo"
        let manager = session.undoManager
        let stale = isUndo ? manager.staleUndoStep : manager.staleRedoStep
        let items = (stale?.parts ?? []).compactMap { UUID(uuidString: $0.identifier) }
        let allGone = !items.isEmpty && items.allSatisfy { session.list.position(of: $0) == nil }
        let dropIt = "\"drop\(isUndo ? "" : " redo")\""
        if allGone {
            // Running it anyway would find nothing to change.
            return "\(error). Its item is gone, so \(verb) can do nothing with it: type \(dropIt) to forget that step"
        }
        return "\(error). Type \"\(verb)!\" to \(verb) it anyway, over those changes (only the fields the step "
            + "changed), or \(dropIt) to forget that step"
    }

    /// `goto N`: the list as it was just after step `number` of the list's history (0: before
    /// the oldest step kept), by reverting every change made since, newest first, as one new
    /// step. Without a database, a move in the session's own history tree.
    func goto(_ number: Int) throws(EditingSessionError) {
        guard let database, steps.limit > 0 else {
            try gotoInSession(number)
            return
        }
        guard !session.isGroupOpen else {
            throw .groupOpen
        }
        let all: [TODODatabase.HistoryStep]
        let revision: Int
        let changes: [TODODatabase.StepChange]?
        do {
            all = try database.readSteps()
            if number == 0 {
                guard let oldest = all.first else {
                    throw EditingSessionError.noSuchStep(number: number, count: 0)
                }
                let oldestChanges = try database.readChanges(ofSteps: [oldest.id])[oldest.id] ?? []
                revision = (oldestChanges.map(\.revision).min() ?? oldest.revision) - 1
            } else {
                guard let step = all.first(where: { $0.id == Int64(number) }) else {
                    throw EditingSessionError.noSuchStep(number: number, count: all.last.map { Int($0.id) } ?? 0)
                }
                revision = step.revision
            }
            changes = try database.readChanges(after: revision)
        } catch let error as EditingSessionError {
            throw error
        } catch {
            throw .historyUnusable(reason: "\(error)")
        }
        guard let changes else {
            throw .historyUnusable(
                reason: "cannot go back to step \(number): a todo that keeps no undo history changed the list since")
        }
        // The line's own changes, not saved yet, are reverted first.
        let unsaved = session.appliedChanges.compactMap { change -> TODODatabase.StepChange? in
            guard let inverse = change.inverse, let item = change.item else {
                return nil
            }
            return TODODatabase.StepChange(
                step: 0, revision: 0, number: 0, change: change.change, inverse: inverse, item: item)
        }
        let place = number == 0 ? "At the start" : "At step \(number)"
        guard !changes.isEmpty || !unsaved.isEmpty else {
            say("\(place) already")
            return
        }
        var list = session.list
        var applied: [TODOList.IdentifiedChange] = []
        for change in (changes + unsaved).reversed() {
            guard let located = list.locating(change.inverse, item: change.item) else {
                throw .historyUnusable(reason: "the history does not fit the list")
            }
            applied.append(list.applyIdentified(located))
        }
        let before = session.list
        let at = " at " + Self.timestamp(session.clock(), in: timeZone).suffix(5)
        session.takeChanges(fromHistory: applied, giving: list, origin: "your goto \(number)" + at)
        steps.mark(.goto(Int64(number)), upTo: session.appliedChanges.count)
        let reverted = Set(changes.map(\.step)).count
        let counted = reverted == 1 ? "1 step" : "\(reverted) steps"
        say("\(place) (reverted what \(counted) changed since)\(before.changes(to: list))")
        if ownStepsOnly {
            // A jump can change any item: a session shows the list it leads to.
            session.list.lines.forEach(say)
        }
    }

    /// `goto` in a session without a database: UndoKit's history tree.
    private func gotoInSession(_ number: Int) throws(EditingSessionError) {
        let moved = try session.go(toStep: number)
        let place = number == 0 ? "At the start" : "At step \(number)"
        guard let moved else {
            say("\(place) already")
            return
        }
        var counts: [String] = []
        if moved.undone > 0 {
            counts.append("undid \(moved.undone)")
        }
        if moved.redone > 0 {
            counts.append("redid \(moved.redone)")
        }
        say("\(place) (\(counts.joined(separator: ", "))):")
        session.list.lines.forEach(say)
    }

    /// How many steps a one-shot `history` shows, newest: a session shows them all.
    static let oneShotHistoryLength = 20

    /// Lists the list's steps, oldest first, numbered for `goto`: when, who, what; an edit
    /// undone since says by which step.
    func printHistory() {
        guard let database, steps.limit > 0 else {
            printSessionTree()
            return
        }
        let all: [TODODatabase.HistoryStep]
        do {
            all = try database.readSteps()
        } catch {
            fail("\(error)")
            return
        }
        guard !all.isEmpty else {
            say("No history yet: every change anyone makes to the list is a step here")
            return
        }
        let undone = TODODatabase.HistoryStep.undone(in: all)
        var shown = all[...]
        if !ownStepsOnly {
            shown = all.suffix(Self.oneShotHistoryLength)
        }
        say("History, oldest first (\"goto <step>\" takes the list to just after it):")
        if shown.count < all.count {
            say("   …  \(all.count - shown.count) older steps (a session's \"history\" shows them all)")
        } else if all[0].id > 1 {
            say("   0  before step \(all[0].id): older steps are not kept (TODO_HISTORY_LIMIT=\(steps.limit))")
        } else {
            say("   0  the start")
        }
        let width = min(16, shown.map(\.person.count).max() ?? 0)
        for step in shown {
            let number = String(step.id)
            let padding = String(repeating: " ", count: max(0, 4 - number.count))
            let person = step.person.padding(toLength: max(width, step.person.count), withPad: " ", startingAt: 0)
            var line = "\(padding)\(number)  \(Self.timestamp(step.date, in: timeZone))  \(person)  \(step.title)"
            switch step.kind {
            case .undo, .redo:
                if let target = step.target {
                    line += "  (step \(target))"
                }
            case .edit:
                if let undo = undone[step.id] {
                    line += "  (undone by step \(undo.id))"
                }
            case .goto:
                break
            }
            say(line)
        }
    }

    /// Draws the history tree of a session without a database: one step per line, numbered
    /// for `goto`, the current step marked `*` and the steps redo would take `>`. A chain
    /// stays in its column; a branch (steps an edit after undo kept) is indented under the
    /// step it grew from.
    private func printSessionTree() {
        let steps = session.historySteps
        let inProgress = session.history.inProgress
        guard !steps.isEmpty || inProgress != nil else {
            say("No history yet: every change you make is a step here")
            return
        }
        say("History (* current step, > redo path; goto <step> moves anywhere, goto 0 to the start):")
        let atStart = !steps.contains { $0.isCurrent }
        let startMarker = atStart && inProgress == nil ? "*" : " "
        say("\(startMarker)    0  \(String(repeating: " ", count: 16))  (start)")
        for (step, column) in zip(steps, Self.columns(of: steps)) {
            var marker = " "
            if step.isCurrent && inProgress == nil {
                marker = "*"
            } else if step.isOnRedoPath {
                marker = ">"
            }
            let date = step.date.map { Self.timestamp($0, in: timeZone) } ?? String(repeating: "-", count: 16)
            let number = String(step.number)
            let padding = String(repeating: " ", count: max(0, 4 - number.count))
            say("\(marker) \(padding)\(number)  \(date)  " + String(repeating: "| ", count: column) + step.name)
        }
        if let inProgress {
            say("*       \(Self.timestamp(inProgress.date, in: timeZone))  \(inProgress.name)  (in progress)")
        }
    }

    /// The column each step is drawn in: a step's newest child continues its column, older
    /// children (the branches) start one to the right.
    static func columns(of steps: [EditingSession.HistoryStep]) -> [Int] {
        var columns: [Int] = []
        // The column of the most recent step at each depth, to find each step's parent.
        var parentColumn: [Int: Int] = [:]
        for (index, step) in steps.enumerated() {
            let base = step.depth == 0 ? 0 : parentColumn[step.depth - 1] ?? 0
            // Is a later step a sibling (same depth, before any shallower step)?
            var hasYoungerSibling = false
            for later in steps[(index + 1)...] {
                if later.depth < step.depth { break }
                if later.depth == step.depth {
                    hasYoungerSibling = true
                    break
                }
            }
            let column = hasYoungerSibling ? base + 1 : base
            columns.append(column)
            parentColumn[step.depth] = column
        }
        return columns
    }
}
