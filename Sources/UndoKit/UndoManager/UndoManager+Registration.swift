/// Registration (spec R2–R7), and the routing that sends every registration through both
/// `registerUndo(withTarget:handler:)` overloads.
///
/// Why two overloads: Apple's current declaration takes a `@MainActor` handler, and code written
/// for current SDKs in Swift 6 overrides exactly that signature; UndoKit's nonisolated one keeps
/// the manager usable off the main actor (spec H2). Closure literals choose the nonisolated
/// one, so the `@MainActor` one only sees registrations if the manager sends them there.
///
/// The rule: the overload a registration enters first calls the other through dynamic
/// dispatch (the "second hop"), and the second hop records. So a subclass overriding either
/// overload sees every registration exactly once, including registrations made while
/// registration is disabled (which then record nothing, as Apple's single method does) and
/// registrations its own override makes before or after calling `super`. A plain `UndoManager`
/// has no override to pass through, and records at once.
///
/// One case is ambiguous: in Swift 5 mode, an override of the `@MainActor` overload that calls
/// `super` with its handler reaches the nonisolated overload (Swift 5 accepts the isolation-losing
/// conversion there). The nonisolated implementation, reached with the same target while the `@MainActor` one is
/// waiting for its second hop, therefore records, which keeps exactly-once when the registration
/// entered through the nonisolated overload (closure literals). When the caller entered that
/// override directly, nothing tells the nonisolated implementation the override already ran,
/// so the override sees the registration twice (SubclassingUndoManager.md documents it).
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
            // Swift 5 mode: the @MainActor overload's override calling `super` with the
            // registration's own target reaches this overload, not the other. (Handlers cannot
            // tell: Swift 5's isolation-dropping conversion wraps the closure, so a registration
            // the override makes for the same target before `super` is taken for this hop; it
            // is recorded all the same, only that override does not see it.)
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

    /// The ``ActionTarget`` a handler taking a `TargetType` is recorded with: the one of the
    /// step being invoked or of the previous registration when it is the same object and
    /// handler type, otherwise a new one.
    @inline(__always)
    func actionTarget<TargetType: AnyObject>(for target: TargetType, id: ObjectIdentifier) -> ActionTarget {
        let typeKey = ObjectIdentifier(TargetType.self)
        // While a handler runs, its step holds the invoking target and the handler's caller
        // holds its object, so equal identifiers are the same live object: the common case of
        // an undo registering its redo, which then costs no weak load.
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

    /// `type`, a generic class's metadata, from a per-manager one-entry `cache` keyed by its
    /// generic argument (`key`).
    ///
    /// Naming a generic class's instance type makes the runtime look its metadata up in a
    /// global table on every call (about 330 instructions); allocating through a cached
    /// metatype skips that. The bit cast is sound because the cache entry was made from the
    /// same `type` expression for the same generic argument, which the key comparison proves.
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
        if !isBusy {
            if !redoStack.isEmpty {
                redoStackWillChangeInScope()
                endRedoForNewEdit(closedNewStep: false)
                settle()
                // Observers hear of a registration only where it changes what they can read:
                // here (redo ended) and when it opens the event's group. A registration into
                // an open group changes no observable property (counts and names are of
                // closed groups), so the common path has no check at all.
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

    /// Spec R5: the first registration of an event (or the first metadata setter) opens the
    /// automatic group, through ``beginUndoGrouping()`` as on Apple platforms and GNUstep.
    ///
    /// The test inline, since every registration makes it and it rarely opens anything.
    @inline(__always)
    func openAutomaticGroupIfNeeded() {
        guard state.groupsByEvent && !automaticGroupIsPending && currentStack.nesting == 0 else { return }
        openAutomaticGroup()
    }

    private func openAutomaticGroup() {
        automaticGroupIsPending = true
        state.automaticGroupIsOpen = true
        if !isScheduledOnRunLoop {
            runLoop.schedule(self)
        } else {
            // Still on the list from a group of this pass it ended early (endEventGroup(),
            // undo()): the new group closes behind those opened since, in the order they opened.
            runLoop.moveToEndOfPass(self)
        }
        beginUndoGroupingThroughOverrides()
        publishObservableChanges()
    }
}
