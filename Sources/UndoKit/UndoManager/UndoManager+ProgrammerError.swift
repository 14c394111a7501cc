extension UndoManager {
    /// Stops the program for API misuse that Apple reports with an
    /// `NSInternalInconsistencyException` (spec E): Apple's detail text, the public call, the
    /// manager's state, and what to do instead (``fix(for:in:)``; <doc:AvoidingMisuse>).
    func programmerError(in call: PublicCall, _ detail: StaticString) -> Never {
        programmerError(in: call, "\(detail)", fix: fix(for: "\(detail)", in: call))
    }

    /// The same, with a detail and a fix of the caller's.
    func programmerError(in call: PublicCall, _ detail: String, fix: String) -> Never {
        fatalError("\(call): \(typeName) \(address) is in invalid state, \(detail) [\(stateDescription)]\nFix: \(fix)")
    }

    /// What to do instead of the misuse Apple's `detail` names, from stored state only.
    func fix(for detail: String, in call: PublicCall) -> String {
        let level = currentStack.nesting
        let busy = state.isUndoing || state.isRedoing
        let scoped = "or wrap the edit in withUndoGroup(named:_:), whose group always closes"
        switch detail {
        case "endUndoGrouping called with no matching begin":
            // The end of the event reports "endUndoGrouping() called by SimulatedRunLoop.tick…".
            if call.caller.map({ "\($0)".hasPrefix("SimulatedRunLoop.tick") }) == true {
                return "the event's automatic group was already closed by hand; close it with endEventGroup() "
                    + "instead of endUndoGrouping(), or leave it to the end of the event"
            }
            if call.caller != nil || busy {
                return "an action removed all actions (removeAllActions()) while its undo or redo ran; "
                    + "call removeAllActions() after undo() or redo() returns"
            }
            return "call endUndoGrouping() only after a beginUndoGrouping() it closes, \(scoped)"
        case "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration":
            return "call enableUndoRegistration() once for each disableUndoRegistration(); pair them with defer "
                + "(manager.disableUndoRegistration(); defer { manager.enableUndoRegistration() })"
        case "undo was called with too many nested undo groups":
            if state.isRedoing {
                return "undo() from inside a redo action is not allowed; call it after redo() returns"
            }
            // Not the automatic-group flag: undo() clears it even when its close did nothing.
            if state.registrationDisableCount > 0 {
                return "registration is disabled, and no group closes while it is, not even the event's automatic "
                    + "group that undo() closes; call enableUndoRegistration() before undo()"
            }
            if level == 1 && !state.automaticGroupIsPending {
                return "undo() closes only the event's automatic group; close your group with endUndoGrouping() "
                    + "before undo(), \(scoped)"
            }
            let automatic = state.automaticGroupIsPending ? " (the event's automatic group with endEventGroup())" : ""
            return "close the \(level) open groups with endUndoGrouping()\(automatic) before undo(), \(scoped)"
        case "call endUndoGrouping before calling this method":
            if busy {
                return "undo from inside an undo or redo action is not allowed; undo after the current undo() "
                    + "or redo() returns"
            }
            return "the newest group is still open: close it with endUndoGrouping() (the event's automatic group "
                + "with endEventGroup()) before undoing, or use undo(), which closes the automatic group"
        case "do not invoke this method while undoing":
            return "redo() from inside an undo or redo action is not allowed; call it after the current undo() "
                + "or redo() returns"
        case "markClean may not be called while undoing or redoing":
            return "call markClean() when the save completes, after undo() or redo() returns"
        default:
            // "must begin a group before …". Busy first: while undoing or redoing, the stack
            // the inverse is built on has a group open only while the action runs.
            if busy {
                let what = "\(call.name)".hasPrefix("registerUndo") ? "register" : "call \(call.name)"
                return "\(what) from the undo or redo action itself, not from an observer of the will- or "
                    + "did-undo/redo notifications: only while the action runs is the inverse's group open"
            }
            if state.groupsByEvent && state.automaticGroupIsPending && level == 0 {
                return "the event's automatic group was closed by hand (endUndoGrouping() at level 1), and an "
                    + "event opens only one; close it with endEventGroup() instead, or leave it to the end of "
                    + "the event, and register in the next event"
            }
            return "with groupsByEvent off, open a group first: beginUndoGrouping() … endUndoGrouping(), "
                + "or withUndoGroup(named:_:)"
        }
    }

    /// The state a misuse message reports, from stored state only: on the way to a trap it
    /// must post nothing, call no override and change nothing.
    var stateDescription: String {
        [
            "groupingLevel: \(currentStack.nesting)",
            "undo groups: \(undoStack.topLevelCount)",
            "redo groups: \(redoStack.topLevelCount)",
            "isUndoing: \(state.isUndoing)",
            "isRedoing: \(state.isRedoing)",
            "groupsByEvent: \(state.groupsByEvent)",
            "automatic group pending: \(state.automaticGroupIsPending)",
            "registration disabled: \(state.registrationDisableCount)",
        ].joined(separator: ", ")
    }

    /// ``description``: the class, the address and the stacks, from stored state only.
    var summary: String {
        var parts = [
            "\(undoStack.topLevelCount) undo group\(undoStack.topLevelCount == 1 ? "" : "s")",
            "\(redoStack.topLevelCount) redo group\(redoStack.topLevelCount == 1 ? "" : "s")",
            "groupingLevel \(currentStack.nesting)",
        ]
        if state.groupsByEvent { parts.append("groupsByEvent") }
        if state.isUndoing { parts.append("undoing") }
        if state.isRedoing { parts.append("redoing") }
        if !registrationIsEnabled { parts.append("registration disabled") }
        return "<\(typeName) \(address): \(parts.joined(separator: ", "))>"
    }

    /// The dynamic class's name, as Apple's messages name the class (`NSUndoManager` there).
    var typeName: String {
        String(describing: type(of: self))
    }

    var address: String {
        "0x" + String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16)
    }
}

extension UndoManager {
    /// The base implementations of the Objective-C-only members stop here: there is no runtime
    /// to send the message.
    func objectiveCOnlyCall(_ call: StaticString) -> Never {
        fatalError(
            "\(call): \(typeName) \(address) cannot record selector-based undo: it needs the Objective-C runtime\n"
                + "Fix: use registerUndo(withTarget:handler:) with a closure, or perform(_:on:) with an UndoableCommand"
        )
    }
}
