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
/// automatic group, and the end of the event closes it: a manager made with ``init()`` finds
/// that end in a real event loop (a Foundation run loop pass, or a main-actor job), as Apple's
/// run loop marks it; elsewhere ``SimulatedRunLoop/tick(mode:)`` does, so the registrations
/// between two ticks form one undo step. See <doc:GroupingAndTheEventLoop>.
///
/// ### Subclassing
///
/// Every member of Apple's API is `open` and declared in the class body, so a subclass in
/// another module overrides it as it would Apple's, and the manager calls its own overridable
/// members where Apple's does; <doc:SubclassingUndoManager> lists every such path.
///
/// `UndoManager` is not `Sendable` and not bound to an actor: it belongs to whichever
/// isolation domain owns it (the main actor in an app, a document's actor on a server).
/// <doc:PortingAppleCode> shows the patterns of main-actor code that compile unchanged.
///
/// Misuse that Apple reports with an internal-inconsistency exception, such as
/// ``endUndoGrouping()`` with no open group, stops the program with a message that names the
/// call and the manager's state. Asking to undo or redo when there is nothing to do is not
/// misuse; it does nothing.
open class UndoManager: NSObject {
    /// All mutable state, behind a pointer this manager owns.
    ///
    /// Why not stored properties: Swift checks exclusive access to a class's stored `var`s at
    /// run time, which cost more than the rest of a registration (callgrind, 20,000 actions
    /// of W1, W2 and W5: 963 million instructions with stored properties, 647 million with
    /// this pointer). Memory behind a pointer is not checked. Safe: no method keeps an `inout`
    /// access to the state across a call into client code, and the pointer lives exactly as
    /// long as the manager.
    ///
    /// Internal code uses the state here, never the `open` properties, so that a subclass
    /// overriding a getter changes what its callers see, not how the manager works.
    let storage: UnsafeMutablePointer<UndoManagerStorage>

    /// The undo stack, then the redo stack: apart from `storage`, so that plain addressors,
    /// not coroutines, hand them out.
    let stacks: UnsafeMutablePointer<UndoStack>

    /// The one allocation both stacks keep their entries in (see ``TwinStackBuffer``).
    let stackEntries: UnsafeMutablePointer<TwinStackBuffer>

    /// The part of the step ledger both stacks share (see ``StepLedger``); read through
    /// ``ledger``.
    let sharedLedger: UnsafeMutablePointer<StepLedger>

    /// The run loop whose passes end this manager's automatic groups.
    ///
    /// A manager made with ``init()`` has a loop of its own, driven by the event loop the
    /// registering code runs in (see ``SimulatedRunLoop/AutomaticDriver``). Managers of one
    /// event stream, such as the views of one window, share a loop: see ``init(runLoop:)``.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.registerUndo(withTarget: document) { $0.revert() }
    /// manager.runLoop.tick()   // closes the automatic group: one undo step
    /// ```
    ///
    /// Set it to move the manager to another loop, typically in a subclass's initializer
    /// (``init()`` is the only designated one):
    ///
    /// ```swift
    /// final class ViewUndoManager: UndoManager {
    ///     init(window: Window) {
    ///         super.init()
    ///         runLoop = window.loop
    ///     }
    /// }
    /// ```
    ///
    /// - Precondition: When set, no automatic group is waiting for the end of an event.
    public var runLoop: SimulatedRunLoop {
        get { ownedOrSharedRunLoop }
        set { moveToRunLoop(newValue) }
    }

    // MARK: Creating a manager

    /// Creates a manager with a run loop of its own, which ends the manager's events wherever
    /// the registering code runs in a real event loop.
    ///
    /// Ported code needs no ``SimulatedRunLoop/tick(mode:)``: an automatic group opened in a
    /// Foundation run-loop pass or a main-actor job closes at its end, as on Apple platforms;
    /// elsewhere it waits for a tick, ``endEventGroup()`` or an undo (see
    /// ``SimulatedRunLoop/drive(with:)-(AutomaticDriver)``).
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.groupsByEvent   // true
    /// manager.levelsOfUndo    // 0: no limit
    /// ```
    ///
    /// The only designated initializer, as on Apple platforms: a subclass overrides it, calls
    /// it from its own initializer, or leaves Swift to call it:
    ///
    /// ```swift
    /// final class DocumentUndoManager: UndoManager {
    ///     let documentName: String
    ///     init(documentName: String) {
    ///         self.documentName = documentName
    ///         // super.init() is implied: it is the only designated initializer
    ///     }
    /// }
    /// ```
    public override init() {
        (storage, stacks, stackEntries, sharedLedger) = Self.allocateState()
        super.init()
        state.isSubclassInstance = type(of: self) != UndoManager.self
    }

