import Foundation

#if !canImport(Darwin)
// Apple's Foundation declares these; on other platforms Foundation has no undo manager, so
// UndoKit declares them with Apple's names and raw values, and code that observes them
// compiles unchanged.
extension Notification.Name {
    /// Posted when the manager checks whether groups should be flushed: when it opens or
    /// closes a group (except when it opens a top-level group while grouping by event) and
    /// when ``UndoManager/canRedo`` is read.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(
    ///     forName: .NSUndoManagerCheckpoint, object: manager, queue: nil
    /// ) { _ in flushPendingTyping() }
    /// ```
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted after a group is opened, outside undo and redo.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerDidOpenUndoGroup, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted before a group is closed, outside undo and redo.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerWillCloseUndoGroup, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerWillCloseUndoGroup = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted after a group is closed, outside undo and redo. The userInfo holds
    /// `NSUndoManagerGroupIsDiscardableKey: true` when the top-level group is discardable.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerDidCloseUndoGroup, object: manager, queue: nil) { note in
    ///     let discardable = note.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool ?? false
    /// }
    /// ```
    public static let NSUndoManagerDidCloseUndoGroup = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
    /// Posted just before an undo performs its operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerWillUndoChange, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted just after an undo; carries the discardable key like the did-close notification.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerDidUndoChange, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted just before a redo performs its operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerWillRedoChange, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted just after a redo; carries the discardable key like the did-close notification.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSUndoManagerDidRedoChange, object: manager, queue: nil) { _ in }
    /// ```
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
}

/// The userInfo key, set to `true`, on the did-close, did-undo and did-redo notifications of
/// a discardable group.
///
/// ```swift
/// let discardable = note.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool ?? false
/// ```
public let NSUndoManagerGroupIsDiscardableKey = "NSUndoManagerGroupIsDiscardableKey"
#endif

extension UndoManager {
    /// One of the moments an undo manager announces, in the order it announces them: the
    /// typed form of its notifications.
    ///
    /// ```swift
    /// let observation = manager.addEventObserver { event in
    ///     if case .didCloseUndoGroup(let isDiscardable) = event, !isDiscardable {
    ///         document.markEdited()
    ///     }
    /// }
    /// ```
    public enum Event: Hashable, Sendable {
        /// `NSUndoManagerCheckpoint`.
        case checkpoint
        /// `NSUndoManagerDidOpenUndoGroup`.
        case didOpenUndoGroup
        /// `NSUndoManagerWillCloseUndoGroup`.
        case willCloseUndoGroup
        /// `NSUndoManagerDidCloseUndoGroup`; whether the top-level group is discardable.
        case didCloseUndoGroup(isDiscardable: Bool)
        /// `NSUndoManagerWillUndoChange`.
        case willUndoChange
        /// `NSUndoManagerDidUndoChange`; whether the undone group was discardable.
        case didUndoChange(isDiscardable: Bool)
        /// `NSUndoManagerWillRedoChange`.
        case willRedoChange
        /// `NSUndoManagerDidRedoChange`; whether the redone group was discardable.
        case didRedoChange(isDiscardable: Bool)
        /// ``UndoKitDidDropStaleStep``: a stale step was dropped without running, under the
        /// ``StaleStepPolicy/skip`` policy: its id, action name, parts, and the changes that
        /// made it stale.
        ///
        /// ```swift
        /// if case .didDropStaleStep(let step) = event {
        ///     toast("Skipped \(step.actionName): changed by \(step.origins.joined(separator: ", "))")
        /// }
        /// ```
        // Indirect: the step inline made every event a larger value, whose copies and
        // destroys in post(_:) cost undo 30 instructions (callgrind, W1).
        indirect case didDropStaleStep(StaleStep)
        /// ``UndoKitDidFailAsyncStep``: an asynchronous undo or redo (``UndoManager/undoAsync()``,
        /// ``UndoManager/redoAsync()``) failed and reverted the actions that had run; the step
        /// is where it was. Posted in place of the did-undo (did-redo) event.
        ///
        /// ```swift
        /// if case .didFailAsyncStep(let failure) = event, failure.revertFailed {
        ///     reloadFromStore()
        /// }
        /// ```
        indirect case didFailAsyncStep(AsyncStepFailure)

        /// The name of the notification posted for this event.
        ///
        /// ```swift
        /// UndoManager.Event.checkpoint.notificationName   // .NSUndoManagerCheckpoint
        /// ```
        public var notificationName: Notification.Name {
            switch self {
            case .checkpoint: .NSUndoManagerCheckpoint
            case .didOpenUndoGroup: .NSUndoManagerDidOpenUndoGroup
            case .willCloseUndoGroup: .NSUndoManagerWillCloseUndoGroup
            case .didCloseUndoGroup: .NSUndoManagerDidCloseUndoGroup
            case .willUndoChange: .NSUndoManagerWillUndoChange
            case .didUndoChange: .NSUndoManagerDidUndoChange
            case .willRedoChange: .NSUndoManagerWillRedoChange
            case .didRedoChange: .NSUndoManagerDidRedoChange
            case .didDropStaleStep: .UndoKitDidDropStaleStep
            case .didFailAsyncStep: .UndoKitDidFailAsyncStep
            }
        }

