/// Scoped groups that roll back (spec J2).
extension UndoManager {
    /// Runs `body` inside an undo group that is closed however `body` exits, and rolled back
    /// if it throws: a compound edit applies completely or not at all.
    ///
    /// The group is opened with ``beginUndoGrouping()`` and closed with ``endUndoGrouping()``,
    /// so it nests like any group and cannot be left open. When `body` returns, its
    /// registrations form one step (or join the enclosing group), named `name` if given: the
    /// scope's name wins over any the body set, including those of commands it performs with
    /// ``perform(_:on:)``.
    ///
    /// When `body` throws, the group is closed with ``endUndoGrouping()`` and reverted with
    /// ``undoNestedGroup()``, whose actions run newest first, so a model that registers
    /// inverses ends exactly where it was; then every trace is removed (the redo steps, the
    /// clean mark, the costs and the enclosing group's metadata are as before, and an event
    /// group the scope opened goes), silently for clean-state observers and Observation, and
    /// the error is rethrown. <doc:GroupingAndTheEventLoop> details what observers see, what
    /// a rollback keeps, and why awaiting needs ``withUndoGroupAsync(named:_:)``.
    ///
    /// ```swift
    /// enum EditError: Error { case outOfRange }
    /// final class Cells { var values = [0, 0, 0] }
    ///
    /// func set(_ index: Int, to value: Int, in cells: Cells, using manager: UndoManager) throws {
    ///     guard cells.values.indices.contains(index) else { throw EditError.outOfRange }
    ///     let old = cells.values[index]
    ///     cells.values[index] = value
    ///     manager.registerUndo(withTarget: cells) { [unowned manager] cells in
    ///         try? set(index, to: old, in: cells, using: manager)
    ///     }
    /// }
    ///
    /// let manager = UndoManager(), cells = Cells()
    /// do {
    ///     try manager.withUndoGroup(named: "Fill") {
    ///         try set(0, to: 1, in: cells, using: manager)
    ///         try set(7, to: 1, in: cells, using: manager)   // throws
    ///     }
    /// } catch {
    ///     // cells.values == [0, 0, 0]; manager.canUndo == false
    /// }
    /// ```
    ///
    /// Nested scopes are savepoints: an inner scope that throws rolls back only its own part.
    /// Subclasses see the usual calls to their overrides. While registration is disabled no
    /// group is recorded: `body` simply runs.
    ///
    /// - Parameters:
    ///   - name: The step's action name (see ``setActionName(_:)``), set when `body` returns,
    ///     so that it names the step whatever `body` set (an `"Import"` scope that performs
    ///     an `"Add"` command is named `"Import"`). Like every action name it goes to the
    ///     outermost open group: in a nested scope it names the enclosing step until an
    ///     outer scope's name replaces it. `nil` leaves the name the body set.
    ///   - body: The edit. It must leave the groups as it found them: every group it begins,
    ///     it ends.
    /// - Returns: What `body` returns.
    /// - Precondition: No undo or redo is in progress (an undo action registers its inverse
    ///   directly). `body` leaves ``groupingLevel`` as it found it and registration enabled,
    ///   and does not call ``removeAllActions()``; otherwise the scope's group could not be
    ///   closed, and the program stops with a message saying which.
    public func withUndoGroup<Result>(named name: String? = nil, _ body: () throws -> Result) rethrows -> Result {
        guard !isBusy else {
            programmerError(
                in: PublicCall("withUndoGroup(named:_:)"), "withUndoGroup may not be called while undoing or redoing",
                fix: "an undo or redo action registers its inverse directly; open scopes outside undo() and redo()"
            )
        }
        guard registrationIsEnabled else { return try body() }
        let level = beginScope()
        do {
            let result = try body()
            endScope(at: level, named: name)
            return result
        } catch {
            checkScopeIsBalanced(at: level)
            rollBackToSavepoint()
            throw error
        }
    }

    /// Opens a scope's savepoint and group; returns the group's level. (Shared with
    /// ``withUndoGroupAsync(named:_:)``.)
    func beginScope() -> Int {
        let levelBefore = undoStack.nesting
        state.savepoints.append(Savepoint(
            // Metadata set in the scope goes to the outermost open group (spec R34); if that
            // was open before the scope, a rollback puts its metadata back.
            outerGroup: levelBefore > 0 ? .open(metadata: undoStack.topMetadata?.copy()) : .none,
            nextStepID: ledger.nextStepID,
            newestGroupMayCoalesce: state.newestGroupMayCoalesce
        ))
        ledger.cleanMarkKeeper.scopeBegan()
        beginUndoGrouping()
        let level = undoStack.nesting
        state.savepoints[innermost].level = level
        state.savepoints[innermost].openedAutomaticGroup = level - levelBefore == 2
        return level
    }

    /// The body returned: closes the scope's group, named `name`, and releases its savepoint.
    func endScope(at level: Int, named name: String?) {
        checkScopeIsBalanced(at: level)
        // After the body, so the scope's name wins over one the body (or a command) set.
        if let name {
            setActionName(name)
        }
        endUndoGrouping()
        releaseSavepoint()
    }

    /// The index of the innermost savepoint.
    private var innermost: Int { state.savepoints.count - 1 }

