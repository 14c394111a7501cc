extension UndoStack {
    /// Removes every action on `target`, then every group that became empty because of it,
    /// recursively outward (spec R33). Groups that were empty already, and open groups, stay.
    ///
    /// A removed step on the path to the clean mark makes it unreachable (see
    /// ``CleanMark/isCut(byRemoving:from:isUndoStack:)``): the manager's, and each of
    /// `savedMarks` (the scopes' in progress). Returns whether anything was removed.
    @discardableResult
    mutating func removeActions(withTarget target: ObjectIdentifier, judging savedMarks: inout [CleanMark]) -> Bool {
        guard containsAction(on: target) else { return false }
        // One in-place pass: keepers are swapped down to `write`, so nothing but what is
        // removed is retained or released.
        struct Frame {
            var begin: Int
            var hadContent = false
            /// For a top-level group: how many top-level groups are older.
            var ordinal = 0
        }
        var frames: [Frame] = []
        var topLevelSeen = 0
        var removedOrdinals: [Int] = []
        var removedCost = 0
        let liveEnd = entries.count
        let start = head
        var write = start
        for read in start..<liveEnd {
            switch entries[read] {
            case .begin:
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                frames.append(Frame(begin: write, ordinal: frames.isEmpty ? topLevelSeen : 0))
                if frames.count == 1 { topLevelSeen += 1 }
                entries.swapAt(write, read)
                write += 1
            case .action(let id, _, _):
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                if id != target {
                    entries.swapAt(write, read)
                    write += 1
                }
            case .singleton(let id, _, _):
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                if id != target {
                    entries.swapAt(write, read)
                    write += 1
                } else if frames.isEmpty {
                    removedOrdinals.append(topLevelSeen)
                }
                if frames.isEmpty { topLevelSeen += 1 }
            case .end:
                let frame = frames.removeLast()
                if frame.hadContent && write == frame.begin + 1 {
                    // Emptied by this removal: drop its begin mark too.
                    write -= 1
                    if frames.isEmpty {
                        removedOrdinals.append(frame.ordinal)
                        if case .begin(let metadata?) = entries[write] {
                            removedCost += metadata.cost
                        }
                    }
                } else {
                    // Swap first: a removed entry at `write` must reach `dropped`, not be
                    // released here.
                    entries.swapAt(write, read)
                    entries[write] = .end(length: write - frame.begin)
                    write += 1
                }
            }
        }
        entries.moveSuffix(from: write, appendingTo: &dropped)
        // Whatever is still on the frame stack is an open group, never removed.
        openBegins = StackBuffer(frames.map(\.begin))
        topLevelCount -= removedOrdinals.count
        // Open groups are never removed and are the newest, so these ordinals count closed
        // groups only, as the ledger does.
        if ledger.cleanMark.isCut(byRemoving: removedOrdinals, from: steps, isUndoStack: isUndoStack) {
            ledger.cleanMark = .unreachable
        }
        for index in savedMarks.indices where savedMarks[index].isCut(byRemoving: removedOrdinals, from: steps, isUndoStack: isUndoStack) {
            savedMarks[index] = .unreachable
        }
        for id in steps.remove(atOrdinals: removedOrdinals) {
            ledger.stepLeft(id)
        }
        totalCost -= removedCost
        return true
    }

    /// Whether `entries` (a stack's or a parked copy's) hold an action on `target`.
    static func entries(_ entries: [Entry], containActionOn target: ObjectIdentifier) -> Bool {
        entries.contains { entry in
            switch entry {
            case .action(let id, _, _), .singleton(let id, _, _): id == target
            case .begin, .end: false
            }
        }
    }

    func containsAction(on target: ObjectIdentifier) -> Bool {
        containsAction(on: target, before: entries.count)
    }

    /// Whether an entry before index `end` is an action on `target`.
    func containsAction(on target: ObjectIdentifier, before end: Int) -> Bool {
        for index in head..<end {
            switch entries[index] {
            case .action(let id, _, _), .singleton(let id, _, _):
                if id == target { return true }
            case .begin, .end:
                continue
            }
        }
        return false
    }
}
