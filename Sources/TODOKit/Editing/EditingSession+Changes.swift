import Foundation
import UndoKit

extension EditingSession {
    /// Returns the changes applied to ``list`` since the last call, in order, and forgets them.
    ///
    /// Edits, undo and redo all apply primitive ``TODOList/Change`` values; applying the
    /// returned ones, in order, to the list as it was at the previous call gives ``list``. They
    /// are what a ``TODODatabase`` commits.
    ///
    /// ```swift
    /// try session.add("Buy milk")
    /// session.endEvent()
    /// let changes = session.takeChanges()
    /// ```
    public func takeChanges() -> [TODOList.Change] {
        takeIdentifiedChanges().map(\.change)
    }

    /// ``takeChanges()``, each change with the item it touched: what a ``TODODatabase``
    /// commits without a copy of the list.
    public func takeIdentifiedChanges() -> [TODOList.IdentifiedChange] {
        defer { appliedChanges.removeAll() }
        return appliedChanges
    }

    /// Replaces the list with `list`, from outside the undo history: used when another process
    /// changed the list on disk. Returns whether there was undo or redo history, which is
    /// dropped.
    ///
    /// The undo history is a chain of changes by position, each valid only for the list it
    /// was recorded on; after someone else's change it would undo the wrong items. So it is
    /// cleared, and the next edit starts a new one, until the caller restores the history saved
    /// with the new list (``restoreHistory(_:)``), as ``REPL`` does when a command needs it. Groups begun with
    /// ``beginGroup(named:)`` stay open: the user's next `end` still matches their `begin`, and
    /// the group's step holds the edits made after the reload. Changes not yet taken with
    /// ``takeChanges()`` are dropped too, since they were made to the old list.
    ///
    /// ```swift
    /// if case .changed(let list) = try database.refresh() {
    ///     session.replaceList(list)
    /// }
    /// ```
    @discardableResult
    public func replaceList(_ list: TODOList) -> Bool {
        let hadHistory = undoManager.canUndo || undoManager.canRedo
        // Empties both stacks and closes every open group on the manager (spec R31).
        undoManager.removeAllActions()
        commandsInOpenStep.removeAll()
        for index in openGroups.indices { openGroups[index].isOpenOnManager = false }
        endedGroupCount = 0
        appliedChanges.removeAll()
        self.list = list
        changeCount += 1
        return hadHistory
    }

    /// Takes `list`, which another process changed, keeping the undo history, whose steps
    /// find their items wherever they are now (see ``TODOCommand``). Each item that changed
    /// (edited, marked, moved, removed, added back) is noted on the undo manager as changed by
    /// `origins[id]` (who the database says changed it), or else `origin`: a step on it is then
    /// refused until run anyway or dropped (``undo(anyway:)``, ``dropStep(redo:)``).
    ///
    /// ```swift
    /// session.takeOutsideChanges(to: list, origins: database.changedElsewhere, otherwise: "another todo")
    /// ```
    public func takeOutsideChanges(to list: TODOList, origins: [TODOItem.ID: String], otherwise origin: String) {
        var old = [TODOItem.ID: (position: Int, item: TODOItem)](minimumCapacity: self.list.count)
        for (position, item) in self.list.items.enumerated() { old[item.id] = (position, item) }
        var parts: [String: [UndoPart]] = [:]
        func note(_ id: TODOItem.ID, _ what: String, _ title: String) {
            let by = origins[id] ?? origin
            outsideChanges[id] = (what, title, by)
            parts[by, default: []].append(UndoPart("item", id))
        }
        for (position, item) in list.items.enumerated() {
            guard let (before, was) = old.removeValue(forKey: item.id) else {
                note(item.id, "added back", item.title)
                continue
            }
            var what = [
                was.title == item.title ? nil : "edited", was.detail == item.detail ? nil : "given another detail",
                was.isDone == item.isDone ? nil : item.isDone ? "marked done" : "marked not done",
                was.priority == item.priority ? nil : "set to \(item.priority.rawValue) priority",
            ].compactMap { $0 }
            // Positions alone say nothing: every insertion or removal shifts the items after it.
            if what.isEmpty && origins[item.id] != nil { what = [before == position ? "changed" : "moved"] }
            if !what.isEmpty { note(item.id, what.joined(separator: " and "), item.title) }
        }
        for (id, gone) in old { note(id, "removed", gone.item.title) }
        for (origin, parts) in parts { undoManager.noteChanges(to: parts, origin: origin) }
        self.list = list
        changeCount += 1
        coalescingEpoch += 1
    }

    /// Takes `list`, which `changes` (made from the history, not by the session's own steps:
    /// a `goto`) made of ``list``: as a change from elsewhere by `origin`, so that the
    /// session's steps on those items are refused, and as changes to save.
    func takeChanges(fromHistory changes: [TODOList.IdentifiedChange], giving list: TODOList, origin: String) {
        var origins: [TODOItem.ID: String] = [:]
        for change in changes {
            if let item = change.item {
                origins[item] = origin
            }
        }
        takeOutsideChanges(to: list, origins: origins, otherwise: origin)
        appliedChanges += changes
    }

    /// What changed since the stale step, for the user: `item 3 "Buy milk" was marked done by
    /// another todo (pid 4242) at 10:41`, `"Bread" was removed by …`.
    func changesSince(_ stale: StaleStep) -> [String] {
        stale.changes.map { change in
            let by = change.origin ?? "another todo"
            guard let id = change.part.flatMap({ UUID(uuidString: $0.identifier) }) else {
                return "the list was changed by \(by)"
            }
            let position = list.position(of: id)
            guard let outside = outsideChanges[id] else {
                // A step restored stale: the history says who changed its item, not how.
                guard let position else {
                    return "its item is gone, changed by \(by)"
                }
                return "item \(position + 1) \(Self.quoted(list.items[position].title)) was changed by \(by)"
            }
            var item = ""
            if let position {
                item = "item \(position + 1) "
            }
            return item + "\(Self.quoted(outside.title)) was \(outside.what) by \(outside.origin)"
        }
    }
}
