/// Merging a closing top-level group into the one before it (``UndoManager/setActionCoalescingKey(_:)``).
extension UndoStack {
    /// The metadata of the newest closed top-level group, if a top-level group is open right
    /// above it.
    var metadataBelowOpenTopLevelGroup: GroupMetadata? {
        guard let outermost = openBegins.first, outermost > head else { return nil }
        return entries[groupStart(endingAt: outermost - 1)].metadata
    }

    /// Closes the open top-level group into the closed one just below it, whose metadata object
    /// and step id the merge keeps: the older group's entries, then the newer's, so undo reverts
    /// the newer actions first. O(newer group's entries), typically one keystroke's.
    ///
    /// - Precondition: Exactly one group is open, right above a closed top-level group, and
    ///   both have metadata.
    mutating func closeOpenTopLevelGroupMergingIntoPrevious() {
        precondition(openBegins.count == 1, "UndoStack: merging needs exactly one open group")
        let newerBegin = openBegins.removeLast()
        let olderStart = groupStart(endingAt: newerBegin - 1)
        guard case .begin(let older?) = entries[olderStart], case .begin(let newer?) = entries[newerBegin] else {
            preconditionFailure("UndoStack: merged groups need metadata")
        }
        older.name = newer.name
        older.coalescingKey = newer.coalescingKey
        older.closedAt = newer.closedAt
        older.isDiscardable = older.isDiscardable && newer.isDiscardable
        older.userInfo.merge(newer.userInfo) { _, newerValue in newerValue }
        // Both costs are already in `totalCost`: the open group's was added as it was set.
        older.cost += newer.cost
        // A step that declared nothing touched every part, and so does the merge.
        older.parts = older.parts.flatMap { olderParts in newer.parts.map { olderParts.union($0) } }
        // Takes out the older group's end mark and the newer begin mark, parking the begin
        // (it holds the newer metadata) for release.
        dropped.append(exchange(&entries[newerBegin], with: .end(length: 0)))
        entries.removeSubrange((newerBegin - 1)..<(newerBegin + 1))
        entries.append(.end(length: entries.count - olderStart))
    }
}
