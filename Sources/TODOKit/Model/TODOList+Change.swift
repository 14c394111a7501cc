extension TODOList {
    /// One primitive edit of a list, expressed so that applying it yields its exact inverse.
    ///
    /// Every edit of the editing session is one of these; the inverse is what gets registered with
    /// the undo manager, and applying the inverse yields the original change again, which is how
    /// redo re-registers undo without any extra bookkeeping. The same values are what
    /// ``TODODatabase/commit(_:)`` writes, a change of rows each.
    ///
    /// ```swift
    /// var list: TODOList = [TODOItem(title: "Buy milk")]
    /// let undo = list.apply(.insert(TODOItem(title: "Buy eggs"), at: 1))   // .remove(at: 1)
    /// list.apply(undo)                                                      // back to one item
    /// ```
    public enum Change: Hashable, Sendable {
        /// Inserts an item so that it ends up at the position; `list.count` appends.
        case insert(TODOItem, at: Int)
        /// Removes the item at the position.
        case remove(at: Int)
        /// Replaces the item at the position with a new value of the same item (same `id`).
        case replace(at: Int, with: TODOItem)
        /// Moves the item at `from` so that it ends up at `to`.
        case move(from: Int, to: Int)
    }

    /// Whether `change` refers only to positions that exist, so ``apply(_:)`` cannot trap.
    public func canApply(_ change: Change) -> Bool {
        switch change {
        case .insert(_, let position):
            (0...count).contains(position)
        case .remove(let position), .replace(let position, _):
            contains(position: position)
        case .move(let source, let destination):
            contains(position: source) && contains(position: destination)
        }
    }

    /// Applies `change` and returns the change that undoes it.
    ///
    /// ```swift
    /// let inverse = list.apply(.remove(at: 0))   // .insert(<the removed item>, at: 0)
    /// ```
    ///
    /// - Precondition: `canApply(change)`.
    @discardableResult
    public mutating func apply(_ change: Change) -> Change {
        switch change {
        case .insert(let item, let position):
            items.insert(item, at: position)
            return .remove(at: position)
        case .remove(let position):
            let item = items.remove(at: position)
            return .insert(item, at: position)
        case .replace(let position, let item):
            let old = items[position]
            items[position] = item
            return .replace(at: position, with: old)
        case .move(let source, let destination):
            // Remove-then-insert keeps the inverse symmetric: moving back from `destination` to
            // `source` restores the original order for every pair of positions.
            let item = items.remove(at: source)
            items.insert(item, at: destination)
            return .move(from: destination, to: source)
        }
    }
}

extension TODOList {
    /// The change that would undo `change`, without applying it: what ``apply(_:)`` would
    /// return.
    ///
    /// ```swift
    /// let list: TODOList = [TODOItem(title: "Buy milk")]
    /// list.inverse(of: .remove(at: 0))   // .insert(<Buy milk>, at: 0)
    /// ```
    ///
    /// - Precondition: `canApply(change)`.
    public func inverse(of change: Change) -> Change {
        switch change {
        case .insert(_, let position): .remove(at: position)
        case .remove(let position): .insert(items[position], at: position)
        case .replace(let position, _): .replace(at: position, with: items[position])
        case .move(let source, let destination): .move(from: destination, to: source)
        }
    }
}

extension TODOList {
    /// `change`, recorded on the item `id`, moved to where that item is now; `nil` if it is
    /// gone, or, for an insertion, back already. Another process may have added or removed
    /// items since the change was recorded: an undone removal goes back where it was, or at
    /// the end of a list that is shorter now. Without an `id`, `change` as it is, if it fits.
    ///
    /// ```swift
    /// list.locating(.remove(at: 2), item: milk.id)   // .remove(at: 4) once two items came before it
    /// ```
    public func locating(_ change: Change, item id: TODOItem.ID?) -> Change? {
        guard let id else { return canApply(change) ? change : nil }
        func found(_ recorded: Int) -> Int? {
            contains(position: recorded) && items[recorded].id == id ? recorded : position(of: id)
        }
        switch change {
        case .insert(let item, let at):
            return position(of: item.id) == nil ? .insert(item, at: Swift.min(Swift.max(at, 0), count)) : nil
        case .remove(let at): return found(at).map { .remove(at: $0) }
        case .replace(let at, let item): return found(at).map { .replace(at: $0, with: item) }
        case .move(let from, let to):
            return found(from).map { .move(from: $0, to: Swift.min(Swift.max(to, 0), count - 1)) }
        }
    }
}

