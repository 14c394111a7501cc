/// Undoing and redoing steps with asynchronous actions (spec K5, issue 34 items 2–4).
///
/// An asynchronous undo is one transaction in two halves. First, with the stacks untouched
/// and the manager busy, it runs copies of the step's actions newest first, awaiting each; the
/// inverses they register are captured, not pushed. Then, if all succeeded, it lands the
/// step synchronously exactly as ``undoNewestGroup(in:)`` would: the step leaves its stack and
/// the captured inverses make the redo step, in one settle, so every listener (the history
/// tree, the part log, the coordinator) hears the step once, when it settled. If an action
/// throws, the captured inverses run newest first (reverting what ran) and nothing else
/// happens: the stacks and the ledger never changed, so the listeners hear nothing.
extension UndoManager {
    /// Undoes the next step, awaiting each of its actions: the undo for steps with
    /// asynchronous actions (``registerUndo(withTarget:asyncHandler:)``,
    /// ``performAsync(_:on:)``), and for any other step too.
    ///
    /// It does what ``undo()`` does (closes the event's automatic group, applies the
    /// ``staleStepPolicy``, runs the actions in Apple's order, newest first, builds the redo
    /// step from the inverses they register, posts the will- and did-undo notifications),
    /// with these differences:
    ///
    /// - **One at a time.** It waits its turn behind an asynchronous undo, redo, command or
    ///   scope in flight, in the order the calls were made. A task cancelled while waiting
    ///   throws `CancellationError` when its turn comes, having run nothing.
    /// - **Busy while it runs.** ``isUndoing`` is `true` and ``canUndo`` and ``canRedo`` are
    ///   `false` from the will-undo notification until it returns (Observation hears both
    ///   changes). Registrations, groups and action names that other code makes while it is
    ///   suspended are held and made, in order, right after it returns: they never join the
    ///   step being undone.
    /// - **All or nothing.** If an action throws (a cancelled task's actions throw
    ///   `CancellationError`; between actions, the undo checks for cancellation itself), the
    ///   actions of the step that already ran are reverted through the inverses they
    ///   registered, newest first; the step stays on the undo stack and both stacks are as
    ///   before; observers hear ``Event/didFailAsyncStep(_:)`` instead of the did-undo event;
    ///   and the error is rethrown. The revert runs even in a cancelled task (in a task of its
    ///   own that is not cancelled). If a reverting action throws too, the others still run,
    ///   the step is listed in ``stepsWithFailedRevert``, and ``AsyncRevertError`` is thrown.
    ///
    /// ```swift
    /// do {
    ///     try await manager.undoAsync()
    /// } catch {
    ///     // Nothing changed: the step is still the next undo.
    /// }
    /// ```
    ///
    /// It runs on the caller's isolation (the main actor, or the actor that owns the manager),
    /// and so do the actions.
    ///
    /// - Precondition: No group other than the event's automatic group is open, and it is not
    ///   called from an action of a running asynchronous undo or redo (as for ``undo()``).
    public nonisolated(nonsending) func undoAsync() async throws {
        try await withAsyncTurn(in: "undoAsync()", nests: false) {
            try await runNextStepAsync(undoing: true, call: "undoAsync()")
        }
    }

    /// Redoes the next step, awaiting each of its actions: ``undoAsync()``'s counterpart, with
    /// ``redo()``'s behaviour (``isRedoing`` while it runs; a redo step whose redo builds no
    /// undo step leaves an empty one, as on Apple platforms).
    ///
    /// Everything ``undoAsync()`` says about order, busy state, held calls, failure and
    /// cancellation holds, with the stacks' roles swapped.
    ///
    /// ```swift
    /// try await manager.undoAsync()
    /// try await manager.redoAsync()   // back where it was
    /// ```
    ///
    /// - Precondition: As for ``undoAsync()``.
    public nonisolated(nonsending) func redoAsync() async throws {
        try await withAsyncTurn(in: "redoAsync()", nests: false) {
            try await runNextStepAsync(undoing: false, call: "redoAsync()")
        }
    }

    /// The steps whose asynchronous undo or redo failed and whose revert failed too, oldest
    /// first: their models may be half changed. Each is still where it was, the next undo or
    /// redo; the app decides: run it again (a successful ``undoAsync()`` or ``redoAsync()``
    /// of the step takes it off this list), or drop it with ``dropStaleUndoStep()``-style
    /// removal or ``removeAllActions()`` after repairing the model. Steps that left the
    /// stacks are not listed.
    ///
    /// ```swift
    /// if !manager.stepsWithFailedRevert.isEmpty { await reloadFromStore() }
    /// ```
    public var stepsWithFailedRevert: [UndoTree.NodeID] {
        guard let async = state.asyncWork else { return [] }
        return async.stepsWithFailedRevert.filter { undoStack.steps.contains($0) || redoStack.steps.contains($0) }
    }

