/// Walking the closed top-level groups (the steps) and listing them
/// (``UndoManager/undoActionNames``, ``UndoManager/redoActionNames``). The walks go backwards
/// through the end marks' lengths, so they cost one step per top-level group, not per entry.
extension UndoStack {
    /// The number of closed top-level groups, whatever is open. Unlike ``appleCount``
    /// (Apple's `undoCount` quirk) it never looks inside an open group, and it is O(1).
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

    /// The metadata of the newest step (closed top-level group) for which `predicate`, given
    /// its id and metadata, is true, walking from the newest; the outer `nil` if there is
    /// none. O(the steps walked).
    func newestStepMetadata(where predicate: (StepID, GroupMetadata?) -> Bool) -> GroupMetadata?? {
        var last = closedTopLevelEnd - 1
        var ordinal = steps.count - 1
        while last >= head {
            let start = groupStart(endingAt: last)
            let metadata: GroupMetadata? = if case .begin(let metadata) = entries[start] { metadata } else { nil }
            if predicate(steps[ordinal], metadata) {
                return .some(metadata)
            }
            last = start - 1
            ordinal -= 1
        }
        return nil
    }

    /// The metadata of the closed top-level groups, oldest first; `nil` for a group without
    /// metadata.
    func closedTopLevelMetadata() -> [GroupMetadata?] {
        closedTopLevelStartsNewestFirst().reversed().map { start in
            if case .begin(let metadata) = entries[start] {
                return metadata
            }
            return nil
        }
    }


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