    func checkScopeIsBalanced(at level: Int) {
        let nesting = undoStack.nesting
        guard nesting != level || isBusy || !registrationIsEnabled else { return }
        let call = PublicCall("withUndoGroup(named:_:)")
        if state.savepoints.last?.removedAllActions == true {
            programmerError(
                in: call, "the body of withUndoGroup called removeAllActions(), which removed the scope's open group",
                fix: "remove all actions after withUndoGroup returns, not inside its body"
            )
        }
        if nesting == level && !registrationIsEnabled {
            programmerError(
                in: call, "the body of withUndoGroup left undo registration disabled, so its group cannot be closed",
                fix: "balance every disableUndoRegistration() in the body with enableUndoRegistration() "
                    + "before it returns or throws (a defer does it)"
            )
        }
        programmerError(
            in: call, "the body of withUndoGroup left groupingLevel \(nesting) where its group is at level \(level)",
            fix: "end every group the body begins, and do not end the scope's group inside it"
        )
    }

    /// The scope's group closed normally: what its savepoint kept passes to the enclosing one.
    private func releaseSavepoint() {
        let savepoint = state.savepoints.removeLast()
        ledger.cleanMarkKeeper.scopeSucceeded()
        if state.savepoints.isEmpty {
            if savepoint.madeNewEdit {
                newEditEndsRedo()
            }
        } else {
            if state.savepoints[innermost].parkedRedo == nil {
                state.savepoints[innermost].parkedRedo = savepoint.parkedRedo
            }
            state.savepoints[innermost].madeNewEdit = state.savepoints[innermost].madeNewEdit || savepoint.madeNewEdit
        }
        publishObservableChanges()
    }

    /// The body threw: closes the scope's group, undoes it, and puts back what it changed.
    /// `actionsRan`: an asynchronous scope already ran the group's actions (newest first, as
    /// the undo would), so the group is taken off without running them again.
    func rollBackToSavepoint(actionsRan: Bool = false) {
        // Silent until done: the close and the undo may flicker isClean and the observable
        // properties; observers hear where the rollback ends.
        let enclosingRollback = state.isRollingBackScope
        state.isRollingBackScope = true
        // The close must neither merge the group into the previous step (an undo would then
        // revert that step too) nor trim an old step to make room for it.
        if undoStack.nesting == 1 {
            undoStack.topMetadata?.coalescingKey = nil
        }
        let (limit, costLimit) = (undoStack.limit, undoStack.costLimit)
        undoStack.limit = 0
        undoStack.costLimit = 0
        endUndoGrouping()
        if actionsRan {
            takeOffScopeGroupWhoseActionsRan()
        } else {
            undoNestedGroup()
        }
        undoStack.limit = limit
        undoStack.costLimit = costLimit
        // Taken off only now: closing an empty group clears the redo stack (spec R10.6) into
        // this savepoint's parking.
        let savepoint = state.savepoints.removeLast()

        // An event group the scope opened goes too if empty, so the end of the event closes
        // nothing (closing an empty group would clear the redo stack, spec R10.6).
        if savepoint.openedAutomaticGroup && undoStack.removeEmptyOpenTopLevelGroup() {
            state.automaticGroupIsPending = false
            state.automaticGroupIsOpen = false
        }
        if case .open(let saved) = savepoint.outerGroup, saved != nil || undoStack.topMetadata != nil {
            // A copy, not the object the group had: a redo in the body replaces that object.
            undoStack.replaceOpenTopMetadata(with: saved)
        }
        ledger.cleanMarkKeeper.scopeRolledBack()
        state.newestGroupMayCoalesce = savepoint.newestGroupMayCoalesce && !savepoint.changedOlderSteps
        // The redo stack holds the rollback's redo group, or nothing: what was there before
        // was parked.
        redoStack.removeAll()
        if let parked = savepoint.parkedRedo {
            restoreRedoStack(parked, removing: savepoint.removedTargets)
        }
        // Once the rollback's redo step left: the ids closed since the scope began are no one's.
        ledger.rewindStepIDs(to: savepoint.nextStepID)
        // A mark on a step that left meanwhile (a branch step trimmed or emptied) is lost.
        ledger.cleanMarkKeeper.loseMarkOnStepThatLeft(stepExists: stepExists)
        // One settle, once the rollback is over: it hands over the removals made above (the
        // coordinator kept the stamps of the parked steps, back on the redo stack now) and
        // reports the clean state where the rollback ends. Silent inside an enclosing rollback.
        state.isRollingBackScope = enclosingRollback
        settle()
        publishObservableChanges()
    }

    /// Puts the parked redo steps back on the empty redo stack, less the actions on
    /// `removedTargets`, which the body removed: those removals stay, and cut the marks they
    /// would have cut on these steps. Enclosing savepoints that parked nothing found these
    /// steps too and judge them; one that parked its own copy judges on that at its rollback.
    private func restoreRedoStack(_ parked: ParkedRedoStack, removing removedTargets: [ObjectIdentifier]) {
        redoStack.pushClosedTopLevelGroups(parked.entries, ids: parked.steps)
        state.historyTree?.records.merge(parked.records) { _, parked in parked }
        // With branches kept, the new edit made these steps a branch: back on the path.
        // Without, it removed them: back where they were.
        if let tree = state.historyTree, tree.keepsBranches {
            for id in parked.steps {
                withExtendedLifetime(tree.takeBranch(id)) {}
                ledger.stepUnbranched(id)
            }
        } else {
            for id in parked.steps {
                ledger.stepPutBack(id)
            }
        }
        for target in removedTargets {
            let judgedScopes = savepointsJudgingRemoval(onRedoStack: true)
            redoStack.removeActions(withTarget: target, judgingScopes: judgedScopes)
        }
    }
}
