/// Undo and redo (spec R18–R23).
extension UndoManager {
    /// Spec R18: ``undo()``. Closes the automatic group through ``endUndoGrouping()`` and
    /// undoes through ``undoNestedGroup()``, as Apple documents, so overrides of both run.
    func undoClosingTheAutomaticGroup() {
        post(.checkpoint)
        if !isBusy && automaticGroupIsPending && undoStack.nesting == 1 {
            endUndoGroupingThroughOverrides(from: "undo()")
            automaticGroupIsPending = false
        }
        guard undoStack.nesting == 0 && !state.isRedoing else {
            programmerError(in: PublicCall("undo()"), "undo was called with too many nested undo groups")
        }
        if state.isSubclassInstance {
            route(from: "undo()") { undoNestedGroup() }
        } else {
            undoNewestGroup(in: PublicCall("undoNestedGroup()", calledBy: "undo()"))
        }
    }

    /// Spec R19: ``undoNestedGroup()``. Builds the redo group with ``beginUndoGrouping()``;
    /// closes it with the internal close that drops it if it stayed empty (Apple's private
    /// `_endUndoGroupRemovingIfEmpty:`), which no override sees.
    func undoNewestGroup(in call: PublicCall) {
        post(.checkpoint)
        if state.checksStaleSteps && !isBusy {
            guard applyStaleStepPolicy(onUndoStack: true) else { return }
        }
        guard !undoStack.isEmpty else { return }
        guard undoStack.newestIsClosedGroup && !isBusy else {
            programmerError(in: call, "call endUndoGrouping before calling this method")
        }
        state.isUndoing = true
        stopCoalescing()
        let undoesTopLevelGroup = undoStack.nesting == 0
        let redoStepsBefore = redoStack.topLevelCount
        post(.willUndoChange)
        beginUndoGroupingThroughOverrides()
        let undoneMetadata = undoStack.topMetadata
        if registrationIsEnabled, let undoneMetadata {
            redoStack.replaceOpenTopMetadata(with: undoneMetadata)
            releaseDroppedEntries()
        }
        invokeNewestGroup(ofRedoStack: false)
        if registrationIsEnabled {
            closeGroup(in: call, discardingEmpty: true)
        }
        // The close moved the step to the redo stack, unless its redo group stayed empty.
        let gone = ledger.endMove()
        if let gone {
            markCleanAfterStepLeft(gone, how: .reverted)
        }
        if !undoesTopLevelGroup {
            markCleanAfterNestedUndo()
        }
        // Two tests of the flag rather than one outside the tree test: the common undo then
        // takes the path it took when only a top-level undo had tree work (callgrind, W1: 4
        // to 5 instructions per undo for the single test, from the compiled code's layout).
        if undoesTopLevelGroup && state.historyTree != nil {
            historyTreeAfterTopLevelUndo(stepThatLeft: gone)
        } else if !undoesTopLevelGroup && state.historyTree != nil {
            historyTreeAfterNestedUndo(redoStepsBefore: redoStepsBefore)
        }
        settle()
        post(.didUndoChange(isDiscardable: undoneMetadata?.isDiscardable ?? false))
        state.isUndoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Spec R21: ``redo()``. Asks ``canRedo`` (which posts the checkpoint), and builds the undo
    /// group with ``beginUndoGrouping()`` and ``endUndoGrouping()``.
    func redoNewestGroup() {
        guard canRedoThroughOverrides else { return }
        if state.checksStaleSteps && !isBusy {
            guard applyStaleStepPolicy(onUndoStack: false) else { return }
        }
        guard redoStack.newestIsClosedGroup && !isBusy else {
            programmerError(in: PublicCall("redo()"), "do not invoke this method while undoing")
        }
        state.isRedoing = true
        stopCoalescing()
        let redoesTopLevelGroup = undoStack.nesting == 0
        // A redo in the body of withUndoGroup(named:_:), whose rollback puts the step back.
        // An open scope has its group open, so the common redo (nothing open) tests only the
        // flag it computed anyway.
        if !redoesTopLevelGroup {
            redoStackWillChangeInScope()
        }
        post(.willRedoChange)
        beginUndoGroupingThroughOverrides()
        let redoneMetadata = redoStack.topMetadata
        // Copying "nothing" over "nothing" is the common case; skip its park-and-release.
        if registrationIsEnabled && (redoneMetadata != nil || undoStack.topMetadata != nil) {
            undoStack.replaceOpenTopMetadata(with: redoneMetadata)
            releaseDroppedEntries()
        }
        invokeNewestGroup(ofRedoStack: true)
        post(.checkpoint)
        endUndoGroupingThroughOverrides(from: "redo()")
        // The close moved the step to the undo stack, unless registration was disabled or a
        // group open around it took its actions.
        let gone = ledger.endMove()
        if let gone {
            markCleanAfterStepLeft(gone, how: redoesTopLevelGroup ? .appliedWithoutStep : .absorbed)
        }
        // Split as in undoNewestGroup(in:).
        if redoesTopLevelGroup && state.historyTree != nil {
            historyTreeAfterRedo(stepThatLeft: gone, topLevel: true)
        } else if !redoesTopLevelGroup && state.historyTree != nil {
            historyTreeAfterRedo(stepThatLeft: gone, topLevel: false)
        }
        settle()
        post(.didRedoChange(isDiscardable: redoneMetadata?.isDiscardable ?? false))
        state.isRedoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Pops the newest closed group of a stack and runs its steps newest first, descending
    /// into nested groups. The group leaves the stack before any step runs, so steps may
    /// change the stacks freely.
    func invokeNewestGroup(ofRedoStack: Bool) {
        let stack = stacks + (ofRedoStack ? 1 : 0)
        if let step = stack.pointee.popNewestSingleton() {
            invoke(step, executing: ofRedoStack)
            return
        }
        invokeDetachedGroup(of: stack, executing: ofRedoStack)
    }

    /// ``invokeNewestGroup(ofRedoStack:)`` for a group of more than one step, out of line so
    /// that the single step, the common undo, pays for none of it.
    @inline(never)
    private func invokeDetachedGroup(of stack: UnsafeMutablePointer<UndoStack>, executing: Bool) {
        // Taken off in place: no copy, and an undo writes its redo group into the slots the
        // group leaves (see StackEntries.detachSuffix(from:)).
        stack.pointee.detachNewestGroup()
        if !executing {
            // With nothing to redo before it (the redo stack holds just the group the undo
            // opened): see TwinStackBuffer.floatRedoSide(holdingAtMost:headroom:).
            stackEntries.pointee.floatRedoSide(holdingAtMost: 1, headroom: 64)
        }
        invokeSteps(of: stack.pointee.entries, executing: executing)
        stack.pointee.finishDetachedGroup()
        releaseDroppedEntries()
    }

    /// Runs the steps of the group detached from `entries`, newest first, descending into
    /// nested groups; a step that aborts the invocation leaves the rest there. Commands
    /// execute if `executing` (the group came off the redo stack), else undo.
    private func invokeSteps(of entries: StackEntries, executing: Bool) {
        targetsRemovedDuringInvocation.removeAll(keepingCapacity: true)
        state.invocationWasAborted = false
        // Consecutive steps on one target share one ActionTarget: its object is loaded from
        // the weak reference once for the run and held until the run ends (spec H3), so an
        // action that releases the target's last other reference deallocates it after the
        // run, and no step of a dead target is invoked. The run's target is remembered by
        // address only: a target freed during the run can share its address only with one
        // made after it, never with the older targets of the steps still to run.
        var runTarget: UnsafeMutableRawPointer?
        var runObject: AnyObject?
        // Borrowed for each call: `runObject` holds the run's one retain.
        var borrowedObject: Unmanaged<AnyObject>?
        // Taken one by one, so each step is moved out rather than copied (a copy would
        // retain its owner and context, and destroying the group would release them again);
        // an abort leaves the rest for `finishDetachedGroup()` to park for release.
        while let entry = entries.popDetached() {
            switch consume entry {
            case .action(let id, let owner, let handler), .singleton(let id, let owner, let handler):
                let step = UndoStep(targetID: id, owner: owner, handler: handler)
                if state.invocationWasAborted { return }
                if !targetsRemovedDuringInvocation.isEmpty && targetsRemovedDuringInvocation.contains(step.targetID) {
                    continue
                }
                guard !step.owner.isCommand else {
                    // A run of commands on one model loads it once, like a run of closures.
                    let reference = Unmanaged.passUnretained(unsafeDowncast(step.owner, to: CommandEntry.self).modelReference)
                    if reference.toOpaque() != runTarget {
                        runObject = reference._withUnsafeGuaranteedRef { $0.object }
                        borrowedObject = runObject.map { Unmanaged.passUnretained($0) }
                        runTarget = reference.toOpaque()
                    }
                    if let borrowedObject {
                        runCommand(consume step, on: borrowedObject, executing: executing)
                        // The rest of the run, without going round this loop for each step.
                        let aborted = runCommands(on: borrowedObject, from: entries, executing: executing)
                        // `runObject` holds the run's model; keep it past the calls.
                        withExtendedLifetime(runObject) {}
                        if aborted { return }
                    }
                    continue
                }
                let target = Unmanaged.passUnretained(unsafeDowncast(step.owner, to: ActionTarget.self))
                if target.toOpaque() != runTarget {
                    runObject = target._withUnsafeGuaranteedRef { $0.object }
                    borrowedObject = runObject.map { Unmanaged.passUnretained($0) }
                    runTarget = target.toOpaque()
                }
                if let borrowedObject {
                    // The object's lifetime is `runObject`'s, extended over the call: the
                    // optimizer may otherwise end a local's lifetime at its last use.
                    withExtendedLifetime(runObject) {
                        target._withUnsafeGuaranteedRef { target in
                            borrowedObject._withUnsafeGuaranteedRef { target.invoke(step.handler, on: $0, in: self) }
                        }
                    }
                }
                withExtendedLifetime(step) {}
            case .begin, .end:
                continue
            }
        }
    }

    /// Runs the command steps at the end of `entries` that follow a run's first one on the
    /// same model, `model` (loaded, and held, by the caller), newest first, each moved to the
    /// current stack as its own inverse: the loop of ``invokeNewestGroup(ofRedoStack:)`` for
    /// a run of commands, without its per-step dispatch. Stops at the first entry of another
    /// kind or on another model, which stays in `entries`. Returns whether a step aborted the
    /// invocation (``removeAllActions()``).
    ///
    /// Every step sees what it would see in the general loop: the abort and removal checks
    /// before it runs, and its inverse on the stack before the next one runs.
    ///
    /// A step on the same model is recognized by its target identity alone: the model is
    /// alive, and a step's model reference pins the address of the object it was recorded on
    /// (see ``ModelReference``), so no step recorded on another object can carry its identity.
    private func runCommands(on model: Unmanaged<AnyObject>, from entries: StackEntries, executing: Bool) -> Bool {
        let modelID = ObjectIdentifier(model.takeUnretainedValue())
        // The identity is read in place (binding it copies nothing); a step on the model is
        // then moved out, its command run through an unretained reference while the moved
        // entry owns it, and the entry moved on, or back if it is a closure's.
        while entries.newestDetachedIsStep(on: modelID) {
            let entry = entries.popDetached()!
            let owner: Unmanaged<UndoStepOwner>
            var bits: UInt
            switch entry {
            case .action(_, let stepOwner, let handler), .singleton(_, let stepOwner, let handler):
                owner = Unmanaged.passUnretained(stepOwner)
                bits = handler.inlineBits
            case .begin, .end:
                preconditionFailure("UndoManager: a step turned into a group mark")
            }
            guard owner._withUnsafeGuaranteedRef({ $0.isCommand }) else {
                entries.unpopDetached(entry)
                return false
            }
            if state.invocationWasAborted { return true }
            if !state.targetsRemovedDuringInvocation.isEmpty
                && state.targetsRemovedDuringInvocation.contains(modelID) {
                continue
            }
            let keepsCommandInStep = run(
                Unmanaged<CommandEntry>.fromOpaque(owner.toOpaque()), bits: &bits, on: model, executing: executing)
            switch consume entry {
            case .action(let id, let stepOwner, let handler), .singleton(let id, let stepOwner, let handler):
                // The handler's context, a model the step retains, stays.
                moveRunCommand(UndoStep(
                    targetID: id, owner: stepOwner,
                    handler: keepsCommandInStep && bits != handler.inlineBits
                        ? handler.replacingInlineBits(with: bits) : handler))
            case .begin, .end:
                preconditionFailure("UndoManager: a step turned into a group mark")
            }
        }
        return false
    }

    /// Runs one popped step: a handler on its target, if alive; or a command, whose step then
    /// moves to the current stack as its own inverse, where the registration a handler would
    /// make goes (spec R2–R7), so undo and redo allocate nothing.
    @inline(__always)
    private func invoke(_ step: consuming UndoStep, executing: Bool) {
        if !step.owner.isCommand {
            // The step owns its target for the whole call, so the call borrows it: left to
            // ARC, the target was retained once more around the call and released twice after
            // (callgrind, W1: about 40 instructions per step).
            withExtendedLifetime(step) { step in
                Unmanaged.passUnretained(unsafeDowncast(step.owner, to: ActionTarget.self))
                    ._withUnsafeGuaranteedRef { $0.invoke(step.handler, in: self) }
            }
            return
        }
        if step.owner.keepsCommandInStep {
            // A step that retains its model (perform(_:retaining:)) holds it while it runs and
            // after: no load, no release.
            if let model = step.handler.retainedModel {
                runCommand(step, on: model, executing: executing)
                return
            }
            // The model is loaded, and held, for this one step.
            guard let model = unsafeDowncast(step.owner, to: CommandEntry.self).model else { return }
            runCommand(step, on: Unmanaged.passUnretained(model), executing: executing)
            // The load's retain holds the model until here (`withExtendedLifetime` was a call).
            _fixLifetime(model)
            return
        }
        // Borrowed for the run as the target is above.
        let ran = withExtendedLifetime(step) { step in
            Unmanaged.passUnretained(unsafeDowncast(step.owner, to: CommandEntry.self))
                ._withUnsafeGuaranteedRef { $0.run() }
        }
        guard ran else { return }
        moveRunCommand(step)
    }

    /// Runs a command step on its model, loaded by the caller (who keeps it alive), and moves
    /// the step to the current stack as its own inverse.
    @inline(__always)
    private func runCommand(_ step: consuming UndoStep, on model: Unmanaged<AnyObject>, executing: Bool) {
        // Borrowed for the run: the step, consumed after it, owns the entry.
        var bits = step.handler.inlineBits
        if run(Unmanaged.passUnretained(unsafeDowncast(step.owner, to: CommandEntry.self)),
               bits: &bits, on: model, executing: executing) {
            if bits != step.handler.inlineBits { step.handler = step.handler.replacingInlineBits(with: bits) }
        }
        moveRunCommand(step)
    }

    /// Runs the command of a step whose owner is `entry` on `model`, both borrowed: the
    /// command in the step's `bits` (updated to what the run left), if the step keeps it,
    /// else the entry's own. Returns whether the step keeps it. The flag is tested here
    /// rather than left to `run(_:on:executing:)`'s override, which would cost an entry's run a
    /// second dynamic call.
    @inline(__always)
    private func run(
        _ entry: Unmanaged<CommandEntry>, bits: inout UInt, on model: Unmanaged<AnyObject>, executing: Bool
    ) -> Bool {
        entry._withUnsafeGuaranteedRef { entry in
            model._withUnsafeGuaranteedRef { model in
                guard entry.keepsCommandInStep else {
                    entry.run(on: model)
                    return false
                }
                entry.run(&bits, on: model, executing: executing)
                return true
            }
        }
    }

    /// Moves a command step that just ran to the current stack, as its own inverse.
    @inline(__always)
    private func moveRunCommand(_ step: consuming UndoStep) {
        // No local binding of the entry on the plain path: one kept the entry alive beside
        // the step that `register` consumes, a retain and a release per undo and per redo
        // (callgrind, W1 with commands: 48 instructions, two atomic operations).
        if state.isSubclassInstance,
           let model = unsafeDowncast(step.owner, to: CommandEntry.self).model {
            // Overrides see the inverse registration, as they would a handler's.
            recordThroughOverrides(unsafeDowncast(step.owner, to: CommandEntry.self), on: model)
        } else if registrationIsEnabled {
            // Undo and redo record inverses into the group they opened on the other stack:
            // what `register` does there, without its checks for a new edit (redo to end, the
            // event's group to open), which apply only outside undo and redo. A step may have
            // closed that group, or run outside undo (the coordinator's replay): `register`.
            let stack = stacks + (state.isUndoing ? 1 : 0)
            if (state.isUndoing || state.isRedoing) && stack.pointee.nesting > 0 {
                stack.pointee.pushAction(step)
                checkInvariantsInDebugBuilds()
            } else {
                register(step)
            }
        }
    }
}