    /// Creates a manager whose automatic groups close when `runLoop` ends a pass.
    ///
    /// ```swift
    /// let loop = SimulatedRunLoop()
    /// let textManager = UndoManager(runLoop: loop)
    /// let canvasManager = UndoManager(runLoop: loop)
    /// loop.tick()   // ends the event for both
    /// ```
    ///
    /// A convenience initializer, so that ``init()`` stays the only designated one (Swift
    /// calls a superclass's `init()` implicitly only then, and ported subclasses rely on it).
    /// Subclasses that override ``init()``, or define no initializer, inherit it; a subclass's
    /// own initializer sets ``runLoop`` after `super.init()`.
    public convenience init(runLoop: SimulatedRunLoop) {
        self.init()
        self.runLoop = runLoop
    }

    deinit {
        finishEventStreams()
        stacks.deinitialize(count: 2)
        stacks.deallocate()
        stackEntries.deinitialize(count: 1)
        stackEntries.deallocate()
        sharedLedger.deinitialize(count: 1)
        sharedLedger.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    // MARK: Registering undo operations

    /// Records an operation that reverts a change on `target`.
    ///
    /// The handler runs with `target` when its group is undone; register the inverse from
    /// inside it and redo works too. The manager holds `target` weakly and the handler
    /// strongly; if `target` is gone by then, the handler is skipped. An undo or redo holds
    /// the target through a run of consecutive operations on it: one that releases the
    /// target's last other reference does not stop the run, and the target goes at its end.
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
    /// The handler is not isolated to an actor (spec H2), so a manager can live on a server's
    /// actor; on the main actor, it may call main-actor methods. Apple's current declaration,
    /// with a `@MainActor` handler, is the other overload; every registration passes through
    /// both, once each, so a subclass may override either.
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on and the event's automatic
    ///   group can be opened.
    open func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping (TargetType) -> Void
    ) {
        registerNonisolatedHandler(handler, on: target)
    }

