import Foundation

// Apple's OS 26 typed messages for the undo notifications (spec I.6), with the manager as
// subject: posted after each notification while ``UndoManager/postsMessages`` (which says why
// not always), as Foundation on Linux bridges messages and notifications neither way.

extension UndoManager {
    /// The message form of `NSUndoManagerCheckpoint`: the manager opened or closed a group
    /// (except a top-level group it opened while grouping by event), or read ``canRedo``.
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: manager, for: .checkpoint) { _ in
    ///     flushPendingTyping()
    /// }
    /// ```
    public struct CheckpointMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerCheckpoint }
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.CheckpointMessage()
        /// ```
        public init() {}
    }

    /// The message form of `NSUndoManagerDidOpenUndoGroup`: the manager opened a group, outside
    /// undo and redo.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .didOpenUndoGroup) { _ in }
    /// ```
    public struct DidOpenUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerDidOpenUndoGroup }
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.DidOpenUndoGroupMessage()
        /// ```
        public init() {}
    }

    /// The message form of `NSUndoManagerWillCloseUndoGroup`: the manager is about to close a
    /// group, outside undo and redo.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .willCloseUndoGroup) { _ in }
    /// ```
    public struct WillCloseUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerWillCloseUndoGroup }
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.WillCloseUndoGroupMessage()
        /// ```
        public init() {}
    }

    /// The message form of `NSUndoManagerDidCloseUndoGroup`: the manager closed a group,
    /// outside undo and redo.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .didCloseUndoGroup) { message in
    ///     if !message.groupIsDiscardable { document.markEdited() }
    /// }
    /// ```
    public struct DidCloseUndoGroupMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerDidCloseUndoGroup }
        /// Whether the top-level group is discardable.
        public var groupIsDiscardable: Bool
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.DidCloseUndoGroupMessage(groupIsDiscardable: false)
        /// ```
        public init(groupIsDiscardable: Bool) {
            self.groupIsDiscardable = groupIsDiscardable
        }
    }

    /// The message form of `NSUndoManagerWillUndoChange`: an undo is about to run its
    /// operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .willUndoChange) { _ in }
    /// ```
    public struct WillUndoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerWillUndoChange }
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.WillUndoChangeMessage()
        /// ```
        public init() {}
    }

    /// The message form of `NSUndoManagerDidUndoChange`: an undo ran its operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .didUndoChange) { message in
    ///     refreshMenus()
    /// }
    /// ```
    public struct DidUndoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerDidUndoChange }
        /// Whether the undone group was discardable.
        public var groupIsDiscardable: Bool
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.DidUndoChangeMessage(groupIsDiscardable: false)
        /// ```
        public init(groupIsDiscardable: Bool) {
            self.groupIsDiscardable = groupIsDiscardable
        }
    }

    /// The message form of `NSUndoManagerWillRedoChange`: a redo is about to run its
    /// operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .willRedoChange) { _ in }
    /// ```
    public struct WillRedoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerWillRedoChange }
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.WillRedoChangeMessage()
        /// ```
        public init() {}
    }

    /// The message form of `NSUndoManagerDidRedoChange`: a redo ran its operations.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(of: manager, for: .didRedoChange) { message in
    ///     refreshMenus()
    /// }
    /// ```
    public struct DidRedoChangeMessage: NotificationCenter.MainActorMessage, Sendable {
        /// The undo manager that posts it.
        public typealias Subject = UndoManager
        /// The notification this message stands for.
        public static var name: Notification.Name { .NSUndoManagerDidRedoChange }
        /// Whether the redone group was discardable.
        public var groupIsDiscardable: Bool
        /// Creates the message.
        ///
        /// ```swift
        /// let message = UndoManager.DidRedoChangeMessage(groupIsDiscardable: false)
        /// ```
        public init(groupIsDiscardable: Bool) {
            self.groupIsDiscardable = groupIsDiscardable
        }
    }

    /// Whether the manager posts the typed message form of each notification (such as
    /// ``CheckpointMessage``) to ``notificationCenter`` after the notification itself.
    ///
    /// It turns on by itself when an observer of this manager's messages is added with
    /// `addObserver(of:for:using:)` or `NotificationCenter.messages(of:for:bufferSize:)`, so
    /// code written for Apple's messages works unchanged. Observing every manager's messages
    /// by type (`addObserver(of: UndoManager.self, for: .checkpoint)`) names no manager: turn
    /// it on for each then.
    ///
    /// ```swift
    /// manager.postsMessages = true
    /// let token = NotificationCenter.default.addObserver(of: UndoManager.self, for: .didUndoChange) { _ in
    ///     refreshMenus()
    /// }
    /// ```
    ///
    /// Why it is off until then: Foundation on Linux hands a posted message to every observer
    /// added with `addObserver(forName: nil, object: …)` for the same (or any) object, which
    /// then stops the program reading it as a `Notification`: don't combine message observers
    /// with name-less observers of one center. Messages are posted only while the manager
    /// runs on the main actor (the main queue), where Apple's always runs.
    public var postsMessages: Bool {
        get { state.postsMessages }
        set { state.postsMessages = newValue }
    }

    /// Posts the message form of `event` to `center`, on the main actor (see
    /// ``postsMessages``).
    func postMessage(for event: Event, to center: NotificationCenter) {
        guard state.postsMessages && MainQueue.isCurrent else { return }
        // Sound: made and read on the main queue within this synchronous call (checked above),
        // so the manager never crosses a thread.
        nonisolated(unsafe) let manager = self
        MainActor.assumeIsolated {
            switch event {
            case .checkpoint: center.post(CheckpointMessage(), subject: manager)
            case .didOpenUndoGroup: center.post(DidOpenUndoGroupMessage(), subject: manager)
            case .willCloseUndoGroup: center.post(WillCloseUndoGroupMessage(), subject: manager)
            case .didCloseUndoGroup(let discardable): center.post(DidCloseUndoGroupMessage(groupIsDiscardable: discardable), subject: manager)
            case .willUndoChange: center.post(WillUndoChangeMessage(), subject: manager)
            case .didUndoChange(let discardable): center.post(DidUndoChangeMessage(groupIsDiscardable: discardable), subject: manager)
            case .willRedoChange: center.post(WillRedoChangeMessage(), subject: manager)
            case .didRedoChange(let discardable): center.post(DidRedoChangeMessage(groupIsDiscardable: discardable), subject: manager)
            case .didDropStaleStep, .didFailAsyncStep:
                // Apple's manager has no stale steps and no asynchronous actions, so no message
                // type: the notification only.
                break
            }
        }
    }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.CheckpointMessage> {
    /// Identifies ``UndoManager/CheckpointMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .checkpoint) { _ in }
    /// ```
    public static var checkpoint: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidOpenUndoGroupMessage> {
    /// Identifies ``UndoManager/DidOpenUndoGroupMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .didOpenUndoGroup) { _ in }
    /// ```
    public static var didOpenUndoGroup: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillCloseUndoGroupMessage> {
    /// Identifies ``UndoManager/WillCloseUndoGroupMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .willCloseUndoGroup) { _ in }
    /// ```
    public static var willCloseUndoGroup: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidCloseUndoGroupMessage> {
    /// Identifies ``UndoManager/DidCloseUndoGroupMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .didCloseUndoGroup) { message in
    ///     print(message.groupIsDiscardable)
    /// }
    /// ```
    public static var didCloseUndoGroup: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillUndoChangeMessage> {
    /// Identifies ``UndoManager/WillUndoChangeMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .willUndoChange) { _ in }
    /// ```
    public static var willUndoChange: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidUndoChangeMessage> {
    /// Identifies ``UndoManager/DidUndoChangeMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .didUndoChange) { _ in }
    /// ```
    public static var didUndoChange: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.WillRedoChangeMessage> {
    /// Identifies ``UndoManager/WillRedoChangeMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .willRedoChange) { _ in }
    /// ```
    public static var willRedoChange: Self { .init() }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<UndoManager.DidRedoChangeMessage> {
    /// Identifies ``UndoManager/DidRedoChangeMessage``.
    ///
    /// ```swift
    /// center.addObserver(of: manager, for: .didRedoChange) { _ in }
    /// ```
    public static var didRedoChange: Self { .init() }
}

extension NotificationCenter {
    /// Observes one of an undo manager's messages, and makes the manager post its messages
    /// (``UndoManager/postsMessages``).
    ///
    /// The same call as Foundation's `addObserver(of:for:using:)`, which it calls; Swift picks
    /// this overload when the subject is an ``UndoManager``.
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: manager, for: .didCloseUndoGroup) { message in
    ///     if !message.groupIsDiscardable { document.markEdited() }
    /// }
    /// ```
    public func addObserver<Identifier: NotificationCenter.MessageIdentifier, Message: NotificationCenter.MainActorMessage>(
        of subject: UndoManager,
        for identifier: Identifier,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message, Message.Subject == UndoManager {
        subject.postsMessages = true
        return foundationAddObserver(of: subject, for: identifier, using: observer)
    }

    /// Observes one of an undo manager's message types, and makes the manager post its
    /// messages (``UndoManager/postsMessages``).
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: manager, for: UndoManager.DidUndoChangeMessage.self) { _ in
    ///     refreshMenus()
    /// }
    /// ```
    public func addObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: UndoManager,
        for messageType: Message.Type,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject == UndoManager {
        subject.postsMessages = true
        return foundationAddObserver(of: subject, for: messageType, using: observer)
    }

    /// Foundation's own `addObserver(of:for:using:)`: inside this generic context the subject
    /// is not known to be an ``UndoManager``, so the overloads above do not apply.
    private func foundationAddObserver<Identifier: NotificationCenter.MessageIdentifier, Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject,
        for identifier: Identifier,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Identifier.MessageType == Message, Message.Subject: AnyObject {
        addObserver(of: subject, for: identifier, using: observer)
    }

    private func foundationAddObserver<Message: NotificationCenter.MainActorMessage>(
        of subject: Message.Subject,
        for messageType: Message.Type,
        using observer: @escaping @MainActor (Message) -> Void
    ) -> NotificationCenter.ObservationToken where Message.Subject: AnyObject {
        addObserver(of: subject, for: messageType, using: observer)
    }

    /// An asynchronous sequence of one of an undo manager's messages, for code that prefers
    /// `for await` to an observer closure.
    ///
    /// Foundation offers `messages(of:for:bufferSize:)` for `AsyncMessage`s only, on Apple
    /// platforms too; the undo messages are `MainActorMessage`s, so this overload is UndoKit's.
    /// It buffers the newest `limit` messages not yet taken; the observation ends when the
    /// iteration ends or its task is cancelled.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await message in NotificationCenter.default.messages(of: manager, for: .didUndoChange) {
    ///         refreshMenus(discardable: message.groupIsDiscardable)
    ///     }
    /// }
    /// ```
    public func messages<Identifier: NotificationCenter.MessageIdentifier, Message: NotificationCenter.MainActorMessage & Sendable>(
        of subject: UndoManager,
        for identifier: Identifier,
        bufferSize limit: Int = 10
    ) -> AsyncStream<Message> where Identifier.MessageType == Message, Message.Subject == UndoManager {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let token = addObserver(of: subject, for: identifier) { (message: Message) in
            continuation.yield(message)
        }
        continuation.onTermination = { [weak self] _ in
            self?.removeObserver(token)
        }
        return stream
    }
}
