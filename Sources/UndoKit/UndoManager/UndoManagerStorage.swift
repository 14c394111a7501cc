import Foundation

/// The mutable state of one ``UndoManager`` (see ``UndoManager/storage`` for why it is kept
/// apart from the class).
struct UndoManagerStorage {
    /// See ``UndoManager/ownedOrSharedRunLoop``; `nil` until first needed.
    var runLoop: SimulatedRunLoop?
    var isUndoing = false
    var isRedoing = false
    /// Whether an asynchronous operation is running (`asyncWork?.running != nil`): the one
    /// flag registration, grouping and the metadata setters test for it. Beside the other hot
    /// flags, before any field whose layout is only known at run time: placed last, its
    /// offset was looked up on every test (callgrind, W1: about 30 instructions per undo).
    var asyncWorkIsRunning = false {
        didSet { updateShortPathEligibility() }
    }
    /// The asynchronous operations' state (`Asynchronous/`), made by the first one.
    var asyncWork: AsyncWorkState?
    /// An automatic group was opened in this event and the end of the event will close it
    /// (Apple's `autoPending`).
    var automaticGroupIsPending = false
    /// Whether the undo stack's open top-level group is the event's automatic group (not one
    /// begun by hand after it was closed by hand, spec R17).
    var automaticGroupIsOpen = false
    /// Whether the run loop has this manager on its list of pending end-of-event closes.
    var isScheduledOnRunLoop = false
    var checkpointIsBeingPosted = false
    var registrationDisableCount = 0 {
        didSet { updateRunCommandsMoveDirectly() }
    }
    /// Targets whose actions were removed while a popped group's actions run: the rest of the
    /// group skips them, as on Apple, which pops one entry at a time.
    var targetsRemovedDuringInvocation: Set<ObjectIdentifier> = [] {
        didSet { updateRunCommandsMoveDirectly() }
    }
    var invocationWasAborted = false {
        didSet { updateRunCommandsMoveDirectly() }
    }
    /// Whether a command step of a group that undo or redo is running moves to the other
    /// stack as soon as it ran, with none of the tests the general move makes: no step aborted
    /// the run or removed a target's steps, registration is enabled, and no coordinator or
    /// subclass needs to see the move. One test per step in the loop that runs a group's
    /// commands (`UndoManager.runCommands(on:from:executing:)`), where those were five.
    /// Kept current by ``updateRunCommandsMoveDirectly()``.
    private(set) var runCommandsMoveDirectly = true
    var eventObservers: [(id: Int, body: (UndoManager.Event) -> Void)] = [] {
        didSet { updateHasEventListeners() }
    }
    var nextEventObserverID = 0
    var groupsByEvent = true
    var runLoopModes: [RunLoop.Mode] = [.default]
    var notificationCenter: NotificationCenter? = .default {
        didSet { updateHasEventListeners() }
    }
    /// Whether posting an event reaches anyone: kept beside the two properties it summarizes
    /// because undo and redo ask five to seven times each, and reading those cost about 50
    /// instructions per undo (callgrind, W1).
    private(set) var hasEventListeners = true
    /// See ``UndoManager/postsMessages``.
    var postsMessages = false
    /// The ``UndoCoordinator`` the manager is attached to, if any. Strong: an attached
    /// manager keeps its coordinator alive (spec K4), which holds its managers weakly.
    var coordinator: UndoCoordinator?
    /// Whether `coordinator` is set: a flag to test instead of a weak reference to load.
    var isCoordinated = false {
        didSet {
            updateShortPathEligibility()
            updateRunCommandsMoveDirectly()
        }
    }
    /// The ``ActionTarget`` last made, which the next registration on the same object shares
    /// (see ``UndoManager/actionTarget(for:id:)``).
    var lastTarget: ActionTarget?
    /// The ``ModelReference`` last made by `perform(_:on:)`, which the next command on the
    /// same model shares.
    var lastModelReference: ModelReference?
    /// The ``InlineCommandOwner`` last made by `perform(_:on:)`, and the command type it is
    /// for: the next small command of that type on the same model shares it.
    var lastInlineCommandOwner: CommandEntry?
    var lastInlineCommandType: ObjectIdentifier?
    /// The generic classes last instantiated (see ``UndoManager/cachedClass(_:key:in:)``).
    var inlineCommandOwnerClassCache = ClassCache()
    var commandEntryClassCache = ClassCache()
    /// While a step's handler runs, its ``ActionTarget``, which registrations on the same
    /// object share; unretained, as the running step holds it.
    var invokingTarget: Unmanaged<ActionTarget>?
    /// Whether the manager is an instance of a subclass, which may override members: a flag
    /// set once, for the hot paths to test instead of the metatype.
    var isSubclassInstance = false {
        didSet {
            updateShortPathEligibility()
            updateRunCommandsMoveDirectly()
        }
    }
    /// Which registration overload the current registration entered first, while it passes
    /// through the other (see ``UndoManager/registerNonisolatedHandler(_:on:)``).
    var registrationRoute = RegistrationRoute.none
    /// The command `perform` is passing through a subclass's `registerUndo` overrides, recorded
    /// in place of the handler that reaches the base implementation for its model.
    var pendingCommand: CommandEntry?
    /// The public call that is calling one of the manager's overridable members, for a trap
    /// inside to name (see ``UndoManager/takeRoutedCall(default:)``).
    var routedCall: StaticString?
    /// Whether a coalescing key was ever set: until then a top-level close reads no clock and
    /// no metadata.
    var usesCoalescing = false {
        didSet { updateShortPathEligibility() }
    }
    /// Whether the newest closed top-level group may take the next group with its key: set by
    /// a close with a key, cleared by anything else that changes the stack.
    var newestGroupMayCoalesce = false
    /// See ``UndoManager/coalescesIntoCleanStep``.
    var coalescesIntoCleanStep = false
    /// See ``UndoManager/coalescingInterval``.
    var coalescingInterval: Duration = .seconds(1)
    /// See ``UndoManager/coalescingClock``; `nil` reads `ContinuousClock.now`.
    var coalescingClock: (() -> ContinuousClock.Instant)?
    /// The observers added with ``UndoManager/addCleanStateObserver(_:)``; their ids are
    /// `eventObservers`' sequence, so one ``UndoManager/EventObservation`` cancels either.
    var cleanStateObservers: [(id: Int, body: (Bool) -> Void)] = []
    /// Changes noted from outside, and when each step was last done (see ``PartChangeLog``);
    /// `nil` until the first note.
    var partLog: PartChangeLog?
    /// See ``UndoManager/staleStepPolicy``.
    var staleStepPolicy = StaleStepPolicy.run
    /// Whether undo, redo and their queries apply a policy to stale steps: changes were noted
    /// and the policy is not ``StaleStepPolicy/run``. The one test they make otherwise.
    var checksStaleSteps = false {
        didSet { updateShortPathEligibility() }
    }
    /// Whether settling an operation has listeners to tell: step edits are recorded, or
    /// clean-state observers are registered (see `UndoManager.settle()`).
    var settlingHasListeners = false {
        didSet { updateShortPathEligibility() }
    }
    /// Whether ``UndoManager/undo()`` and ``UndoManager/redo()`` may take a step of one action
    /// on the short path (`UndoManager+UndoRedo.swift`): nothing that needs the general path's
    /// posts, edits or checks is there. Kept current by ``updateShortPathEligibility()``, the one
    /// place its conditions are listed; false until the notification centre is set to `nil`.
    private(set) var stepsTakeShortPath = false
    #if DEBUG
    /// How many undos and redos finished on the short path: what tells tests which path ran.
    var stepsFinishedOnShortPath = 0
    /// How many command steps a ``StepTransfer`` moved: what tells tests the loop that runs a
    /// group's commands used one.
    var stepsMovedByTransfer = 0
    #endif
    /// What the clean-state observers last heard (see ``UndoManager/reportCleanState()``).
    var reportedCleanState = true
    /// The continuations of the streams ``UndoManager/events()`` returned, finished when the
    /// manager is deallocated.
    var eventStreams: [(id: Int, continuation: AsyncStream<UndoManager.Event>.Continuation)] = []
    /// The observable properties read through their getters and not changed since: one bit
    /// per ``ObservedProperty``. Zero when nothing was read, which is all an operation tests.
    var observedProperties: UInt32 = 0
    /// The Observation registrar, made by the first read of an observable property. Behind a
    /// reference: `ObservationRegistrar` is resilient, and inline it made this struct's layout
    /// unknown at compile time, so every access to the fields after it called a metadata
    /// accessor (callgrind, W1: 35 instructions per undo).
    var observation: ObservationState?
    /// The value each property in `observedProperties` had when it was read, by
    /// ``ObservedProperty/rawValue``.
    var observedValues: [ObservedValue?] = []
    /// The same for the counts and flags, as integers (see `currentScalar(of:)`).
    var observedScalars: [Int] = []
    /// The ``UndoManager/withUndoGroup(named:_:)`` calls in progress, outermost first.
    var savepoints: [Savepoint] = []
    /// Set while a scope rolls back, so that clean-state observers and Observation hear only
    /// where the rollback ends, not the close and the undo it is made of.
    var isRollingBackScope = false
    /// The history tree's branches, records and clock; `nil` until the tree is first asked
    /// for.
    var historyTree: HistoryTreeState?
    /// How many times a limit's setter (``UndoManager/levelsOfUndo``,
    /// ``UndoManager/actionCostLimit``) ran: the history tree, which counts every node against
    /// the limits, trims when it hears a new count. (A rollback's own lowering of the limits
    /// for its close is no setter's.)
    var limitSettings: UInt64 = 0
    /// See ``UndoManager/historyTreeClock``; `nil` reads `Date()`.
    var historyTreeClock: (() -> Date)?

