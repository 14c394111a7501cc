/// Group identity for ``UndoCoordinator``.
///
/// Removals (`removeAllActions`, `removeAllActions(withTarget:)`, `levelsOfUndo`) post no
/// events, so a coordinator cannot follow a manager's stacks step by step; instead it tags
/// every closed top-level group with a token in the group's metadata and compares its own order
/// with the tokens still on the stacks. Undo and redo copy a group's metadata to the other
/// stack (`replaceOpenTopMetadata(with:)`), so a token follows its group across stacks.
///
/// Only closed top-level groups are tagged: an open group is not yet a step of its own. These
/// helpers walk top-level groups backwards through the end marks' lengths, so they cost one
/// step per top-level group, not per entry.
extension UndoStack {
    /// The number of closed top-level groups, whatever is open. Unlike `closedGroupCount`
    /// (Apple's `undoCount` quirk) it never looks inside an open group, and it is O(1).
    ///
    /// Only a top-level close raises it (at the end of an event, by hand, or inside an undo or
    /// redo), and each is announced by an event; every eventless change (removals, trimming)
    /// lowers it. A coordinator relies on that to notice removals cheaply.
    var closedTopLevelGroupCount: Int {
        openBegins.isEmpty ? topLevelCount : topLevelCount - 1
    }

    /// Index one past the last entry of the newest closed top-level group.
    var closedTopLevelEnd: Int {
        openBegins.first ?? entries.count
    }

    /// The first index of each closed top-level group, newest first, at most `limit` of them.
    func closedTopLevelStartsNewestFirst(limit: Int = .max) -> [Int] {
        var starts: [Int] = []
        var last = closedTopLevelEnd - 1
        while last >= head && starts.count < limit {
            let start = groupStart(endingAt: last)
            starts.append(start)
            last = start - 1
        }
        return starts
    }

    private func token(ofGroupStartingAt start: Int) -> UInt64? {
        if case .begin(let metadata) = entries[start] {
            return metadata?.coordinatorToken
        }
        return nil
    }

    /// The tokens of the closed top-level groups, oldest first; `nil` for an untagged group.
    func closedTopLevelTokens() -> [UInt64?] {
        closedTopLevelStartsNewestFirst().reversed().map { token(ofGroupStartingAt: $0) }
    }

    /// The tokens of the newest `count` closed top-level groups (fewer if the stack holds
    /// fewer), oldest first.
    func newestClosedTopLevelTokens(_ count: Int) -> [UInt64?] {
        closedTopLevelStartsNewestFirst(limit: count).reversed().map { token(ofGroupStartingAt: $0) }
    }

    /// The metadata of the closed top-level groups, oldest first; `nil` for a group without
    /// metadata. Lets tests name the groups a coordinator orders.
    func closedTopLevelMetadata() -> [GroupMetadata?] {
        closedTopLevelStartsNewestFirst().reversed().map { start in
            if case .begin(let metadata) = entries[start] {
                return metadata
            }
            return nil
        }
    }

    /// Tags the newest closed top-level group with `token`, replacing any token it had.
    ///
    /// A collapsed `.singleton` group is expanded to begin, action, end first, which is
    /// observably identical (the metadata added carries nothing else).
    ///
    /// - Precondition: No group is open and the newest entry closes a group.
    mutating func tagNewestClosedTopLevelGroup(with token: UInt64) {
        precondition(openBegins.isEmpty && newestIsClosedGroup, "UndoStack: no closed top-level group to tag")
        let last = entries.count - 1
        if case .singleton(let id, let owner, let handler) = entries[last] {
            let metadata = GroupMetadata()
            metadata.coordinatorToken = token
            entries[last] = .begin(metadata)
            entries.append(.action(id, owner, handler))
            entries.append(.end(length: 2))
        } else {
            metadata(ofGroupStartingAt: groupStart(endingAt: last)).coordinatorToken = token
        }
    }

    /// Gives a fresh token from `makeToken` to every closed top-level group that has none,
    /// and to every group whose token makes `needsNewToken` return `true`, oldest group first.
    ///
    /// A coordinator adopts a manager's history by retagging every group (whatever tokens they
    /// carried came from another coordinator), and repairs a stack by retagging only groups
    /// without a token or with one already seen.
    ///
    /// - Returns: The tokens of all closed top-level groups afterwards, oldest first.
    mutating func tagClosedTopLevelGroups(
        replacing needsNewToken: (UInt64) -> Bool,
        _ makeToken: () -> UInt64
    ) -> [UInt64] {
        var starts = Array(closedTopLevelStartsNewestFirst().reversed())
        var tokens: [UInt64] = []
        tokens.reserveCapacity(starts.count)
        var retagged: [Bool] = []
        retagged.reserveCapacity(starts.count)
        var expandsSingleton = false
        for start in starts {
            if let current = token(ofGroupStartingAt: start), !needsNewToken(current) {
                tokens.append(current)
                retagged.append(false)
            } else {
                tokens.append(makeToken())
                retagged.append(true)
                if case .singleton = entries[start] {
                    expandsSingleton = true
                }
            }
        }
        if expandsSingleton {
            // Expanding shifts the entries after each singleton: done once for all groups.
            giveEveryClosedTopLevelGroupMetadata()
            starts = Array(closedTopLevelStartsNewestFirst().reversed())
        }
        for (offset, start) in starts.enumerated() where retagged[offset] {
            metadata(ofGroupStartingAt: start).coordinatorToken = tokens[offset]
        }
        return tokens
    }

    /// Takes the token off the open top-level group, if any.
    ///
    /// Redo copies the redone group's metadata to the outermost open group when it is nested
    /// in one, so the open group can hold a token that belongs to no step yet; undoing a group
    /// nested in it would then copy the same token again. Clearing it keeps tokens unique.
    mutating func clearOpenTopLevelToken() {
        guard let outermost = openBegins.first, case .begin(let metadata?) = entries[outermost] else { return }
        metadata.coordinatorToken = nil
    }

    /// The metadata of the group whose begin mark is at `start`, created if it has none.
    private mutating func metadata(ofGroupStartingAt start: Int) -> GroupMetadata {
        guard case .begin(let existing) = entries[start] else {
            preconditionFailure("UndoStack: no begin mark at \(start)")
        }
        if let existing {
            return existing
        }
        let created = GroupMetadata()
        entries[start] = .begin(created)
        return created
    }
}
