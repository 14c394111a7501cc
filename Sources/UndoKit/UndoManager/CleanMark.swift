/// Where ``UndoManager/markClean()`` left the clean mark: after a step, so the manager is
/// clean exactly when that step is the undo stack's newest, wherever it has been meanwhile.
/// Moving steps never changes the mark; cutting the path to it (a step on it removed or
/// trimmed, an undo that kept no inverse, a redo that recorded none) makes it `unreachable`.
/// ``CleanMarkKeeper`` keeps it.
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
}

/// The clean mark's one owner: the manager's mark, the marks the scopes in progress put back
/// if they roll back, and every rule that moves or cuts them as steps close, merge, move and
/// leave. Stored in the ledger (``StepLedger/cleanMarkKeeper``), read through
/// ``StepLedger/cleanMark``, and changed only through the mutating methods here: the
/// primitives and operations say what happened, the keeper decides what it does to the marks.
/// The small ones are inline: a close, an undo and a redo pay what a direct write did.
struct CleanMarkKeeper {
    /// Where the manager's mark is. A new manager is clean.
    private(set) var mark = CleanMark.start

    /// A keeper of `mark`: a new manager's (clean), or a saved history's mark, which the same
    /// rules move when the history is trimmed (``UndoHistory/keepNewestUndoSteps(_:)``).
    init(mark: CleanMark = .start) {
        self.mark = mark
    }
    /// The marks the scopes in progress (``UndoManager/withUndoGroup(named:_:)``) had when
    /// they began, outermost first, one per savepoint: what a rollback puts back, less what
    /// the scope's removals and trims cut meanwhile.
    private(set) var scopeMarks: [CleanMark] = []

    // MARK: Marking

    /// ``UndoManager/markClean()``: after the open top-level group if one is open
    /// (`groupIsOpen`), or else after `current`, the undo stack's newest step.
    mutating func markClean(groupIsOpen: Bool, current: StepID?) {
        mark = groupIsOpen ? .openGroup : current.map(CleanMark.step) ?? .start
    }

    /// The open top-level group closed as a new step, now `current`: a mark set while it
    /// was open names that step. Every close calls it: `current` is read only for such a mark.
    @inline(__always)
    mutating func openGroupClosed(asStep current: @autoclosure () -> StepID?) {
        if case .openGroup = mark {
            mark = current().map(CleanMark.step) ?? .start
        }
    }

    /// The open top-level group merged into step `merged` (coalescing): a mark set while it
    /// was open is after the merged step; one at the merged step is lost, that state being
    /// gone.
    mutating func openGroupMerged(into merged: StepID) {
        if mark == .step(merged) {
            mark = .unreachable
        } else if mark == .openGroup {
            mark = .step(merged)
        }
    }

    /// `removeAllActions()`: a clean manager stays clean (the empty stack is its position);
    /// otherwise every step that led to the mark is gone.
    mutating func allStepsRemoved(wasClean: Bool) {
        mark = wasClean ? .start : .unreachable
    }

    // MARK: Steps that leave

    /// Step `id` left the stacks and the tree for good: a mark on it is unreachable.
    @inline(__always)
    mutating func stepLeft(_ id: StepID) {
        if case .step(id) = mark {
            mark = .unreachable
        }
    }

    /// The oldest step of the undo stack (`fromUndoStack`) or of the redo stack is about to
    /// be trimmed: a mark at the start, below it, is lost (one on it is lost as it leaves,
    /// ``stepLeft(_:)``).
    @inline(__always)
    mutating func oldestStepWillBeTrimmed(fromUndoStack: Bool) {
        if case .start = mark, fromUndoStack {
            mark = .unreachable
        }
    }

    /// The steps at `ordinals` of the stack whose side is `steps` are about to be removed (a
    /// removal of a target's actions emptied them): the manager's mark, and the marks of the
    /// scopes at `judgedScopes`, are lost if the path to them needs one of those steps.
    mutating func stepsWillBeRemoved(atOrdinals ordinals: [Int], from steps: StackSteps, isUndoStack: Bool, judgedScopes: [Int]) {
        if Self.isCut(mark, byRemoving: ordinals, from: steps, isUndoStack: isUndoStack) {
            mark = .unreachable
        }
        for index in judgedScopes where Self.isCut(scopeMarks[index], byRemoving: ordinals, from: steps, isUndoStack: isUndoStack) {
            scopeMarks[index] = .unreachable
        }
    }

