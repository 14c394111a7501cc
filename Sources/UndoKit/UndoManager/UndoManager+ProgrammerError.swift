extension UndoManager {
    /// Stops the program for API misuse that Apple reports with an
    /// `NSInternalInconsistencyException` (spec E).
    ///
    /// The message keeps Apple's shape and detail text, so a search for Apple's message finds
    /// UndoKit's too, and adds the public call and the manager's state.
    func programmerError(in call: StaticString, _ detail: StaticString) -> Never {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        fatalError("\(call): UndoManager 0x\(address) is in invalid state, \(detail) [\(stateDescription)]")
    }

    /// The state a misuse message reports. Reads only stored state: it must not post a
    /// checkpoint or change anything on the way to a trap.
    var stateDescription: String {
        [
            "groupingLevel: \(currentStack.nesting)",
            "undo groups: \(undoStack.topLevelCount)",
            "redo groups: \(redoStack.topLevelCount)",
            "isUndoing: \(isUndoing)",
            "isRedoing: \(isRedoing)",
            "groupsByEvent: \(groupsByEvent)",
            "automatic group pending: \(automaticGroupIsPending)",
            "registration disabled: \(registrationDisableCount)",
        ].joined(separator: ", ")
    }
}
