/// What a primitive did to the steps, handed to the listeners when the transaction settles
/// (ARCHITECTURE.md, "A transaction's life").
enum StepEdit: Equatable {
    /// Step `id` closed on a stack: a new edit on the undo stack, or the redo step of an undo
    /// nested in an open group on the redo stack.
    case added(StepID, toUndoStack: Bool)
    /// Step `id` closed on a stack as a step restored from a saved history, with its saved id.
    case restored(StepID, toUndoStack: Bool)
    /// An undo (to the redo stack) or a redo (to the undo stack) moved step `id`.
    case moved(StepID, toUndoStack: Bool)
    /// Step `id`, the redo stack's newest, moved off the path onto a branch of the history
    /// tree (a new edit with branches kept, or going to a node on another branch).
    case branched(StepID)
    /// Branch step `id` moved back onto the redo stack as its newest step.
    case unbranched(StepID)
    /// Step `id` left the stacks and the tree.
    case removed(StepID)
    /// A scope's rollback put step `id`, which the scope's new edit had ended, back on the
    /// redo stack where it was, with its id: as if it had never left.
    case putBack(StepID)
    /// A group that declared `parts` (every part, for `nil`) merged into step `id`, the
    /// newest undo step (coalescing): no step closed, but the step changed the model again.
    case merged(StepID, parts: Set<UndoPart>?)
    /// A new edit (spec R4, R10.6) ended redo: a coordinator ends its other members' redo too.
    case newEdit
}

/// The step ledger: the ids of the steps on the current path, shared by both stacks (an undo
/// or redo moves no id, only the boundary), with the next id, the clean mark, and the edits of
/// the operation in progress (ARCHITECTURE.md, "The step ledger").
struct StepLedger: ~Copyable {
    /// An undo or redo that took its step off one stack, until the group it builds on the
    /// other closes as that step (or does not, ``endMove()``). Named by the stack the step
    /// lands on, and numbered so a close tests it with one comparison.
    enum Move: UInt8 {
        case none = 0, ontoRedoStack = 1, ontoUndoStack = 2
    }

    /// The undo stack's steps oldest first, then the redo stack's from the next redo down.
    var path = StepIDRuns()
    /// How many of `path`'s steps, the last ones, are the redo stack's: counted from the end
    /// so the common new step, with nothing to redo, only appends. A step being moved (at
    /// `undoCount`) counts on the redo side.
    var redoCount = 0
    var move = Move.none
    /// The number of the id the next new step gets. Written only by the ledger's own methods
    /// below, so that no id is given twice: a restore reserves the saved ids and closes its
    /// steps as them, a rollback rewinds over ids that no step holds any more.
    private var nextNumber: UInt64 = 1
    /// While a restore closes its steps as their saved ids: the number new ids continue
    /// from afterwards; 0 otherwise.
    private var numberAfterRestoring: UInt64 = 0
    /// The clean mark's owner, with the marks the scopes in progress saved: changed only
    /// through its methods (``CleanMarkKeeper``).
    var cleanMarkKeeper = CleanMarkKeeper()
    /// Where the clean mark is (see ``CleanMark``).
    var cleanMark: CleanMark {
        @inline(__always) get { cleanMarkKeeper.mark }
    }
    /// Whether the primitives record their edits: something listens.
    var recordsEdits = false
    /// The edits recorded since the operation in progress last settled.
    var edits: [StepEdit] = []

    /// How many of `path`'s steps are the undo stack's: the first ones.
    var undoCount: Int {
        @inline(__always) get { path.count &- redoCount }
    }

    /// The undo stack's newest step: the current position.
    var current: StepID? {
        @inline(__always) get {
            guard undoCount > 0 else { return nil }
            return redoCount == 0 ? path.last : path[undoCount - 1]
        }
    }

