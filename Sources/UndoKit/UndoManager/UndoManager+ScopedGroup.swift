/// Scoped groups that roll back (spec J2).
extension UndoManager {
    /// Runs `body` inside an undo group that is closed however `body` exits, and rolled back
    /// if it throws: a compound edit applies completely or not at all.
    ///
    /// The group is opened with ``beginUndoGrouping()`` and closed with ``endUndoGrouping()``,
    /// so it nests like any group and cannot be left open. When `body` returns, its
    /// registrations form one step (or join the enclosing group), named `name` if you give
    /// one: the scope's name wins over any name the body set, including the names of
    /// commands it performs with ``perform(_:on:)``.
    ///
    /// When `body` throws, what it registered in the group is undone: the group is closed
    /// with ``endUndoGrouping()`` and reverted with ``undoNestedGroup()``, whose actions run
    /// newest first as an undo would, so a model that registers inverses ends exactly where
    /// it was. Then the rollback removes every trace: the redo group the actions built is
    /// dropped, the redo stack is put back as it was before the call (registrations had
    /// cleared it, a ``redo()`` in the body had taken a step from it), the clean mark, the
    /// step count, the costs and whether the newest step takes the next one with its
    /// coalescing key are as before, and the enclosing group's name and flags are restored.
    /// The error is rethrown.
    ///
    /// The rollback is silent about state that ends where it began: clean-state observers
    /// (``addCleanStateObserver(_:)``) and Observation hear nothing of the close and the undo
    /// it is made of, only, once it is done, what ended other than they last heard. The
    /// notifications and events of that close and undo are posted, balancing the open that
    /// observers saw: checkpoint, will-close, did-close for the scope's group, then
    /// checkpoint, will-undo, checkpoint (without grouping by event), the actions,
    /// checkpoint, did-undo. If the scope's ``beginUndoGrouping()`` opened the
    /// event's automatic group (``groupsByEvent`` on, nothing open), that group is empty
    /// after the rollback and is removed with its pending close, without a close
    /// notification: the event ends with no step and leaves the redo stack alone, instead of
    /// closing an empty group, which would clear it.
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
    /// Nested scopes are savepoints: an inner scope that throws rolls back only its own part,
    /// and the enclosing scope goes on if it catches the error. Subclasses see the usual
    /// calls to their overrides; commands performed with ``perform(_:on:)``, coalescing keys
    /// and costs roll back with the rest.
    ///
    /// There is no `async` variant: while an `async` body is suspended, other code on the
    /// same actor may register into the open group, and a rollback cannot tell those
    /// registrations from the body's. Do the asynchronous work first, then apply its result
    /// in a synchronous scope. See <doc:GroupingAndTheEventLoop>.
    ///
    /// While registration is disabled no group is recorded, so there is nothing to roll
    /// back: `body` simply runs.
    ///
    /// What the body does to steps that were there before the scope is not undone: actions
    /// removed with ``removeAllActions(withTarget:)`` and steps trimmed by setting
    /// ``levelsOfUndo`` or ``actionCostLimit`` stay gone (from the redo steps put back too),
    /// and settings keep their new values. The rest of the state is as if the removal had
    /// been made before the call.
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
        let levelBefore = undoStack.nesting
        state.undoScopes.append(UndoScope(
            cleanMark: ledger.cleanMark,
            totalCost: undoStack.totalCost,
            newestGroupMayCoalesce: state.newestGroupMayCoalesce,
            // Names, costs and flags set in the scope go to the outermost open group (spec
            // R34); if that group was open before the scope, a rollback puts its metadata back.
            outerGroup: levelBefore > 0 ? .open(metadata: undoStack.topMetadata?.copy()) : .none,
            coordinatorRedoOrder: state.isCoordinated ? coordinator?.redoSteps : nil,
            nextStepID: ledger.nextStepID
        ))
        beginUndoGrouping()
        let level = undoStack.nesting
        state.undoScopes[state.undoScopes.count - 1].level = level
        state.undoScopes[state.undoScopes.count - 1].openedAutomaticGroup = level - levelBefore == 2
        do {
            let result = try body()
            checkScopeIsBalanced(at: level)
            // After the body, so that the scope's name is the step's whatever the body set:
            // a command performed inside names the group after itself (perform(_:on:)).
            if let name {
                setActionName(name)
            }
            endUndoGrouping()
            endScope()
            return result
        } catch {
            checkScopeIsBalanced(at: level)
            rollBackScope()
            throw error
        }
    }

    /// The redo stack is about to change inside a scope: cleared by a new edit (spec R4,
    /// R10.6) or popped by a `redo()` in the body. The innermost scope keeps a copy of its
    /// entries (the first time only: later changes inside the same scope touch steps the scope
    /// itself made) so that a rollback can put them back.
    func parkRedoStackForScope() {
        let index = state.undoScopes.count - 1
        guard state.undoScopes[index].parkedRedo == nil else { return }
        state.undoScopes[index].parkedRedo = ParkedRedoStack(
            entries: redoStack.entries.elements,
            topLevelCount: redoStack.topLevelCount,
            totalCost: redoStack.totalCost,
            steps: redoStack.steps.ids,
            records: state.historyTree.map { tree in tree.records.filter { redoStack.steps.contains($0.key) } } ?? [:]
        )
    }

    /// A coordinated manager made a new edit inside a scope: the coordinator hears of it when
    /// the outermost scope succeeds, so that a rollback leaves the other managers' redo steps
    /// untouched.
    func deferNewEditForScope() {
        state.undoScopes[state.undoScopes.count - 1].madeNewEdit = true
    }

    // MARK: Steps older than the scopes

    // The body may remove or trim steps that were there before its scope: those stay gone
    // after a rollback, which otherwise restores the manager as it was. Each scope's saved
    // counters follow such changes as they happen, so that the rollback restores the state
    // before the scope minus what was removed, exactly as if the removal had come first.
    // While a scope is open no top-level group closes, so the closed top-level groups are
    // the same ones, and as deep, as when every open scope began.

    /// `removeAllActions(withTarget:)` is about to remove `target`'s actions inside a scope.
    func scopesWillRemoveActions(on target: ObjectIdentifier) {
        let scopes = state.undoScopes.indices
        for index in scopes {
            let scope = state.undoScopes[index]
            // Actions the scope did not record (before its begin mark, or in the redo steps it
            // found) stop coalescing as any removal does; its own actions do not.
            // (A body that ended the scope's group stops the program when it exits.)
            let begin = scope.level > 0 && scope.level <= undoStack.nesting
                ? undoStack.openBegins[scope.level - 1] : undoStack.entries.count
            let outside = undoStack.containsAction(on: target, before: begin)
                || redoStackBefore(scopeAt: index).map { entries in
                    entries.contains { entry in
                        switch entry {
                        case .action(let id, _, _), .singleton(let id, _, _): id == target
                        case .begin, .end: false
                        }
                    }
                } ?? redoStack.containsAction(on: target)
            if outside {
                state.undoScopes[index].changedOlderSteps = true
            }
            state.undoScopes[index].removedTargets.append(target)
        }
    }

    /// `removeAllActions(withTarget:)` removed actions inside a scope; `removedCost` is the
    /// cost of the closed top-level groups it dropped. (It judged the scopes' saved clean
    /// marks itself: ``UndoStack/removeActions(withTarget:judging:)``.)
    func scopesDidRemoveActions(removedCost: Int) {
        for index in state.undoScopes.indices {
            state.undoScopes[index].totalCost -= removedCost
        }
    }

    /// The ``levelsOfUndo`` or ``actionCostLimit`` setter trimmed steps inside a scope: the
    /// oldest steps `dropped`, of cost `removedCost`, and, with branches kept, maybe only steps
    /// off the undo stack (`dropped` empty), which are older than the scope's group too.
    func scopesDidDropOldestSteps(_ dropped: [StepID], removedCost: Int) {
        for index in state.undoScopes.indices {
            state.undoScopes[index].changedOlderSteps = true
            guard !dropped.isEmpty else { continue }
            state.undoScopes[index].totalCost -= removedCost
            // As for each drop by `dropOldestGroup()`: the mark is lost if it is on a dropped
            // step, or at the start, below them.
            if state.undoScopes[index].cleanMark.isCut(byDropping: dropped) {
                state.undoScopes[index].cleanMark = .unreachable
            }
        }
    }

    /// A rollback made again, on the redo steps it put back, a removal its body had made on
    /// its parked copy of them. The enclosing scopes that parked nothing of their own found
    /// those same redo steps when they began, and their saved marks skipped the removal
    /// (``removeActions(on:)`` leaves it to the copy's rollback): they judge it now, or their
    /// own rollbacks would restore a mark the removal cut. The innermost scope that parked its
    /// own copy stops the walk: its rollback makes the removal again on that copy, and judges
    /// it there. Returns the marks of the scopes that judge, for the removal to update.
    private func scopesJudgingRemovalFromParkedRedoSteps() -> Range<Int> {
        let scopes = state.undoScopes
        let first = (scopes.lastIndex { $0.parkedRedo != nil }).map { $0 + 1 } ?? 0
        return first..<scopes.count
    }

    /// `removeAllActions()` inside a scope: it removed the scope's group too.
    func scopesSawEverythingRemoved() {
        for index in state.undoScopes.indices {
            state.undoScopes[index].removedAllActions = true
        }
    }

    /// The redo steps as they were when the scope at `index` began, if a scope (that one or
    /// one nested in it) has parked them; `nil` when they are still on the redo stack.
    func redoStackBefore(scopeAt index: Int) -> [UndoStack.Entry]? {
        state.undoScopes[index...].lazy.compactMap(\.parkedRedo).first?.entries
    }

    // MARK: Closing a scope

    private func checkScopeIsBalanced(at level: Int) {
        let nesting = undoStack.nesting
        guard nesting != level || isBusy || !registrationIsEnabled else { return }
        let call = PublicCall("withUndoGroup(named:_:)")
        if state.undoScopes.last?.removedAllActions == true {
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

    /// The scope's group closed normally: what the scope kept passes to the enclosing one.
    private func endScope() {
        let scope = state.undoScopes.removeLast()
        if let outer = state.undoScopes.indices.last {
            if state.undoScopes[outer].parkedRedo == nil {
                state.undoScopes[outer].parkedRedo = scope.parkedRedo
            }
            if scope.madeNewEdit {
                state.undoScopes[outer].madeNewEdit = true
            }
        } else if scope.madeNewEdit {
            newEditEndsRedo()
        }
        publishObservableChanges()
    }

    /// The body threw: closes the scope's group, undoes it, and puts back what it changed.
    private func rollBackScope() {
        // Silent until done: the close makes the scope's group a step and the undo takes it
        // away, so isClean and the observable properties may flicker and come back. What
        // observers last heard is compared with where the rollback ends.
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
        undoNestedGroup()
        undoStack.limit = limit
        undoStack.costLimit = costLimit
        // Removed only now: closing an empty group clears the redo stack (spec R10.6), which
        // must park it in this scope.
        let scope = state.undoScopes.removeLast()

        // The undo stack: the scope's group is gone; an event group the scope opened goes too
        // if nothing else is in it, so that its close at the end of the event finds nothing
        // (closing an empty group would clear the redo stack, spec R10.6).
        if scope.openedAutomaticGroup && undoStack.removeEmptyOpenTopLevelGroup() {
            automaticGroupIsPending = false
            state.automaticGroupIsOpen = false
        }
        if case .open(let saved) = scope.outerGroup, saved != nil || undoStack.topMetadata != nil {
            // A copy, not the object the group had: a redo in the body replaces that object.
            undoStack.replaceOpenTopMetadata(with: saved)
        }
        undoStack.totalCost = scope.totalCost
        ledger.cleanMark = scope.cleanMark
        state.newestGroupMayCoalesce = scope.newestGroupMayCoalesce && !scope.changedOlderSteps

        // The redo stack holds the rollback's redo group, or nothing: the registrations that
        // made the rolled-back steps cleared (and parked) what was there.
        redoStack.removeAll()
        // The steps the scope made (its own, if it closed at the top level, and the redo steps
        // of undos nested in it) are gone: the steps that follow get the ids they would have
        // had without the scope.
        ledger.nextStepID = scope.nextStepID
        if let parked = scope.parkedRedo {
            redoStack.entries.append(contentsOf: parked.entries)
            redoStack.topLevelCount = parked.topLevelCount
            redoStack.totalCost = parked.totalCost
            redoStack.steps.append(contentsOf: parked.steps)
            state.historyTree?.records.merge(parked.records) { _, parked in parked }
            // With branches kept, the new edit took these steps into a branch: they are back
            // on the path.
            if let tree = state.historyTree, tree.keepsBranches {
                for id in parked.steps {
                    if let step = tree.takeBranch(id) {
                        withExtendedLifetime(step) {}
                    }
                }
            }
            // Removals in the body stay removed, and cut the marks they would have cut.
            let judging = scopesJudgingRemovalFromParkedRedoSteps()
            for target in scope.removedTargets {
                var marks = state.undoScopes[judging].map(\.cleanMark)
                redoStack.removeActions(withTarget: target, judging: &marks)
                for (index, mark) in zip(judging, marks) {
                    state.undoScopes[index].cleanMark = mark
                }
            }
        }
        // A mark on a step that left meanwhile (a branch step trimmed or emptied) is lost.
        if case .step(let id) = ledger.cleanMark, !stepExists(id) {
            ledger.cleanMark = .unreachable
        }
        // Last: a deinit run by the release may call back into the manager, which is
        // consistent again.
        settle()
        if let order = scope.coordinatorRedoOrder, let coordinator {
            coordinator.memberRolledBack(self, restoringRedoOrder: order)
            #if DEBUG
            coordinator.checkInvariants()
            #endif
        }
        state.isRollingBackScope = enclosingRollback
        reportCleanState()
        publishObservableChanges()
    }
}

/// What a ``UndoManager/withUndoGroup(named:_:)`` call in progress must restore if its body
/// throws.
struct UndoScope {
    /// What was open around the scope when it began.
    enum OuterGroup {
        /// Nothing: the scope's group is (or is inside the event group it opened) top-level.
        case none
        /// A group, whose metadata (the outermost open group's, spec R34) was this copy.
        case open(metadata: GroupMetadata?)
    }

    /// The nesting of the undo stack once the scope's group is open.
    var level = 0
    /// Whether opening the scope's group opened the event's automatic group around it.
    var openedAutomaticGroup = false
    /// The redo stack as it was before the body first cleared or popped it.
    var parkedRedo: ParkedRedoStack?
    /// The clean mark before the scope (the stacks are as before after a rollback, so the
    /// mark is too), or unreachable if the body removed a step its path needs.
    var cleanMark: CleanMark
    /// The undo stack's total cost before the scope, less that of steps the body removed.
    var totalCost: Int
    /// Whether the newest closed group could take the next one with its key.
    let newestGroupMayCoalesce: Bool
    /// Whether the body removed or trimmed steps, or actions in them, that were there before
    /// the scope: coalescing stops, as after any removal.
    var changedOlderSteps = false
    /// The targets whose actions the body removed, for the redo steps the rollback puts back.
    var removedTargets: [ObjectIdentifier] = []
    /// Whether the body called `removeAllActions()`.
    var removedAllActions = false
    let outerGroup: OuterGroup
    /// The coordinator's redo order before the scope, if the manager is coordinated.
    let coordinatorRedoOrder: [UndoCoordinator.Step]?
    /// Whether a registration in the scope ended redo (for the coordinator).
    var madeNewEdit = false
    /// The id the next new step was to get when the scope began.
    let nextStepID: UInt64

    init(
        cleanMark: CleanMark, totalCost: Int,
        newestGroupMayCoalesce: Bool, outerGroup: OuterGroup, coordinatorRedoOrder: [UndoCoordinator.Step]?, nextStepID: UInt64
    ) {
        self.nextStepID = nextStepID
        self.cleanMark = cleanMark
        self.totalCost = totalCost
        self.newestGroupMayCoalesce = newestGroupMayCoalesce
        self.outerGroup = outerGroup
        self.coordinatorRedoOrder = coordinatorRedoOrder
    }
}

/// A redo stack's entries and counters, kept aside by a scope.
struct ParkedRedoStack {
    let entries: [UndoStack.Entry]
    let topLevelCount: Int
    let totalCost: Int
    let steps: [StepID]
    /// The history tree's dates and visits of those steps.
    let records: [StepID: HistoryTreeState.NodeRecord]
}