    /// The turn's work for ``undoAsync()`` and ``redoAsync()``: the checks of the synchronous
    /// call, the actions, then landing or reverting.
    nonisolated(nonsending) func runNextStepAsync(
        undoing: Bool, call: StaticString, appliesStalePolicy: Bool = true
    ) async throws {
        guard let stepID = beginAsyncStep(undoing: undoing, call: call, appliesStalePolicy: appliesStalePolicy) else {
            return
        }
        let stack = stacks + (undoing ? 0 : 1)
        let steps = stack.pointee.stepsOfNewestClosedGroup()
        let work = makeAsyncWork(.runningStep(undoing: undoing))
        work.metadata = stack.pointee.topMetadata?.copy()
        var failure: (any Error)?
        var revertErrors: [any Error] = []
        // The revert runs inside the step's work, so other code that runs while it starts is
        // held, as during the actions.
        try await running(work) {
            // Observers see the manager busy (isUndoing, canUndo false) while the actions run.
            publishObservableChanges()
            do {
                for step in steps {
                    try Task.checkCancellation()
                    try await runAction(step, executing: !undoing)
                }
            } catch {
                failure = error
                revertErrors = await revert(work.captured, undoing: undoing)
                work.captured = []
            }
        }
        if let failure {
            try failAsyncStep(stepID, undoing: undoing, error: failure, revertErrors: revertErrors)
        }
        if undoing {
            landUndoneStep(of: work, in: PublicCall(call))
        } else {
            landRedoneStep(of: work, in: PublicCall(call))
        }
        if let async = state.asyncWork, !async.stepsWithFailedRevert.isEmpty {
            async.stepsWithFailedRevert.removeAll { $0 == stepID }
        }
        publishObservableChanges()
    }

    /// What ``undo()`` and ``redo()`` do before running a step, for the asynchronous forms:
    /// the checkpoint, closing the event's automatic group, the misuse checks and the
    /// stale-step policy. Then the manager is busy and the will-undo (or will-redo)
    /// notification is posted. Returns the step's id, or `nil` when there is nothing to run.
    private func beginAsyncStep(undoing: Bool, call: StaticString, appliesStalePolicy: Bool) -> StepID? {
        // undo() posts one (spec R18.1) and undoNestedGroup() another (R19.1); redo() one,
        // reading canRedo (R21.1).
        post(.checkpoint)
        if undoing {
            post(.checkpoint)
        }
        if state.automaticGroupIsPending && undoStack.nesting == 1 {
            endUndoGroupingThroughOverrides(from: call)
            state.automaticGroupIsPending = false
        }
        guard undoStack.nesting == 0 else {
            programmerError(
                in: PublicCall(call), "\(call) was called with \(undoStack.nesting) open undo groups",
                fix: "close every group you opened with endUndoGrouping() before \(call); only the event's automatic "
                    + "group is closed for you"
            )
        }
        // Spec K3: a stale step is refused or skipped before anything runs.
        if state.checksStaleSteps && appliesStalePolicy {
            guard applyStaleStepPolicy(onUndoStack: undoing) else { return nil }
        }
        let stack = stacks + (undoing ? 0 : 1)
        guard !stack.pointee.isEmpty, let stepID = stack.pointee.steps.last else { return nil }
        if undoing {
            state.isUndoing = true
            stopCoalescing()
            post(.willUndoChange)
        } else {
            state.isRedoing = true
            stopCoalescing()
            post(.willRedoChange)
        }
        return stepID
    }

    /// Runs one action of a step as ``undo()`` (or ``redo()``, `executing`) would; the inverse
    /// it registers (for a command, the step itself) goes to the running work.
    private nonisolated(nonsending) func runAction(_ step: UndoStep, executing: Bool) async throws {
        guard step.owner.isCommand else {
            // A synchronous closure; spec H3: skipped if its target is gone.
            unsafeDowncast(step.owner, to: ActionTarget.self).invoke(step.handler, in: self)
            return
        }
        let entry = unsafeDowncast(step.owner, to: CommandEntry.self)
        if let asyncEntry = entry as? AsyncActionEntry {
            guard let model = asyncEntry.model else { return }
            let isOwnInverse = try await asyncEntry.runAsync(on: model, executing: executing)
            if isOwnInverse && registrationIsEnabled {
                register(step)
            }
            return
        }
        // A synchronous command: run, then recorded as its own inverse, as undo() moves it.
        if entry.keepsCommandInStep {
            let model: AnyObject
            if let retained = step.handler.retainedModel {
                model = retained.takeUnretainedValue()
            } else if let loaded = entry.model {
                model = loaded
            } else {
                return
            }
            var bits = step.handler.inlineBits
            entry.run(&bits, on: model, executing: executing)
            if registrationIsEnabled {
                var ran = step
                ran.keepCommand(ranTo: bits)
                register(ran)
            }
            return
        }
        guard entry.run() else { return }
        if state.isSubclassInstance, let model = entry.model {
            recordThroughOverrides(entry, on: model)
        } else if registrationIsEnabled {
            register(step)
        }
    }

