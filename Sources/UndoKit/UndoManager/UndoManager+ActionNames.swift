/// Action names, menu titles, discardability and user info (spec R34–R41).
extension UndoManager {
    /// Spec R34/R40/R41: the shared targeting of the three metadata setters. `nil` while
    /// registration is disabled (the setter is then a no-op).
    func metadataOfOpenTopGroup(in call: StaticString, _ detail: StaticString) -> GroupMetadata? {
        guard registrationIsEnabled else { return nil }
        // Spec K5: the running asynchronous step's metadata, or other code's, held.
        if state.asyncWorkIsRunning, let metadata = metadataDuringAsyncWork() {
            return metadata
        }
        openAutomaticGroupIfNeeded()
        guard currentStack.nesting > 0 else {
            programmerError(in: PublicCall(call), detail)
        }
        return currentStack.openTopMetadata()
    }

    /// Spec R38: a menu item title from the overridable parts ``undoMenuItemTitle`` and
    /// ``redoMenuItemTitle`` pass in, read in Apple's order: the name only if there is a
    /// group, the title only if there is a name.
    func menuItemTitle(
        isAvailable: Bool, name: @autoclosure () -> String, fallback: String, title: (String) -> String
    ) -> String {
        guard isAvailable else { return fallback }
        let name = name()
        return name.isEmpty ? fallback : title(name)
    }

    /// A key for a value attached to an undo step with
    /// ``UndoManager/setActionUserInfoValue(_:forKey:)``.
    ///
    /// ```swift
    /// extension UndoManager.UserInfoKey {
    ///     static let icon: UndoManager.UserInfoKey = "icon"
    /// }
    /// ```
    public struct UserInfoKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The key's string.
        public let rawValue: String

        /// Creates a key from its string.
        ///
        /// ```swift
        /// let key = UndoManager.UserInfoKey(rawValue: "icon")
        /// ```
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a key from its string.
        ///
        /// ```swift
        /// let key = UndoManager.UserInfoKey("icon")
        /// ```
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a key from a string literal.
        ///
        /// ```swift
        /// let key: UndoManager.UserInfoKey = "icon"
        /// ```
        public init(stringLiteral value: String) {
            self.rawValue = value
        }
    }
}