    /// A top-level group closed as a step on one stack: the step an undo or redo is moving,
    /// which lands by moving the boundary, or a new one.
    @inline(__always)
    mutating func stepClosed(onUndoStack: Bool) {
        if move.rawValue == (onUndoStack ? Move.ontoUndoStack : .ontoRedoStack).rawValue {
            move = .none
            if onUndoStack {
                redoCount &-= 1
            }
            if recordsEdits {
                edits.append(.moved(path[onUndoStack ? undoCount - 1 : undoCount], toUndoStack: onUndoStack))
            }
            return
        }
        let id = StepID(rawValue: nextNumber)
        nextNumber &+= 1
        path.insert(id, at: undoCount)
        if !onUndoStack {
            redoCount &+= 1
        }
        if recordsEdits {
            edits.append(numberAfterRestoring == 0 ? .added(id, toUndoStack: onUndoStack) : .restored(id, toUndoStack: onUndoStack))
        }
    }

    /// An undo (`fromUndoStack`) or redo took its stack's newest step off.
    @inline(__always)
    mutating func stepWillMove(fromUndoStack: Bool) {
        redoCount &+= fromUndoStack ? 1 : 0
        move = fromUndoStack ? .ontoRedoStack : .ontoUndoStack
    }

    /// Ends the move of the step being undone or redone: its id if it left the stacks (the
    /// group built for it did not take it), `nil` if it landed. The caller judges the clean
    /// mark (``CleanMarkKeeper/stepLeftByUndoOrRedo(_:how:undoSteps:redoSteps:)``).
    @inline(__always)
    mutating func endMove() -> StepID? {
        guard move != .none else { return nil }
        move = .none
        let id = path.remove(at: undoCount)
        redoCount &-= 1
        if recordsEdits {
            edits.append(.removed(id))
        }
        return id
    }

    /// The redo stack's newest step `id` moved onto a branch of the history tree.
    mutating func stepBranched(_ id: StepID) {
        if recordsEdits {
            edits.append(.branched(id))
        }
    }

    /// Branch step `id` moved back onto the redo stack.
    mutating func stepUnbranched(_ id: StepID) {
        if recordsEdits {
            edits.append(.unbranched(id))
        }
    }

    /// A rollback put redo step `id` back (``StepEdit/putBack(_:)``).
    mutating func stepPutBack(_ id: StepID) {
        if recordsEdits {
            edits.append(.putBack(id))
        }
    }

    /// A group that declared `parts` merged into step `id` (coalescing).
    mutating func stepMerged(_ id: StepID, parts: Set<UndoPart>?) {
        if recordsEdits {
            edits.append(.merged(id, parts: parts))
        }
    }

    /// A new edit ended redo (``StepEdit/newEdit``).
    mutating func newEditMade() {
        if recordsEdits {
            edits.append(.newEdit)
        }
    }

    // MARK: Giving ids

    /// The id the next new step gets.
    var nextStepID: StepID {
        StepID(rawValue: numberAfterRestoring == 0 ? nextNumber : numberAfterRestoring)
    }

    /// A new step's id, for a step restored from a saved history without one.
    mutating func newStepID() -> StepID {
        defer { nextNumber &+= 1 }
        return StepID(rawValue: nextNumber)
    }

    /// Keeps the ids up to `highest` (a saved history's) from being given as new ones.
    mutating func reserveIDs(through highest: StepID?) {
        guard let highest else { return }
        nextNumber = max(nextNumber, highest.rawValue &+ 1)
    }

    /// The next step to close (a restored one) takes `id`, reserved or given before, instead
    /// of a new id, until ``endRestoring()``.
    mutating func closeNextStep(as id: StepID) {
        if numberAfterRestoring == 0 {
            numberAfterRestoring = nextNumber
        }
        precondition(id.rawValue < numberAfterRestoring, "StepLedger: restoring \(id), an id not reserved")
        nextNumber = id.rawValue
    }

    /// The restored steps are closed: new ids continue after every id given or reserved.
    mutating func endRestoring() {
        guard numberAfterRestoring != 0 else { return }
        nextNumber = numberAfterRestoring
        numberAfterRestoring = 0
    }

    /// A rollback took back every step closed since `next` was the next id: new steps get the
    /// ids they would have had without it. No step on the path may hold one of those ids.
    mutating func rewindStepIDs(to next: StepID) {
        #if DEBUG
        // O(steps): checked in debug builds, as the invariants are.
        precondition(path.ids.allSatisfy { $0 < next }, "StepLedger: rewinding to \(next) over a step that holds a later id")
        #endif
        nextNumber = next.rawValue
    }

