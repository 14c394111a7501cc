extension UndoManager {
    /// Closes the automatic group of the current event now, as the end of the event would, so
    /// that the next registration starts a new undo step.
    ///
    /// With ``groupsByEvent`` on, everything registered during one event is one undo step:
    /// the first registration opens an automatic group and the end of the event
    /// (``SimulatedRunLoop/tick(mode:)``) closes it. To split one event into several steps,
    /// call this between them:
    ///
    /// ```swift
    /// func importFiles(_ files: [File], into library: Library, using manager: UndoManager) {
    ///     for file in files {
    ///         library.add(file, using: manager)      // registers the undo of the add
    ///         manager.setActionName("Import \(file.name)")
    ///         manager.endEventGroup()                // one undo step per file
    ///     }
    /// }
    /// // At the end of the event, the tick finds nothing armed and does nothing.
    /// ```
    ///
    /// Apple's `UndoManager` offers no such call, and the obvious substitute is a trap (spec
    /// R17): ``endUndoGrouping()`` does close the automatic group, but the manager still
    /// expects the end of the event to close it. The next registration in the same event then
    /// finds no group open and no new one opened, and stops the program ("must begin a group
    /// before registering undo"); with no registration, the end of the event finds nothing to
    /// close and stops it ("endUndoGrouping called with no matching begin"):
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: text) { $0.restore(before) }
    /// manager.endUndoGrouping()   // closes the automatic group; its close stays armed
    /// manager.registerUndo(withTarget: text) { $0.restore(middle) }   // stops the program
    /// ```
    ///
    /// This method closes the group and also cancels the pending close, so neither happens:
    ///
    /// ```swift
    /// manager.registerUndo(withTarget: text) { $0.restore(before) }
    /// manager.endEventGroup()     // closed and disarmed
    /// manager.registerUndo(withTarget: text) { $0.restore(middle) }   // opens a new step
    /// manager.runLoop.tick()      // closes it: two undo steps, no trap
    /// ```
    ///
    /// It closes the group with ``endUndoGrouping()``, as the end of the event does, so it posts
    /// what the end of the event posts (a checkpoint, `NSUndoManagerWillCloseUndoGroup` and
    /// `NSUndoManagerDidCloseUndoGroup`), and an empty automatic group stays as an undo
    /// step and clears the redo stack, as at the end of an event. It closes the group even if
    /// ``groupsByEvent`` was turned off after the group opened; the run loop's modes do not
    /// matter.
    ///
    /// - Returns: `true` if it closed the automatic group. `false`, having done nothing, when
    ///   no automatic group is open (nothing was registered in this event, or the group was
    ///   already closed), when explicit groups are still open inside it (close them with
    ///   ``endUndoGrouping()`` first), while registration is disabled, or during an undo or
    ///   redo.
    @discardableResult
    public func endEventGroup() -> Bool {
        guard canEndEventGroup else { return false }
        // The order of the end of an event (spec R15): disarm first, so a registration made
        // by a did-close observer opens the next automatic group.
        automaticGroupIsPending = false
        endUndoGroupingThroughOverrides(from: "endEventGroup()")
        publishObservableChanges()
        return true
    }

    /// Whether ``endEventGroup()`` would close a group now.
    ///
    /// "The automatic group" is an armed manager's only open group, the same group that
    /// ``undo()`` and the end of the event would close.
    var canEndEventGroup: Bool {
        automaticGroupIsPending && state.automaticGroupIsOpen && !isBusy && registrationIsEnabled
            && undoStack.nesting == 1
    }

    /// Whether ``endEventGroup()`` would close an empty group, which clears the redo stack.
    var endingEventGroupClearsRedo: Bool {
        guard canEndEventGroup, let begin = undoStack.openBegins.first else { return false }
        return begin == undoStack.entries.count - 1
    }
}