    /// An action of the step threw, and the actions that ran were reverted (through the
    /// inverses they registered, newest first, in a task that is not cancelled): reports the
    /// failure and throws. The stacks and the ledger never changed.
    private func failAsyncStep(
        _ stepID: StepID, undoing: Bool, error: any Error, revertErrors: [any Error]
    ) throws -> Never {
        if undoing {
            state.isUndoing = false
        } else {
            state.isRedoing = false
        }
        if !revertErrors.isEmpty {
            asyncState.stepsWithFailedRevert.append(stepID)
        }
        post(.didFailAsyncStep(AsyncStepFailure(
            stepID: stepID, wasUndo: undoing, errorDescription: String(describing: error),
            wasCancelled: error is CancellationError,
            revertErrorDescriptions: revertErrors.map { String(describing: $0) }
        )))
        publishObservableChanges()
        if !revertErrors.isEmpty {
            throw AsyncRevertError(stepID: stepID, error: error, revertErrors: revertErrors)
        }
        throw error
    }

    /// Runs `inverses` newest first, each as the other direction's action, dropping what they
    /// register, and returns what they threw. In a task of its own, isolated to the caller:
    /// it is not cancelled when the caller's task is, so a revert finishes.
    func revert(
        _ inverses: [UndoStep], undoing: Bool, isolation: isolated (any Actor)? = #isolation
    ) async -> [any Error] {
        guard !inverses.isEmpty else { return [] }
        let work = makeAsyncWork(.runningStep(undoing: !undoing))
        work.isReverting = true
        return await Task {
            _ = isolation
            var errors: [any Error] = []
            for inverse in inverses.reversed() {
                do {
                    try await running(work) {
                        try await runAction(inverse, executing: undoing)
                    }
                } catch {
                    errors.append(error)
                }
            }
            return errors
        }.value
    }

    /// The synchronous end of an asynchronous undo whose actions all succeeded: the
    /// transaction of ``undoNewestGroup(in:)`` (spec R19), with the captured inverses landing
    /// in the redo group in place of running the step. Listeners hear the step once, here.
    func landUndoneStep(of work: AsyncWork, in call: PublicCall) {
        let undoesTopLevelGroup = undoStack.nesting == 0
        beginUndoGroupingThroughOverrides()
        let undoneMetadata = undoStack.topMetadata
        undoStack.takeOffNewestClosedGroup()
        if registrationIsEnabled {
            if let metadata = work.metadata {
                redoStack.replaceOpenTopMetadata(with: metadata)
            }
            releaseDroppedEntries()
            for inverse in work.captured {
                redoStack.pushAction(inverse)
            }
            work.captured = []
            closeGroup(in: call, discardingEmpty: true)
        }
        endUndoOnceItsGroupClosed(undoesTopLevelGroup: undoesTopLevelGroup, undoneMetadata: undoneMetadata)
    }

    /// The synchronous end of an asynchronous redo whose actions all succeeded: the
    /// transaction of ``redoNewestGroup()`` (spec R21), with the captured inverses landing in
    /// the undo group.
    func landRedoneStep(of work: AsyncWork, in call: PublicCall) {
        beginUndoGroupingThroughOverrides()
        let redoneMetadata = redoStack.topMetadata
        redoStack.takeOffNewestClosedGroup()
        if registrationIsEnabled && (work.metadata != nil || undoStack.topMetadata != nil) {
            undoStack.replaceOpenTopMetadata(with: work.metadata)
        }
        releaseDroppedEntries()
        if registrationIsEnabled {
            for inverse in work.captured {
                undoStack.pushAction(inverse)
            }
        }
        work.captured = []
        post(.checkpoint)
        endUndoGroupingThroughOverrides(from: call.name)
        // The close moved the step to the undo stack, unless registration was disabled.
        if let gone = ledger.endMove() {
            stepLeftWithoutLanding(gone, how: .appliedWithoutStep)
        }
        settle()
        post(.didRedoChange(isDiscardable: redoneMetadata?.isDiscardable ?? false))
        state.isRedoing = false
        checkInvariantsInDebugBuilds()
    }
}