    /// Step `id` left the stacks and the tree for good: the clean mark's keeper and the
    /// listeners hear of it.
    @inline(__always)
    mutating func stepLeft(_ id: StepID) {
        cleanMarkKeeper.stepLeft(id)
        if recordsEdits {
            edits.append(.removed(id))
        }
    }
}

/// One stack's side of the ``StepLedger``'s path, oldest first: the ids of its steps.
struct StackSteps {
    let ledger: UnsafeMutablePointer<StepLedger>
    let isUndoStack: Bool

    /// The path index of this side's `ordinal`th step (0: the oldest).
    private func pathIndex(_ ordinal: Int) -> Int {
        isUndoStack ? ordinal : ledger.pointee.path.count - 1 - ordinal
    }

    var count: Int {
        isUndoStack ? ledger.pointee.undoCount : ledger.pointee.redoCount
    }

    var isEmpty: Bool { count == 0 }

    /// The undo stack's current position, or the redo stack's next redo.
    var last: StepID? {
        if isUndoStack { return ledger.pointee.current }
        return count == 0 ? nil : ledger.pointee.path[ledger.pointee.undoCount]
    }

    /// The oldest step.
    var first: StepID? {
        count == 0 ? nil : ledger.pointee.path[pathIndex(0)]
    }

    /// Every step, oldest first. O(count).
    var ids: [StepID] {
        let path = ledger.pointee.path.ids
        let undoCount = ledger.pointee.undoCount
        return isUndoStack ? Array(path[..<undoCount]) : path[undoCount...].reversed()
    }

    subscript(ordinal: Int) -> StepID {
        ledger.pointee.path[pathIndex(ordinal)]
    }

    /// Where `id` is on this side (0: the oldest), or `nil`. O(runs).
    func ordinal(of id: StepID) -> Int? {
        guard let index = ledger.pointee.path.index(of: id) else { return nil }
        let undoCount = ledger.pointee.undoCount
        if isUndoStack {
            return index < undoCount ? index : nil
        }
        return index >= undoCount ? ledger.pointee.path.count - 1 - index : nil
    }

    func contains(_ id: StepID) -> Bool {
        ordinal(of: id) != nil
    }

    /// Removes the steps at `ordinals` (ascending) and returns them.
    @discardableResult
    func remove(atOrdinals ordinals: [Int]) -> [StepID] {
        let removed = ledger.pointee.path.remove(at: ordinals.map(pathIndex).sorted())
        if !isUndoStack {
            ledger.pointee.redoCount -= removed.count
        }
        return removed
    }

    /// Removes the oldest step (the limits trim it) and returns it.
    @discardableResult @inline(__always)
    func removeFirst() -> StepID {
        guard isUndoStack else {
            ledger.pointee.redoCount -= 1
            return ledger.pointee.path.removeLast()
        }
        return ledger.pointee.path.removeFirst()
    }

    /// Removes the newest step and returns it.
    @discardableResult
    func removeLast() -> StepID {
        let index = ledger.pointee.undoCount - (isUndoStack ? 1 : 0)
        if !isUndoStack {
            ledger.pointee.redoCount -= 1
        }
        return ledger.pointee.path.remove(at: index)
    }

    /// Adds `id` as the newest step.
    func append(_ id: StepID) {
        ledger.pointee.path.insert(id, at: ledger.pointee.undoCount)
        if !isUndoStack {
            ledger.pointee.redoCount += 1
        }
    }

    /// Adds `ids` (oldest first) as the newest steps.
    func append(contentsOf ids: [StepID]) {
        for id in ids {
            append(id)
        }
    }

    /// Removes every step of this side and returns them, in path order.
    @discardableResult
    func removeAll() -> [StepID] {
        let undoCount = ledger.pointee.undoCount
        if isUndoStack {
            return ledger.pointee.path.removeSubrange(0..<undoCount)
        }
        ledger.pointee.redoCount = 0
        return ledger.pointee.path.removeSubrange(undoCount..<ledger.pointee.path.count)
    }
}
