extension UndoManager {
    /// Names the undo step being recorded, for menu titles such as "Undo Typing".
    ///
    /// The name goes to the outermost open group, however deeply nested the caller is; the
    /// last name set wins. With ``groupsByEvent`` on and no group open, this opens the event's
    /// automatic group (which stays as an undoable, if empty, step). The name travels with the
    /// group through undo and redo. Passing `""` removes the name. Does nothing while
    /// registration is disabled.
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: text) { $0.restore(snapshot) }
    /// manager.setActionName("Typing")
    /// manager.undoMenuItemTitle   // "Undo Typing"
    /// ```
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on and the automatic group can
    ///   be opened.
    public func setActionName(_ actionName: String) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "setActionName(_:)", "must begin a group before registering undo"
        ) else { return }
        metadata.name = actionName
    }

    /// The name of the group ``undo()`` would revert, or `""`.
    ///
    /// ```swift
    /// manager.setActionName("Delete")
    /// manager.undoActionName   // "Delete"
    /// ```
    public var undoActionName: String {
        undoStack.topMetadata?.name ?? ""
    }

    /// The name of the group ``redo()`` would perform, or `""`.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionName   // the undone group's name
    /// ```
    public var redoActionName: String {
        redoStack.topMetadata?.name ?? ""
    }

    /// The title for an Undo menu item: "Undo" followed by the action name, or just "Undo".
    ///
    /// Goes through ``undoMenuTitle(forUndoActionName:)``, so a subclass can localize it.
    ///
    /// ```swift
    /// manager.setActionName("Typing")
    /// manager.undoMenuItemTitle   // "Undo Typing"
    /// ```
    public var undoMenuItemTitle: String {
        let name = undoActionName
        return canUndo && !name.isEmpty ? undoMenuTitle(forUndoActionName: name) : "Undo"
    }

    /// The title for a Redo menu item: "Redo" followed by the action name, or just "Redo".
    /// Reading it posts a checkpoint, because it consults ``canRedo``.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoMenuItemTitle   // "Redo Typing"
    /// ```
    public var redoMenuItemTitle: String {
        let name = redoActionName
        return canRedo && !name.isEmpty ? redoMenuTitle(forUndoActionName: name) : "Redo"
    }

    // undoMenuTitle(forUndoActionName:) and redoMenuTitle(forUndoActionName:) are open, so
    // subclasses can localize them; overridable methods must live in the class body.

    // MARK: Discardable

    /// Marks the undo step being recorded as discardable (or not): a step that changes no
    /// document content, such as a selection change, which a document-based app need not
    /// count as an edit.
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
    public func setActionIsDiscardable(_ discardable: Bool) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "setActionIsDiscardable(_:)", "must begin a group before setting undo action discardability"
        ) else { return }
        metadata.isDiscardable = discardable
    }

    /// Whether the group ``undo()`` would revert is discardable.
    ///
    /// ```swift
    /// manager.setActionIsDiscardable(true)
    /// manager.undoActionIsDiscardable   // true
    /// ```
    public var undoActionIsDiscardable: Bool {
        undoStack.topMetadata?.isDiscardable ?? false
    }

    /// Whether the group ``redo()`` would perform is discardable.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionIsDiscardable   // the undone group's flag
    /// ```
    public var redoActionIsDiscardable: Bool {
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
    public func setActionUserInfoValue(_ info: Any?, forKey key: UserInfoKey) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "setActionUserInfoValue(_:forKey:)", "must begin a group before setting undo action user info"
        ) else { return }
        metadata.userInfo[key] = info
    }

    /// The value stored under `key` on the group ``undo()`` would revert.
    ///
    /// ```swift
    /// manager.undoActionUserInfoValue(forKey: .icon)
    /// ```
    public func undoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        undoStack.topMetadata?.userInfo[key]
    }

    /// The value stored under `key` on the group ``redo()`` would perform.
    ///
    /// ```swift
    /// manager.undo()
    /// manager.redoActionUserInfoValue(forKey: .icon)
    /// ```
    public func redoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        redoStack.topMetadata?.userInfo[key]
    }

    /// Spec R34/R40/R41: the shared targeting of the three metadata setters. `nil` while
    /// registration is disabled (the setter is then a no-op).
    private func metadataOfOpenTopGroup(in call: StaticString, _ detail: StaticString) -> GroupMetadata? {
        guard isUndoRegistrationEnabled else { return nil }
        openAutomaticGroupIfNeeded()
        guard currentStack.nesting > 0 else {
            programmerError(in: call, detail)
        }
        return currentStack.openTopMetadata()
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
