/// Where ``UndoManager/markClean()`` left the clean mark, named by step (see ``StepID``).
///
/// A position in the history is "after the newest step on the undo stack", so the mark names
/// that step: the manager is clean exactly when the undo stack's newest step is the marked one,
/// wherever the step has been meanwhile (undone to the redo stack, or kept on a branch of the
/// history tree, from where ``UndoManager/go(to:)`` brings it back). Moving steps never
/// changes the mark; what cuts the path to it does (a step on that path removed or trimmed,
/// an undo that could not keep its inverse, a redo that recorded none), and makes it
/// `unreachable` until the next ``UndoManager/markClean()``.
enum CleanMark: Equatable {
    /// Before the first step: clean when the undo stack holds no closed step.
    case start
    /// After this step.
    case step(StepID)
    /// After the top-level group open on the undo stack, which is no step yet: clean while
    /// it is open; its close as a step (or its merge into the step below) names the step.
    case openGroup
    /// Nowhere reachable.
    case unreachable

    /// Whether the manager is at the mark, `current` being the undo stack's newest step.
    @inline(__always)
    func isAt(_ current: StepID?) -> Bool {
        switch self {
        case .start: current == nil
        case .step(let id): current == id
        case .openGroup: true
        case .unreachable: false
        }
    }

    /// Whether removing the steps at `ordinals` of a stack whose ledger is `steps` takes a
    /// step the path from the current position to the mark needs: on the undo stack the
    /// marked step or one above it (every step, for a mark at the start), on the redo stack
    /// the marked step or one the redos before it perform. Removing the marked step cuts the
    /// path even though the model is unchanged: the mark names a step that is gone.
    ///
    /// Judged before the removal; a mark on the other stack or on a branch is not cut here.
    func isCut(byRemoving ordinals: [Int], from steps: StackSteps, isUndoStack: Bool) -> Bool {
        guard let newest = ordinals.max() else { return false }
        switch self {
        case .start:
            return isUndoStack
        case .step(let id):
            guard let ordinal = steps.ordinal(of: id) else { return false }
            return newest >= ordinal
        case .openGroup, .unreachable:
            return false
        }
    }

    /// Whether trimming the oldest steps `dropped` loses the mark: it is on one of them, or
    /// at the start, below them.
    func isCut(byDropping dropped: [StepID]) -> Bool {
        switch self {
        case .start: !dropped.isEmpty
        case .step(let id): dropped.contains(id)
        case .openGroup, .unreachable: false
        }
    }
}

/// What a primitive did to the steps: the record a transaction hands its listeners (an
/// ``UndoCoordinator``, the history tree's records) when it settles. See ARCHITECTURE.md, "A
/// transaction's life".
enum StepEdit: Equatable {
    /// Step `id` closed on a stack: a new edit on the undo stack, or the redo step of an undo
    /// nested in an open group on the redo stack.
    case added(StepID, toUndoStack: Bool)
    /// An undo (to the redo stack) or a redo (to the undo stack) moved step `id`.
    case moved(StepID, toUndoStack: Bool)
    /// Step `id` left the stacks and the tree.
    case removed(StepID)
}

/// The step ledger: the ids of the steps on the current path of a manager's history, which
/// both stacks share, with where step ids come from, the clean mark, and the edits of the
/// operation in progress (see ARCHITECTURE.md, "The step ledger").
///
/// The undo stack's closed top-level groups are the path's first `undoCount` steps, oldest
/// first; the redo stack's are the rest, the next redo first. So an undo or redo moves no id:
/// the step it takes off one stack is already where it lands on the other, and its group's
/// close only moves the boundary (``stepClosed(onUndoStack:)``). Each stack reads its side
/// through ``UndoStack/steps``.
struct SharedLedger: ~Copyable {
    /// An undo or redo that has taken its step off one stack, until the group it builds on
    /// the other closes as that step (or does not: the step leaves, ``endMove()``).
    enum Move: UInt8 {
        case none, undoing, redoing
    }

    /// The steps on the current path: the undo stack's oldest first, then the redo stack's
    /// from the next redo down.
    var path = StepLedger()
    /// How many of `path`'s steps are the undo stack's. While an undo runs, its step (at
    /// `undoCount`) is already past the boundary, on the redo side it lands on.
    var undoCount = 0
    var move = Move.none
    /// The id the next new step gets.
    var nextStepID: UInt64 = 1
    /// See ``CleanMark``. A new manager is clean.
    var cleanMark = CleanMark.start
    /// Whether the primitives record their edits: something listens (see
    /// ``UndoManager/updateStepEditRecording()``).
    var recordsEdits = false
    /// The edits recorded since the operation in progress last settled.
    var edits: [StepEdit] = []

