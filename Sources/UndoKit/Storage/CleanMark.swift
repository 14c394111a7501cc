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
    func isCut(byRemoving ordinals: [Int], from steps: borrowing StepLedger, isUndoStack: Bool) -> Bool {
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

/// The part of the step ledger both stacks share (see ``StepLedger``): where step ids come
/// from, the step an undo or redo is moving from one stack to the other, the clean mark, and
/// the edits of the transaction in progress.
struct SharedLedger {
    /// The id the next new step gets.
    var nextStepID: UInt64 = 1
    /// The id of the step being undone or redone, until the group built for it closes as a
    /// step and takes it; 0 for none.
    var movingStepID: UInt64 = 0
    /// See ``CleanMark``. A new manager is clean.
    var cleanMark = CleanMark.start
    /// Whether the primitives record their edits: something listens (see
    /// ``UndoManager/stepEditsAreRecorded``).
    var recordsEdits = false
    /// The edits recorded since the transaction last settled.
    var edits: [StepEdit] = []

    /// The id a top-level group closing as a step on a stack (`ontoUndoStack` or not) gets:
    /// the moving step's, or a new one.
    @inline(__always)
    mutating func takeStepID(ontoUndoStack: Bool) -> StepID {
        let id: StepID
        let moved = movingStepID != 0
        if moved {
            id = StepID(rawValue: movingStepID)
            movingStepID = 0
        } else {
            id = StepID(rawValue: nextStepID)
            nextStepID &+= 1
        }
        if recordsEdits {
            edits.append(moved ? .moved(id, toUndoStack: ontoUndoStack) : .added(id, toUndoStack: ontoUndoStack))
        }
        return id
    }

    /// A new step's id, for a step restored from a saved history.
    mutating func newStepID() -> StepID {
        defer { nextStepID &+= 1 }
        return StepID(rawValue: nextStepID)
    }

    /// Ends the move of the step being undone or redone; returns its id if the group built
    /// for it did not take it (the step left the stacks), `nil` if it landed.
    @inline(__always)
    mutating func endMove() -> StepID? {
        guard movingStepID != 0 else { return nil }
        let id = StepID(rawValue: movingStepID)
        movingStepID = 0
        // The clean mark is the caller's: how the step left decides (see
        // ``UndoManager/markCleanAfterStepLeft(_:how:)``).
        if recordsEdits {
            edits.append(.removed(id))
        }
        return id
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
