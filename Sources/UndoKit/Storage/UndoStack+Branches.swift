/// Whole steps with their ids, taken off the stack into a branch of the history tree or a
/// savepoint, and put back.
extension UndoStack {
    /// Removes the newest closed top-level group and returns its entries, oldest first, and
    /// its step id. No group may be open.
    mutating func popNewestTopLevelGroupEntries() -> (entries: [Entry], id: StepID) {
        precondition(openBegins.isEmpty && !isEmpty, "UndoStack: no closed top-level group to take")
        let start = groupStart(endingAt: entries.count - 1)
        totalCost -= entries[start].cost
        topLevelCount -= 1
        let id = steps.removeLast()
        var group = StackBuffer<Entry>(minimumCapacity: entries.count - start)
        entries.moveSuffix(from: start, appendingTo: &group)
        let taken = group.elements
        // Releases no object: the copies `elements` made hold them all.
        group.removeAll()
        return (taken, id)
    }

    /// Pushes closed top-level groups (as ``popNewestTopLevelGroupEntries()`` takes them),
    /// oldest first, with their step ids. No group may be open.
    mutating func pushClosedTopLevelGroups(_ groups: [Entry], ids: [StepID]) {
        precondition(openBegins.isEmpty, "UndoStack: a group is open")
        totalCost += Self.topLevelCost(of: groups)
        topLevelCount += ids.count
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
