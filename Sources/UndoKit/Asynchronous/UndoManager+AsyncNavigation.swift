/// The history-walking and "undo anyway" calls, asynchronous (spec K5 with J3 and K3; issue 34
/// item 6): each undo and redo they make is an asynchronous one, in one turn.
extension UndoManager {
    /// Moves to `node` of the ``historyTree`` by asynchronous undos and redos: ``go(to:)`` for
    /// a history whose steps have asynchronous actions.
    ///
    /// It takes the same way as ``go(to:)`` (undos up to where `node` meets the current path,
    /// then redos down, following a branch if needed) within one turn: no other asynchronous
    /// operation runs between its steps. If a step fails, the walk stops cleanly there: that
    /// step was reverted (see ``undoAsync()``), the steps before it stay done, the manager is
    /// on the node just before the failing step, and the error is rethrown.
    ///
    /// ```swift
    /// let node = manager.historyTree.nodes[0]
    /// try await manager.goAsync(to: node)
    /// ```
    ///
    /// - Precondition: As for ``go(to:)``.
    public nonisolated(nonsending) func goAsync(to node: UndoTree.Node) async throws {
        try await withAsyncTurn(in: "goAsync(to:)", nests: false) {
            try await walk(to: node.id, in: "goAsync(to:)")
        }
    }

    /// Moves to the start of the history (before the first step) by asynchronous undos:
    /// ``goToStart()`` for asynchronous steps, with ``goAsync(to:)``'s rules.
    ///
    /// ```swift
    /// try await manager.goToStartAsync()
    /// ```
    public nonisolated(nonsending) func goToStartAsync() async throws {
        try await withAsyncTurn(in: "goToStartAsync()", nests: false) {
            try await walk(to: nil, in: "goToStartAsync()")
        }
    }

    private nonisolated(nonsending) func walk(to target: StepID?, in call: StaticString) async throws {
        checkCanMove(in: PublicCall(call))
        let route = route(to: target, in: PublicCall(call))
        for _ in 0..<route.undoCount {
            let before = undoStack.topLevelCount
            try await runNextStepAsync(undoing: true, call: call)
            guard undoStack.topLevelCount < before else { break }
        }
        guard !route.chain.isEmpty else {
            publishObservableChanges()
            return
        }
        putOnRedoPath(route.chain)
        for _ in route.chain {
            let before = redoStack.topLevelCount
            try await runNextStepAsync(undoing: false, call: call)
            guard redoStack.topLevelCount < before else { break }
        }
        settle()
        publishObservableChanges()
    }

    /// Undoes the next step even if it is stale, awaiting its actions: ``undoStaleStep()`` for
    /// asynchronous steps ("undo anyway"), with ``undoAsync()``'s rules.
    ///
    /// ```swift
    /// if !manager.canUndo, manager.staleUndoStep != nil, userConfirmedOverwrite {
    ///     try await manager.undoStaleStepAsync()
    /// }
    /// ```
    public nonisolated(nonsending) func undoStaleStepAsync() async throws {
        try await withAsyncTurn(in: "undoStaleStepAsync()", nests: false) {
            try await runNextStepAsync(undoing: true, call: "undoStaleStepAsync()", appliesStalePolicy: false)
        }
    }

    /// Redoes the next step even if it is stale, awaiting its actions; see
    /// ``undoStaleStepAsync()``.
    ///
    /// ```swift
    /// try await manager.redoStaleStepAsync()   // "Redo anyway"
    /// ```
    public nonisolated(nonsending) func redoStaleStepAsync() async throws {
        try await withAsyncTurn(in: "redoStaleStepAsync()", nests: false) {
            try await runNextStepAsync(undoing: false, call: "redoStaleStepAsync()", appliesStalePolicy: false)
        }
    }
}
