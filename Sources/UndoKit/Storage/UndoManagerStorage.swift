import Foundation

/// The mutable state of one ``UndoManager`` (see ``UndoManager/storage`` for why it is kept
/// apart from the class).
@usableFromInline
struct UndoManagerStorage {
    var isUndoing = false
    var isRedoing = false
    var automaticGroupIsPending = false
    var isScheduledOnRunLoop = false
    var checkpointIsBeingPosted = false
    @usableFromInline
    var registrationDisableCount = 0
    var targetsRemovedDuringInvocation: Set<ObjectIdentifier> = []
    var invocationWasAborted = false
    var eventObservers: [(id: Int, body: (UndoManager.Event) -> Void)] = []
    var nextEventObserverID = 0
    var groupsByEvent = true
    var runLoopModes: [RunLoop.Mode] = [.default]
    var notificationCenter: NotificationCenter? = .default
    /// The ``UndoCoordinator`` the manager is attached to (at most one: its groups carry that
    /// coordinator's tokens).
    weak var coordinator: UndoCoordinator?
    /// The registration fast path's one-entry cache: the target type last registered and
    /// its `HandlerAction` class (see ``UndoManager/actionType(for:)``).
    @usableFromInline
    var lastActionTypeKey: ObjectIdentifier?
    @usableFromInline
    var lastActionType: AnyClass?

    @usableFromInline
    init() {}
}
