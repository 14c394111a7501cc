/// The clean state: whether the document is back where it was when it was saved (see
/// <doc:TrackingTheCleanState>, and ``CleanMarkKeeper`` for how the mark is kept).
extension UndoManager {
    /// Marks the current position of the undo stack as clean, typically right after the
    /// document was saved.
    ///
    /// From now on ``isClean`` is true exactly when the manager is back at this position (by
    /// undoing later edits, or redoing). A new edit after undoing past the mark, or removing
    /// or trimming the marked step or one between it and the current position, makes the mark
    /// unreachable until the next `markClean()`.
    ///
    /// ```swift
    /// try document.write(to: url)
    /// manager.markClean()
    /// manager.isClean   // true
    /// ```
    ///
    /// Called while a top-level group is open (typing in the current event, say), the mark
    /// includes that group: the manager stays clean when it closes, and undoing it unclean.
    ///
    /// - Precondition: No undo or redo is in progress.
    public func markClean() {
        guard !isBusy else {
            programmerError(in: PublicCall("markClean()"), "markClean may not be called while undoing or redoing")
        }
        ledger.cleanMarkKeeper.markClean(groupIsOpen: undoStack.nesting > 0, current: undoStack.steps.last)
        reportCleanState()
        publishObservableChanges()
    }

    /// Whether the manager is at the position last marked with ``markClean()``; a new
    /// manager is clean.
    ///
    /// Positions are counted in closed top-level groups: registrations in the current event
    /// make the manager unclean when the event's group closes. O(1); posts nothing.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.isClean                  // true
    /// manager.registerUndo(withTarget: document) { $0.revert() }
    /// manager.runLoop.tick()
    /// manager.isClean                  // false
    /// manager.undo()
    /// manager.isClean                  // true
    /// ```
    public var isClean: Bool {
        trackRead(.isClean, \.isClean)
        return isAtCleanMark
    }

    /// Calls `observer` with the new value each time ``isClean`` changes, and only then: for
    /// an "edited" dot in a window's title bar, or enabling a Save button.
    ///
    /// The observer runs synchronously once the change is complete, before the did-close,
    /// did-undo or did-redo notification of the step that made it. It is apart from
    /// ``addEventObserver(_:)`` so that the events mirroring Apple's stay exactly Apple's.
    ///
    /// ```swift
    /// let observation = manager.addCleanStateObserver { isClean in
    ///     window.isDocumentEdited = !isClean
    /// }
    /// ```
    ///
    /// - Returns: The registration. The observer is called until you cancel or release it,
    ///   as with ``addEventObserver(_:)``: keep it for as long as you observe.
    public func addCleanStateObserver(_ observer: @escaping (Bool) -> Void) -> EventObservation {
        let id = makeObserverID()
        if state.cleanStateObservers.isEmpty {
            state.reportedCleanState = isAtCleanMark
        }
        state.cleanStateObservers.append((id, observer))
        updateSettlingListeners()
        return EventObservation(manager: self, id: id)
    }

    // MARK: Keeping the mark

    /// ``isClean``, untracked.
    var isAtCleanMark: Bool {
        @inline(__always) get { ledger.cleanMark.isAt(undoStack.steps.last) }
    }

    /// Tells the clean-state observers if ``isClean`` changed since they last heard. One test
    /// when nobody observes.
    @inline(__always)
    func reportCleanState() {
        if !state.cleanStateObservers.isEmpty {
            reportCleanStateNow()
        }
    }

    private func reportCleanStateNow() {
        // A rollback reports its result once, when it is done (spec J2, issue 25).
        guard !state.isRollingBackScope else { return }
        let isClean = isAtCleanMark
        guard isClean != state.reportedCleanState else { return }
        state.reportedCleanState = isClean
        // A copy: an observer may add or cancel observers.
        for observer in state.cleanStateObservers {
            observer.body(isClean)
        }
    }

    /// Closes the open top-level group as a new step, outside undo and redo (no coalescing);
    /// returns whether it was empty.
    @inline(__always)
    func closeNewStep() -> Bool {
        let wasEmpty = undoStack.closeGroup(discardIfEmpty: false)
        // A mark set while the group was open names the step it closed as.
        ledger.cleanMarkKeeper.openGroupClosed(asStep: ledger.current)
        return wasEmpty
    }

    /// How a step being undone or redone left the stacks instead of landing on the other.
    enum StepExit {
        /// Undone, with nothing to redo (no inverse registered, a dead target, registration
        /// disabled): its changes are reverted.
        case reverted
        /// Redone with registration disabled: its changes are applied, with no step to undo
        /// them.
        case appliedWithoutStep
        /// Redone inside an open group, which took its actions.
        case absorbed
    }

    /// Step `step` left the stacks by an undo or redo (`how`) instead of landing on the other
    /// stack (see ``CleanMarkKeeper/stepLeftByUndoOrRedo(_:how:undoSteps:redoSteps:)``).
    func markCleanAfterStepLeft(_ step: StepID, how: StepExit) {
        ledger.cleanMarkKeeper.stepLeftByUndoOrRedo(step, how: how, undoSteps: undoStack.steps, redoSteps: redoStack.steps)
    }

    /// Whether step `id` is anywhere: on a stack or a branch.
    func stepExists(_ id: StepID) -> Bool {
        undoStack.steps.contains(id) || redoStack.steps.contains(id) || state.historyTree?.branches[id] != nil
    }

    /// A mark on the redo steps is lost: a new edit is about to end them (or branch them
    /// off), or an undo nested in an open group changed the state they start from.
    func markCleanBeforeRedoStepsEnd() {
        ledger.cleanMarkKeeper.redoStepsWillEnd(redoStack.steps)
    }
}
