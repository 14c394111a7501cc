extension UndoManager {
    /// Stops the program for API misuse that Apple reports with an
    /// `NSInternalInconsistencyException` (spec E).
    ///
    /// The message keeps Apple's shape and detail text, so a search for Apple's message finds
    /// UndoKit's too, and adds the public call and the manager's state.
    func programmerError(in call: PublicCall, _ detail: StaticString) -> Never {
        fatalError("\(call): \(typeName) \(address) is in invalid state, \(detail) [\(stateDescription)]")
    }

    /// The same, with the fix on a line of its own.
    func programmerError(in call: PublicCall, _ detail: String, fix: String) -> Never {
        fatalError("\(call): \(typeName) \(address) is in invalid state, \(detail) [\(stateDescription)]\nFix: \(fix)")
    }

    /// The state a misuse message reports. Reads only stored state: it must not post a
    /// checkpoint, call an override, or change anything on the way to a trap.
    var stateDescription: String {
        [
            "groupingLevel: \(currentStack.nesting)",
            "undo groups: \(undoStack.topLevelCount)",
            "redo groups: \(redoStack.topLevelCount)",
            "isUndoing: \(storage.pointee.isUndoing)",
            "isRedoing: \(storage.pointee.isRedoing)",
            "groupsByEvent: \(storage.pointee.groupsByEvent)",
            "automatic group pending: \(automaticGroupIsPending)",
            "registration disabled: \(storage.pointee.registrationDisableCount)",
        ].joined(separator: ", ")
    }

    /// ``description``: the class, the address and the stacks, from stored state only.
    var summary: String {
        var parts = [
            "\(undoStack.topLevelCount) undo group\(undoStack.topLevelCount == 1 ? "" : "s")",
            "\(redoStack.topLevelCount) redo group\(redoStack.topLevelCount == 1 ? "" : "s")",
            "groupingLevel \(currentStack.nesting)",
        ]
        if storage.pointee.groupsByEvent { parts.append("groupsByEvent") }
        if storage.pointee.isUndoing { parts.append("undoing") }
        if storage.pointee.isRedoing { parts.append("redoing") }
        if !registrationIsEnabled { parts.append("registration disabled") }
        return "<\(typeName) \(address): \(parts.joined(separator: ", "))>"
    }

    /// The dynamic class's name, as Apple's messages name the class (`NSUndoManager` there).
    private var typeName: String {
        String(describing: type(of: self))
    }

    private var address: String {
        "0x" + String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16)
    }
}
