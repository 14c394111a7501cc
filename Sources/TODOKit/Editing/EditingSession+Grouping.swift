import UndoKit

extension EditingSession {
    /// Ends the current event: closes the undo manager's automatic group, so the edits made since
    /// the previous call become one undo step.
    ///
    /// A command-line program calls this after each line of input, as an app's event loop does
    /// after each event.
    ///
    /// ```swift
    /// try session.add("Buy milk")
    /// try session.add("Buy eggs")
    /// session.endEvent()
    /// try session.undo()   // removes both
    /// ```
    public func endEvent() {
        if undoManager.groupsByEvent && undoManager.groupingLevel > 0 {
            // This event's edits are still open; groups begun after them must hold them, or the
            // event would be split between two undo steps.
            openGroupsOnManager()
        }
        closeEndedGroups()
        // The tick closes exactly one level, the innermost. When an explicit group was opened in
        // this event that is the explicit group's level, and the automatic group's level stays
        // open in its place until the explicit group is ended: the number of open levels still
        // matches `openGroups`, which is all the session relies on.
        runLoop.tick()
    }

    /// Starts an explicit group: the edits until the matching ``endGroup()`` form one undo
    /// step, however many events they span. Groups nest.
    ///
    /// With `groupsByEvent` an undo step is always made of whole events: the edits made earlier
    /// in the event that begins the group, and later in the event that ends it, belong to the
    /// group's step too. A group whose events have no edits leaves no undo step.
    ///
    /// ```swift
    /// session.beginGroup(named: "Plan Week")
    /// try session.add("Buy milk"); session.endEvent()
    /// try session.add("Pay rent"); session.endEvent()
    /// try session.endGroup()
    /// session.undoManager.undoMenuItemTitle   // "Undo Plan Week"
    /// ```
    ///
    /// - Parameter name: The undo step's name, set when the outermost group ends; as with
    ///   `setActionName(_:)`, the last name set wins, so edits made after the end in the same
    ///   event rename the step. Without a name, the step is named after its last edit.
    public func beginGroup(named name: String? = nil) {
        // Opened on the manager only when needed; see `OpenGroup`.
        openGroups.append(OpenGroup(name: name))
    }

    /// Ends the innermost group begun with ``beginGroup(named:)``.
    ///
    /// ```swift
    /// session.beginGroup()
    /// try session.setDone(true, at: 0)
    /// try session.endGroup()
    /// ```
    ///
    /// - Throws: ``EditingSessionError/noGroupOpen`` if no group is open; calling
    ///   `endUndoGrouping()` then would trap.
    public func endGroup() throws(EditingSessionError) {
        guard let group = openGroups.popLast() else { throw .noGroupOpen }
        if openGroups.isEmpty, let name = group.name, undoManager.groupingLevel > 0 {
            // Names always go to the outermost open group, which is the whole undo step. With
            // nothing open there were no edits, hence no step to name.
            undoManager.setActionName(name)
        }
        guard group.isOpenOnManager else { return }
        endedGroupCount += 1
        if !undoManager.groupsByEvent {
            // Without events there is no end of event to wait for.
            closeEndedGroups()
        }
    }

    /// Whether a group begun with ``beginGroup(named:)`` is still open; undo and redo are
    /// refused until it is ended.
    public var isGroupOpen: Bool { !openGroups.isEmpty }

    func openGroupsOnManager() {
        for index in openGroups.indices where !openGroups[index].isOpenOnManager {
            undoManager.beginUndoGrouping()
            openGroups[index].isOpenOnManager = true
        }
    }

    /// Closes, on the manager, the explicit groups the user ended during this event.
    ///
    /// Waiting for the end of the event keeps undo steps made of whole events: if the group
    /// were closed at once, and it was the outermost open group, the rest of the event's edits
    /// would start a separate step, but only when the group had begun in an earlier event. It
    /// also never closes the automatic group by hand: every group closed here was opened by
    /// `openGroupsOnManager()`, so the automatic group of this event, if any, stays open.
    func closeEndedGroups() {
        while endedGroupCount > 0 {
            undoManager.endUndoGrouping()
            endedGroupCount -= 1
        }
    }
}