    /// Records an operation that reverts a change on `target`: Apple's current declaration,
    /// with a main-actor handler.
    ///
    /// Closure literals choose the other, nonisolated overload; this one takes handlers typed
    /// `@MainActor`, and is the one code written for Apple's current SDKs overrides:
    ///
    /// ```swift
    /// final class CountingUndoManager: UndoManager {
    ///     private(set) var registrations = 0
    ///     override func registerUndo<TargetType>(
    ///         withTarget target: TargetType,
    ///         handler: @escaping @MainActor (TargetType) -> Void
    ///     ) where TargetType: AnyObject {
    ///         registrations += 1
    ///         super.registerUndo(withTarget: target, handler: handler)
    ///     }
    /// }
    /// ```
    ///
    /// Every registration passes through both overloads (see the other). The handler runs
    /// where ``undo()`` or ``redo()`` is called: call them on the main actor then.
    open func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping @MainActor (TargetType) -> Void
    ) {
        registerMainActorHandler(handler, on: target)
    }

    // MARK: Checking undo ability

    /// Whether there is a group to undo: true as soon as a top-level group, even an open or
    /// empty one, is on the undo stack. It does not promise that ``undo()`` is allowed (close
    /// an explicit group first). Posts no notification.
    ///
    /// Under a ``staleStepPolicy`` other than ``StaleStepPolicy/run``, once changes were
    /// noted (``noteChanges(to:origin:)``), it is whether ``undo()`` would run a step: `false`
    /// while the next step is stale under ``StaleStepPolicy/refuse``, or while every step is
    /// under ``StaleStepPolicy/skip``; ``undoActionName``, ``undoActionNames`` and the menu
    /// title agree.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.canUndo   // false
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.canUndo   // true, although the automatic group is still open
    /// ```
    open var canUndo: Bool {
        trackRead(.canUndo, \.canUndo)
        return undoIsAvailable
    }

    /// Whether there is a group to redo. Reading it posts a checkpoint, as on Apple platforms.
    /// Under a ``staleStepPolicy``, whether ``redo()`` would run a step, as for ``canUndo``.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.canRedo   // true if the undone operations registered their inverses
    /// ```
    open var canRedo: Bool {
        trackRead(.canRedo, \.canRedo)
        return checkpointThenHasRedoGroup()
    }

    /// The number of closed top-level groups on the undo stack.
    ///
    /// O(1) with no group open. While one is open it is what Apple's walk down the stack
    /// counts, starting inside the open group: after a registration it reads 0 until the
    /// event ends (spec R26).
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.undoCount   // 0: the automatic group is still open
    /// manager.runLoop.tick()
    /// manager.undoCount   // 1
    /// ```
    open var undoCount: Int {
        trackRead(.undoCount, \.undoCount)
        return undoStack.appleCount
    }

    /// The number of closed top-level groups on the redo stack (see ``undoCount``).
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoCount   // 1
    /// ```
    open var redoCount: Int {
        trackRead(.redoCount, \.redoCount)
        return redoStack.appleCount
    }

    // MARK: Performing undo and redo

    /// Reverts the newest undo group, closing the event's automatic group first if it is the
    /// only one open.
    ///
    /// Does nothing when there is nothing to undo. Posts `NSUndoManagerWillUndoChange` and
    /// `NSUndoManagerDidUndoChange` around the group's operations, which run newest first and
    /// register the redo group. Closes the automatic group with ``endUndoGrouping()``, then
    /// calls ``undoNestedGroup()``, so overrides of both run.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.undo()   // closes the automatic group, then undoes it
    /// ```
    ///
    /// - Precondition: No explicit group is open, and no undo or redo is in progress.
    open func undo() {
        undoClosingTheAutomaticGroup()
        publishObservableChanges()
    }

    /// Reverts the newest closed group on the undo stack, even one nested inside a group that
    /// is still open.
    ///
    /// Unlike ``undo()``, it never closes a group; does nothing when the undo stack is empty.
    /// Opens the redo group it builds with ``beginUndoGrouping()``.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()         // outer
    /// manager.beginUndoGrouping()         // inner
    /// manager.registerUndo(withTarget: item) { $0.restore() }
    /// manager.endUndoGrouping()           // inner closed, outer still open
    /// manager.undoNestedGroup()           // reverts the inner group only
    /// ```
    ///
    /// - Precondition: The newest entry of the undo stack is a closed group (no group is open
    ///   on top of it), and no undo or redo is in progress.
    open func undoNestedGroup() {
        undoNewestGroup(in: takeRoutedCall(default: "undoNestedGroup()"))
        publishObservableChanges()
    }

    /// Performs the operations of the newest redo group, which register their inverses on the
    /// undo stack.
    ///
    /// Does nothing when there is nothing to redo (it asks ``canRedo``, which posts a
    /// checkpoint). A group open on the undo stack takes the redone group inside it, as on
    /// Apple platforms. Builds its group with ``beginUndoGrouping()`` and ``endUndoGrouping()``.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redo()   // back where we were
    /// ```
    ///
    /// - Precondition: No undo or redo is in progress.
    open func redo() {
        redoNewestGroup()
        publishObservableChanges()
    }

    // MARK: Managing stack depth

    /// The most top-level groups the undo stack keeps; older groups are dropped. 0, the
    /// default, means no limit.
    ///
    /// Setting it drops the oldest groups at once if there are too many. Only the undo stack
    /// is limited: redo groups stay until redone.
    ///
    /// ```swift
    /// manager.levelsOfUndo = 20   // keep the last 20 steps
    /// ```
    open var levelsOfUndo: Int {
        get {
            trackRead(.levelsOfUndo, \.levelsOfUndo)
            return undoStack.limit
        }
        set {
            setUndoLimit(newValue)
            publishObservableChanges()
        }
    }

    // MARK: Creating undo groups

    /// Opens a new undo group, nested in the open one if any.
    ///
    /// With ``groupsByEvent`` on and no group open, it first opens the event's automatic group,
    /// so ``groupingLevel`` becomes 2, as on Apple platforms. Posts a checkpoint (except for a
    /// top-level group while grouping by event) and `NSUndoManagerDidOpenUndoGroup`. Does
    /// nothing while registration is disabled.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// move(shape, by: offset, using: manager)
    /// recolor(shape, to: .red, using: manager)
    /// manager.endUndoGrouping()
    /// manager.undo()   // reverts both
    /// ```
    ///
    /// The manager calls it too: for the automatic group, and for the group that
    /// ``undoNestedGroup()`` and ``redo()`` build (while ``isUndoing`` or ``isRedoing``).
    open func beginUndoGrouping() {
        openGroup()
        publishObservableChanges()
    }

    /// Closes the innermost open undo group.
    ///
    /// A group closed empty stays as an undoable step, as on Apple platforms, and clears the
    /// redo stack. Posts a checkpoint, `NSUndoManagerWillCloseUndoGroup` and
    /// `NSUndoManagerDidCloseUndoGroup`. Does nothing while registration is disabled.
    ///
    /// ```swift
    /// manager.beginUndoGrouping()
    /// manager.registerUndo(withTarget: shape) { $0.restore() }
    /// manager.endUndoGrouping()
    /// ```
    ///
    /// The manager calls it too: for the automatic group (the end of the event, ``undo()``,
    /// ``endEventGroup()``) and the group ``redo()`` builds.
    ///
    /// - Precondition: A group is open. Closing the automatic group by hand is allowed but
    ///   hazardous (see ``endEventGroup()``).
    open func endUndoGrouping() {
        closeGroup(in: takeRoutedCall(default: "endUndoGrouping()"), discardingEmpty: false)
        publishObservableChanges()
    }

    /// The number of nested open groups on the stack that registrations go to: the undo
    /// stack, or the redo stack while undoing.
    ///
    /// ```swift
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// manager.groupingLevel   // 1
    /// ```
    open var groupingLevel: Int {
        trackRead(.groupingLevel, \.groupingLevel)
        return currentStack.nesting
    }

    /// Whether the first registration of an event opens a group that the end of the event
    /// closes. The default is `true`.
    ///
    /// Setting it opens, closes and cancels nothing (spec R14). With `false`, every
    /// registration needs a group opened with ``beginUndoGrouping()``.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.groupsByEvent = false
    /// manager.beginUndoGrouping()
    /// manager.registerUndo(withTarget: document) { $0.revert() }
    /// manager.endUndoGrouping()
    /// ```
    open var groupsByEvent: Bool {
        get { state.groupsByEvent }
        set { state.groupsByEvent = newValue }
    }

    /// The run-loop modes in which the end of an event closes the automatic group. The
    /// default is `[.default]`.
    ///
    /// A ``SimulatedRunLoop/tick(mode:)`` in another mode leaves the automatic group open.
    ///
    /// ```swift
    /// manager.runLoopModes = [.default, RunLoop.Mode("tracking")]
    /// ```
    open var runLoopModes: [RunLoop.Mode] {
        get { state.runLoopModes }
        set { state.runLoopModes = newValue }
    }

    // MARK: Enabling and disabling undo

    /// Stops registrations, group opens and closes, and action naming from taking effect.
    ///
    /// Calls nest: registration resumes when each is balanced by ``enableUndoRegistration()``.
    /// Undo and redo still run, but record no inverse.
    ///
    /// ```swift
    /// manager.disableUndoRegistration()
    /// document.loadFromDisk()   // not undoable
    /// manager.enableUndoRegistration()
    /// ```
    open func disableUndoRegistration() {
        state.registrationDisableCount += 1
        publishObservableChanges()
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
    open func enableUndoRegistration() {
        reenableRegistration()
        publishObservableChanges()
    }

    /// Whether registrations are recorded: no ``disableUndoRegistration()`` is unbalanced.
    ///
    /// ```swift
    /// UndoManager().isUndoRegistrationEnabled   // true
    /// ```
    open var isUndoRegistrationEnabled: Bool {
        trackRead(.isUndoRegistrationEnabled, \.isUndoRegistrationEnabled)
        return registrationIsEnabled
    }

    // MARK: Checking the state

    /// Whether an undo is in progress: true while ``undoNestedGroup()`` (and so ``undo()``)
    /// runs, including while its notifications are posted and its operations run.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: item) { [unowned manager] item in
    ///     assert(manager.isUndoing)
    /// }
    /// ```
    open var isUndoing: Bool {
        trackRead(.isUndoing, \.isUndoing)
        return state.isUndoing
    }

    /// Whether a redo is in progress: true while ``redo()`` runs.
    ///
    /// ```swift
    /// manager.isRedoing   // false outside redo()
    /// ```
    open var isRedoing: Bool {
        trackRead(.isRedoing, \.isRedoing)
        return state.isRedoing
    }

    // MARK: Clearing undo operations

    /// Empties both stacks, open groups included.
    ///
    /// Also re-enables registration, forgets a pending end-of-event close, and posts no
    /// notification. ``groupsByEvent``, ``levelsOfUndo`` and ``runLoopModes`` are kept.
    ///
    /// ```swift
    /// document.revertToSaved()
    /// manager.removeAllActions()
    /// manager.canUndo   // false
    /// ```
    ///
    /// Calling it from inside an undo operation stops the program when that undo ends, as
    /// Apple's implementation raises then (spec R32).
    open func removeAllActions() {
        clearBothStacks()
        publishObservableChanges()
    }

    /// Removes every operation registered with `target` from both stacks.
    ///
    /// Groups it leaves empty go too; groups empty already, and open groups, stay. Registration
    /// stays disabled if it was; no notification is posted. Call it when an object the
    /// operations refer to goes away for good. As on Apple platforms the target is `Any`: a
    /// value that is not an object is the target of nothing.
    ///
    /// ```swift
    /// document.close()
    /// manager.removeAllActions(withTarget: document)
    /// ```
    open func removeAllActions(withTarget target: Any) {
        guard let object = Self.objectIdentity(of: target) else { return }
        removeActions(on: object)
        publishObservableChanges()
    }

    // MARK: Naming actions

    /// Names the undo step being recorded, for menu titles such as "Undo Typing".
    ///
    /// The name goes to the outermost open group, however deeply nested the caller; the last
    /// set wins. With ``groupsByEvent`` on and no group open, it opens the event's automatic
    /// group (which stays as a step, if empty). The name travels with the group through undo
    /// and redo; `""` removes it. Does nothing while registration is disabled.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: text) { $0.restore(snapshot) }
    /// manager.setActionName("Typing")
    /// manager.undoMenuItemTitle   // "Undo Typing"
    /// ```
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on and the automatic group can
    ///   be opened.
    open func setActionName(_ actionName: String) {
        metadataOfOpenTopGroup(in: "setActionName(_:)", "must begin a group before registering undo")?
            .name = actionName
        publishObservableChanges()
    }

    /// The name of the group ``undo()`` would revert, or `""` (also when a
    /// ``staleStepPolicy`` lets no step run; ``staleUndoStep`` then names the one held back).
    ///
    /// ```swift
    /// manager.setActionName("Delete")
    /// manager.undoActionName   // "Delete"
    /// ```
    open var undoActionName: String {
        trackRead(.undoActionName, \.undoActionName)
        return undoStepName
    }

    /// The name of the group ``redo()`` would perform, or `""`.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionName   // the undone group's name
    /// ```
    open var redoActionName: String {
        trackRead(.redoActionName, \.redoActionName)
        return redoStepName
    }

    /// The title for an Undo menu item: "Undo" followed by the action name, or just "Undo".
    ///
    /// Built from ``canUndo``, ``undoActionName`` and
    /// ``undoMenuTitle(forUndoActionName:)``, so a subclass overriding any of them changes it.
    /// Under a ``staleStepPolicy`` it names the step ``undo()`` would run;
    /// ``staleUndoMenuItemTitle`` names a step held back, with who changed it.
    ///
    /// ```swift
    /// manager.setActionName("Typing")
    /// manager.undoMenuItemTitle   // "Undo Typing"
    /// ```
    open var undoMenuItemTitle: String {
        trackRead(.undoMenuItemTitle, \.undoMenuItemTitle)
        return menuItemTitle(isAvailable: canUndo, name: undoActionName, fallback: "Undo", title: undoMenuTitle(forUndoActionName:))
    }

    /// The title for a Redo menu item: "Redo" followed by the action name, or just "Redo".
    ///
    /// Built from ``canRedo`` (so reading it posts a checkpoint), ``redoActionName`` and
    /// ``redoMenuTitle(forUndoActionName:)``.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoMenuItemTitle   // "Redo Typing"
    /// ```
    open var redoMenuItemTitle: String {
        trackRead(.redoMenuItemTitle, \.redoMenuItemTitle)
        return menuItemTitle(isAvailable: canRedo, name: redoActionName, fallback: "Redo", title: redoMenuTitle(forUndoActionName:))
    }

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

    // MARK: Discardable actions

    /// Marks the undo step being recorded as discardable (or not): one that changes no
    /// document content, such as a selection change, which need not count as an edit.
    ///
    /// Targets the outermost open group, like ``setActionName(_:)``. The flag travels with the
    /// group and appears as `NSUndoManagerGroupIsDiscardableKey` in the userInfo of the
    /// did-close, did-undo and did-redo notifications.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: view) { $0.restoreSelection() }
    /// manager.setActionIsDiscardable(true)
    /// ```
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on.
    open func setActionIsDiscardable(_ discardable: Bool) {
        metadataOfOpenTopGroup(
            in: "setActionIsDiscardable(_:)", "must begin a group before setting undo action discardability"
        )?.isDiscardable = discardable
        publishObservableChanges()
    }

    /// Whether the group ``undo()`` would revert is discardable.
    ///
    /// ```swift
    /// manager.setActionIsDiscardable(true)
    /// manager.undoActionIsDiscardable   // true
    /// ```
    open var undoActionIsDiscardable: Bool {
        undoStack.topMetadata?.isDiscardable ?? false
    }

    /// Whether the group ``redo()`` would perform is discardable.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionIsDiscardable   // the undone group's flag
    /// ```
    open var redoActionIsDiscardable: Bool {
        redoStack.topMetadata?.isDiscardable ?? false
    }

    // MARK: User info

    /// Attaches a value to the undo step being recorded; `nil` removes the key.
    ///
    /// Targets the outermost open group, like ``setActionName(_:)``, and travels with it.
    ///
    /// ```swift
    /// extension UndoManager.UserInfoKey {
    ///     static let icon: UndoManager.UserInfoKey = "icon"
    /// }
    /// manager.setActionUserInfoValue("pencil", forKey: .icon)
    /// manager.undoActionUserInfoValue(forKey: .icon) as? String   // "pencil"
    /// ```
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on.
    open func setActionUserInfoValue(_ info: Any?, forKey key: UserInfoKey) {
        metadataOfOpenTopGroup(
            in: "setActionUserInfoValue(_:forKey:)", "must begin a group before setting undo action user info"
        )?.userInfo[key] = info
        publishObservableChanges()
    }

    /// The value stored under `key` on the group ``undo()`` would revert.
    ///
    /// ```swift
    /// manager.undoActionUserInfoValue(forKey: .icon)
    /// ```
    open func undoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        undoStack.topMetadata?.userInfo[key]
    }

    /// The value stored under `key` on the group ``redo()`` would perform.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionUserInfoValue(forKey: .icon)
    /// ```
    open func redoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        redoStack.topMetadata?.userInfo[key]
    }

    // MARK: NSObject

    /// The manager's class and address and a summary of its stacks; reading it posts nothing
    /// and changes nothing.
    ///
    /// ```swift
    /// print(manager)
    /// // <UndoManager 0x600001026620: 2 undo groups, 0 redo groups, groupingLevel 1, groupsByEvent>
    /// ```
    ///
    /// Managers compare and hash by identity, as `NSObject`s do: `manager == other` is
    /// `manager === other`, and a manager can be a `Set` element or a dictionary key.
    open override var description: String {
        summary
    }

    // MARK: Objective-C-only API

    /// Records an undo operation as a selector sent to `target` with `anObject`: not
    /// supported without the Objective-C runtime, which sends the message.
    ///
    /// Declared so that a subclass written for Apple platforms that overrides it (often as a
    /// no-op, to drop a framework's selector-based registrations) compiles unchanged. This
    /// implementation stops the program, naming the closure API. Register a closure instead:
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: view) { $0.setFrame(oldFrame) }
    /// ```
    @available(*, deprecated, message: "needs the Objective-C runtime; use registerUndo(withTarget:handler:) with a closure")
    open func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?) {
        objectiveCOnlyCall("registerUndo(withTarget:selector:object:)")
    }

    /// Returns a proxy that records the next message sent to it as an undo operation on
    /// `target`: not supported without the Objective-C runtime, which forwards the message.
    ///
    /// Declared, as ``registerUndo(withTarget:selector:object:)`` is, for subclasses that
    /// override it; this implementation stops the program. Register a closure instead:
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: view) { $0.setFrame(oldFrame) }
    /// ```
    @available(*, deprecated, message: "needs the Objective-C runtime; use registerUndo(withTarget:handler:) with a closure")
    open func prepare(withInvocationTarget target: Any) -> Any {
        objectiveCOnlyCall("prepare(withInvocationTarget:)")
    }
}

#if !canImport(Darwin)
/// The order in which Apple schedules the close of an event's automatic group on the run loop
/// (`RunLoop.perform(_:target:argument:order:modes:)`): after most other end-of-pass work.
///
/// ```swift
/// NSUndoCloseGroupingRunLoopOrdering   // 350000
/// ```
public let NSUndoCloseGroupingRunLoopOrdering = 350_000
#endif