        /// The userInfo posted with this event's notification: the discardable key on a
        /// discardable group's did-close, did-undo and did-redo, otherwise `nil`.
        ///
        /// ```swift
        /// UndoManager.Event.didCloseUndoGroup(isDiscardable: true).userInfo
        /// // [NSUndoManagerGroupIsDiscardableKey: true]
        /// ```
        public var userInfo: [AnyHashable: Any]? {
            switch self {
            case .didCloseUndoGroup(true), .didUndoChange(true), .didRedoChange(true):
                [NSUndoManagerGroupIsDiscardableKey: true]
            case .didDropStaleStep(let step):
                [UndoKitStaleStepActionNameKey: step.actionName, UndoKitStaleStepKey: step]
            case .didFailAsyncStep(let failure):
                [UndoKitAsyncStepFailureKey: failure]
            default:
                nil
            }
        }
    }

    /// A registration made with ``UndoManager/addEventObserver(_:)`` or
    /// ``UndoManager/addCleanStateObserver(_:)``: like Combine's `AnyCancellable`, the
    /// observation lasts until ``cancel()`` or until you release this value, whichever comes
    /// first (<doc:ObservingTheUndoManager>). Release it on the isolation that owns the manager.
    ///
    /// ```swift
    /// observation = manager.addEventObserver { event in print(event) }   // a property
    /// ```
    public final class EventObservation {
        private weak var manager: UndoManager?
        private let id: Int

        init(manager: UndoManager, id: Int) {
            self.manager = manager
            self.id = id
        }

        deinit {
            cancel()
        }

        /// Stops the observer from being called and releases it. Calling it again, or after
        /// the manager is gone, does nothing.
        ///
        /// ```swift
        /// observation.cancel()
        /// ```
        public func cancel() {
            manager?.removeObserver(id: id)
            manager = nil
        }
    }

    /// Removes the event or clean-state observer (or event stream) registered under `id`.
    func removeObserver(id: Int) {
        state.eventObservers.removeAll { $0.id == id }
        state.cleanStateObservers.removeAll { $0.id == id }
        updateSettlingListeners()
        if let index = state.eventStreams.firstIndex(where: { $0.id == id }) {
            state.eventStreams.remove(at: index).continuation.finish()
        }
    }

    /// A fresh id for an observer or a stream; one sequence for all kinds.
    func makeObserverID() -> Int {
        defer { state.nextEventObserverID += 1 }
        return state.nextEventObserverID
    }

    /// Calls `observer` synchronously for every event, in order, before the notification for
    /// it is posted, for as long as you keep the returned ``EventObservation``.
    ///
    /// A closure call per event, far cheaper than a `NotificationCenter` post; with
    /// ``notificationCenter`` `= nil` notifications are off entirely. ``events()`` delivers
    /// the same events as an `AsyncSequence`.
    ///
    /// ```swift
    /// var events: [UndoManager.Event] = []
    /// let observation = manager.addEventObserver { events.append($0) }
    /// manager.undo()
    /// // events == [.checkpoint, .checkpoint, .willUndoChange, .checkpoint, .didUndoChange(isDiscardable: false)]
    /// observation.cancel()
    /// ```
    ///
    /// - Returns: The registration. The observer is called until you cancel or release it,
    ///   so keep it (in a property, typically); dropping it ends the observation at once.
    public func addEventObserver(_ observer: @escaping (Event) -> Void) -> EventObservation {
        let id = makeObserverID()
        state.eventObservers.append((id, observer))
        return EventObservation(manager: self, id: id)
    }

    /// Where the manager posts Apple's undo notifications (and, on the main actor, their
    /// typed message forms); `nil` posts none. The default is `NotificationCenter.default`, as
    /// on Apple platforms.
    ///
    /// A post costs about a microsecond on Linux even with nobody listening; a manager whose
    /// observers use ``addEventObserver(_:)``, or none, can skip it:
    ///
    /// ```swift
    /// manager.notificationCenter = nil          // typed observers still see every event
    /// manager.notificationCenter = myCenter     // keep this document's traffic separate
    /// ```
    public var notificationCenter: NotificationCenter? {
        get { state.notificationCenter }
        set { state.notificationCenter = newValue }
    }

    /// Delivers an event to the typed observers, then to ``notificationCenter``; a checkpoint
    /// raised by a checkpoint observer is dropped, as Apple does (spec R43). Inlined up to the
    /// listener check, all the work when nobody listens (undo and redo post five to seven).
    @inline(__always)
    func post(_ event: Event) {
        if state.hasEventListeners {
            deliver(event)
        }
    }

    private func deliver(_ event: Event) {
        if event == .checkpoint {
            guard !state.checkpointIsBeingPosted else { return }
            state.checkpointIsBeingPosted = true
        }
        defer {
            if event == .checkpoint {
                state.checkpointIsBeingPosted = false
            }
        }
        for observer in state.eventObservers {
            observer.body(event)
        }
        if let center = notificationCenter {
            center.post(name: event.notificationName, object: self, userInfo: event.userInfo)
            postMessage(for: event, to: center)
        }
    }
}
