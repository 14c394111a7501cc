/// One undo or redo stack, stored as Apple stores it (spec B): a flat sequence of group marks
/// and actions, oldest first, so nested groups keep their structure, empty groups survive,
/// and "the outermost open group" is well defined.
///
/// Layout choices, all for the benchmark issue's memory and speed targets:
/// - an entry is 32 bytes and holds its step inline (``UndoStep``: the target's identity, so
///   that `removeAllActions(withTarget:)` scans contiguous memory instead of chasing pointers,
///   and the handler itself), so recording a closure that captures nothing allocates nothing;
/// - an end mark records how far back its begin mark is, so reaching a closed group's
///   metadata or popping it is O(1);
/// - a closed group holding exactly one action and no metadata collapses into one
///   `.singleton` entry, which is observably identical to begin, action, end;
/// - trimming the oldest group advances `head` instead of shifting the array, compacting only
///   when the dead prefix outweighs the live part, so `levelsOfUndo` costs O(1) amortized;
/// - the entries live in the manager's ``TwinStackBuffer``, shared with the other stack and
///   growing towards it, so steps moving between the stacks reuse memory already touched;
///   the other buffers are ``StackBuffer``s; neither is an array, so no mutation asks
///   whether its storage is shared (the stack is not copyable, so it never is).
struct UndoStack: ~Copyable {
    enum Entry {
        /// Opens a group; the metadata is allocated on first write.
        case begin(GroupMetadata?)
        /// Closes the group whose begin mark is `length` entries earlier.
        case end(length: Int)
        /// An action inside the innermost group open at the time it was pushed.
        ///
        /// The step's fields as separate values rather than one ``UndoStep``, so that a scan
        /// can bind the target identity alone (`case .action(let id, _, _)`) without copying,
        /// and so retaining, the owner and the handler's context.
        case action(ObjectIdentifier, UndoStepOwner, ErasedHandler)
        /// A closed group made of one action and no metadata.
        case singleton(ObjectIdentifier, UndoStepOwner, ErasedHandler)

        static func action(_ step: consuming UndoStep) -> Entry {
            .action(step.targetID, step.owner, step.handler)
        }

        static func singleton(_ step: consuming UndoStep) -> Entry {
            .singleton(step.targetID, step.owner, step.handler)
        }

        /// The step of an action or singleton entry.
        var step: UndoStep? {
            switch self {
            case .action(let id, let owner, let handler), .singleton(let id, let owner, let handler):
                UndoStep(targetID: id, owner: owner, handler: handler)
            case .begin, .end:
                nil
            }
        }

        /// A kind test that binds no payload, so that it copies (retains) nothing.
        var isSingleton: Bool {
            if case .singleton = self { true } else { false }
        }
    }

    /// This stack's side of the manager's ``TwinStackBuffer``.
    var entries: StackEntries
    /// Entries before `head` were trimmed; they hold payload-free placeholders.
    var head = 0
    /// Indices of the begin marks of the open groups, outermost first.
    var openBegins = StackBuffer<Int>()
    /// Top-level groups, counting an open top-level group (Apple's `count`).
    var topLevelCount = 0
    /// The ids of the closed top-level groups, oldest first: this stack's side of the step
    /// ledger's path (see ``SharedLedger``).
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
    /// history tree, and the manager trims the tree itself (`UndoManager+HistoryTree.swift`),
    /// so this stack's own trimming stands aside.
    var limitsApplyToTree = false {
        didSet { updateTrimsOnClose() }
    }
    /// Whether a top-level close must check a limit: one test on the close path for both.
    private(set) var trimsOnClose = false

    private mutating func updateTrimsOnClose() {
        trimsOnClose = !limitsApplyToTree && (limit > 0 || costLimit > 0)
    }
    /// The sum of the costs of the top-level groups on this stack, open ones included (see
    /// `UndoStack+Cost.swift`).
    var totalCost = 0
    /// The part of the step ledger shared with the other stack: step ids and the clean mark.
    private let sharedLedger: UnsafeMutablePointer<SharedLedger>