    /// The undo stack's newest step: the current position.
    var current: StepID? {
        @inline(__always) get {
            guard undoCount > 0 else { return nil }
            return undoCount == path.count ? path.last : path[undoCount - 1]
        }
    }

    /// A top-level group closed on a stack (`onUndoStack` or not) as a step: the one an undo
    /// or redo is moving, which lands by moving the boundary, or a new one, on top of that
    /// stack.
    @inline(__always)
    mutating func stepClosed(onUndoStack: Bool) {
        if move != .none && move == (onUndoStack ? .redoing : .undoing) {
            move = .none
            if onUndoStack {
                undoCount &+= 1
            }
            if recordsEdits {
                edits.append(.moved(path[onUndoStack ? undoCount - 1 : undoCount], toUndoStack: onUndoStack))
            }
            return
        }
        let id = StepID(rawValue: nextStepID)
        nextStepID &+= 1
        path.insert(id, at: undoCount)
        if onUndoStack {
            undoCount &+= 1
        }
        if recordsEdits {
            edits.append(.added(id, toUndoStack: onUndoStack))
        }
    }

    /// An undo (`fromUndoStack`) or redo took its stack's newest step off.
    @inline(__always)
    mutating func stepWillMove(fromUndoStack: Bool) {
        if fromUndoStack {
            undoCount &-= 1
            move = .undoing
        } else {
            move = .redoing
        }
    }

    /// Ends the move of the step being undone or redone; returns its id if the group built
    /// for it did not take it (the step left the stacks), `nil` if it landed. The clean mark
    /// is the caller's: how the step left decides (see
    /// ``UndoManager/markCleanAfterStepLeft(_:how:)``).
    @inline(__always)
    mutating func endMove() -> StepID? {
        guard move != .none else { return nil }
        move = .none
        let id = path.remove(at: undoCount)
        if recordsEdits {
            edits.append(.removed(id))
        }
        return id
    }

    /// A new step's id, for a step restored from a saved history.
    mutating func newStepID() -> StepID {
        defer { nextStepID &+= 1 }
        return StepID(rawValue: nextStepID)
    }

    /// Step `id` left the stacks and the tree for good: a mark on it cannot be reached, and
    /// the listeners hear of it.
    @inline(__always)
    mutating func stepLeft(_ id: StepID) {
        if cleanMark == .step(id) {
            cleanMark = .unreachable
        }
        if recordsEdits {
            edits.append(.removed(id))
        }
    }
}

/// One stack's side of the ``SharedLedger``'s path, indexed oldest first: the ids of the
/// stack's closed top-level groups (its steps).
struct StackSteps {
    let ledger: UnsafeMutablePointer<SharedLedger>
    let isUndoStack: Bool

    /// The path index of this side's `ordinal`th step (0: the oldest).
    private func pathIndex(_ ordinal: Int) -> Int {
        isUndoStack ? ordinal : ledger.pointee.path.count - 1 - ordinal
    }

    var count: Int {
        isUndoStack ? ledger.pointee.undoCount : ledger.pointee.path.count - ledger.pointee.undoCount
    }

    var isEmpty: Bool { count == 0 }

    /// The newest step (the undo stack's current position, or the redo stack's next redo).
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
        if isUndoStack {
            ledger.pointee.undoCount -= removed.count
        }
        return removed
    }

    /// Removes the oldest step (the limits trim it) and returns it.
    @discardableResult
    func removeFirst() -> StepID {
        guard isUndoStack else { return ledger.pointee.path.removeLast() }
        ledger.pointee.undoCount -= 1
        return ledger.pointee.path.removeFirst()
    }

    /// Removes the newest step and returns it.
    @discardableResult
    func removeLast() -> StepID {
        guard isUndoStack else { return ledger.pointee.path.remove(at: ledger.pointee.undoCount) }
        ledger.pointee.undoCount -= 1
        return ledger.pointee.path.remove(at: ledger.pointee.undoCount)
    }

    /// Adds `id` as the newest step.
    func append(_ id: StepID) {
        ledger.pointee.path.insert(id, at: ledger.pointee.undoCount)
        if isUndoStack {
            ledger.pointee.undoCount += 1
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
            ledger.pointee.undoCount = 0
            return ledger.pointee.path.removeSubrange(0..<undoCount)
        }
        return ledger.pointee.path.removeSubrange(undoCount..<ledger.pointee.path.count)
    }
}
