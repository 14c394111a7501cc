/// Stale steps and the policy for them (spec K3). Nothing here runs for a manager that never
/// noted a change, or whose policy is ``StaleStepPolicy/run``: the undo and redo paths test
/// one flag (`UndoManagerStorage.checksStaleSteps`).
extension UndoManager {
    /// What ``undo()`` and ``redo()`` do when the step they would run is stale. The default,
    /// ``StaleStepPolicy/run``, runs it, as every undo manager always has.
    ///
    /// ```swift
    /// manager.staleStepPolicy = .refuse
    /// manager.noteChanges(to: ["title"], origin: "Bob")
    /// manager.canUndo          // false if the newest step touched "title"
    /// manager.staleUndoStep    // which step, and what changed since
    /// ```
    public var staleStepPolicy: StaleStepPolicy {
        get { state.staleStepPolicy }
        set {
            state.staleStepPolicy = newValue
            updateStaleStepChecks()
            publishObservableChanges()
        }
    }

    /// The step ``undo()`` would undo next, if it is stale: its name and parts, and what
    /// changed since it was done. `nil` if it is not stale, or there is none. Whatever the
    /// policy; under ``StaleStepPolicy/skip`` it is the step the undo would drop first.
    ///
    /// ```swift
    /// if let stale = manager.staleUndoStep {
    ///     status = "Can't undo \(stale.actionName): changed by \(stale.origins.joined(separator: ", "))"
    /// }
    /// ```
    public var staleUndoStep: StaleStep? {
        trackRead(.staleUndoStep, \.staleUndoStep)
        return staleStep(onUndoStack: true)
    }

    /// The step ``redo()`` would redo next, if it is stale; see ``staleUndoStep``.
    ///
    /// ```swift
    /// manager.staleRedoStep?.changes   // [UndoChange(part: item:4, origin: "Bob")]
    /// ```
    public var staleRedoStep: StaleStep? {
        trackRead(.staleRedoStep, \.staleRedoStep)
        return staleStep(onUndoStack: false)
    }

    /// Drops the step ``undo()`` would undo next, without running it: its changes stay, and
    /// the step before it becomes the next undo. How to get past a stale step under the
    /// ``StaleStepPolicy/refuse`` policy; works on any step.
    ///
    /// ```swift
    /// if manager.staleUndoStep != nil {
    ///     manager.removeNextUndoStep()   // keep Bob's change, undo what came before
    /// }
    /// ```
    ///
    /// - Precondition: No group is open, and no undo or redo is in progress.
    public func removeNextUndoStep() {
        removeNextStep(onUndoStack: true, in: "removeNextUndoStep()")
    }

    /// Drops the step ``redo()`` would redo next, without running it; see
    /// ``removeNextUndoStep()``.
    ///
    /// ```swift
    /// manager.removeNextRedoStep()
    /// ```
    ///
    /// - Precondition: No group is open, and no undo or redo is in progress.
    public func removeNextRedoStep() {
        removeNextStep(onUndoStack: false, in: "removeNextRedoStep()")
    }

    // MARK: Internals

    /// Hands a transaction's step edits to the part log: a step that closed or ran now is
    /// fresh (what changed before no longer touches it); a step that left is forgotten once
    /// no scope is in progress and it did not come back (a scope's rollback puts back the
    /// redo steps its body ended, as fresh or stale as they were).
    func partLogTakes(_ edits: [StepEdit]) {
        for edit in edits {
            switch edit {
            // A step closing on the undo stack was recorded from its first action (spec K2).
            case .added(let id, true), .moved(let id, true), .merged(let id, _): state.partLog?.stepWasClosed(id)
            case .added(let id, false), .moved(let id, false): state.partLog?.stepWasDone(id)
            case .removed(let id): state.partLog?.stepLeft(id)
            }
        }
        if state.savepoints.isEmpty {
            state.partLog?.forgetStepsThatLeft { !stepExists($0) }
        }
    }

    func updateStaleStepChecks() {
        state.checksStaleSteps = state.partLog != nil && state.staleStepPolicy != .run
    }

    /// Whether step `id`, whose group has `metadata`, is stale.
    func isStale(_ id: StepID, metadata: GroupMetadata?) -> Bool {
        state.partLog?.isStale(id, touching: metadata?.parts) ?? false
    }

    /// The next undo (`onUndoStack`) or redo step, if it is stale.
    func staleStep(onUndoStack: Bool) -> StaleStep? {
        guard let log = state.partLog, let next = nextStep(onUndoStack: onUndoStack) else { return nil }
        let changes = log.changes(since: next.id, touching: next.metadata?.parts)
        guard !changes.isEmpty else { return nil }
        return StaleStep(id: next.id, metadata: next.metadata, changes: changes)
    }

