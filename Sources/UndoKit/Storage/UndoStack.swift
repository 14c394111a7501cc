/// One undo or redo stack, stored as Apple stores it (spec B): a flat sequence of group marks
/// and actions, oldest first. Layout, for the benchmark issue's memory and speed targets:
/// - a 32-byte entry holds its step inline (``UndoStep``), so recording a closure that
///   captures nothing allocates nothing, and removal by target scans contiguous memory;
/// - an end mark records how far back its begin mark is: a closed group's metadata and its
///   pop are O(1);
/// - a closed group of one action and no metadata is one `.singleton` entry, observably
///   begin, action, end;
/// - trimming advances `head`, compacting only when the dead prefix outweighs the live part
///   (`levelsOfUndo` is O(1) amortized);
/// - the entries live in the manager's ``TwinStackBuffer``, shared with the other stack, so
///   steps moving between the stacks reuse memory already touched; no buffer is an array,
///   so no mutation asks whether its storage is shared.
struct UndoStack: ~Copyable {
    enum Entry {
        /// Opens a group; the metadata is allocated on first write.
        case begin(GroupMetadata?)
        /// Closes the group whose begin mark is `length` entries earlier.
        case end(length: Int)
        /// An action inside the innermost group open when it was pushed. The step's fields
        /// apart, so that a scan binds the target identity alone without retaining the rest.
        case action(ObjectIdentifier, UndoStepOwner, ErasedHandler)
        /// A closed group made of one action and no metadata.
        case singleton(ObjectIdentifier, UndoStepOwner, ErasedHandler)

        static func action(_ step: consuming UndoStep) -> Entry {
            .action(step.targetID, step.owner, step.handler)
        }

        /// A kind test that binds no payload, so that it copies (retains) nothing.
        var isSingleton: Bool {
            if case .singleton = self { true } else { false }
        }

        /// Whether this is a step (an action or a singleton) on `targetID`, binding the
        /// identity alone, so that it retains nothing.
        @inline(__always)
        func isStep(on targetID: ObjectIdentifier) -> Bool {
            switch self {
            case .action(let id, _, _), .singleton(let id, _, _): id == targetID
            case .begin, .end: false
            }
        }

        /// A begin mark's metadata; `nil` for other entries.
        var metadata: GroupMetadata? {
            if case .begin(let metadata) = self { metadata } else { nil }
        }

        /// The cost of the group a begin mark opens; 0 for other entries.
        var cost: Int { metadata?.cost ?? 0 }
    }

    /// This stack's side of the manager's ``TwinStackBuffer``.
    var entries: StackEntries
    /// Entries before `head` were trimmed; they hold payload-free placeholders.
    var head = 0
    /// Indices of the begin marks of the open groups, outermost first.
    var openBegins = StackBuffer<Int>()
    /// Top-level groups, counting an open top-level group (Apple's `count`). Derived, not
    /// kept: the ledger counts this side's steps (on the redo side, a step an undo or redo is
    /// moving, until it lands), and an open group is the one top-level group it has no id for.
    var topLevelCount: Int {
        @inline(__always) get {
            let openGroup = openBegins.isEmpty ? 0 : 1
            if isUndoStack {
                return ledger.undoCount &+ openGroup
            }
            let moving = ledger.move == .none ? 0 : 1
            return ledger.redoCount &- moving &+ openGroup
        }
    }
    /// The ids of the closed top-level groups, oldest first (see ``StepLedger``).
    var steps: StackSteps {
        @inline(__always) get { StackSteps(ledger: sharedLedger, isUndoStack: isUndoStack) }
    }
    /// Apple's `max`: the most top-level groups kept; 0 or less means no limit.
    var limit = 0 {
        didSet { updateTrimsOnClose() }
    }
    /// ``UndoManager/actionCostLimit``: the most bytes of `totalCost` kept; 0 means no limit.
    var costLimit = 0 {
        didSet { updateTrimsOnClose() }
    }
    /// Set while the manager keeps redo branches: the limits then count every node of the
    /// history tree, which the manager trims, and this stack's own trimming stands aside.
    var limitsApplyToTree = false {
        didSet { updateTrimsOnClose() }
    }
    /// Whether a top-level close must check a limit: one test on the close path for both.
    private(set) var trimsOnClose = false

    private mutating func updateTrimsOnClose() {
        trimsOnClose = !limitsApplyToTree && (limit > 0 || costLimit > 0)
    }
    /// The sum of the costs of the top-level groups on this stack, open ones included.
    var totalCost = 0
    private let sharedLedger: UnsafeMutablePointer<StepLedger>

