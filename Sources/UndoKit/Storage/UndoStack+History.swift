/// Listing the steps (``UndoManager/undoActionNames``, ``UndoManager/redoActionNames``).
extension UndoStack {
    /// The names of the closed top-level groups, newest first (the order undo or redo takes
    /// them), `""` for a group without a name. O(closed top-level groups): the walk jumps over
    /// each group through its end mark's length.
    func closedTopLevelNamesNewestFirst() -> [String] {
        var names: [String] = []
        names.reserveCapacity(closedTopLevelGroupCount)
        forEachClosedTopLevelNameNewestFirst { names.append($0); return true }
        return names
    }

    /// Whether `names` is ``closedTopLevelNamesNewestFirst()``, found without making that
    /// array: the count first, then name by name up to the first difference. What an
    /// observer of ``UndoManager/undoActionNames`` costs after each operation.
    func closedTopLevelNamesNewestFirst(equal names: [String]) -> Bool {
        guard names.count == closedTopLevelGroupCount else { return false }
        var index = 0
        var equal = true
        forEachClosedTopLevelNameNewestFirst { name in
            equal = name == names[index]
            index += 1
            return equal
        }
        return equal
    }

    /// Calls `body` with each closed top-level group's name, newest first, while it returns
    /// `true`.
    private func forEachClosedTopLevelNameNewestFirst(_ body: (String) -> Bool) {
        var last = (openBegins.first ?? entries.count) - 1
        while last >= head {
            let start = groupStart(endingAt: last)
            let name = if case .begin(let metadata) = entries[start] { metadata?.name ?? "" } else { "" }
            guard body(name) else { return }
            last = start - 1
        }
    }
}
