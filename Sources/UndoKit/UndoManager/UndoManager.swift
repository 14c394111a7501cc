import Foundation

/// A general-purpose recorder of operations for undo and redo, with the API and observable
/// behaviour of Apple's `UndoManager`.
///
/// You register an undo operation by giving the manager a target and a closure that reverts
/// a change on it. Operations are collected into *undo groups*; ``undo()`` reverts the newest
/// group, and the operations that run during an undo register their own inverses, which
/// become the redo group:
///
/// ```swift
/// final class Counter { var value = 0 }
///
/// func increment(_ counter: Counter, using manager: UndoManager) {
///     counter.value += 1
///     manager.registerUndo(withTarget: counter) { [unowned manager] counter in
///         decrement(counter, using: manager)
///     }
/// }
/// func decrement(_ counter: Counter, using manager: UndoManager) {
///     counter.value -= 1
///     manager.registerUndo(withTarget: counter) { [unowned manager] counter in
///         increment(counter, using: manager)
///     }
/// }
///
/// let manager = UndoManager()
/// let counter = Counter()
/// increment(counter, using: manager)
/// manager.runLoop.tick()      // the end of the event closes the automatic group
/// manager.undo()              // counter.value == 0
/// manager.redo()              // counter.value == 1
/// ```
///
/// With ``groupsByEvent`` on (the default), the first registration of an event opens an
/// automatic group, and the end of the event closes it. Apple's run loop marks that end; here
/// ``SimulatedRunLoop/tick(mode:)`` does, so every registration between two ticks forms one
/// undo step. See <doc:GroupingAndTheEventLoop>.
///
/// `UndoManager` is not `Sendable` and not bound to an actor: it belongs to whichever
/// isolation domain owns it (the main actor in an app, a document's actor on a server).
///
/// Misuse that Apple reports with an internal-inconsistency exception, such as
/// ``endUndoGrouping()`` with no open group, stops the program with a message that names the
/// call and the manager's state. Asking to undo or redo when there is nothing to do is not
/// misuse; it does nothing.
open class UndoManager {
    /// All mutable state, behind a pointer this manager owns.
    ///
    /// Why not stored properties: Swift checks exclusive access to a class's stored `var`s at
    /// run time, and those checks cost more than the rest of a registration (callgrind, a
    /// 20,000-action mix of W1, W2 and W5: 963 million instructions with stored properties,
    /// 647 million with this pointer, the checks' `swift_beginAccess` having been the largest
    /// single cost). Memory reached
    /// through a pointer is not checked. It is safe because no method keeps an `inout` access
    /// to the state across a call into client code (actions and observers run only between
    /// accesses), and the pointer lives exactly as long as the manager.
    @usableFromInline
    let storage: UnsafeMutablePointer<UndoManagerStorage>

    /// The undo stack, then the redo stack; apart from `storage` so that plain addressors,
    /// not coroutines, can hand them out.
    let stacks: UnsafeMutablePointer<UndoStack>

