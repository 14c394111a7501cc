/// Where ``UndoManager/markClean()`` left the clean mark: after a step, so the manager is
/// clean exactly when that step is the undo stack's newest, wherever it has been meanwhile.
/// Moving steps never changes the mark; cutting the path to it (a step on it removed or
/// trimmed, an undo that kept no inverse, a redo that recorded none) makes it `unreachable`.
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

    /// Whether removing the steps at `ordinals` of the stack whose side is `steps` takes a step
    /// the path to the mark needs: the marked step, or one above it on the undo stack (any,
    /// for a mark at the start), or one the redos before it perform. Judged before the
    /// removal; a mark on the other stack or a branch is not cut here.
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
