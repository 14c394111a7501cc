/// Whole top-level groups (steps), with their ids: moving a closed group off the stack into a
/// branch of the history tree and back (`UndoManager+HistoryTreeNavigation.swift`), or into
/// a savepoint and back.
extension UndoStack {
    /// Removes the newest closed top-level group and returns its entries, oldest first, and
    /// its step id.
    ///
    /// - Precondition: No group is open and the stack is not empty.
    mutating func popNewestTopLevelGroupEntries() -> (entries: [Entry], id: StepID) {
        precondition(openBegins.isEmpty && !isEmpty, "UndoStack: no closed top-level group to take")
        let start = groupStart(endingAt: entries.count - 1)
        if case .begin(let metadata?) = entries[start] {
            totalCost -= metadata.cost
        }
        topLevelCount -= 1
        let id = steps.removeLast()
        var group = StackBuffer<Entry>(minimumCapacity: entries.count - start)
        entries.moveSuffix(from: start, appendingTo: &group)
        let taken = group.elements
        // `elements` copied them; the buffer's own references go without running a deinit,
        // since the copies hold every object.
        group.removeAll()
        return (taken, id)
    }

    /// Pushes a closed top-level group taken by ``popNewestTopLevelGroupEntries()``.
    ///
    /// - Precondition: No group is open.
    mutating func pushClosedTopLevelGroup(_ group: [Entry], id: StepID) {
        pushClosedTopLevelGroups(group, ids: [id])
    }

    /// Pushes closed top-level groups, oldest first, as they were taken off a stack (a
    /// savepoint's parked redo steps), with their step ids.
    ///
    /// - Precondition: No group is open, and `groups` holds `ids.count` closed top-level
    ///   groups.
    mutating func pushClosedTopLevelGroups(_ groups: [Entry], ids: [StepID]) {
        precondition(openBegins.isEmpty, "UndoStack: a group is open")
        var depth = 0
        for entry in groups {
            switch entry {
            case .begin(let metadata):
                if depth == 0 { totalCost += metadata?.cost ?? 0 }
                depth += 1
            case .end:
                depth -= 1
            case .action, .singleton:
                break
            }
        }
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

    /// Removes the payload-free placeholders that ``dropOldestGroup()`` leaves before `head`.
    ///
    /// The history tree trims the redo stack (the end of the redo path), which Apple's limits
    /// never do; compacting afterwards keeps the redo stack's `head` at 0, as code that copies
    /// the redo stack's entries wholesale expects (a rolled-back ``UndoManager/withUndoGroup(named:_:)``
    /// parks and restores them). O(entries).
    mutating func removeTrimmedPlaceholders() {
        guard head > 0 else { return }
        entries.removeSubrange(0..<head)
        for index in openBegins.indices {
            openBegins[index] -= head
        }
        head = 0
    }
}