    var ledger: SharedLedger {
        unsafeAddress { UnsafePointer(sharedLedger) }
        nonmutating unsafeMutableAddress { sharedLedger }
    }
    /// Entries taken off the stack but not yet released.
    ///
    /// Releasing an action can run any `deinit` (an object captured by its handler), and a
    /// `deinit` may call back into the manager, for example `removeAllActions(withTarget:)`,
    /// as Apple recommends. So no mutation releases entries in place: it parks them here,
    /// and the manager releases them once the stacks are consistent again
    /// (``UndoManager/releaseDroppedEntries()``).
    var dropped = StackBuffer<Entry>()

    /// Whether this is the undo stack (the redo stack is the other one).
    let isUndoStack: Bool

    init(entries: StackEntries, ledger: UnsafeMutablePointer<SharedLedger>, isUndoStack: Bool) {
        self.entries = entries
        sharedLedger = ledger
        self.isUndoStack = isUndoStack
    }

    var nesting: Int { openBegins.count }
    var isEmpty: Bool { entries.count == head }

    /// True when the newest entry closes a group, which `undoNestedGroup()` and `redo()`
    /// require.
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
        if openBegins.isEmpty {
            topLevelCount += 1
        }
        openBegins.append(entries.count)
        entries.append(.begin(nil))
    }

    mutating func pushAction(_ step: consuming UndoStep) {
        assert(!openBegins.isEmpty, "an action needs an open group")
        entries.append(.action(step))
    }

    /// Closes the innermost open group.
    ///
    /// A top-level group that stays is a step: the step being undone or redone, under its
    /// id, or a new one (see ``SharedLedger``).
    ///
    /// - Parameter discardIfEmpty: drop the group instead of keeping it when nothing was
    ///   pushed into it (how an undo's redo group closes, spec R19.8).
    /// - Returns: whether the group was empty.
    @discardableResult
    mutating func closeGroup(discardIfEmpty: Bool) -> Bool {
        let begin = openBegins.removeLast()
        let length = entries.count - begin
        let closesTopLevel = openBegins.isEmpty
        if length == 1 {
            if discardIfEmpty {
                let begin = entries.removeLast()
                if closesTopLevel {
                    topLevelCount -= 1
                    // Its cost left with it (undo copies the undone group's metadata, cost
                    // included, to the redo group it builds).
                    if case .begin(let metadata?) = begin {
                        totalCost -= metadata.cost
                    }
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

    /// Rewrites a closed group of exactly one action and no metadata, begin mark at `begin`
    /// and action on top, as one `.singleton` entry; `false`, changing nothing, for any other
    /// two entries.
    ///
    /// Through pointers, so that the kind tests copy nothing and the action is moved, not
    /// copied: subscript reads of a 32-byte entry retain its references, and the optimizer
    /// does not remove those retains.
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

    // MARK: Popping and trimming

    /// Index of the first entry of the closed group whose last entry is at `last`.
    func groupStart(endingAt last: Int) -> Int {
        switch entries[last] {
        case .end(let length): return last - length
        case .singleton: return last
        case .begin, .action: preconditionFailure("UndoStack: no closed group ends at \(last)")
        }
    }

    /// Removes the newest entry's closed group (top-level or nested in an open group) if it
    /// is a singleton, and returns its step; the common case of undo and redo, with no
    /// allocation.
    mutating func popNewestSingleton() -> UndoStep? {
        guard entries.pointer(at: entries.count - 1).pointee.isSingleton,
              case .singleton(let id, let owner, let handler) = entries.removeLast() else { return nil }
        if openBegins.isEmpty {
            topLevelCount -= 1
            ledger.stepWillMove(fromUndoStack: isUndoStack)
        }
        return UndoStep(targetID: id, owner: owner, handler: handler)
    }

    /// Removes the newest entry's closed group (top-level or nested in an open group),
    /// leaving its entries in place for an undo or redo to run (see ``StackEntries/detachSuffix(from:)``): they come off the newest first
    /// with ``StackEntries/popDetached()``, and ``finishDetachedGroup()`` ends it.
    mutating func detachNewestGroup() {
        entries.detachSuffix(from: takeNewestGroup())
    }

    /// Ends a detached group, parking what is left of it (a step aborted the run) in
    /// ``dropped`` for release.
    mutating func finishDetachedGroup() {
        entries.finishDetached(movingRemainsTo: &dropped)
    }

    /// The bookkeeping of taking the newest entry's closed group off; returns where it starts.
    private mutating func takeNewestGroup() -> Int {
        let start = groupStart(endingAt: entries.count - 1)
        if openBegins.isEmpty {
            topLevelCount -= 1
            ledger.stepWillMove(fromUndoStack: isUndoStack)
            if case .begin(let metadata?) = entries[start] {
                totalCost -= metadata.cost
            }
        }
        return start
    }

    /// Removes the open group if it is the only one open, is top-level and holds nothing;
    /// returns whether it did. Its begin mark is parked in `dropped`.
    mutating func removeEmptyOpenTopLevelGroup() -> Bool {
        guard openBegins.count == 1, let begin = openBegins.first, begin == entries.count - 1 else { return false }
        _ = openBegins.removeLast()
        let mark = entries.removeLast()
        if case .begin(let metadata?) = mark {
            totalCost -= metadata.cost
        }
        dropped.append(mark)
        topLevelCount -= 1
        return true
    }

    mutating func removeAll() {
        // A group an undo or redo is running goes too (the run stops: see
        // `invocationWasAborted`).
        entries.finishDetached(movingRemainsTo: &dropped)
        entries.moveSuffix(from: 0, appendingTo: &dropped)
        openBegins.removeAll()
        head = 0
        topLevelCount = 0
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

    /// After a top-level group closed: `levelsOfUndo` drops the oldest group once (spec R10),
    /// then the byte budget drops oldest groups until the total fits, never the one just
    /// closed.
    mutating func trimAfterTopLevelClose() {
        if limit > 0 && topLevelCount > limit {
            dropOldestGroup()
        }
        trimToCostLimit()
    }

    /// Drops the oldest top-level group. It is never the open one: the caller only trims
    /// when more than one top-level group exists, and an open group is always the newest.
    mutating func dropOldestGroup() {
        // The clean mark is lost if it is on the dropped step, or at the start, below it.
        if ledger.cleanMark == .start && isUndoStack {
            ledger.cleanMark = .unreachable
        }
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
            // Parks the action or metadata for release rather than keeping it until the next
            // compaction.
            dropped.append(exchange(&entries[index], with: .end(length: 0)))
            index += 1
        } while depth > 0
        head = index
        topLevelCount -= 1
        ledger.stepLeft(steps.removeFirst())
        if head >= 64 && head * 2 >= entries.count {
            entries.removeSubrange(0..<head)
            for i in openBegins.indices {
                openBegins[i] -= head
            }
            head = 0
        }
    }

    // MARK: Metadata

    /// Apple's top-level mark (spec B, `TM`): the outermost open group if one is open,
    /// otherwise the newest closed top-level group.
    var topMetadata: GroupMetadata? {
        // Inlined into undo and redo, which read it on every call; left to the optimizer, the
        // getter stopped being inlined there once they grew by the clean mark's few lines.
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

    /// Replaces the outermost open group's metadata (how undo and redo carry a group's name,
    /// flag and user info across stacks).
    mutating func replaceOpenTopMetadata(with metadata: GroupMetadata?) {
        let old = exchange(&entries[openBegins[0]], with: .begin(metadata?.copy()))
        // The cost travels with the metadata, so the open group's count changes with it.
        if case .begin(let oldMetadata?) = old {
            totalCost -= oldMetadata.cost
        }
        if let metadata {
            totalCost += metadata.cost
        }
        dropped.append(old)
    }

    // MARK: Counting

    /// Apple's `undoCount`/`redoCount` (spec R26): walking from the newest entry, the end
    /// marks met at relative depth 0, where an end mark deepens the walk by one and a begin
    /// mark raises it by one.
    ///
    /// With no group open that is the number of closed top-level groups, kept as a count, so
    /// O(1). With a group open, the walk starts inside it and goes on below its begin mark at
    /// negative depth: it counts the closed groups directly inside the innermost open group,
    /// but also, for example, the groups nested one level inside a closed group that sits
    /// beside an open one (Apple counts 1 after `beginUndoGrouping()`, `endUndoGrouping()`,
    /// `endUndoGrouping()`, `beginUndoGrouping()` while grouping by event).
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
                    // Everything inside is deeper, and its begin mark brings the walk back to
                    // depth 0: skip to just before that begin mark.
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
