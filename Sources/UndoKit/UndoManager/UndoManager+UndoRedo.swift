/// Undo and redo (spec R18–R23).
extension UndoManager {
    /// Spec R18: ``undo()``. A step of one action takes the short path when nothing needs the
    /// general one (see ``undoStepOfOneAction()``).
    @inline(__always)
    func undoClosingTheAutomaticGroup() {
        if takesShortPath(forNewestStepOf: undoStack) {
            undoStepOfOneAction()
        } else {
            undoThroughTheGeneralPath()
        }
    }

    /// Spec R21: ``redo()``; the short path as for ``undoClosingTheAutomaticGroup()``.
    @inline(__always)
    func redoNewestGroup() {
        if takesShortPath(forNewestStepOf: redoStack) {
            redoStepOfOneAction()
        } else {
            redoThroughTheGeneralPath()
        }
    }

    // MARK: The short path

    /// Whether undo (`stack` the undo stack) or redo may take the newest step of `stack` on the
    /// short path: ``UndoManagerStorage/stepsTakeShortPath`` (no listener, policy, coordinator,
    /// coalescing or subclass), no undo or redo in progress, registration enabled, no group
    /// open on the undo stack (so no scope is in progress and the automatic group is closed),
    /// and the step is one action of a kind the short path knows: a closure on its target or
    /// a command. Any other kind of step takes the general path.
    @inline(__always)
    private func takesShortPath(forNewestStepOf stack: borrowing UndoStack) -> Bool {
        guard state.stepsTakeShortPath && !isBusy && registrationIsEnabled && undoStack.nesting == 0,
              let owner = stack.newestSingletonOwner() else { return false }
        return owner._withUnsafeGuaranteedRef { $0.isCommand || type(of: $0) == ActionTarget.self }
    }

    /// ``undo()`` of a step of one action, with nothing observing that needs the general path:
    /// what ``undoNewestGroup(in:)`` does, without the posts that reach nobody, the tests whose
    /// outcome the eligibility flag already knows, and the general close. The redo group's
    /// begin mark is pushed and the flags set exactly as there, so the running action sees the
    /// same state (``groupingLevel``, ``isUndoing``, where registrations go). If the group then
    /// holds just the action's inverse and the flag still holds, the finished step is written
    /// in place of the begin mark and lands on the redo stack with its id, as the general close
    /// does; otherwise (the model was gone, the action registered more or named the group, a
    /// listener was added meanwhile) the general path's close finishes the undo, so whatever
    /// was added hears the rest of it.
    private func undoStepOfOneAction() {
        state.isUndoing = true
        stopCoalescing()
        redoStack.pushBegin()
        invoke(undoStack.popTopLevelSingleton(), executing: false)
        guard state.stepsTakeShortPath && registrationIsEnabled && redoStack.closeStepOfOneAction() else {
            finishUndo(
                in: PublicCall("undoNestedGroup()", calledBy: "undo()"), undoesTopLevelGroup: true,
                undoneMetadata: nil)
            return
        }
        #if DEBUG
        state.stepsFinishedOnShortPath += 1
        #endif
        settle()
        post(.didUndoChange(isDiscardable: false))
        state.isUndoing = false
        checkInvariantsInDebugBuilds()
    }

    /// ``redo()`` of a step of one action: the short path of ``undoStepOfOneAction()``, on the
    /// other stack. The close trims to the limits as the general close does.
    private func redoStepOfOneAction() {
        state.isRedoing = true
        stopCoalescing()
        undoStack.pushBegin()
        invoke(redoStack.popTopLevelSingleton(), executing: true)
        guard state.stepsTakeShortPath && registrationIsEnabled && undoStack.closeStepOfOneAction() else {
            finishRedo(redoesTopLevelGroup: true, redoneMetadata: nil)
            return
        }
        #if DEBUG
        state.stepsFinishedOnShortPath += 1
        #endif
        settle()
        post(.didRedoChange(isDiscardable: false))
        state.isRedoing = false
        checkInvariantsInDebugBuilds()
    }

