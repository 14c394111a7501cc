/// Registration (spec R2–R7), and the routing that sends every registration through both
/// `registerUndo(withTarget:handler:)` overloads, once each (SubclassingUndoManager.md says why
/// and what Swift 5 mode changes): the overload a registration enters first calls the other
/// through dynamic dispatch (the "second hop"), which records, so an override of either sees
/// each registration once, even one made while registration is disabled. A plain
/// `UndoManager` records at once.
extension UndoManager {
    typealias MainActorHandler<TargetType> = @MainActor (TargetType) -> Void

    @inline(__always)
    func registerNonisolatedHandler<TargetType: AnyObject>(
        _ handler: @escaping (TargetType) -> Void, on target: TargetType
    ) {
        guard state.isSubclassInstance else {
            record(handler, on: target)
            return
        }
        let targetIdentifier = ObjectIdentifier(target)
        switch state.registrationRoute {
        case .awaitingSecondHop(enteredNonisolated: false, _):
            // The second hop of a registration that entered the @MainActor overload.
            state.registrationRoute = .recorded
            record(handler, on: target)
        case .awaitingSecondHop(enteredNonisolated: true, target: targetIdentifier):
            // Swift 5 mode: the @MainActor overload's override calling `super` with the same
            // target reaches this overload. (A registration that override makes for that target
            // before `super` is taken for this hop: recorded, unseen by the override; Swift 5's
            // conversion wraps the closure, so handlers cannot tell them apart.)
            state.registrationRoute = .recorded
            record(handler, on: target)
        case .none, .recorded, .awaitingSecondHop(enteredNonisolated: true, _):
            // A new registration; the last case is one made (for another target) by an
            // override of the @MainActor overload before it called `super`.
            let outer = state.registrationRoute
            state.registrationRoute = .awaitingSecondHop(enteredNonisolated: true, target: targetIdentifier)
            // Sound: a sync function's isolation is not part of its representation, and a
            // nonisolated handler may run wherever a main-actor one may.
            let mainActorHandler = unsafeBitCast(handler, to: MainActorHandler<TargetType>.self)
            registerUndo(withTarget: target, handler: mainActorHandler)
            state.registrationRoute = outer
        }
    }

    func registerMainActorHandler<TargetType: AnyObject>(
        _ handler: @escaping MainActorHandler<TargetType>, on target: TargetType
    ) {
        // The handler runs where undo() and redo() run; for a main-actor handler that is the
        // caller's promise, as on Apple, where the whole manager is main-actor isolated.
        let nonisolatedHandler = unsafeBitCast(handler, to: ((TargetType) -> Void).self)
        guard state.isSubclassInstance else {
            record(nonisolatedHandler, on: target)
            return
        }
        switch state.registrationRoute {
        case .awaitingSecondHop(enteredNonisolated: true, _):
            state.registrationRoute = .recorded
            record(nonisolatedHandler, on: target)
        case .none, .recorded, .awaitingSecondHop(enteredNonisolated: false, _):
            // A new registration: the last case is one made by an override of the nonisolated
            // overload before it called `super`, since that overload's second hop goes the
            // other way.
            let outer = state.registrationRoute
            state.registrationRoute = .awaitingSecondHop(enteredNonisolated: false, target: ObjectIdentifier(target))
            let nonisolatedEntry: (TargetType, @escaping (TargetType) -> Void) -> Void = registerUndo(withTarget:handler:)
            nonisolatedEntry(target, nonisolatedHandler)
            state.registrationRoute = outer
        }
    }

    /// Stores the handler as a step on the current stack.
    @inline(__always)
    private func record<TargetType: AnyObject>(_ handler: @escaping (TargetType) -> Void, on target: TargetType) {
        guard registrationIsEnabled else { return }
        let id = ObjectIdentifier(target)
        if let pending = state.pendingCommand, pending.modelID == id {
            // perform's command passing through a subclass's overrides: record the command
            // itself (see recordThroughOverrides(_:on:)).
            state.pendingCommand = nil
            register(UndoStep(command: pending))
            return
        }
        register(UndoStep(targetID: id, owner: actionTarget(for: target, id: id), handler: ErasedHandler(handler)))
    }