    /// Whether removing the steps at `ordinals` of the stack whose side is `steps` takes a step
    /// the path to `mark` needs: the marked step, or one above it on the undo stack (any,
    /// for a mark at the start), or one the redos before it perform. Judged before the
    /// removal; a mark on the other stack or a branch is not cut here.
    private static func isCut(_ mark: CleanMark, byRemoving ordinals: [Int], from steps: StackSteps, isUndoStack: Bool) -> Bool {
        guard let newest = ordinals.max() else { return false }
        switch mark {
        case .start:
            return isUndoStack
        case .step(let id):
            guard let ordinal = steps.ordinal(of: id) else { return false }
            return newest >= ordinal
        case .openGroup, .unreachable:
            return false
        }
    }

    /// Step `step` left the stacks by an undo or redo (`how`) instead of landing on the other
    /// stack: the mark is lost if the path to it needed the step, or (a redo that recorded
    /// nothing) if the model left a mark below with no step back; such a redo of the marked
    /// step itself arrives at the mark, now the current position. Marks on branches are the
    /// history tree's to judge (``pathToMarkWasCut()``).
    mutating func stepLeftByUndoOrRedo(_ step: StepID, how: UndoManager.StepExit, undoSteps: StackSteps, redoSteps: StackSteps) {
        guard case .step(let marked) = mark else {
            if mark == .start && how == .appliedWithoutStep {
                mark = .unreachable
            }
            return
        }
        switch how {
        case .reverted, .absorbed:
            if marked == step || redoSteps.contains(marked) {
                mark = .unreachable
            }
        case .appliedWithoutStep:
            if marked == step {
                mark = undoSteps.last.map(CleanMark.step) ?? .start
            } else if undoSteps.contains(marked) {
                mark = .unreachable
            }
        }
    }

    /// The redo steps `redoSteps` are about to end (a new edit ends them, or branches them
    /// off), or an undo nested in an open group changed the state they start from: a mark
    /// among them is lost.
    mutating func redoStepsWillEnd(_ redoSteps: StackSteps) {
        if case .step(let marked) = mark, redoSteps.contains(marked) {
            mark = .unreachable
        }
    }

    /// The history tree found the path to the mark, on a branch or among the steps it
    /// dropped, cut: nothing can reach it now.
    mutating func pathToMarkWasCut() {
        mark = .unreachable
    }

    // MARK: Scopes

    /// A scope began: its rollback puts the mark back as it is now.
    mutating func scopeBegan() {
        scopeMarks.append(mark)
    }

    /// The innermost scope succeeded: its saved mark goes.
    mutating func scopeSucceeded() {
        scopeMarks.removeLast()
    }

    /// The innermost scope rolled back: its saved mark is the mark again.
    mutating func scopeRolledBack() {
        mark = scopeMarks.removeLast()
    }

    /// Once the rollback is done: a mark on a step that left meanwhile (a branch step
    /// trimmed or emptied) is lost.
    mutating func loseMarkOnStepThatLeft(stepExists: (StepID) -> Bool) {
        if case .step(let id) = mark, !stepExists(id) {
            mark = .unreachable
        }
    }

    /// A limit's setter trimmed the oldest steps `dropped`, older than every scope: a saved
    /// mark on one of them, or at the start below them, is lost.
    mutating func scopesSawTrim(dropping dropped: [StepID]) {
        for index in scopeMarks.indices {
            let isCut = switch scopeMarks[index] {
            case .start: !dropped.isEmpty
            case .step(let id): dropped.contains(id)
            case .openGroup, .unreachable: false
            }
            if isCut {
                scopeMarks[index] = .unreachable
            }
        }
    }

    /// A removal took steps out of the history tree: the saved mark of each scope whose mark
    /// is on a branch step `isJudged` accepts (one of the branches before the removal, not
    /// among the redo steps the scope parked) is lost if `cutsPath` says the path to it is cut.
    mutating func scopesSawTreeRemoval(isJudged: (_ scope: Int, _ mark: StepID) -> Bool, cutsPath: (StepID) -> Bool) {
        for index in scopeMarks.indices {
            guard case .step(let marked) = scopeMarks[index], isJudged(index, marked), cutsPath(marked) else { continue }
            scopeMarks[index] = .unreachable
        }
    }

    // MARK: Restoring

    /// A saved history was restored: its mark is `saved` (`nil`: at the position it was
    /// taken in, now `current`); one on a step the manager does not have is unreachable.
    mutating func restore(_ saved: CleanMark?, current: StepID?, stepExists: (StepID) -> Bool) {
        guard let saved else {
            mark = current.map(CleanMark.step) ?? .start
            return
        }
        if case .step(let id) = saved, !stepExists(id) {
            mark = .unreachable
            return
        }
        mark = saved
    }
}