    // MARK: The general path

    /// Spec R18: ``undo()``. Closes the automatic group through ``endUndoGrouping()`` and
    /// undoes through ``undoNestedGroup()``, as Apple documents, so overrides of both run. Out
    /// of line, so the short path's callers pay nothing for it.
    @inline(never)
    private func undoThroughTheGeneralPath() {
        if state.asyncWorkIsRunning {
            refuseSynchronousUndoDuringAsyncWork(in: PublicCall("undo()"))
        }
        post(.checkpoint)
        if !isBusy && state.automaticGroupIsPending && undoStack.nesting == 1 {
            endUndoGroupingThroughOverrides(from: "undo()")
            state.automaticGroupIsPending = false
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
        post(.willUndoChange)
        beginUndoGroupingThroughOverrides()
        let undoneMetadata = undoStack.topMetadata
        if registrationIsEnabled, let undoneMetadata {
            redoStack.replaceOpenTopMetadata(with: undoneMetadata)
            releaseDroppedEntries()
        }
        invokeNewestGroup(ofRedoStack: false)
        finishUndo(in: call, undoesTopLevelGroup: undoesTopLevelGroup, undoneMetadata: undoneMetadata)
    }

    /// The rest of an undo once the group's actions ran: closes the redo group (dropping it
    /// if empty), lands or drops the step, settles and posts. Out of line: the short path
    /// calls it when it cannot finish the undo itself.
    @inline(never)
    private func finishUndo(in call: PublicCall, undoesTopLevelGroup: Bool, undoneMetadata: GroupMetadata?) {
        if registrationIsEnabled {
            closeGroup(in: call, discardingEmpty: true)
        }
        endUndoOnceItsGroupClosed(undoesTopLevelGroup: undoesTopLevelGroup, undoneMetadata: undoneMetadata)
    }

    /// The end every undo shares once its redo group is closed or dropped (the general path,
    /// an asynchronous undo's landing, a scope's rollback): the step lands on the redo stack
    /// or leaves, the clean mark follows, one settle, the post, the flag. Inlined into each.
    @inline(__always)
    func endUndoOnceItsGroupClosed(undoesTopLevelGroup: Bool, undoneMetadata: GroupMetadata?) {
        // The close moved the step to the redo stack, unless its redo group stayed empty.
        if let gone = ledger.endMove() {
            stepLeftWithoutLanding(gone, how: .reverted)
        }
        if !undoesTopLevelGroup {
            markCleanBeforeRedoStepsEnd()
        }
        settle()
        post(.didUndoChange(isDiscardable: undoneMetadata?.isDiscardable ?? false))
        state.isUndoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Spec R21: ``redo()``. Asks ``canRedo`` (which posts the checkpoint), and builds the undo
    /// group with ``beginUndoGrouping()`` and ``endUndoGrouping()``. Out of line, as
    /// ``undoThroughTheGeneralPath()``.
    @inline(never)
    private func redoThroughTheGeneralPath() {
        if state.asyncWorkIsRunning {
            refuseSynchronousUndoDuringAsyncWork(in: PublicCall("redo()"))
        }
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
        // A redo in a scope's body, whose rollback puts the step back; a scope's group is open,
        // so the common redo tests only this flag.
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
        finishRedo(redoesTopLevelGroup: redoesTopLevelGroup, redoneMetadata: redoneMetadata)
    }

    /// The rest of a redo once the group's actions ran (see ``finishUndo(in:undoesTopLevelGroup:undoneMetadata:)``).
    @inline(never)
    private func finishRedo(redoesTopLevelGroup: Bool, redoneMetadata: GroupMetadata?) {
        post(.checkpoint)
        endUndoGroupingThroughOverrides(from: "redo()")
        // The close moved the step to the undo stack, unless registration was disabled or a
        // group open around it took its actions.
        if let gone = ledger.endMove() {
            stepLeftWithoutLanding(gone, how: redoesTopLevelGroup ? .appliedWithoutStep : .absorbed)
        }
        settle()
        post(.didRedoChange(isDiscardable: redoneMetadata?.isDiscardable ?? false))
        state.isRedoing = false
        checkInvariantsInDebugBuilds()
    }

    /// Pops the newest closed group of a stack and runs its steps newest first, nested groups
    /// included. The group leaves the stack before any step runs, so steps may change the
    /// stacks freely.
    func invokeNewestGroup(ofRedoStack: Bool) {
        let stack = stacks + (ofRedoStack ? 1 : 0)
        if let step = stack.pointee.popNewestSingleton() {
            invoke(step, executing: ofRedoStack)
            return
        }
        invokeDetachedGroup(of: stack, executing: ofRedoStack)
    }

    /// ``invokeNewestGroup(ofRedoStack:)`` for a group of more than one step, out of line so
    /// that the common single step pays for none of it.
    @inline(never)
    private func invokeDetachedGroup(of stack: UnsafeMutablePointer<UndoStack>, executing: Bool) {
        // Taken off in place: no copy (see StackEntries.detachSuffix(from:)).
        stack.pointee.detachNewestGroup()
        if !executing {
            // The redo stack holds just the group the undo opened: see
            // TwinStackBuffer.floatRedoSide(holdingAtMost:headroom:).
            stackEntries.pointee.floatRedoSide(holdingAtMost: 1, headroom: 64)
        }
        invokeSteps(of: stack.pointee.entries, executing: executing)
        stack.pointee.finishDetachedGroup()
        releaseDroppedEntries()
    }

    /// Runs the steps of the group detached from `entries`, newest first; a step that aborts
    /// the invocation leaves the rest there. Commands execute if `executing` (a redo).
    private func invokeSteps(of entries: StackEntries, executing: Bool) {
        state.targetsRemovedDuringInvocation.removeAll(keepingCapacity: true)
        state.invocationWasAborted = false
        // A run of steps on one ActionTarget loads its object once and holds it until the run
        // ends (spec H3): an action that releases the target's last other reference frees it
        // after the run. The run's target is remembered by address only: a target freed
        // during the run can share it only with one made later, never with the older targets
        // of the steps still to run.
        var runTarget: UnsafeMutableRawPointer?
        var runObject: AnyObject?
        // Borrowed for each call: `runObject` holds the run's one retain.
        var borrowedObject: Unmanaged<AnyObject>?
        // Taken one by one, so each step is moved out, not copied (a copy retains its owner and
        // context); an abort leaves the rest for `finishDetachedGroup()` to park.
        while let entry = entries.popDetached() {
            switch consume entry {
            case .action(let id, let owner, let handler), .singleton(let id, let owner, let handler):
                let step = UndoStep(targetID: id, owner: owner, handler: handler)
                if state.invocationWasAborted { return }
                if !state.targetsRemovedDuringInvocation.isEmpty
                    && state.targetsRemovedDuringInvocation.contains(step.targetID) {
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

    /// Runs the rest of a run of command steps on `model` (loaded and held by the caller),
    /// newest first, as the general loop would but without its per-step dispatch; stops at an
    /// entry of another kind or model. Returns whether a step aborted the invocation. A step is
    /// recognized by its target identity alone: the model is alive, and a step's model
    /// reference pins its object's address (see ``ModelReference``).
    ///
    /// While ``UndoManagerStorage/runCommandsMoveDirectly`` holds (nothing aborted the run,
    /// removed a target or disabled registration; no coordinator or subclass), a step that ran
    /// goes straight into the group open on the other stack: through a ``StepTransfer`` while
    /// the sides stay where it left them, else through the sides. Otherwise each step takes
    /// the general tests and move.
    private func runCommands(on model: Unmanaged<AnyObject>, from entries: StackEntries, executing: Bool) -> Bool {
        let modelID = ObjectIdentifier(model.takeUnretainedValue())
        // Where inverses go: the stack the undo or redo did not pop.
        let inverses = stacks + (executing ? 0 : 1)
        assert(state.isUndoing == !executing, "runCommands(on:from:executing:) outside undo or redo")
        var movesDirectly = state.runCommandsMoveDirectly
        // Tried once, after the first step: most runs in nested groups are one step long, and
        // a run of one or two gains nothing from setting a transfer up.
        var mayTransfer = true
        // The identity is read in place; a step on the model is moved out, its command run
        // unretained while the entry owns it, and the entry moved on, or back if a closure's.
        while let entry = entries.popDetachedStep(on: modelID) {
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
            if !movesDirectly {
                if state.invocationWasAborted { return true }
                if !state.targetsRemovedDuringInvocation.isEmpty
                    && state.targetsRemovedDuringInvocation.contains(modelID) {
                    continue
                }
            }
            let keepsCommandInStep = run(
                Unmanaged<CommandEntry>.fromOpaque(owner.toOpaque()), bits: &bits, on: model, executing: executing)
            let ran = Self.step(consume entry, ranTo: bits, keepsCommandInStep: keepsCommandInStep)
            // The command may have changed what the move must test (see above), or closed the
            // group its inverse goes into.
            movesDirectly = state.runCommandsMoveDirectly
            // Consumed: code follows in the loop, and a plain use copied the step (callgrind,
            // W3 with retained models: a retain and a release a step).
            guard moveRanStep(consume ran, into: inverses) else { continue }
            if mayTransfer, let transfer = entries.stepTransfer(to: inverses.pointee.entries, forStepsOn: modelID) {
                mayTransfer = false
                guard transferRunCommands(on: model, modelID: modelID, by: transfer, into: inverses, executing: executing) else {
                    return false
                }
                // The transfer stopped because of what a command did: test again before the next.
                movesDirectly = state.runCommandsMoveDirectly
            }
        }
        return false
    }

    /// The middle of ``runCommands(on:from:executing:)``: runs command steps on `model`
    /// and moves each through `transfer`, while the sides stay where it left them and the
    /// moves need no test (``UndoManagerStorage/runCommandsMoveDirectly``). Returns `false`
    /// once the run ended (the next entry is of another kind or model, or none is left),
    /// `true` if the caller must go on with the rest, through the sides.
    @inline(never)
    private func transferRunCommands(
        on model: Unmanaged<AnyObject>, modelID: ObjectIdentifier, by transfer: StepTransfer,
        into inverses: UnsafeMutablePointer<UndoStack>, executing: Bool
    ) -> Bool {
        // A local copy, not the caller's: its fields can live in registers across the calls.
        var transfer = transfer
        while let entry = transfer.takeNewestStep(on: modelID) {
            let owner: Unmanaged<UndoStepOwner>
            var bits: UInt
            let isAction: Bool
            switch entry {
            case .action(_, let stepOwner, let handler):
                owner = Unmanaged.passUnretained(stepOwner)
                bits = handler.inlineBits
                isAction = true
            case .singleton(_, let stepOwner, let handler):
                owner = Unmanaged.passUnretained(stepOwner)
                bits = handler.inlineBits
                isAction = false
            case .begin, .end:
                preconditionFailure("UndoManager: a step turned into a group mark")
            }
            guard owner._withUnsafeGuaranteedRef({ $0.isCommand }) else {
                transfer.putBack(entry)
                return false
            }
            let ranBits = bits
            let keepsCommandInStep = run(
                Unmanaged<CommandEntry>.fromOpaque(owner.toOpaque()), bits: &bits, on: model, executing: executing)
            // What the command ran may have changed what the move tests, or moved the sides.
            guard state.runCommandsMoveDirectly && transfer.isCurrent else {
                moveRanStep(Self.step(consume entry, ranTo: bits, keepsCommandInStep: keepsCommandInStep), into: inverses)
                return true
            }
            #if DEBUG
            state.stepsMovedByTransfer += 1
            #endif
            if isAction && bits == ranBits {
                // The entry is its own inverse as it is: moved whole.
                transfer.put(entry)
            } else {
                transfer.put(.action(Self.step(consume entry, ranTo: bits, keepsCommandInStep: keepsCommandInStep)))
            }
        }
        return false
    }

    /// Moves a command step that ran in a group's run: straight into the group open on the
    /// other stack when ``UndoManagerStorage/runCommandsMoveDirectly`` holds and that group is
    /// still open, else through ``moveRunCommand(_:)``. Returns whether it went straight.
    @inline(__always)
    @discardableResult
    private func moveRanStep(_ ran: consuming UndoStep, into inverses: UnsafeMutablePointer<UndoStack>) -> Bool {
        guard state.runCommandsMoveDirectly && inverses.pointee.nesting > 0 else {
            moveRunCommand(ran)
            return false
        }
        inverses.pointee.pushAction(ran)
        return true
    }

    /// The step of a command entry that just ran, its kept command's bits now `bits`. The
    /// handler's context, a model the step retains, stays.
    @inline(__always)
    private static func step(_ entry: consuming UndoStack.Entry, ranTo bits: UInt, keepsCommandInStep: Bool) -> UndoStep {
        switch consume entry {
        case .action(let id, let owner, let handler), .singleton(let id, let owner, let handler):
            var step = UndoStep(targetID: id, owner: owner, handler: handler)
            if keepsCommandInStep {
                step.keepCommand(ranTo: bits)
            }
            return step
        case .begin, .end:
            preconditionFailure("UndoManager: a step turned into a group mark")
        }
    }

    /// Runs one popped step: a handler on its target, if alive; or a command, whose step then
    /// moves to the current stack as its own inverse (spec R2–R7), allocating nothing.
    @inline(__always)
    private func invoke(_ step: consuming UndoStep, executing: Bool) {
        if !step.owner.isCommand {
            // The call borrows the target the step owns: left to ARC, it was retained around
            // the call and released twice after (callgrind, W1: about 40 instructions a step).
            withExtendedLifetime(step) { step in
                Unmanaged.passUnretained(unsafeDowncast(step.owner, to: ActionTarget.self))
                    ._withUnsafeGuaranteedRef { $0.invoke(step.handler, in: self) }
            }
            return
        }
        if step.owner.keepsCommandInStep {
            // A step that retains its model (perform(_:retaining:)): no load, no release.
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
            step.keepCommand(ranTo: bits)
        }
        moveRunCommand(step)
    }

    /// Runs the command of a step owned by `entry` on `model`, both borrowed: the command in
    /// `bits` (updated by the run) if the step keeps it, else the entry's own. Returns whether
    /// the step keeps it. Tested here, not in an override, which would cost a second dynamic
    /// call.
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
                // The runner specialized for the command (see InlineStepOwner).
                unsafeDowncast(entry, to: InlineStepOwner.self).runKeptCommand(&bits, model, executing)
                return true
            }
        }
    }

    /// Moves a command step that just ran to the current stack, as its own inverse.
    @inline(__always)
    private func moveRunCommand(_ step: consuming UndoStep) {
        // What the run changed, for the other members: out of line, behind a flag test
        // (callgrind, W1 with commands: undo 699 -> 704, retained 560 -> 562 instructions).
        if state.isCoordinated {
            reportChangedPartsOfRun(ownedBy: step.owner, bits: step.handler.inlineBits)
        }
        // No local binding of the entry on the plain path: one kept it alive beside the step
        // `register` consumes (callgrind, W1 with commands: 48 instructions, two atomics).
        if state.isSubclassInstance,
           let model = unsafeDowncast(step.owner, to: CommandEntry.self).model {
            // Overrides see the inverse registration, as they would a handler's.
            recordThroughOverrides(unsafeDowncast(step.owner, to: CommandEntry.self), on: model)
        } else if registrationIsEnabled {
            // Into the group undo or redo opened on the other stack: `register` without its
            // new-edit checks. If a step closed that group, or this runs outside undo (the
            // coordinator's replay), `register`.
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
