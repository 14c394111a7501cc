/// Listing the steps (``UndoManager/undoActionNames``, ``UndoManager/redoActionNames``).
extension UndoStack {
    /// The names of the closed top-level groups, newest first (the order undo or redo takes
    /// them), `""` for a group without a name. O(closed top-level groups): the walk jumps over
    /// each group through its end mark's length.
    func closedTopLevelNamesNewestFirst() -> [String] {
        var names: [String] = []
        names.reserveCapacity(closedTopLevelGroupCount)
        var last = (openBegins.first ?? entries.count) - 1
        while last >= head {
            let start = groupStart(endingAt: last)
            if case .begin(let metadata) = entries[start] {
                names.append(metadata?.name ?? "")
            } else {
                names.append("")
            }
            last = start - 1
        }
        return names
    }
}
