/// The clean state: whether the document is back where it was when it was saved.
///
/// See <doc:TrackingTheCleanState> for when to use it, and `UndoStack+CleanState.swift` for
/// how the mark is kept.
extension UndoManager {
    /// Marks the current position of the undo stack as clean, typically right after the
    /// document was saved.
    ///
    /// From now on ``isClean`` is true exactly when the manager is back at this position:
    /// after more edits, undoing them brings it back; after undoing, redoing does. A new
    /// edit made after undoing past the mark, or removing or trimming the marked step (or a
    /// step between it and the current position), makes the mark unreachable until the next
    /// `markClean()`.
    ///
    /// ```swift
    /// try document.write(to: url)
    /// manager.markClean()
    /// manager.isClean   // true
    /// ```
    ///
    /// Called while a top-level group is open (typing in the current event, say), the mark
    /// includes that group: the manager stays clean when the group closes, and undoing it
    /// makes the manager unclean.
    ///
    /// - Precondition: No undo or redo is in progress.
    public func markClean() {
        guard !isBusy else {
            programmerError(in: PublicCall("markClean()"), "markClean may not be called while undoing or redoing")
        }
        let wasClean = undoStack.cleanDistance == 0
        undoStack.cleanDistance = 0
        undoStack.cleanMarkIncludesOpenGroup = undoStack.nesting > 0
        // There is one mark: an earlier one lying on a branch of the history tree goes, so
        // that going to its node does not make the manager clean.
        storage.pointee.historyTree?.cleanNode = nil
        notifyIfCleanStateChanged(wasClean: wasClean)
        publishObservableChanges()
    }

    /// Whether the manager is at the position last marked with ``markClean()``; a new
    /// manager is clean.
    ///
    /// Positions are counted in closed top-level groups: an open group is not a step yet, so
    /// registrations in the current event make the manager unclean when the event's group
    /// closes. Reading it is O(1) and posts nothing.
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
        return undoStack.cleanDistance == 0
    }

    /// Calls `observer` with the new value each time ``isClean`` changes, and only then: for
    /// an "edited" dot in a window's title bar, or enabling a Save button.
    ///
    /// The observer runs synchronously once the change is complete (stacks consistent), after
    /// the step that changed it and before that step's did-close, did-undo or did-redo
    /// notification. It is separate from ``addEventObserver(_:)`` so that the events
    /// mirroring Apple's notifications stay exactly Apple's.
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
        storage.pointee.cleanStateObservers.append((id, observer))
        return EventObservation(manager: self, id: id)
    }

    // MARK: Keeping the distance

    /// Calls the clean-state observers if ``isClean`` differs from `wasClean`.
    @inline(__always)
    func notifyIfCleanStateChanged(wasClean: Bool) {
        if wasClean != (undoStack.cleanDistance == 0) {
            notifyCleanStateObservers()
        }
    }

    private func notifyCleanStateObservers() {
        // A rollback reports its result once, when it is done (spec J2, issue 25).
        guard !storage.pointee.isRollingBackScope else { return }
        let isClean = undoStack.cleanDistance == 0
        // A copy: an observer may add or cancel observers.
        for observer in storage.pointee.cleanStateObservers {
            observer.body(isClean)
        }
    }

    /// Closes the open top-level group as a new step, outside undo and redo (no coalescing).
    ///
    /// - Returns: whether the group was empty.
    func closeNewStep() -> Bool {
        // The mark moves first: the close's trimming must see it where it will be.
        newStepWasAdded()
        return undoStack.closeGroup(discardIfEmpty: false)
    }

    /// A new top-level step closed (and was not merged into the one below).
    @inline(__always)
    func newStepWasAdded() {
        if undoStack.cleanMarkIncludesOpenGroup {
            // markClean() was called while this group was open: the mark is after it.
            undoStack.cleanMarkIncludesOpenGroup = false
        } else {
            undoStack.cleanMarkMovesBelowNewStep()
        }
    }

    /// The redo stack was emptied by a new edit: a mark that needed redos is lost.
    @inline(__always)
    func redoStepsWereCleared() {
        if undoStack.cleanDistance < 0 {
            undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
        }
    }

    /// After ``undoNestedGroup()`` reverted a group: `topLevel` when it was a top-level group
    /// (no group open), `inverseKept` when its redo group stayed on the redo stack. Reports a
    /// change of ``isClean``.
    func cleanMarkAfterUndo(topLevel: Bool, inverseKept: Bool) {
        let distance = undoStack.cleanDistance
        guard distance != UndoStack.cleanMarkUnreachable else { return }
        defer { notifyIfCleanStateChanged(wasClean: distance == 0) }
        if topLevel {
            // An undo past the mark that left nothing to redo cannot come back to it.
            undoStack.cleanDistance = distance - 1 < 0 && !inverseKept ? UndoStack.cleanMarkUnreachable : distance - 1
        } else if distance < 0 {
            // A nested undo pushes a new step on top of the redos the mark needs.
            undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
        }
    }

    /// After ``redo()`` performed a group: `topLevel` when it became a top-level group (no
    /// group open), `recorded` when registration was enabled, so that it is on the undo stack.
    /// The caller reports a change of ``isClean`` once the redo's group is closed.
    func cleanMarkAfterRedo(topLevel: Bool, recorded: Bool) {
        let distance = undoStack.cleanDistance
        guard distance != UndoStack.cleanMarkUnreachable else { return }
        if topLevel && (recorded || distance < 0) {
            // Unrecorded, a redo toward the mark still gets there; away from it, there is no
            // undo step to come back.
            undoStack.cleanDistance = distance + 1
        } else if topLevel || distance < 0 {
            // Unrecorded and away from the mark, or nested in an open group: the redone
            // group is no step of its own, so the path through it is gone.
            undoStack.cleanDistance = UndoStack.cleanMarkUnreachable
        }
    }

    /// After `removeAllActions()`: the stacks are empty. A clean manager stays clean (the
    /// document did not change and the empty stack is its position); otherwise the mark is
    /// lost, since every step that led to it is gone.
    func cleanMarkAfterClearing(wasClean: Bool) {
        undoStack.cleanDistance = wasClean ? 0 : UndoStack.cleanMarkUnreachable
        undoStack.cleanMarkIncludesOpenGroup = false
    }
}
