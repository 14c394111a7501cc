import Foundation

/// What the manager keeps for its asynchronous operations (``UndoManager/undoAsync()``,
/// ``UndoManager/redoAsync()``, ``UndoManager/performAsync(_:on:)``,
/// ``UndoManager/withUndoGroupAsync(named:_:)``): allocated by the first one, so a manager
/// that never awaits carries one `nil` reference (spec K1).
final class AsyncWorkState {
    /// The operation that holds the turn and runs now; `nil` between operations, also while
    /// the turn passes to the next waiter.
    var running: AsyncWork?
    /// Whether an operation holds the turn: the next one waits in `waiters`.
    var turnIsTaken = false
    /// The operations waiting for their turn, first come first served.
    var waiters: [CheckedContinuation<Void, Never>] = []
    /// The calls other code made while an operation was suspended, made for real (in order)
    /// once it settles: see ``HeldCall``.
    var heldCalls: [HeldCall] = []
    /// Whether calls were held since the last end of an event (grouping by event): the next
    /// end of the event is held too, so the held edits keep their events.
    var heldEventIsOpen = false
    /// Whether an event ended while the running operation had the event's automatic group
    /// open (a scope's, or one open around a command): it closes when the operation ends.
    var eventEndedDuringWork = false
    /// Numbers the operations, so each has its own ``AsyncWorkToken``.
    var nextSerial: UInt64 = 0
    /// The steps whose failed asynchronous run could not be fully reverted, oldest first.
    var stepsWithFailedRevert: [StepID] = []
}

/// One asynchronous operation in progress.
final class AsyncWork {
    enum Kind {
        /// Running the newest step of the undo stack (an undo) or of the redo stack (a redo),
        /// or the actions a scope registered (its rollback): the step's own registrations are
        /// captured, to land as the inverse step when every action succeeded.
        case runningStep(undoing: Bool)
        /// A scope's body (``UndoManager/withUndoGroupAsync(named:_:)``) or a command's
        /// `execute` (``UndoManager/performAsync(_:on:)``): its registrations go where they
        /// would in synchronous code.
        case recording
    }

    let kind: Kind
    let token: AsyncWorkToken
    /// The inverses the step's actions registered, in registration order (`.runningStep`).
    var captured: [UndoStep] = []
    /// A copy of the running step's metadata, which the actions' setters (an action name, a
    /// cost) change, as they change an undo's redo group (`.runningStep`).
    var metadata: GroupMetadata?
    /// Set while a failed step is reverted: what the reverting actions register is dropped.
    var isReverting = false

    init(kind: Kind, token: AsyncWorkToken) {
        self.kind = kind
        self.token = token
    }

    var isRunningStep: Bool {
        if case .runningStep = kind { true } else { false }
    }
}

/// Tells the code of an asynchronous operation (its actions, the scope's body, and the child
/// tasks they start) from other code that runs while it is suspended: only the former runs
/// with the operation's token bound.
struct AsyncWorkToken: Hashable, Sendable {
    let manager: ObjectIdentifier
    let serial: UInt64
}

/// The task-local that marks the code of an asynchronous operation.
enum AsyncWorkContext {
    @TaskLocal static var token: AsyncWorkToken?
}

/// A call made from outside an asynchronous operation while it was suspended (another task
/// on the manager's actor), held so that it never interleaves into the operation's step, and
/// made after the operation settles, in order, as if called then.
enum HeldCall {
    case registration(UndoStep)
    case beginGroup
    case endGroup
    /// What metadata setters (``UndoManager/setActionName(_:)`` and the others) wrote.
    case metadata(GroupMetadata)
    /// The end of the event the held calls were made in (grouping by event).
    case endEvent
    /// ``UndoManager/removeAllActions()``.
    case removeAllActions
    /// ``UndoManager/removeAllActions(withTarget:)`` for the object with this identity.
    case removeActions(on: ObjectIdentifier)
}

/// A failed asynchronous undo or redo, as observers hear of it
/// (``UndoManager/Event/didFailAsyncStep(_:)``): which step, which way, what failed, and
/// whether reverting the actions that had run failed too.
///
/// ```swift
/// if case .didFailAsyncStep(let failure) = event {
///     showAlert("Could not \(failure.wasUndo ? "undo" : "redo"): \(failure.errorDescription)")
/// }
/// ```
public struct AsyncStepFailure: Hashable, Sendable {
    /// The step, still on the stack it was on.
    public let stepID: UndoTree.NodeID
    /// Whether the step was being undone (else redone).
    public let wasUndo: Bool
    /// `String(describing:)` of the error an action threw (a `CancellationError` for a
    /// cancelled task).
    public let errorDescription: String
    /// Whether the error was a `CancellationError`.
    public let wasCancelled: Bool
    /// The errors the reverting actions threw, described; empty when the actions that had
    /// run were all reverted. When not empty the step is listed in
    /// ``UndoManager/stepsWithFailedRevert``.
    public let revertErrorDescriptions: [String]

    /// Whether the model may be left half changed: a reverting action threw.
    ///
    /// ```swift
    /// if failure.revertFailed { reloadFromStore() }
    /// ```
    public var revertFailed: Bool { !revertErrorDescriptions.isEmpty }
}

/// Thrown by ``UndoManager/undoAsync()`` and ``UndoManager/redoAsync()`` when an action threw
/// and reverting the actions that had run failed too: the model may be half changed. The step
/// stays where it was and is listed in ``UndoManager/stepsWithFailedRevert``.
///
/// ```swift
/// do { try await manager.undoAsync() }
/// catch let error as AsyncRevertError { print(error.revertErrors.count, "reverts failed") }
/// ```
public struct AsyncRevertError: Error {
    /// The step that failed, still on its stack; `nil` for the rollback of a scope
    /// (``UndoManager/withUndoGroupAsync(named:_:)``), whose step never closed.
    public let stepID: UndoTree.NodeID?
    /// What the action (or the scope's body) threw.
    public let error: any Error
    /// What the reverting actions threw, in the order they ran (newest action first).
    public let revertErrors: [any Error]
}

extension Notification.Name {
    /// Posted when an asynchronous undo or redo failed (``UndoManager/undoAsync()``,
    /// ``UndoManager/redoAsync()``), in place of the did-undo (did-redo) notification; the
    /// userInfo's ``UndoKitAsyncStepFailureKey`` holds the ``AsyncStepFailure``. UndoKit's own
    /// notification: Apple's manager has no asynchronous actions.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .UndoKitDidFailAsyncStep, object: manager, queue: nil) { note in
    ///     let failure = note.userInfo?[UndoKitAsyncStepFailureKey] as? AsyncStepFailure
    /// }
    /// ```
    public static let UndoKitDidFailAsyncStep = Notification.Name("UndoKitDidFailAsyncStepNotification")
}

/// The userInfo key of ``Foundation/Notification/Name/UndoKitDidFailAsyncStep``: the
/// ``AsyncStepFailure``.
///
/// ```swift
/// let failure = note.userInfo?[UndoKitAsyncStepFailureKey] as? AsyncStepFailure
/// ```
public let UndoKitAsyncStepFailureKey = "UndoKitAsyncStepFailureKey"
