import Foundation
import UndoKit

extension EditingSession {
    /// Appends a new item and returns it.
    ///
    /// The undo step is named `Add "<title>"`. Surrounding spaces are trimmed from `title`.
    ///
    /// ```swift
    /// let item = try session.add("Buy milk", priority: .high)
    /// session.undoManager.undoActionName   // "Add \"Buy milk\""
    /// ```
    ///
    /// - Throws: ``EditingSessionError/emptyTitle`` or ``EditingSessionError/multipleLines``;
    ///   nothing changes then.
    @discardableResult
    public func add(
        _ title: String, detail: String = "", priority: TODOItem.Priority = .medium
    ) throws(EditingSessionError) -> TODOItem {
        let item = TODOItem(title: try Self.validTitle(title), detail: try Self.validLine(detail), priority: priority)
        try perform(.insert(item, at: list.count), named: "Add \(Self.quoted(item.title))")
        return item
    }

    /// Replaces the title of the item at `position`.
    ///
    /// ```swift
    /// try session.setTitle("Buy oat milk", at: 0)   // undo step "Edit \"Buy oat milk\""
    /// ```
    ///
    /// - Returns: `false` if the title was already `title`; nothing is recorded then.
    @discardableResult
    public func setTitle(_ title: String, at position: Int) throws(EditingSessionError) -> Bool {
        let title = try Self.validTitle(title)
        let id = try item(at: position).id
        // The epoch changes with every change from elsewhere: a step saved before one is not
        // the newest step on disk any more, and must not grow.
        let key = "title of \(id) in \(coalescingEpoch)"
        return try update(at: position, named: "Edit \(Self.quoted(title))", coalescingKey: key) {
            $0.title = title
        }
    }

    /// Replaces the detail text of the item at `position`; an empty `detail` removes it.
    ///
    /// ```swift
    /// try session.setDetail("2 litres", at: 0)   // undo step "Edit Detail of \"Buy milk\""
    /// ```
    ///
    /// - Returns: `false` if the detail was already `detail`; nothing is recorded then.
    @discardableResult
    public func setDetail(_ detail: String, at position: Int) throws(EditingSessionError) -> Bool {
        let detail = try Self.validLine(detail)
        return try update(at: position, named: { "Edit Detail of \(Self.quoted($0.title))" }) { $0.detail = detail }
    }

    /// Sets the priority of the item at `position`.
    ///
    /// ```swift
    /// try session.setPriority(.high, at: 0)   // undo step "Set Priority of \"Buy milk\""
    /// ```
    ///
    /// - Returns: `false` if the item already had `priority`; nothing is recorded then.
    @discardableResult
    public func setPriority(_ priority: TODOItem.Priority, at position: Int) throws(EditingSessionError) -> Bool {
        try update(at: position, named: { "Set Priority of \(Self.quoted($0.title))" }) { $0.priority = priority }
    }

    /// Marks the item at `position` done or not done.
    ///
    /// ```swift
    /// try session.setDone(true, at: 0)   // undo step "Mark \"Buy milk\" Done"
    /// ```
    ///
    /// - Returns: `false` if the item was already in that state; nothing is recorded then.
    @discardableResult
    public func setDone(_ isDone: Bool, at position: Int) throws(EditingSessionError) -> Bool {
        try update(at: position, named: { "Mark \(Self.quoted($0.title)) \(isDone ? "Done" : "Not Done")" }) {
            $0.isDone = isDone
        }
    }

    /// Removes the item at `position` and returns it; undo puts it back at the same position
    /// with the same identity.
    @discardableResult
    public func remove(at position: Int) throws(EditingSessionError) -> TODOItem {
        let item = try self.item(at: position)
        try perform(.remove(at: position), named: "Remove \(Self.quoted(item.title))")
        return item
    }

    /// Moves the item at `source` so that it ends up at `destination`, shifting the items in
    /// between.
    ///
    /// ```swift
    /// try session.move(from: 2, to: 0)   // the third item becomes the first
    /// ```
    ///
    /// - Returns: `false` if `source == destination`; nothing is recorded then.
    @discardableResult
    public func move(from source: Int, to destination: Int) throws(EditingSessionError) -> Bool {
        let item = try self.item(at: source)
        _ = try self.item(at: destination)
        guard source != destination else { return false }
        try perform(.move(from: source, to: destination), named: "Move \(Self.quoted(item.title))")
        return true
    }

