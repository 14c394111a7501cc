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
        // A stack with entries has a top-level group (closed or open): cheaper than counting.
        guard !undoStack.isEmpty && !state.asyncWorkIsRunning else { return false }
        return !state.checksStaleSteps || runnableStepMetadata(onUndoStack: true) != nil
    }

    /// ``canRedo``'s answer under the policy (without the checkpoint).
    var redoIsAvailable: Bool {
        guard !redoStack.isEmpty && !state.asyncWorkIsRunning else { return false }
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
    /// Under ``StaleStepPolicy/skip``, drops the stale steps on top of the stack (an event per
    /// step); returns whether the undo or redo may go on. The drops are part of its
    /// transaction: it settles them with its own step, once.
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
        // Released before the events, as settle() would: a deinit may use the manager.
        releaseDroppedEntries()
        for step in droppedSteps {
            post(.didDropStaleStep(step))
        }
        guard nextStep(onUndoStack: onUndoStack) != nil else {
            // Nothing left to run (an observer of the events removed it): the drops end here.
            settle()
            return false
        }
        return true
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
}