    /// The metadata of the step the policy lets an undo (`onUndoStack`) or redo run: the next
    /// step, unless it is stale (then none under ``StaleStepPolicy/refuse``, the newest step
    /// that is not stale under ``StaleStepPolicy/skip``). The outer `nil`: no step may run.
    func runnableStepMetadata(onUndoStack: Bool) -> GroupMetadata?? {
        guard undoStack.nesting == 0 else {
            // An open group is the next undo once closed: new, so not stale; a redo then is
            // nested in it, where the policy does not apply.
            return onUndoStack ? .some(undoStack.topMetadata) : (redoStack.isEmpty ? nil : .some(redoStack.topMetadata))
        }
        guard let next = nextStep(onUndoStack: onUndoStack) else { return nil }
        if !isStale(next.id, metadata: next.metadata) {
            return .some(next.metadata)
        }
        guard state.staleStepPolicy == .skip else { return nil }
        let isFresh = { (id: StepID, metadata: GroupMetadata?) in !self.isStale(id, metadata: metadata) }
        return onUndoStack ? undoStack.newestStepMetadata(where: isFresh) : redoStack.newestStepMetadata(where: isFresh)
    }

    /// ``canUndo``'s answer under the policy.
    var undoIsAvailable: Bool {
        guard undoStack.topLevelCount != 0 else { return false }
        return !state.checksStaleSteps || runnableStepMetadata(onUndoStack: true) != nil
    }

    /// ``canRedo``'s answer under the policy (without the checkpoint).
    var redoIsAvailable: Bool {
        guard redoStack.topLevelCount != 0 else { return false }
        return !state.checksStaleSteps || runnableStepMetadata(onUndoStack: false) != nil
    }

    /// ``undoActionName``'s answer under the policy: the name of the step an undo would run.
    var undoStepName: String {
        guard state.checksStaleSteps else { return undoStack.topMetadata?.name ?? "" }
        return runnableStepMetadata(onUndoStack: true).flatMap { $0?.name } ?? ""
    }

    /// ``redoActionName``'s answer under the policy.
    var redoStepName: String {
        guard state.checksStaleSteps else { return redoStack.topMetadata?.name ?? "" }
        return runnableStepMetadata(onUndoStack: false).flatMap { $0?.name } ?? ""
    }

    /// Before a top-level undo (`onUndoStack`) or redo: applies the policy to the next step.
    /// Under ``StaleStepPolicy/skip``, drops the stale steps on top of the stack (one
    /// transaction, then an event per step); returns whether the undo or redo may go on.
    func applyStaleStepPolicy(onUndoStack: Bool) -> Bool {
        guard undoStack.nesting == 0, let next = nextStep(onUndoStack: onUndoStack),
              isStale(next.id, metadata: next.metadata)
        else { return true }
        // With no step the policy lets run, nothing is dropped either: undo() then does what
        // canUndo says, as redo() does (it asks canRedo first).
        guard state.staleStepPolicy == .skip, runnableStepMetadata(onUndoStack: onUndoStack) != nil else { return false }
        var droppedSteps: [StaleStep] = []
        while let stale = staleStep(onUndoStack: onUndoStack) {
            droppedSteps.append(stale)
            dropNewestStep(onUndoStack: onUndoStack)
        }
        settle()
        for step in droppedSteps {
            post(.didDropStaleStep(step))
        }
        return nextStep(onUndoStack: onUndoStack) != nil
    }

    private func removeNextStep(onUndoStack: Bool, in call: StaticString) {
        guard undoStack.nesting == 0 && !isBusy else {
            programmerError(
                in: PublicCall(call),
                isBusy ? "an undo or redo is in progress" : "a group is open",
                fix: "call it between operations, once every group is closed (endUndoGrouping(), or endEventGroup() "
                    + "for the event's automatic group) and no undo or redo is running"
            )
        }
        guard nextStep(onUndoStack: onUndoStack) != nil else { return }
        dropNewestStep(onUndoStack: onUndoStack)
        settle()
        publishObservableChanges()
    }

    /// Takes the newest step of a stack off without running it. An undo step's changes stay
    /// in the model with no step to revert them; a redo step's are never made.
    private func dropNewestStep(onUndoStack: Bool) {
        let id = onUndoStack ? undoStack.dropNewestTopLevelGroup() : redoStack.dropNewestTopLevelGroup()
        if onUndoStack {
            stopCoalescing()
        }
        // The mark's rule first: a mark on the dropped undo step moves to the step below,
        // which stepLeft(_:) would otherwise find naming a step that is gone.
        markCleanAfterStepLeft(id, how: onUndoStack ? .appliedWithoutStep : .reverted)
        ledger.stepLeft(id)
        historyTreeAfterDrop(of: id, changesStay: onUndoStack)
    }
}
