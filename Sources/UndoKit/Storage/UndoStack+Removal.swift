extension UndoStack {
    /// Removes every action on `target`, then every group that became empty because of it,
    /// recursively outward (spec R33). Groups that were empty already, and open groups, stay.
    ///
    /// The clean mark's keeper judges the removed steps, for the manager's mark and the
    /// saved marks of the scopes at `judgedScopes`
    /// (``CleanMarkKeeper/stepsWillBeRemoved(atOrdinals:from:isUndoStack:judgedScopes:)``).
    /// Returns whether anything was removed.
    @discardableResult
    mutating func removeActions(withTarget target: ObjectIdentifier, judgingScopes judgedScopes: [Int]) -> Bool {
        guard containsAction(on: target) else { return false }
        let removal = Self.removeActions(on: target, in: entries, from: head, to: entries.count)
        entries.moveSuffix(from: removal.keptEnd, appendingTo: &dropped)
        // Whatever is still on the frame stack is an open group, never removed.
        openBegins = StackBuffer(removal.openBegins)
        let removedOrdinals = removal.removedOrdinals
        // Open groups are never removed and are the newest, so these ordinals count closed
        // groups only, as the ledger does.
        ledger.cleanMarkKeeper.stepsWillBeRemoved(
            atOrdinals: removedOrdinals, from: steps, isUndoStack: isUndoStack, judgedScopes: judgedScopes)
        for id in steps.remove(atOrdinals: removedOrdinals) {
            ledger.stepLeft(id)
        }
        totalCost -= removal.removedCost
        return true
    }

    /// One in-place pass over `entries[start..<end]`, a stack's or a branch step's: the
    /// actions on `target` and the groups they empty move past `keptEnd`, and the keepers are
    /// swapped down, so nothing but what is removed is retained or released. Through
    /// pointers: a protocol subscript copied each entry read (W5's removal, 5%, callgrind).
    @inline(__always)
    static func removeActions<Slots: EntrySlots>(
        on target: ObjectIdentifier, in entries: Slots, from start: Int, to end: Int
    ) -> (keptEnd: Int, openBegins: [Int], removedOrdinals: [Int], removedCost: Int) {
        // Open groups; `ordinal`, for a top-level one: how many top-level groups are older.
        var frames: [(begin: Int, hadContent: Bool, ordinal: Int)] = []
        var topLevelSeen = 0
        var removedOrdinals: [Int] = []
        var removedCost = 0
        var write = start
        for read in start..<end {
            switch entries.pointer(at: read).pointee {
            case .begin:
                if !frames.isEmpty { frames[frames.count - 1].hadContent = true }
                frames.append((write, false, frames.isEmpty ? topLevelSeen : 0))
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
                        removedCost += entries.pointer(at: write).pointee.cost
                    }
                } else {
                    // Swap first: a removed entry at `write` must reach `dropped`, not be
                    // released here.
                    entries.swapAt(write, read)
                    entries.pointer(at: write).pointee = .end(length: write - frame.begin)
                    write += 1
                }
            }
        }
        return (write, frames.map(\.begin), removedOrdinals, removedCost)
    }

    /// Whether `entries` (a stack's or a parked copy's) hold an action on `target`.
    static func entries(_ entries: [Entry], containActionOn target: ObjectIdentifier) -> Bool {
        entries.contains { $0.isStep(on: target) }
    }

    func containsAction(on target: ObjectIdentifier) -> Bool {
        containsAction(on: target, before: entries.count)
    }

    /// Whether an entry before index `end` is an action on `target`.
    func containsAction(on target: ObjectIdentifier, before end: Int) -> Bool {
        for index in head..<end where entries[index].isStep(on: target) {
            return true
        }
        return false
    }
}

/// Entries one removal pass rewrites in place (``UndoStack/removeActions(on:in:from:to:)``):
/// a stack's, or a branch step's array's buffer.
protocol EntrySlots {
    func pointer(at index: Int) -> UnsafeMutablePointer<UndoStack.Entry>
}

extension EntrySlots {
    func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        let first = pointer(at: i), second = pointer(at: j)
        let held = first.move()
        first.moveInitialize(from: second, count: 1)
        second.initialize(to: held)
    }
}

extension StackEntries: EntrySlots {}

extension UnsafeMutableBufferPointer: EntrySlots where Element == UndoStack.Entry {
    func pointer(at index: Int) -> UnsafeMutablePointer<UndoStack.Entry> {
        precondition(index >= 0 && index < count, "EntrySlots: index \(index) out of range 0..<\(count)")
        return baseAddress! + index
    }
}