    var ledger: StepLedger {
        unsafeAddress { UnsafePointer(sharedLedger) }
        nonmutating unsafeMutableAddress { sharedLedger }
    }
    /// Entries taken off the stack but not yet released. Releasing one can run any `deinit`,
    /// which may call back into the manager (`removeAllActions(withTarget:)`, as Apple
    /// recommends), so mutations park entries here and the manager releases them once the
    /// stacks are consistent (``UndoManager/releaseDroppedEntries()``).
    var dropped = StackBuffer<Entry>()

    let isUndoStack: Bool

    init(entries: StackEntries, ledger: UnsafeMutablePointer<StepLedger>, isUndoStack: Bool) {
        self.entries = entries
        sharedLedger = ledger
        self.isUndoStack = isUndoStack
    }

    var nesting: Int { openBegins.count }
    var isEmpty: Bool { entries.count == head }

    /// Whether the newest entry closes a group, as `undoNestedGroup()` and `redo()` require.
    var newestIsClosedGroup: Bool {
        guard !isEmpty else { return false }
        switch entries[entries.count - 1] {
        case .end, .singleton: return true
        case .begin, .action: return false
        }
    }

    // MARK: Pushing

    @inline(__always)
    mutating func pushBegin() {
        openBegins.append(entries.count)
        entries.append(.begin(nil))
    }

    @inline(__always)
    mutating func pushAction(_ step: consuming UndoStep) {
        assert(!openBegins.isEmpty, "an action needs an open group")
        entries.append(.action(step))
    }

    /// Closes the innermost open group; a top-level group that stays is a step (see
    /// ``StepLedger/stepClosed(onUndoStack:)``). With `discardIfEmpty`, an empty group is
    /// dropped instead (an undo's redo group, spec R19.8). Returns whether it was empty.
    @discardableResult
    mutating func closeGroup(discardIfEmpty: Bool) -> Bool {
        let begin = openBegins.removeLast()
        let length = entries.count - begin
        let closesTopLevel = openBegins.isEmpty
        if length == 1 {
            if discardIfEmpty {
                let begin = entries.removeLast()
                if closesTopLevel {
                    // Undo copied the undone group's metadata, cost included, to this group.
                    totalCost -= begin.cost
                }
                dropped.append(begin)
                return true
            }
            entries.append(.end(length: 1))
        } else if length == 2, collapseNewestGroup(beginningAt: begin) {
            // Rewritten in place as a singleton.
        } else {
            entries.append(.end(length: length))
        }
        if closesTopLevel {
            ledger.stepClosed(onUndoStack: isUndoStack)
            if trimsOnClose {
                trimAfterTopLevelClose()
            }
        }
        return length == 1
    }

    /// Rewrites the closed group of two entries at `begin` as one `.singleton` if it is one
    /// action and no metadata; `false`, changing nothing, otherwise. Through pointers, so the
    /// kind tests copy nothing and the action is moved: a subscript read of an entry retains
    /// its references, and the optimizer keeps those retains.
    @inline(__always)
    private mutating func collapseNewestGroup(beginningAt begin: Int) -> Bool {
        let first = entries.pointer(at: begin)
        let second = entries.pointer(at: begin + 1)
        guard case .begin(nil) = first.pointee, case .action = second.pointee else { return false }
        guard case .action(let id, let owner, let handler) = second.move() else { preconditionFailure("unreachable") }
        // The begin mark holds no reference, so overwriting it releases nothing.
        first.initialize(to: .singleton(id, owner, handler))
        entries.forgetMovedOutLast()
        return true
    }

    /// Closes the group of one action that undo or redo opened for a step on the short path
    /// (`UndoManager+UndoRedo.swift`), writing the finished step in place of its begin mark,
    /// as ``closeGroup(discardIfEmpty:)`` would: the group is the only one open, holds one
    /// action and no metadata. Returns `false`, changing nothing, if it is anything else (an
    /// action registered more, set a name or made the group discardable, the model was gone):
    /// the general close then runs.
    @inline(__always)
    mutating func closeStepOfOneAction() -> Bool {
        guard openBegins.count == 1, openBegins[0] == entries.count &- 2,
              collapseNewestGroup(beginningAt: openBegins[0]) else { return false }
        _ = openBegins.removeLast()
        ledger.stepClosed(onUndoStack: isUndoStack)
        // ``trimAfterTopLevelClose()``'s two tests first, inline: with `levelsOfUndo` set, a
        // redo rarely trims, and the call cost it about 24 instructions (callgrind, W4).
        if trimsOnClose && ((limit > 0 && ledger.undoCount > limit) || costLimit > 0) {
            trimAfterTopLevelClose()
        }
        return true
    }

