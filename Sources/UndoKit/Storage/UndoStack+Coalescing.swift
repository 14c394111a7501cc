/// Merging a closing top-level group into the one before it (``UndoManager/setActionCoalescingKey(_:)``).
extension UndoStack {
    /// The metadata of the newest closed top-level group if a top-level group is open right
    /// above it; `nil` if there is no such group or it has no metadata.
    var metadataBelowOpenTopLevelGroup: GroupMetadata? {
        guard let outermost = openBegins.first, outermost > head else { return nil }
        guard case .begin(let metadata) = entries[groupStart(endingAt: outermost - 1)] else { return nil }
        return metadata
    }

    /// Closes the open top-level group and makes it part of the closed top-level group just
    /// below it: one group holding the older group's entries, then the newer group's, so that
    /// undo, which runs a group newest entry first, reverts the newer actions first.
    ///
    /// The merged group keeps the older group's metadata object and step id, with the newer
    /// group's name, key and close time, the union of the user info
    /// (newer values win), discardable only if both were, and the sum of the costs.
    ///
    /// Costs O(newer group's entries): they move two slots down, over the older group's end
    /// mark and their own begin mark. A coalesced group is typically one keystroke.
    ///
    /// - Precondition: exactly one group is open, the newest closed top-level group lies right
    ///   below it and both have metadata.
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
        // Moves the older group's end mark and the newer begin mark out, parking the begin
        // (it holds the newer metadata) for release by the manager.
        dropped.append(exchange(&entries[newerBegin], with: .end(length: 0)))
        entries.removeSubrange((newerBegin - 1)..<(newerBegin + 1))
        entries.append(.end(length: entries.count - olderStart))
        topLevelCount -= 1
    }
}