    var undoStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks) }
        unsafeMutableAddress { stacks }
    }

    var redoStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks + 1) }
        unsafeMutableAddress { stacks + 1 }
    }

    /// Whether an undo is in progress: true while ``undoNestedGroup()`` (and so ``undo()``)
    /// runs, including while its notifications are posted and its operations run.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { [unowned manager] item in
    ///     assert(manager.isUndoing)
    /// }
    /// ```
    public internal(set) var isUndoing: Bool {
        get { storage.pointee.isUndoing }
        set { storage.pointee.isUndoing = newValue }
    }

    /// Whether a redo is in progress: true while ``redo()`` runs.
    ///
    /// ```swift
    /// manager.isRedoing   // false outside redo()
    /// ```
    public internal(set) var isRedoing: Bool {
        get { storage.pointee.isRedoing }
        set { storage.pointee.isRedoing = newValue }
    }

    /// An automatic group was opened in this event and the end of the event will close it
    /// (Apple's `autoPending`).
    var automaticGroupIsPending: Bool {
        get { storage.pointee.automaticGroupIsPending }
        set { storage.pointee.automaticGroupIsPending = newValue }
    }

    /// Whether ``runLoop`` has this manager on its list of pending end-of-event closes.
    var isScheduledOnRunLoop: Bool {
        get { storage.pointee.isScheduledOnRunLoop }
        set { storage.pointee.isScheduledOnRunLoop = newValue }
    }

    var checkpointIsBeingPosted: Bool {
        get { storage.pointee.checkpointIsBeingPosted }
        set { storage.pointee.checkpointIsBeingPosted = newValue }
    }

    @usableFromInline
    var registrationDisableCount: Int {
        get { storage.pointee.registrationDisableCount }
        set { storage.pointee.registrationDisableCount = newValue }
    }

    /// Set while a popped group's actions run, so that removals made by those actions also
    /// skip the group's remaining actions, as they would on Apple, which pops one entry at a
    /// time.
    var targetsRemovedDuringInvocation: Set<ObjectIdentifier> {
        _read { yield storage.pointee.targetsRemovedDuringInvocation }
        _modify { yield &storage.pointee.targetsRemovedDuringInvocation }
    }

    var invocationWasAborted: Bool {
        get { storage.pointee.invocationWasAborted }
        set { storage.pointee.invocationWasAborted = newValue }
    }

    var eventObservers: [(id: Int, body: (Event) -> Void)] {
        _read { yield storage.pointee.eventObservers }
        _modify { yield &storage.pointee.eventObservers }
    }

    var nextEventObserverID: Int {
        get { storage.pointee.nextEventObserverID }
        set { storage.pointee.nextEventObserverID = newValue }
    }

    /// The run loop whose passes end this manager's automatic groups.
    ///
    /// A manager made with ``init()`` has a loop of its own. Managers that share one event
    /// stream, such as several views of one window, share a loop: make them with
    /// ``init(runLoop:)``.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.registerUndo(withTarget: document) { $0.revert() }
    /// manager.runLoop.tick()   // closes the automatic group: one undo step
    /// ```
    public let runLoop: SimulatedRunLoop

    /// Whether the first registration of an event opens a group that the end of the event
    /// closes. The default is `true`.
    ///
    /// Setting it only flips the flag: it opens, closes and cancels nothing (spec R14). With
    /// `false`, every registration needs a group you opened with ``beginUndoGrouping()``.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// manager.registerUndo(withTarget: document) { $0.revert() }
    /// manager.endUndoGrouping()
    /// ```
    public var groupsByEvent: Bool {
        get { storage.pointee.groupsByEvent }
        set { storage.pointee.groupsByEvent = newValue }
    }

    /// The run-loop modes in which the end of an event closes the automatic group. The
    /// default is `[.default]`.
    ///
    /// A ``SimulatedRunLoop/tick(mode:)`` in a mode not listed here leaves the automatic
    /// group open until a tick in a listed mode.
    ///
    /// ```swift
    /// manager.runLoopModes = [.default, RunLoop.Mode("tracking")]
    /// ```
    public var runLoopModes: [RunLoop.Mode] {
        get { storage.pointee.runLoopModes }
        set { storage.pointee.runLoopModes = newValue }
    }

    /// Where the manager posts Apple's undo notifications; `nil` posts none. The default is
    /// `NotificationCenter.default`, as on Apple platforms.
    ///
    /// A post costs about a microsecond on Linux even with nobody listening. A manager whose
    /// notifications nobody observes, or whose observers use ``addEventObserver(_:)``, can
    /// skip that cost:
    ///
    /// ```swift
    /// manager.notificationCenter = nil          // typed observers still see every event
    /// manager.notificationCenter = myCenter     // keep this document's traffic separate
    /// ```
    public var notificationCenter: NotificationCenter? {
        get { storage.pointee.notificationCenter }
        set { storage.pointee.notificationCenter = newValue }
    }

    /// Creates a manager with a run loop of its own.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.groupsByEvent   // true
    /// manager.levelsOfUndo    // 0: no limit
    /// ```
    public convenience init() {
        self.init(runLoop: SimulatedRunLoop())
    }

    /// Creates a manager whose automatic groups close when `runLoop` ends a pass.
    ///
    /// ```swift
    /// let loop = SimulatedRunLoop()
    /// let textManager = UndoManager(runLoop: loop)
    /// let canvasManager = UndoManager(runLoop: loop)
    /// loop.tick()   // ends the event for both
    /// ```
    public init(runLoop: SimulatedRunLoop) {
        self.runLoop = runLoop
        storage = .allocate(capacity: 1)
        storage.initialize(to: UndoManagerStorage())
        stacks = .allocate(capacity: 2)
        stacks.initialize(repeating: UndoStack(), count: 2)
    }

    deinit {
        stacks.deinitialize(count: 2)
        stacks.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The stack that registrations go to: the redo stack while undoing, else the undo stack.
    var currentStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks + (isUndoing ? 1 : 0)) }
        unsafeMutableAddress { stacks + (isUndoing ? 1 : 0) }
    }

    var isBusy: Bool { isUndoing || isRedoing }

    // MARK: Registering

    /// Records an operation that reverts a change on `target`.
    ///
    /// The handler runs with `target` when the group it belongs to is undone. Register the
    /// inverse from inside the handler and redo works too. The manager holds `target` weakly
    /// and the handler strongly; if `target` is gone when the group is undone, the handler is
    /// skipped.
    ///
    /// Registering clears the redo stack, except while undoing or redoing. With
    /// ``groupsByEvent`` on and no group open, it first opens the event's automatic group.
    /// While registration is disabled it does nothing.
    ///
    /// ```swift
    /// func rename(_ item: Item, to newName: String, using manager: UndoManager) {
    ///     let oldName = item.name
    ///     item.name = newName
    ///     manager.registerUndo(withTarget: item) { [unowned manager] item in
    ///         rename(item, to: oldName, using: manager)
    ///     }
    ///     manager.setActionName("Rename")
    /// }
    /// ```
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on and the event's automatic
    ///   group can be opened.
    @inlinable
    public func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping (TargetType) -> Void
    ) {
        guard isUndoRegistrationEnabled else { return }
        register(actionType(for: TargetType.self).init(target: target, handler: handler), on: ObjectIdentifier(target))
    }

    /// `HandlerAction<TargetType>.self`, from a per-manager cache.
    ///
    /// Naming a generic class's instance type makes the runtime look its metadata up in a
    /// global table on every call (about 330 instructions, a third of a registration);
    /// allocating through a cached metatype skips that. The bit cast is sound because the
    /// cache entry was made for the same `TargetType`, which the identifier comparison
    /// proves.
    @inlinable
    func actionType<TargetType: AnyObject>(for _: TargetType.Type) -> HandlerAction<TargetType>.Type {
        let key = ObjectIdentifier(TargetType.self)
        if storage.pointee.lastActionTypeKey == key, let cached = storage.pointee.lastActionType {
            return unsafeBitCast(cached, to: HandlerAction<TargetType>.Type.self)
        }
        return cacheActionType(HandlerAction<TargetType>.self, key: key)
    }

    @usableFromInline
    func cacheActionType<TargetType: AnyObject>(
        _ type: HandlerAction<TargetType>.Type, key: ObjectIdentifier
    ) -> HandlerAction<TargetType>.Type {
        storage.pointee.lastActionTypeKey = key
        storage.pointee.lastActionType = type
        return type
    }

    /// Spec R2–R7: every registration form ends here.
    @usableFromInline
    func register(_ action: UndoAction, on target: ObjectIdentifier) {
        if !isBusy && !redoStack.isEmpty {
            redoStack.removeAll()
            releaseDroppedEntries()
        }
        openAutomaticGroupIfNeeded()
        guard currentStack.nesting > 0 else {
            programmerError(in: "registerUndo(withTarget:handler:)", "must begin a group before registering undo")
        }
        currentStack.pushAction(action, target: target)
        checkInvariantsInDebugBuilds()
    }

    /// Spec R5: the first registration of an event opens the automatic group.
    func openAutomaticGroupIfNeeded() {
        guard groupsByEvent && !automaticGroupIsPending && currentStack.nesting == 0 else { return }
        automaticGroupIsPending = true
        if !isScheduledOnRunLoop {
            runLoop.schedule(self)
        }
        beginUndoGrouping()
    }

    // MARK: Grouping

    /// Opens a new undo group, nested in the open one if any.
    ///
    /// With ``groupsByEvent`` on and no group open, this first opens the event's automatic
    /// group, so the explicit group is nested inside it and ``groupingLevel`` becomes 2, as on
    /// Apple platforms. Posts a checkpoint (except for a top-level group while grouping by
    /// event) and `NSUndoManagerDidOpenUndoGroup`. Does nothing while registration is
    /// disabled.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// move(shape, by: offset, using: manager)
    /// recolor(shape, to: .red, using: manager)
    /// manager.endUndoGrouping()
    /// manager.undo()   // reverts both
    /// ```
    public func beginUndoGrouping() {
        guard isUndoRegistrationEnabled else { return }
        let busy = isBusy
        if !busy {
            openAutomaticGroupIfNeeded()
        }
        if !(groupsByEvent && currentStack.nesting == 0) {
            post(.checkpoint)
        }
        currentStack.pushBegin()
        checkInvariantsInDebugBuilds()
        if !busy {
            post(.didOpenUndoGroup)
        }
    }

    /// Closes the innermost open undo group.
    ///
    /// A group closed with nothing in it stays on the stack as an undoable step, as on Apple
    /// platforms, and clears the redo stack. Posts a checkpoint,
    /// `NSUndoManagerWillCloseUndoGroup` and `NSUndoManagerDidCloseUndoGroup`. Does nothing
    /// while registration is disabled.
    ///
    /// ```swift
    /// manager.beginUndoGrouping()
    /// manager.registerUndo(withTarget: shape) { $0.restore() }
    /// manager.endUndoGrouping()
    /// ```
    ///
    /// - Precondition: A group is open. Closing the automatic group by hand is allowed but
    ///   hazardous (see ``endEventGroup()``).
    public func endUndoGrouping() {
        closeGroup(in: "endUndoGrouping()", discardingEmpty: false)
    }

    /// Spec R10, shared by ``endUndoGrouping()``, the end of an event, and the internal
    /// closes of undo and redo.
    func closeGroup(in call: StaticString, discardingEmpty: Bool) {
        guard isUndoRegistrationEnabled else { return }
        post(.checkpoint)
        guard currentStack.nesting > 0 else {
            programmerError(in: call, "endUndoGrouping called with no matching begin")
        }
        let busy = isBusy
        if !busy {
            post(.willCloseUndoGroup)
        }
        // Only the did-close notification reads the flag; skip the lookup when it won't post.
        let isDiscardable = !busy && hasEventListeners && (currentStack.topMetadata?.isDiscardable ?? false)
        let wasEmpty = currentStack.closeGroup(discardIfEmpty: discardingEmpty)
        if wasEmpty && !busy {
            redoStack.removeAll()
        }
        releaseDroppedEntries()
        checkInvariantsInDebugBuilds()
        if !busy {
            post(.didCloseUndoGroup(isDiscardable: isDiscardable))
        }
    }

    /// The number of nested open groups on the stack that registrations go to: the undo
    /// stack, or the redo stack while undoing.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// manager.groupingLevel   // 1
    /// ```
    public var groupingLevel: Int {
        currentStack.nesting
    }

    /// The end of an event (spec R15), run by ``runLoop``.
    ///
    /// - Returns: whether the manager is done with this pass; `false` keeps it scheduled.
    func endOfEvent(mode: RunLoop.Mode) -> Bool {
        guard automaticGroupIsPending else { return true }
        guard groupsByEvent && runLoopModes.contains(mode) else { return false }
        automaticGroupIsPending = false
        closeGroup(in: "SimulatedRunLoop.tick(mode:) closing the automatic group", discardingEmpty: false)
        return true
    }

    /// Releases what the stacks took off since the last call. Called right after each
    /// mutation that may drop entries, when the stacks are consistent, so that `deinit`s the
    /// release runs may use the manager (see ``UndoStack/dropped``).
    @inline(__always)
    func releaseDroppedEntries() {
        if !undoStack.dropped.isEmpty || !redoStack.dropped.isEmpty {
            releaseDroppedEntriesNow()
        }
    }

    private func releaseDroppedEntriesNow() {
        // One at a time, each popped before it is released, so a deinit that re-enters the
        // manager finds the lists consistent; popping keeps their capacity for the next drop.
        while let entry = undoStack.dropped.popLast() {
            withExtendedLifetime(entry) {}
        }
        while let entry = redoStack.dropped.popLast() {
            withExtendedLifetime(entry) {}
        }
    }

    // MARK: Menu titles

    /// The Undo menu title for an action name: "Undo" and the name, in English.
    ///
    /// Override it to localize the titles; ``undoMenuItemTitle`` calls it. It does not treat
    /// `""` specially (the result is "Undo " with a trailing space), as on Apple platforms.
    ///
    /// ```swift
    /// final class FrenchUndoManager: UndoManager {
    ///     override func undoMenuTitle(forUndoActionName actionName: String) -> String {
    ///         "Annuler \(actionName)"
    ///     }
    /// }
    /// ```
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        "Undo \(actionName)"
    }

    /// The Redo menu title for an action name: "Redo" and the name, in English.
    ///
    /// Override it to localize the titles; ``redoMenuItemTitle`` calls it.
    ///
    /// ```swift
    /// UndoManager().redoMenuTitle(forUndoActionName: "Typing")   // "Redo Typing"
    /// ```
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        "Redo \(actionName)"
    }

    // MARK: Enabling and disabling

    /// Stops registrations, group opens and closes, and action naming from taking effect.
    ///
    /// Calls nest: registration resumes when every call has been balanced by
    /// ``enableUndoRegistration()``. Undo and redo still run, but record no inverse.
    ///
    /// ```swift
    /// manager.disableUndoRegistration()
    /// document.loadFromDisk()   // not undoable
    /// manager.enableUndoRegistration()
    /// ```
    public func disableUndoRegistration() {
        registrationDisableCount += 1
    }

    /// Balances one ``disableUndoRegistration()``.
    ///
    /// ```swift
    /// manager.disableUndoRegistration()
    /// manager.enableUndoRegistration()
    /// manager.isUndoRegistrationEnabled   // true
    /// ```
    ///
    /// - Precondition: Registration is disabled.
    public func enableUndoRegistration() {
        guard registrationDisableCount > 0 else {
            programmerError(
                in: "enableUndoRegistration()",
                "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration"
            )
        }
        registrationDisableCount -= 1
    }

    /// Whether registrations are recorded: no ``disableUndoRegistration()`` is unbalanced.
    ///
    /// ```swift
    /// UndoManager().isUndoRegistrationEnabled   // true
    /// ```
    @inlinable
    public var isUndoRegistrationEnabled: Bool {
        registrationDisableCount == 0
    }
}
