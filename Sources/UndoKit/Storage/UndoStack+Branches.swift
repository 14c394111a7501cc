/// Whole steps with their ids, taken off the stack into a branch of the history tree or a
/// savepoint, and put back.
extension UndoStack {
    /// Removes the newest closed top-level group and returns its entries, oldest first, and
    /// its step id. No group may be open.
    mutating func popNewestTopLevelGroupEntries() -> (entries: [Entry], id: StepID) {
        let (start, id) = takeNewestTopLevelGroupOff()
        var group = StackBuffer<Entry>(minimumCapacity: entries.count - start)
        entries.moveSuffix(from: start, appendingTo: &group)
        let taken = group.elements
        // Releases no object: the copies `elements` made hold them all.
        group.removeAll()
        return (taken, id)
    }

    /// Removes the newest closed top-level group, parking its entries for release
    /// (``dropped``), and returns its step id. No group may be open.
    mutating func dropNewestTopLevelGroup() -> StepID {
        let (start, id) = takeNewestTopLevelGroupOff()
        entries.moveSuffix(from: start, appendingTo: &dropped)
        return id
    }

    /// The counts' side of taking the newest closed top-level group off: its cost, its
    /// count and its id leave; its entries, from `start` on, are still to be moved.
    private mutating func takeNewestTopLevelGroupOff() -> (start: Int, id: StepID) {
        precondition(openBegins.isEmpty && !isEmpty, "UndoStack: no closed top-level group to take")
        let start = groupStart(endingAt: entries.count - 1)
        totalCost -= entries[start].cost
        return (start, steps.removeLast())
    }

    /// Pushes closed top-level groups (as ``popNewestTopLevelGroupEntries()`` takes them),
    /// oldest first, with their step ids. No group may be open.
    mutating func pushClosedTopLevelGroups(_ groups: [Entry], ids: [StepID]) {
        precondition(openBegins.isEmpty, "UndoStack: a group is open")
        totalCost += Self.topLevelCost(of: groups)
        steps.append(contentsOf: ids)
        entries.append(contentsOf: groups)
    }

    /// The entries of the closed top-level step `id`, oldest first; `nil` if no such step is
    /// on this stack.
    func closedTopLevelGroupEntries(of id: StepID) -> [Entry]? {
        guard let ordinal = steps.ordinal(of: id) else { return nil }
        let starts = closedTopLevelStartsNewestFirst(limit: steps.count - ordinal)
        let end = starts.count > 1 ? starts[starts.count - 2] : closedTopLevelEnd
        return entries.elements(in: starts[starts.count - 1]..<end)
    }
}
