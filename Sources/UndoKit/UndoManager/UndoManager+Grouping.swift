import Foundation

/// Opening and closing groups (spec R9, R10, R15).
extension UndoManager {
    /// Spec R9: ``beginUndoGrouping()``.
    @inline(__always)
    func openGroup() {
        guard registrationIsEnabled else { return }
        if state.asyncWorkIsRunning && holdsGroupCallDuringAsyncWork(opening: true) {
            return
        }
        let busy = isBusy
        if !busy {
            openAutomaticGroupIfNeeded()
        }
        if !(state.groupsByEvent && currentStack.nesting == 0) {
            post(.checkpoint)
        }
        currentStack.pushBegin()
        checkInvariantsInDebugBuilds()
        if !busy {
            post(.didOpenUndoGroup)
        }
    }

    /// Spec R10: ``endUndoGrouping()``, and the close of an undo's redo group, which discards
    /// it if it stayed empty.
    func closeGroup(in call: PublicCall, discardingEmpty: Bool) {
        guard registrationIsEnabled else { return }
        if state.asyncWorkIsRunning && holdsGroupCallDuringAsyncWork(opening: false) {
            return
        }
        post(.checkpoint)
        guard currentStack.nesting > 0 else {
            programmerError(in: call, "endUndoGrouping called with no matching begin")
        }
        let busy = isBusy
        if !busy {
            post(.willCloseUndoGroup)
        }
        // Only the did-close notification reads the flag; skip the lookup when it won't post.
        let isDiscardable = !busy && state.hasEventListeners && (currentStack.topMetadata?.isDiscardable ?? false)
        // Outside undo and redo, a close at level 1 makes a new step on the undo stack (all
        // coalescing and the clean mark care about).
        let closesNewStep = !busy && currentStack.nesting == 1
        let wasEmpty: Bool
        if closesNewStep {
            state.automaticGroupIsOpen = false
            wasEmpty = state.usesCoalescing ? closeNewStepCoalescing() : closeNewStep()
        } else {
            wasEmpty = currentStack.closeGroup(discardIfEmpty: discardingEmpty)
        }
        if wasEmpty && !busy {
            endRedoForNewEdit(closedNewStep: closesNewStep)
        }
        guard !busy else {
            // Inside undo and redo, those settle once the whole step is done.
            releaseDroppedEntries()
            checkInvariantsInDebugBuilds()
            return
        }
        settle()
        if wasEmpty {
            newEditEndsRedo()
        }
        post(.didCloseUndoGroup(isDiscardable: isDiscardable))
    }

    /// The end of an event (spec R15), run by ``runLoop``: closes the automatic group with
    /// ``endUndoGrouping()``, as Apple's end-of-event processing does.
    ///
    /// - Returns: whether the manager is done with this pass; `false` keeps it scheduled.
    func endOfEvent(mode: RunLoop.Mode) -> Bool {
        // Spec K5: an event that ends during an asynchronous operation (UndoManager+AsyncTurns).
        if state.asyncWorkIsRunning && eventEndedDuringAsyncWork(mode: mode) {
            return true
        }
        guard state.automaticGroupIsPending else { return true }
        guard state.groupsByEvent && state.runLoopModes.contains(mode) else { return false }
        state.automaticGroupIsPending = false
        endUndoGroupingThroughOverrides(from: "SimulatedRunLoop.tick(mode:) closing the automatic group")
        publishObservableChanges()
        return true
    }

    /// Releases what the stacks took off since the last call, once they are consistent, so
    /// that the `deinit`s it runs may use the manager (see ``UndoStack/dropped``).
    @inline(__always)
    func releaseDroppedEntries() {
        if !undoStack.dropped.isEmpty || !redoStack.dropped.isEmpty {
            releaseDroppedEntriesNow()
        }
    }

    private func releaseDroppedEntriesNow() {
        // One at a time, each popped before it is released, so a deinit that re-enters the
        // manager finds the lists consistent; popping keeps their capacity for the next drop.
        // (`popLast() != nil` instead costs W4's trimmed register 14 instructions, callgrind.)
        while let _ = undoStack.dropped.popLast() {}
        while let _ = redoStack.dropped.popLast() {}
    }

    /// Spec R29: ``enableUndoRegistration()``.
    func reenableRegistration() {
        guard state.registrationDisableCount > 0 else {
            programmerError(
                in: PublicCall("enableUndoRegistration()"),
                "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration"
            )
        }
        state.registrationDisableCount -= 1
    }
}
