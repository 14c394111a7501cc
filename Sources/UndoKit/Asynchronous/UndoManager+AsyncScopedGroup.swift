/// Scoped groups whose body awaits (spec K5, issue 34 item 5).
extension UndoManager {
    /// Runs the asynchronous `body` inside an undo group that is closed however `body` exits,
    /// and rolled back if it throws or its task is cancelled: ``withUndoGroup(named:_:)`` for
    /// an edit that awaits.
    ///
    /// Everything ``withUndoGroup(named:_:)`` says holds: the body's registrations form one
    /// step (or join the enclosing group), named `name` if given; scopes nest as savepoints.
    /// In addition:
    ///
    /// - **One at a time.** It waits its turn behind an asynchronous undo, redo, command or
    ///   scope in flight, and holds the turn until it returns, so no asynchronous undo or redo
    ///   runs during the body. Scopes and ``performAsync(_:on:)`` called from the body nest in
    ///   it without waiting.
    /// - **Nothing interleaves.** Registrations, groups and action names that other code
    ///   makes while the body is suspended are held and made, in order, right after the scope
    ///   settles (as their own step): they never join the scope's step, nor roll back with it.
    /// - **Rollback awaits.** If `body` throws (a cancelled body throws `CancellationError`),
    ///   the actions it registered run newest first, awaiting the asynchronous ones (in a task
    ///   that is not cancelled), then every trace of the scope is removed as for the
    ///   synchronous scope, and the error is rethrown.
    ///
    /// ```swift
    /// try await manager.withUndoGroupAsync(named: "Import") {
    ///     for title in titles {
    ///         try await manager.performAsync(AddTitle(title: title), on: document)
    ///     }
    /// }
    /// ```
    ///
    /// - Precondition: As for ``withUndoGroup(named:_:)``; not called from an action of a
    ///   running asynchronous undo or redo.
    public nonisolated(nonsending) func withUndoGroupAsync<Result>(
        named name: String? = nil,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        try await withAsyncTurn(in: "withUndoGroupAsync(named:_:)", nests: true) {
            try await recording {
                try await scope(named: name, body)
            }
        }
    }

    private nonisolated(nonsending) func scope<Result>(
        named name: String?, _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        guard !isBusy else {
            programmerError(
                in: PublicCall("withUndoGroupAsync(named:_:)"),
                "withUndoGroupAsync may not be called while undoing or redoing",
                fix: "an undo or redo action registers its inverse directly; open scopes outside undo and redo"
            )
        }
        guard registrationIsEnabled else { return try await body() }
        let level = beginScope()
        do {
            let result = try await body()
            endScope(at: level, named: name)
            return result
        } catch {
            checkScopeIsBalanced(at: level)
            // The group's actions, oldest first, for `revert`, which runs them newest first as
            // undo would; what they register is dropped, as the rollback drops its redo step.
            let actions = Array(undoStack.stepsOfOpenGroup(atLevel: level).reversed())
            let revertErrors = await revert(actions, undoing: false)
            rollBackToSavepoint(actionsRan: true)
            if !revertErrors.isEmpty {
                throw AsyncRevertError(stepID: nil, error: error, revertErrors: revertErrors)
            }
            throw error
        }
    }

    /// The rollback of an asynchronous scope, whose actions already ran: the scope's group,
    /// just closed, leaves as an undo that registered nothing would take it (spec R19 with an
    /// empty redo group), with the same notifications.
    func takeOffScopeGroupWhoseActionsRan() {
        let undoesTopLevelGroup = undoStack.nesting == 0
        state.isUndoing = true
        stopCoalescing()
        post(.willUndoChange)
        let undoneMetadata = undoStack.topMetadata
        undoStack.takeOffNewestClosedGroup()
        endUndoOnceItsGroupClosed(undoesTopLevelGroup: undoesTopLevelGroup, undoneMetadata: undoneMetadata)
    }
}
