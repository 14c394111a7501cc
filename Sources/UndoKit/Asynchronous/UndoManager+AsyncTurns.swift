import Foundation

/// The strict order of asynchronous operations (spec K5, issue 34 item 3): one at a time, in
/// the order they were called, and other code's calls during their suspensions held until
/// they settle.
///
/// An operation (an asynchronous undo, redo, command or scope) first takes the manager's
/// turn, waiting behind the one in flight. While it runs, its own code (its actions, the
/// scope's body, and tasks they start) runs with its ``AsyncWorkToken`` bound in
/// ``AsyncWorkContext``; a registration, a group call or a metadata setter made without it
/// comes from other code that ran during a suspension, and is held (``HeldCall``) and made
/// once the operation settles. Registration, grouping and the metadata setters test one flag,
/// `state.asyncWorkIsRunning`, for all of it.
extension UndoManager {
    /// The asynchronous state, made on first use.
    var asyncState: AsyncWorkState {
        if let existing = state.asyncWork {
            return existing
        }
        let created = AsyncWorkState()
        state.asyncWork = created
        return created
    }

    /// Runs `body` in this manager's turn: after every asynchronous operation called before
    /// it has settled. Throws `CancellationError`, having run nothing, if the task was
    /// cancelled by the time the turn came. The calls held meanwhile are made when it ends.
    ///
    /// Called by the running operation's own code, a scope's body or a command's `execute`
    /// nests in it (`nests`); an undo or redo would wait for itself, and traps.
    nonisolated(nonsending) func withAsyncTurn<Result>(
        in call: StaticString, nests: Bool,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        if let running = state.asyncWork?.running, AsyncWorkContext.token == running.token {
            guard nests, !running.isRunningStep else {
                programmerError(
                    in: PublicCall(call),
                    "\(call) was called from inside an asynchronous \(running.isRunningStep ? "undo or redo action" : "scope's body")",
                    fix: running.isRunningStep
                        ? "an action registers its inverse; call \(call) after undoAsync() or redoAsync() returns"
                        : "call \(call) after withUndoGroupAsync(named:_:) returns"
                )
            }
            return try await body()
        }
        await takeAsyncTurn()
        defer {
            closeEventThatEndedDuringWork()
            makeHeldCalls()
            passAsyncTurn()
        }
        try Task.checkCancellation()
        return try await body()
    }

    /// Waits until no other asynchronous operation holds the turn, then holds it.
    private nonisolated(nonsending) func takeAsyncTurn() async {
        let async = asyncState
        guard async.turnIsTaken else {
            async.turnIsTaken = true
            return
        }
        await withCheckedContinuation { waiter in
            async.waiters.append(waiter)
        }
        // The turn was handed over: `turnIsTaken` stayed true.
    }

    /// Hands the turn to the first waiter, or frees it.
    private func passAsyncTurn() {
        let async = asyncState
        if async.waiters.isEmpty {
            async.turnIsTaken = false
        } else {
            async.waiters.removeFirst().resume()
        }
    }

    /// Runs `body` as `work`, the running operation: its code runs with the work's token
    /// bound, and other code's calls are held until it ends. Nests (a scope's rollback runs
    /// its step inside the scope's work) and puts the outer work back.
    nonisolated(nonsending) func running<Result>(
        _ work: AsyncWork, _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        let async = asyncState
        let outer = async.running
        async.running = work
        state.asyncWorkIsRunning = true
        defer {
            async.running = outer
            state.asyncWorkIsRunning = outer != nil
        }
        return try await bindingToken(work.token, body)
    }

    /// Runs `body` with `token` bound, on the caller's isolation: the closure `withValue`
    /// takes is a plain `async` one, which would otherwise run on the global executor, away
    /// from the actor that owns the manager and the model.
    private func bindingToken<Result>(
        _ token: AsyncWorkToken, isolation: isolated (any Actor)? = #isolation,
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        try await AsyncWorkContext.$token.withValue(token) {
            _ = isolation
            return try await body()
        }
    }