    // MARK: Popping and trimming

    /// The owner of the newest entry if it is a `.singleton` (a closed group of one action and
    /// no metadata), unretained; `nil` for any other entry or an empty stack. Binds the owner
    /// alone, so it retains nothing.
    @inline(__always)
    func newestSingletonOwner() -> Unmanaged<UndoStepOwner>? {
        guard entries.count > head,
              case .singleton(_, let owner, _) = entries.pointer(at: entries.count &- 1).pointee else { return nil }
        return Unmanaged.passUnretained(owner)
    }

    /// Index of the first entry of the closed group whose last entry is at `last`.
    func groupStart(endingAt last: Int) -> Int {
        switch entries[last] {
        case .end(let length): return last - length
        case .singleton: return last
        case .begin, .action: preconditionFailure("UndoStack: no closed group ends at \(last)")
        }
    }

    /// Removes the newest closed group (top-level or nested) if it is a singleton, and returns
    /// its step: the common undo and redo, allocating nothing.
    mutating func popNewestSingleton() -> UndoStep? {
        guard entries.pointer(at: entries.count - 1).pointee.isSingleton,
              case .singleton(let id, let owner, let handler) = entries.removeLast() else { return nil }
        if openBegins.isEmpty {
            ledger.stepWillMove(fromUndoStack: isUndoStack)
        }
        return UndoStep(targetID: id, owner: owner, handler: handler)
    }

    /// ``popNewestSingleton()`` for the short path, which saw that the newest entry is a
    /// top-level `.singleton` (``newestSingletonOwner()``) and no group is open here: inline,
    /// without testing either again. (With ``pushAction(_:)`` inline too, callgrind, W1
    /// commands: undo 502 -> 450 instructions, redo 506 -> 456; the calls were about 50.)
    @inline(__always)
    mutating func popTopLevelSingleton() -> UndoStep {
        guard case .singleton(let id, let owner, let handler) = entries.removeLast() else {
            preconditionFailure("UndoStack: the short path popped an entry that is not a singleton")
        }
        ledger.stepWillMove(fromUndoStack: isUndoStack)
        return UndoStep(targetID: id, owner: owner, handler: handler)
    }

    /// Removes the newest closed group (top-level or nested), leaving its entries in place for
    /// an undo or redo to take newest first (see ``StackEntries/detachSuffix(from:)``);
    /// ``finishDetachedGroup()`` ends it.
    mutating func detachNewestGroup() {
        let start = groupStart(endingAt: entries.count - 1)
        if openBegins.isEmpty {
            ledger.stepWillMove(fromUndoStack: isUndoStack)
            totalCost -= entries[start].cost
        }
        entries.detachSuffix(from: start)
    }

    /// Ends a detached group, parking what a step that aborted the run left of it.
    mutating func finishDetachedGroup() {
        entries.finishDetached(movingRemainsTo: &dropped)
    }

    /// Removes the open group if it is the only one open and holds nothing; returns whether
    /// it did.
    mutating func removeEmptyOpenTopLevelGroup() -> Bool {
        guard openBegins.count == 1, let begin = openBegins.first, begin == entries.count - 1 else { return false }
        _ = openBegins.removeLast()
        let mark = entries.removeLast()
        totalCost -= mark.cost
        dropped.append(mark)
        return true
    }

    mutating func removeAll() {
        // A group an undo or redo is running goes too (the run stops).
        entries.finishDetached(movingRemainsTo: &dropped)
        entries.moveSuffix(from: 0, appendingTo: &dropped)
        openBegins.removeAll()
        head = 0
        totalCost = 0
        for id in steps.removeAll() {
            ledger.stepLeft(id)
        }
        // A step an undo or redo was moving went with the redo side.
        ledger.move = .none
    }

    /// Drops top-level groups, oldest first, until at most `limit` remain.
    mutating func trimToLimit() {
        guard limit > 0 && !limitsApplyToTree else { return }
        while topLevelCount > limit {
            dropOldestGroup()
        }
    }

