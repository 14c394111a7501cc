/// Walking the closed top-level groups (the steps), newest first, through the end marks'
/// lengths: one step per group, not per entry.
extension UndoStack {
    /// The number of closed top-level groups, whatever is open: O(1), and unlike
    /// ``appleCount`` it never looks inside an open group.
    var closedTopLevelGroupCount: Int {
        openBegins.isEmpty ? topLevelCount : topLevelCount - 1
    }

    /// Index one past the last entry of the newest closed top-level group.
    var closedTopLevelEnd: Int {
        openBegins.first ?? entries.count
    }

    /// Calls `body` with the first index of each closed top-level group, newest first, while
    /// it returns `true`.
    private func forEachClosedTopLevelStartNewestFirst(_ body: (Int) -> Bool) {
        var last = closedTopLevelEnd - 1
        while last >= head {
            let start = groupStart(endingAt: last)
            guard body(start) else { return }
            last = start - 1
        }
    }

    /// The first index of each closed top-level group, newest first, at most `limit` of them.
    func closedTopLevelStartsNewestFirst(limit: Int = .max) -> [Int] {
        var starts: [Int] = []
        forEachClosedTopLevelStartNewestFirst { start in
            guard starts.count < limit else { return false }
            starts.append(start)
            return true
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
            let metadata = entries[start].metadata
            if predicate(steps[ordinal], metadata) {
                return .some(metadata)
            }
            last = start - 1
            ordinal -= 1
        }
        return nil
    }

    /// The closed top-level groups, oldest first, each as its step's id and the range of its
    /// entries. The ledger holds a stack's ids in the order of its groups; this is the one
    /// place that pairs them.
    func closedSteps() -> [(id: StepID, range: Range<Int>)] {
        var ids = steps.ids
        // A step an undo or redo is moving is the redo side's newest until it lands: its
        // group is the one open, no closed group.
        if !isUndoStack && ledger.move != .none {
            ids.removeLast()
        }
        var closed: [(id: StepID, range: Range<Int>)] = []
        closed.reserveCapacity(ids.count)
        var end = closedTopLevelEnd
        forEachClosedTopLevelStartNewestFirst { start in
            closed.append((ids[ids.count - 1 - closed.count], start..<end))
            end = start
            return true
        }
        precondition(closed.count == ids.count, "UndoStack: \(closed.count) closed groups for \(ids.count) step ids")
        return closed.reversed()
    }

    /// ``closedSteps()`` with each group's entries, oldest first.
    func closedStepsWithEntries() -> [(id: StepID, entries: [Entry])] {
        closedSteps().map { ($0.id, entries.elements(in: $0.range)) }
    }

    /// The metadata of the closed top-level groups, oldest first.
    func closedTopLevelMetadata() -> [GroupMetadata?] {
        closedTopLevelStartsNewestFirst().reversed().map { entries[$0].metadata }
    }

    /// The name of the group starting at `start`, `""` if it has none.
    private func nameOfGroup(startingAt start: Int) -> String {
        entries[start].metadata?.name ?? ""
    }

    /// The names of the closed top-level groups, newest first (the order undo or redo takes
    /// them), `""` for a group without a name.
    func closedTopLevelNamesNewestFirst() -> [String] {
        var names: [String] = []
        names.reserveCapacity(closedTopLevelGroupCount)
        forEachClosedTopLevelStartNewestFirst { names.append(nameOfGroup(startingAt: $0)); return true }
        return names
    }

    /// Whether `names` is ``closedTopLevelNamesNewestFirst()``, compared up to the first
    /// difference without making that array: what an observer of
    /// ``UndoManager/undoActionNames`` costs after each operation.
    func closedTopLevelNamesNewestFirst(equal names: [String]) -> Bool {
        guard names.count == closedTopLevelGroupCount else { return false }
        var index = 0
        var equal = true
        forEachClosedTopLevelStartNewestFirst { start in
            equal = nameOfGroup(startingAt: start) == names[index]
            index += 1
            return equal
        }
        return equal
    }
}