extension TODOList {
    /// A change with the identity of the item it finds at its position (none for an
    /// insertion, whose item is new): what lets a store check that it changes the very item
    /// the change was made to.
    public struct IdentifiedChange: Hashable, Sendable {
        /// The change.
        public var change: Change
        /// The item at the change's position before it applied; `nil` for an insertion.
        public var itemID: TODOItem.ID?
        /// The change that undoes it, as applying it returned; `nil` when not known (a list
        /// imported from old files). What the list's history saves of an item's old value.
        public var inverse: Change?

        /// Pairs a change with the item it touches, and the change that undoes it.
        public init(change: Change, itemID: TODOItem.ID?, inverse: Change? = nil) {
            self.change = change
            self.itemID = itemID
            self.inverse = inverse
        }

        /// The item the change is about: the one it inserts, or the one it finds.
        public var item: TODOItem.ID? {
            if case .insert(let item, _) = change {
                return item.id
            }
            return itemID
        }
    }

    /// Applies `change` and returns it with the item it found and its inverse.
    ///
    /// - Precondition: `canApply(change)`.
    mutating func applyIdentified(_ change: Change) -> IdentifiedChange {
        var identified = self.identified(change)
        identified.inverse = apply(change)
        return identified
    }

    /// `change` with the item it finds in this list.
    ///
    /// - Precondition: `canApply(change)`.
    func identified(_ change: Change) -> IdentifiedChange {
        switch change {
        case .insert: IdentifiedChange(change: change, itemID: nil)
        case .remove(let position), .replace(let position, _), .move(let position, _):
            IdentifiedChange(change: change, itemID: items[position].id)
        }
    }
}

extension TODOList {
    /// A list a saved history is checked against, step by step, with its items' identities,
    /// so that finding an item costs the same on a list of 10,000 as on a list of ten.
    ///
    /// A saved history is input like any file: one whose every command runs here as recorded
    /// cannot undo the wrong item, nor reach a position that does not exist, nor leave a redo
    /// that finds nothing (a replace whose two items are not one item did, found by fuzzing).
    struct Replay {
        private(set) var list: TODOList
        private var ids: Set<TODOItem.ID>

        /// `nil` if two items share an identity: no step could be trusted to find its own.
        init?(_ list: TODOList) {
            self.list = list
            ids = Set(list.items.map(\.id))
            guard ids.count == list.count else { return nil }
        }

        /// Undoes `command` if that runs as recorded (see `runs`); with `redo`, redoes it.
        mutating func runs(_ command: TODOCommand, redo: Bool = false) -> Bool {
            redo
                ? runs(command.change, on: command.item, givingBack: command.inverse)
                : runs(command.inverse, on: command.item, givingBack: command.change)
        }

        /// Applies `recorded` if it runs as a command runs it: on the item `id`, found where
        /// it was recorded (what ``locating(_:item:)`` returns unchanged), giving back
        /// `expected`, which is in turn found where it was recorded.
        mutating func runs(_ recorded: Change, on id: TODOItem.ID?, givingBack expected: Change) -> Bool {
            guard finds(recorded, on: id) else { return false }
            let inverse = list.apply(recorded)
            // An insertion adds its item's identity; a removal's inverse names the item removed.
            if case .insert(let item, _) = recorded { ids.insert(item.id) }
            if case .insert(let item, _) = inverse { ids.remove(item.id) }
            return inverse == expected && finds(expected, on: id)
        }

        private func finds(_ change: Change, on id: TODOItem.ID?) -> Bool {
            switch change {
            case .insert(let item, let position): (0...list.count).contains(position) && !ids.contains(item.id)
            case .remove(let position), .replace(let position, _), .move(let position, _):
                list.canApply(change) && (id == nil || list.items[position].id == id)
            }
        }
    }
}