    init() {}

    private mutating func updateHasEventListeners() {
        hasEventListeners = !eventObservers.isEmpty || notificationCenter != nil
        updateShortPathEligibility()
    }

    /// Recomputes ``runCommandsMoveDirectly`` from every condition it summarizes; each of
    /// those properties calls this when it changes.
    private mutating func updateRunCommandsMoveDirectly() {
        runCommandsMoveDirectly = !invocationWasAborted
            && targetsRemovedDuringInvocation.isEmpty
            && registrationDisableCount == 0
            && !isCoordinated
            && !isSubclassInstance
    }

    /// Recomputes ``stepsTakeShortPath``. Every stored condition is here, and each property
    /// it reads calls this when it changes; a feature that needs to see undo and redo through
    /// the general path adds its flag to this list (and a `didSet` calling this to the flag).
    ///
    /// Not listed, because the short path tests them itself at each call or they cannot
    /// differ there: an undo or redo in progress, disabled registration, an open group on the
    /// undo stack (which every scope and savepoint has), a step that is not one action, the
    /// limits (the short close trims as the general one does), Observation (published after
    /// either path, from the state both leave), and the clean mark (moving a step never
    /// changes it).
    mutating func updateShortPathEligibility() {
        // Overrides must see beginUndoGrouping() and the rest.
        stepsTakeShortPath = !isSubclassInstance
            // Notifications, events(), messages: every post.
            && !hasEventListeners
            // Step edits (the history tree, the part log, the coordinator), clean-state observers.
            && !settlingHasListeners
            // The stale-step policy chooses which step runs.
            && !checksStaleSteps
            // A run's changed parts are reported to the other members.
            && !isCoordinated
            // An undo or redo stops coalescing.
            && !usesCoalescing
            // An asynchronous operation holds or refuses what other code asks meanwhile.
            && !asyncWorkIsRunning
    }
}

/// A one-entry cache of a generic class's metadata, keyed by its generic argument.
struct ClassCache {
    var key: ObjectIdentifier?
    var type: AnyClass?
}

/// Where the registration being made is in its pass through the two
/// `registerUndo(withTarget:handler:)` overloads (see `UndoManager+Registration.swift`).
enum RegistrationRoute: Equatable {
    /// No registration is being routed.
    case none
    /// Entered one overload (the nonisolated one if the flag is set) and called the other,
    /// whose implementation records. `target` tells the second hop from a registration an
    /// override makes before its `super` call.
    case awaitingSecondHop(enteredNonisolated: Bool, target: ObjectIdentifier)
    /// The registration being routed has been recorded; another registration made before the
    /// route unwinds is a new one.
    case recorded
}