    /// Adds `items` at the end of the list, except those it holds already (the same identity),
    /// and returns how many it added; the undo step is named `name`. Every item is checked
    /// first, so a bad one adds none.
    ///
    /// ```swift
    /// let added = try session.addItems(itemsFromFile, named: "Import \"backup.json\"")
    /// ```
    ///
    /// - Throws: ``EditingSessionError/importedItem(number:reason:)`` for an item whose title
    ///   or detail ``add(_:detail:priority:)`` would refuse.
    @discardableResult
    public func addItems(_ items: [TODOItem], named name: String) throws(EditingSessionError) -> Int {
        var known = Set(list.items.map(\.id))
        var added: [TODOItem] = []
        for (index, item) in items.enumerated() where known.insert(item.id).inserted {
            var item = item
            do {
                item.title = try Self.validTitle(item.title)
                item.detail = try Self.validLine(item.detail)
            } catch { throw .importedItem(number: index + 1, reason: error.description) }
            added.append(item)
        }
        for item in added { try perform(.insert(item, at: list.count), named: name) }
        return added.count
    }
}

extension EditingSession {
    func item(at position: Int) throws(EditingSessionError) -> TODOItem {
        guard list.contains(position: position) else { throw .noSuchItem(position: position, count: list.count) }
        return list.items[position]
    }

    private func update(
        at position: Int,
        named name: String,
        coalescingKey: String? = nil,
        _ edit: (inout TODOItem) -> Void
    ) throws(EditingSessionError) -> Bool {
        try update(at: position, named: { _ in name }, coalescingKey: coalescingKey, edit)
    }

    private func update(
        at position: Int,
        named name: (TODOItem) -> String,
        coalescingKey: String? = nil,
        _ edit: (inout TODOItem) -> Void
    ) throws(EditingSessionError) -> Bool {
        let old = try item(at: position)
        var new = old
        edit(&new)
        // An unchanged item would still leave an undo step that does nothing visible.
        guard new != old else { return false }
        try perform(.replace(at: position, with: new), named: name(old), coalescingKey: coalescingKey)
        return true
    }

    /// Applies a user's edit as a ``TODOCommand`` named `name`, recorded with `perform(_:on:)`.
    ///
    /// A step made of one edit with a `coalescingKey` merges into the step before it when
    /// that was an edit with the same key made within ``coalescingInterval`` (UndoKit's
    /// `setActionCoalescingKey(_:)`): retyping an item's title a few times is one undo step.
    /// A step with any other edit in it never merges.
    func perform(
        _ change: TODOList.Change, named name: String, coalescingKey: String? = nil
    ) throws(EditingSessionError) {
        // The step's first edit: the REPL runs a line inside a scoped group, so the step may
        // already be open on the manager.
        let opensStep = commandsInOpenStep.isEmpty || undoManager.groupingLevel == 0
        if undoManager.groupingLevel == 0 {
            // This edit opens a new undo step. Until the step closes, the manager can't hand out
            // its commands (`undoHistory(of:)` needs whole steps), so keep them on the side:
            // see `openStep`.
            commandsInOpenStep.removeAll()
        }
        if !isInsideAtomicEdits { openGroupsOnManager() }
        let command = TODOCommand(applying: change, to: list, named: name, at: clock())
        // UndoKit's scoped group gives an edit the group it needs when none is open (only
        // possible with groupsByEvent off): one undo step of its own, and no way to trap.
        undoManager.withUndoGroup {
            undoManager.perform(command, on: self)
            if coalescesEdits && (opensStep || coalescingKey == nil) {
                // Only a step whose every edit has the key may merge: the first edit sets it,
                // any other clears it. Set on the step's outermost group, open here.
                undoManager.setActionCoalescingKey(opensStep ? coalescingKey : nil)
            }
        }
        commandsInOpenStep.append(command)
    }

    /// Applies a change of a ``TODOCommand`` that is executing or undoing, found on its item
    /// `id` (``TODOList/locating(_:item:)``), and returns its inverse; `nil`, changing
    /// nothing, if that item is gone (a step another process overtook, run anyway).
    func applyRecorded(_ change: TODOList.Change, item id: TODOItem.ID?) -> TODOList.Change? {
        // The session's own steps run in reverse order of the changes they revert, and restored
        // histories are checked against the list first, so on a list only this session
        // changed, every change is found where it was recorded.
        guard let change = list.locating(change, item: id) else {
            return nil
        }
        let applied = list.applyIdentified(change)
        appliedChanges.append(applied)
        changeCount += 1
        return applied.inverse
    }

    static func validTitle(_ title: String) throws(EditingSessionError) -> String {
        let title = try validLine(title)
        guard !title.isEmpty else { throw .emptyTitle }
        return title
    }

    static func validLine(_ text: String) throws(EditingSessionError) -> String {
        guard !text.contains(where: \.isNewline) else { throw .multipleLines }
        if let (scalar, position) = TerminalText.firstControlCharacter(in: text) {
            throw .controlCharacter(scalar.value, position: position)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    static func quoted(_ title: String) -> String {
        "\"\(title)\""
    }
}
