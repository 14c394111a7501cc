/// Whole top-level groups for the history tree (`UndoManager+HistoryTree.swift`): reading
/// their metadata, giving every one a metadata object to carry its node id, and moving a
/// closed group off the stack into a branch and back.
extension UndoStack {
    /// Gives every closed top-level group a metadata object, so that each can carry a node id.
    ///
    /// A `.singleton` entry is expanded back into begin, action and end (observably the same
    /// group), which moves the entries after it: O(entries) once, when a manager starts
    /// recording its tree with steps already on its stacks; afterwards every new step gets
    /// its metadata as it closes and this finds nothing to do.
    mutating func giveEveryClosedTopLevelGroupMetadata() {
        let starts = Array(closedTopLevelStartsNewestFirst().reversed())
        var hasSingleton = false
        for start in starts {
            switch entries[start] {
            case .begin(nil):
                entries[start] = .begin(GroupMetadata())
            case .singleton:
                hasSingleton = true
            case .begin, .end, .action:
                break
            }
        }
        guard hasSingleton else { return }
        // Rebuilt once rather than inserting in the middle once per singleton.
        let end = closedTopLevelEnd
        var rebuilt: [Entry] = []
        rebuilt.reserveCapacity(entries.count + 2 * starts.count)
        rebuilt.append(contentsOf: entries.elements(in: 0..<head))
        for (offset, start) in starts.enumerated() {
            let groupEnd = offset + 1 < starts.count ? starts[offset + 1] : end
            if case .singleton(let id, let owner, let handler) = entries[start] {
                rebuilt.append(.begin(GroupMetadata()))
                rebuilt.append(.action(id, owner, handler))
                rebuilt.append(.end(length: 2))
            } else {
                rebuilt.append(contentsOf: entries.elements(in: start..<groupEnd))
            }
        }
        let shift = rebuilt.count - end
        rebuilt.append(contentsOf: entries.elements(in: end..<entries.count))
        // Every entry removed here is also in `rebuilt`, so removing releases nothing for good.
        entries.removeAll()
        entries.append(contentsOf: rebuilt)
        for index in openBegins.indices {
            openBegins[index] += shift
        }
    }

    /// The metadata of the newest closed top-level group, made if it has none (a `.singleton`
    /// is expanded into begin, action and end, observably the same group).
    ///
    /// - Precondition: No group is open and the newest entry closes a group.
    mutating func newestClosedTopLevelMetadataMadeIfNeeded() -> GroupMetadata {
        precondition(openBegins.isEmpty && newestIsClosedGroup, "UndoStack: no closed top-level group")
        let last = entries.count - 1
        if case .singleton(let id, let owner, let handler) = entries[last] {
            let metadata = GroupMetadata()
            entries[last] = .begin(metadata)
            entries.append(.action(id, owner, handler))
            entries.append(.end(length: 2))
            return metadata
        }
        let start = groupStart(endingAt: last)
        if case .begin(let existing?) = entries[start] {
            return existing
        }
        let metadata = GroupMetadata()
        entries[start] = .begin(metadata)
        return metadata
    }

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

    /// The metadata of the closed top-level group `depth` groups below the newest (0: the
    /// newest).
    func metadataOfClosedTopLevelGroup(atDepth depth: Int) -> GroupMetadata? {
        var last = (openBegins.first ?? entries.count) - 1
        var remaining = depth
        while last >= head {
            let start = groupStart(endingAt: last)
            if remaining == 0 {
                if case .begin(let metadata) = entries[start] { return metadata }
                return nil
            }
            remaining -= 1
            last = start - 1
        }
        return nil
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

    /// The metadata of the oldest closed top-level group.
    var oldestClosedTopLevelMetadata: GroupMetadata? {
        guard closedTopLevelGroupCount > 0, case .begin(let metadata) = entries[head] else { return nil }
        return metadata
    }
}
