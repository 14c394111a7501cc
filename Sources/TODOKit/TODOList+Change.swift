extension TODOList {
    /// One primitive edit of a list, expressed so that applying it yields its exact inverse.
    ///
    /// Every edit of the editing session is one of these; the inverse is what gets registered with
    /// the undo manager, and applying the inverse yields the original change again, which is how
    /// redo re-registers undo without any extra bookkeeping.
    enum Change: Hashable, Sendable {
        case insert(TODOItem, at: Int)
        case remove(at: Int)
        case replace(at: Int, with: TODOItem)
        case move(from: Int, to: Int)
    }

    /// Whether `change` refers only to positions that exist, so ``apply(_:)`` cannot trap.
    func canApply(_ change: Change) -> Bool {
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
    /// - Precondition: `canApply(change)`.
    @discardableResult
    mutating func apply(_ change: Change) -> Change {
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
