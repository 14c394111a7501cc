/// Registration (spec R2–R7), and the routing that sends every registration through both
/// `registerUndo(withTarget:handler:)` overloads.
///
/// Why two overloads: Apple's current declaration takes a `@MainActor` handler, and code written
/// for current SDKs in Swift 6 overrides exactly that signature; UndoKit's nonisolated one keeps
/// the manager usable off the main actor (spec H2). Closure literals choose the nonisolated
/// one, so the `@MainActor` one only sees registrations if the manager sends them there. Each
/// overload's implementation, entered first, calls the other through dynamic dispatch; entered
/// second (through an override's `super` call, or directly from the first), it records. A
/// subclass overriding either overload sees every registration exactly once. A plain
/// `UndoManager` has no override to pass through, and records at once.
extension UndoManager {
    typealias MainActorHandler<TargetType> = @MainActor (TargetType) -> Void

    @inline(__always)
    func registerNonisolatedHandler<TargetType: AnyObject>(
        _ handler: @escaping (TargetType) -> Void, on target: TargetType
    ) {
        guard registrationIsEnabled else { return }
        if storage.pointee.isSubclassInstance && storage.pointee.registrationRoute == .none {
            storage.pointee.registrationRoute = .enteredNonisolated
            defer { storage.pointee.registrationRoute = .none }
            // Sound: a sync function's isolation is not part of its representation, and a
            // nonisolated handler may run wherever a main-actor one may.
            let mainActorHandler = unsafeBitCast(handler, to: MainActorHandler<TargetType>.self)
            registerUndo(withTarget: target, handler: mainActorHandler)
            return
        }
        record(handler, on: target)
    }

    func registerMainActorHandler<TargetType: AnyObject>(
        _ handler: @escaping MainActorHandler<TargetType>, on target: TargetType
    ) {
        guard registrationIsEnabled else { return }
        // The handler runs where undo() and redo() run; for a main-actor handler that is the
        // caller's promise, as on Apple, where the whole manager is main-actor isolated.
        let nonisolatedHandler = unsafeBitCast(handler, to: ((TargetType) -> Void).self)
        if storage.pointee.isSubclassInstance && storage.pointee.registrationRoute == .none {
            storage.pointee.registrationRoute = .enteredMainActor
            defer { storage.pointee.registrationRoute = .none }
            let nonisolatedEntry: (TargetType, @escaping (TargetType) -> Void) -> Void = registerUndo(withTarget:handler:)
            nonisolatedEntry(target, nonisolatedHandler)
            return
        }
        record(nonisolatedHandler, on: target)
    }

    /// Stores the handler as an action on the current stack.
    @inline(__always)
    private func record<TargetType: AnyObject>(_ handler: @escaping (TargetType) -> Void, on target: TargetType) {
        register(actionType(for: TargetType.self).init(target: target, handler: handler), on: ObjectIdentifier(target))
    }

    /// `HandlerAction<TargetType>.self`, from a per-manager cache.
    ///
    /// Naming a generic class's instance type makes the runtime look its metadata up in a
    /// global table on every call (about 330 instructions, a third of a registration);
    /// allocating through a cached metatype skips that. The bit cast is sound because the
    /// cache entry was made for the same `TargetType`, which the identifier comparison
    /// proves.
    func actionType<TargetType: AnyObject>(for _: TargetType.Type) -> HandlerAction<TargetType>.Type {
        let key = ObjectIdentifier(TargetType.self)
        if storage.pointee.lastActionTypeKey == key, let cached = storage.pointee.lastActionType {
            return unsafeBitCast(cached, to: HandlerAction<TargetType>.Type.self)
        }
        storage.pointee.lastActionTypeKey = key
        storage.pointee.lastActionType = HandlerAction<TargetType>.self
        return HandlerAction<TargetType>.self
    }

    /// Spec R2–R7: every registration ends here.
    func register(_ action: UndoAction, on target: ObjectIdentifier) {
        if !isBusy {
            if !redoStack.isEmpty {
                redoStack.removeAll()
                releaseDroppedEntries()
            }
            newEditEndsRedo()
        }
        openAutomaticGroupIfNeeded()
        guard currentStack.nesting > 0 else {
            programmerError(in: PublicCall("registerUndo(withTarget:handler:)"), "must begin a group before registering undo")
        }
        currentStack.pushAction(action, target: target)
        checkInvariantsInDebugBuilds()
    }

    /// Spec R5: the first registration of an event (or the first metadata setter) opens the
    /// automatic group, through ``beginUndoGrouping()`` as on Apple platforms and GNUstep.
    func openAutomaticGroupIfNeeded() {
        guard storage.pointee.groupsByEvent && !automaticGroupIsPending && currentStack.nesting == 0 else { return }
        automaticGroupIsPending = true
        if !isScheduledOnRunLoop {
            runLoop.schedule(self)
        }
        beginUndoGrouping()
    }
}