    /// The ``ActionTarget`` for a handler taking a `TargetType`: the invoking step's or the
    /// previous registration's if it is the same object and handler type, else a new one.
    @inline(__always)
    func actionTarget<TargetType: AnyObject>(for target: TargetType, id: ObjectIdentifier) -> ActionTarget {
        let typeKey = ObjectIdentifier(TargetType.self)
        // While a handler runs, its target and object are held, so equal identifiers are the
        // same live object: an undo registering its redo costs no weak load.
        if let invoking = state.invokingTarget?.takeUnretainedValue(),
           invoking.id == id, invoking.handlerTypeKey == typeKey {
            return invoking
        }
        // Equal identifiers are the same object: the cached target pins the address it was
        // made for (see `ActionTarget.addressPin`), so no new object can have it.
        if let last = state.lastTarget, last.id == id, last.handlerTypeKey == typeKey {
            return last
        }
        let created = ActionTarget(object: target, id: id, handlerTypeKey: typeKey)
        state.lastTarget = created
        return created
    }

    /// `type`, a generic class's metadata, from a one-entry `cache` keyed by its generic
    /// argument (`key`): naming the type looks its metadata up in a global table on every
    /// call (about 330 instructions). The bit cast is sound: the entry was made from the same
    /// `type` expression for the same generic argument, as the key comparison proves.
    @inline(__always)
    func cachedClass<Class: AnyObject>(
        _ type: @autoclosure () -> Class.Type, key: ObjectIdentifier, in cache: inout ClassCache
    ) -> Class.Type {
        if cache.key == key, let cached = cache.type {
            return unsafeBitCast(cached, to: Class.Type.self)
        }
        let resolved = type()
        cache = ClassCache(key: key, type: resolved)
        return resolved
    }

    /// Spec R2–R7: every registration ends here (a performed command's too, and the step a
    /// command moves to the other stack when it is undone or redone).
    func register(_ step: consuming UndoStep) {
        // Spec K5: during an asynchronous operation a registration may belong to the step
        // it runs, or to other code, which waits (UndoManager+AsyncTurns.swift). The step is
        // handed over whole, out of line: testing it here kept a copy of the step alive on
        // the common path (callgrind, W1: about 7 instructions per registration). Not forced
        // inline: that made the command paths that call it slower (W1 with commands: undo
        // 730 -> 764 instructions per action).
        if state.asyncWorkIsRunning {
            registerDuringAsyncWork(step)
            return
        }
        registerNow(step)
    }

    /// ``register(_:)`` during an asynchronous operation.
    @inline(never)
    func registerDuringAsyncWork(_ step: consuming UndoStep) {
        if takesRegistrationDuringAsyncWork(step) {
            return
        }
        registerNow(step)
    }

    /// ``register(_:)``'s rules, R2–R7.
    @inline(__always)
    private func registerNow(_ step: consuming UndoStep) {
        if !isBusy {
            if !redoStack.isEmpty {
                endRedoForNewEdit(closedNewStep: false)
                settle()
                // Observers hear of a registration only here (redo ended) and when it opens
                // the event's group: one into an open group changes nothing they can read.
                publishObservableChanges()
            }
            newEditEndsRedo()
        }
        openAutomaticGroupIfNeeded()
        guard currentStack.nesting > 0 else {
            let call: StaticString = step.owner.isCommand ? "perform(_:on:)" : "registerUndo(withTarget:handler:)"
            programmerError(in: PublicCall(call), "must begin a group before registering undo")
        }
        currentStack.pushAction(step)
        checkInvariantsInDebugBuilds()
    }

    /// Spec R5: the first registration (or metadata setter) of an event opens the automatic
    /// group, through ``beginUndoGrouping()``. The test is inline: every registration makes it.
    @inline(__always)
    func openAutomaticGroupIfNeeded() {
        guard state.groupsByEvent && !state.automaticGroupIsPending && currentStack.nesting == 0 else { return }
        openAutomaticGroup()
    }

    private func openAutomaticGroup() {
        state.automaticGroupIsPending = true
        state.automaticGroupIsOpen = true
        if !state.isScheduledOnRunLoop {
            runLoop.schedule(self)
        } else {
            // Still listed for a group of this pass it ended early (endEventGroup(), undo()):
            // the new group closes after those opened since.
            runLoop.moveToEndOfPass(self)
        }
        beginUndoGroupingThroughOverrides()
        publishObservableChanges()
    }
}