    /// After a top-level close: `levelsOfUndo` drops the oldest group once (spec R10), then
    /// the byte budget drops the oldest until the total fits, never the one just closed.
    mutating func trimAfterTopLevelClose() {
        // Right after a top-level close nothing is open here, and only the undo stack has a
        // limit (the redo stack's is 0): the ledger's undo count is the count.
        if limit > 0 && ledger.undoCount > limit {
            dropOldestGroup()
        }
        trimToCostLimit()
    }

    /// Drops the oldest top-level group: never an open one, which is the newest, as callers
    /// trim only while more than one exists.
    mutating func dropOldestGroup() {
        // The clean mark is lost if it is on the dropped step, or at the start, below it.
        ledger.cleanMarkKeeper.oldestStepWillBeTrimmed(fromUndoStack: isUndoStack)
        // Not `entries[head].cost`, which cost W4's trimmed register 6 instructions (callgrind).
        if case .begin(let metadata?) = entries[head] {
            totalCost -= metadata.cost
        }
        var index = head
        var depth = 0
        repeat {
            switch entries[index] {
            case .begin: depth += 1
            case .end: depth -= 1
            case .action, .singleton: break
            }
            // Parked for release now, not at the next compaction.
            dropped.append(exchange(&entries[index], with: .end(length: 0)))
            index += 1
        } while depth > 0
        head = index
        ledger.stepLeft(steps.removeFirst())
        if head >= 64 && head * 2 >= entries.count {
            removeTrimmedPlaceholders()
        }
    }

    /// Removes the payload-free placeholders that ``dropOldestGroup()`` leaves before `head`.
    /// O(entries). Also after the history tree trims the redo stack (which Apple's limits
    /// never do): code that copies the redo stack's entries wholesale expects `head` 0 there.
    mutating func removeTrimmedPlaceholders() {
        guard head > 0 else { return }
        entries.removeSubrange(0..<head)
        for index in openBegins.indices {
            openBegins[index] -= head
        }
        head = 0
    }

    // MARK: Metadata

    /// Apple's top-level mark (spec B, `TM`): the outermost open group if one is open,
    /// otherwise the newest closed top-level group.
    var topMetadata: GroupMetadata? {
        // Forced inline into undo and redo: the optimizer stopped inlining it there once they
        // grew by the clean mark's few lines.
        @inline(__always) get {
            if let outermost = openBegins.first {
                guard case .begin(let metadata) = entries[outermost] else {
                    preconditionFailure("UndoStack: open group index does not hold a begin mark")
                }
                return metadata
            }
            guard !isEmpty, case .begin(let metadata) = entries[groupStart(endingAt: entries.count - 1)] else {
                return nil
            }
            return metadata
        }
    }

    /// The metadata of the outermost open group, created if it has none yet.
    mutating func openTopMetadata() -> GroupMetadata {
        let outermost = openBegins[0]
        guard case .begin(let existing) = entries[outermost] else {
            preconditionFailure("UndoStack: open group index does not hold a begin mark")
        }
        if let existing {
            return existing
        }
        let created = GroupMetadata()
        entries[outermost] = .begin(created)
        return created
    }

    /// Replaces the outermost open group's metadata with a copy of `metadata` (how undo and
    /// redo carry a group's metadata across).
    mutating func replaceOpenTopMetadata(with metadata: GroupMetadata?) {
        let old = exchange(&entries[openBegins[0]], with: .begin(metadata?.copy()))
        // The cost travels with the metadata, so the open group's count changes with it.
        totalCost += (metadata?.cost ?? 0) - old.cost
        dropped.append(old)
    }

    // MARK: Counting

    /// Apple's `undoCount`/`redoCount` (spec R26): walking from the newest entry, the end
    /// marks met at relative depth 0. With no group open, the top-level groups: O(1). With one
    /// open, the walk starts inside it and goes on below its begin mark at negative depth, so
    /// it also counts groups nested in a closed group beside it (Apple counts 1 after begin,
    /// end, end, begin while grouping by event).
    var appleCount: Int {
        guard !openBegins.isEmpty else { return topLevelCount }
        var count = 0
        var depth = 0
        var index = entries.count - 1
        while index >= head {
            switch entries[index] {
            case .end(let length):
                if depth == 0 {
                    count += 1
                    // Skip the group: its begin mark brings the walk back to depth 0.
                    index -= length + 1
                    continue
                }
                depth += 1
            case .begin:
                depth -= 1
            case .singleton:
                // A collapsed begin, action, end: counted as its end mark, depth unchanged.
                if depth == 0 { count += 1 }
            case .action:
                break
            }
            index -= 1
        }
        return count
    }
}
