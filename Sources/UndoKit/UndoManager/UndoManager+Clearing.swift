/// Stack depth and removal (spec R28, R31, R33).
extension UndoManager {
    /// Spec R28: the ``levelsOfUndo`` setter.
    func setUndoLimit(_ limit: Int) {
        undoStack.limit = limit
        undoStack.trimToLimit()
        releaseDroppedEntries()
        checkInvariantsInDebugBuilds()
    }

    /// Spec R31: ``removeAllActions()``.
    func clearBothStacks() {
        undoStack.removeAll()
        redoStack.removeAll()
        storage.pointee.registrationDisableCount = 0
        storage.pointee.isUndoing = false
        storage.pointee.isRedoing = false
        automaticGroupIsPending = false
        storage.pointee.invocationWasAborted = true
        releaseDroppedEntries()
    }

    /// Spec R33: ``removeAllActions(withTarget:)`` for an object.
    func removeActions(on identity: ObjectIdentifier) {
        undoStack.removeActions(withTarget: identity)
        redoStack.removeActions(withTarget: identity)
        releaseDroppedEntries()
        if isBusy {
            targetsRemovedDuringInvocation.insert(identity)
        }
        checkInvariantsInDebugBuilds()
    }

    /// The identity of `value` if it is an object (or an optional holding one), the only kind
    /// of value an action can have as its target; `nil` for anything else, which is the
    /// target of nothing.
    static func objectIdentity(of value: Any) -> ObjectIdentifier? {
        if type(of: value) is AnyClass {
            return ObjectIdentifier(value as AnyObject)
        }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return nil }
        return mirror.children.first.flatMap { objectIdentity(of: $0.value) }
    }
}
