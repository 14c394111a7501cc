extension UndoManager {
    /// Closes the automatic group of the current event now, as the end of the event would, so
    /// that the next registration starts a new undo step.
    ///
    /// With ``groupsByEvent`` on, everything registered during one event is one undo step,
    /// until the end of the event (``SimulatedRunLoop/tick(mode:)``). To split an event into
    /// several steps, call this between them:
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
    /// Apple's `UndoManager` has no such call, and ``endUndoGrouping()`` there is a trap (spec
    /// R17) that this method avoids by also cancelling the pending close (see
    /// <doc:GroupingAndTheEventLoop>). It closes the group with ``endUndoGrouping()``, so it posts what the end of the event
    /// posts, and an empty automatic group stays as an undo step and clears the redo stack. It
    /// closes the group even if ``groupsByEvent`` was turned off since; modes do not matter.
    ///
    /// - Returns: `true` if it closed the automatic group. `false`, having done nothing, when
    ///   no automatic group is open, when explicit groups are open inside it, while
    ///   registration is disabled, or during an undo or redo.
    @discardableResult
    public func endEventGroup() -> Bool {
        guard canEndEventGroup else { return false }
        // The order of the end of an event (spec R15): disarm first, so a registration made
        // by a did-close observer opens the next automatic group.
        state.automaticGroupIsPending = false
        endUndoGroupingThroughOverrides(from: "endEventGroup()")
        publishObservableChanges()
        return true
    }

    /// Whether ``endEventGroup()`` would close a group now: an armed manager's only open group.
    var canEndEventGroup: Bool {
        state.automaticGroupIsPending && state.automaticGroupIsOpen && !isBusy && registrationIsEnabled
            && undoStack.nesting == 1
    }

    /// Whether ``endEventGroup()`` would close an empty group, which clears the redo stack.
    var endingEventGroupClearsRedo: Bool {
        guard canEndEventGroup, let begin = undoStack.openBegins.first else { return false }
        return begin == undoStack.entries.count - 1
    }
}