    /// Runs `body` as a recording operation (a command's `execute`, a scope's body), or as
    /// part of the one that calls it.
    nonisolated(nonsending) func recording<Result>(
        _ body: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        if let running = state.asyncWork?.running, AsyncWorkContext.token == running.token {
            return try await body()
        }
        return try await running(makeAsyncWork(.recording), body)
    }

    /// A new operation of `kind`, with a token of its own.
    func makeAsyncWork(_ kind: AsyncWork.Kind) -> AsyncWork {
        let async = asyncState
        async.nextSerial += 1
        return AsyncWork(kind: kind, token: AsyncWorkToken(manager: ObjectIdentifier(self), serial: async.nextSerial))
    }

    /// Whether the caller is other code than the running operation's.
    private func isOutsideRunningWork(_ work: AsyncWork) -> Bool {
        AsyncWorkContext.token != work.token
    }

    // MARK: Hooks (each behind `state.asyncWorkIsRunning`)

    /// `register(_:)` during an operation: returns whether the registration was taken here
    /// (captured as the running step's inverse, dropped while a failed step reverts, or held
    /// for other code); `false` lets it register as usual (a scope's body).
    @inline(never)
    func takesRegistrationDuringAsyncWork(_ step: UndoStep) -> Bool {
        guard let async = state.asyncWork, let work = async.running else { return false }
        if isOutsideRunningWork(work) {
            async.heldCalls.append(.registration(step))
            heldCallJoinsEvent()
            return true
        }
        guard work.isRunningStep else { return false }
        if !work.isReverting {
            work.captured.append(step)
        }
        return true
    }

    /// The metadata a setter writes during an operation: the running step's copy, or the
    /// held metadata of other code; `nil` for the usual open group (a scope's body).
    @inline(never)
    func metadataDuringAsyncWork() -> GroupMetadata? {
        guard let async = state.asyncWork, let work = async.running else { return nil }
        if isOutsideRunningWork(work) {
            if case .metadata(let held)? = async.heldCalls.last {
                return held
            }
            let held = GroupMetadata()
            async.heldCalls.append(.metadata(held))
            heldCallJoinsEvent()
            return held
        }
        guard work.isRunningStep else { return nil }
        if let metadata = work.metadata {
            return metadata
        }
        let created = GroupMetadata()
        work.metadata = created
        return created
    }

    /// `beginUndoGrouping()` (`opening`) or `endUndoGrouping()` during an operation: returns
    /// whether the call was held for other code. An action of a running step may not open
    /// groups (its inverse is one group, built when the step settles).
    @inline(never)
    func holdsGroupCallDuringAsyncWork(opening: Bool) -> Bool {
        guard let async = state.asyncWork, let work = async.running else { return false }
        if isOutsideRunningWork(work) {
            async.heldCalls.append(opening ? .beginGroup : .endGroup)
            heldCallJoinsEvent()
            return true
        }
        guard !work.isRunningStep else {
            programmerError(
                in: PublicCall(opening ? "beginUndoGrouping()" : "endUndoGrouping()"),
                "an asynchronous undo or redo action may not open or close undo groups",
                fix: "register the inverse's actions directly: undoAsync() and redoAsync() group them into one step"
            )
        }
        return false
    }

    /// ``UndoManager/removeAllActions()`` or ``UndoManager/removeAllActions(withTarget:)``
    /// during an operation: returns whether the removal was held for other code (made after
    /// the operation settles, so it never pulls the running step from under it). An action of
    /// a running step may not remove actions: the step it belongs to is in flight.
    @inline(never)
    func holdsRemovalDuringAsyncWork(_ removal: HeldCall, in call: PublicCall) -> Bool {
        guard let async = state.asyncWork, let work = async.running else { return false }
        if isOutsideRunningWork(work) {
            async.heldCalls.append(removal)
            return true
        }
        guard !work.isRunningStep else {
            programmerError(
                in: call, "an asynchronous undo or redo action may not remove actions while its step is in flight",
                fix: "remove them once the undo has settled: `try await manager.undoAsync()`, then the removal"
            )
        }
        return false
    }

    /// ``UndoManager/undo()`` or ``UndoManager/redo()`` during an operation: the synchronous
    /// calls cannot wait for the step in flight, and running another step inside it would
    /// interleave the two.
    @inline(never)
    func refuseSynchronousUndoDuringAsyncWork(in call: PublicCall) -> Never {
        programmerError(
            in: call, "an asynchronous undo, redo or group (undoAsync(), redoAsync(), withUndoGroupAsync) is in flight",
            fix: "call `try await manager.undoAsync()` or `redoAsync()`, which wait their turn"
        )
    }

    /// Grouping by event, a held call belongs to the current event, as the automatic group it
    /// would have opened would: the run loop waits for the event's end, which is held too.
    private func heldCallJoinsEvent() {
        guard state.groupsByEvent else { return }
        asyncState.heldEventIsOpen = true
        if !state.isScheduledOnRunLoop {
            runLoop.schedule(self)
        }
    }

    /// The end of an event during an operation: returns whether it was handled here. It is
    /// held after the calls held in the event; and the event's automatic group, if open, holds
    /// the operation's own edits (a scope's group, or a command's step to come), so it closes
    /// when the operation ends rather than in the middle of it.
    @inline(never)
    func eventEndedDuringAsyncWork(mode: RunLoop.Mode) -> Bool {
        guard let async = state.asyncWork, async.running != nil else { return false }
        if async.heldEventIsOpen {
            async.heldCalls.append(.endEvent)
            async.heldEventIsOpen = false
        }
        guard state.automaticGroupIsPending else { return true }
        guard state.groupsByEvent && state.runLoopModes.contains(mode) else { return false }
        async.eventEndedDuringWork = true
        return true
    }

    /// Closes the event's automatic group if its event ended during the operation that just
    /// ended; if it cannot close yet (a group the caller opened is inside it), the next end of
    /// an event closes it.
    private func closeEventThatEndedDuringWork() {
        guard let async = state.asyncWork, async.eventEndedDuringWork else { return }
        async.eventEndedDuringWork = false
        guard state.automaticGroupIsPending else { return }
        if !endEventGroup() && !state.isScheduledOnRunLoop {
            runLoop.schedule(self)
        }
    }

    /// Makes the calls held during the operation that just settled, in order, as if made now.
    private func makeHeldCalls() {
        guard let async = state.asyncWork, !async.heldCalls.isEmpty else { return }
        let calls = async.heldCalls
        async.heldCalls = []
        // An event still going on: the replayed calls' automatic group closes at its end.
        async.heldEventIsOpen = false
        for call in calls {
            switch call {
            case .registration(let step):
                register(step)
            case .beginGroup:
                beginUndoGrouping()
            case .endGroup:
                endUndoGrouping()
            case .metadata(let written):
                copyHeldMetadata(written)
            case .endEvent:
                endEventGroup()
            case .removeAllActions:
                clearBothStacks()
            case .removeActions(let identity):
                removeActions(on: identity)
            }
        }
        publishObservableChanges()
    }

    /// What held metadata setters wrote, written now through the setters.
    private func copyHeldMetadata(_ written: GroupMetadata) {
        if let name = written.name {
            setActionName(name)
        }
        if written.isDiscardable {
            setActionIsDiscardable(true)
        }
        for (key, value) in written.userInfo {
            setActionUserInfoValue(value, forKey: key)
        }
        if let key = written.coalescingKey {
            setActionCoalescingKey(key)
        }
        if written.cost != 0 {
            // setActionCost(_:) counted the held cost in the stack's total when it was held
            // (it writes the total beside the metadata it was given): counted once, here.
            undoStack.totalCost -= written.cost
            setActionCost(written.cost)
        }
        if let parts = written.parts {
            addActionParts(parts)
        }
    }
}
