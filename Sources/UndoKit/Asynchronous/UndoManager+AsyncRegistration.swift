/// Registering asynchronous actions (spec K5, issue 34 item 1).
extension UndoManager {
    /// Records an asynchronous, throwing undo action on `target`: what
    /// ``registerUndo(withTarget:handler:)-(_,(TargetType)->Void)`` is for an action that
    /// awaits a database, a server or an actor.
    ///
    /// The step it joins can only be undone with ``undoAsync()`` (and its inverse redone with
    /// ``redoAsync()``), which await each action in Apple's order; ``undo()`` and ``redo()``
    /// stop the program with a message naming them when they reach it. The handler runs on the
    /// isolation of the call that undoes, and registers its inverse as a synchronous handler
    /// does (an asynchronous one, usually). If it throws, or the task is cancelled and it
    /// throws `CancellationError`, the undo fails as a whole: see ``undoAsync()``.
    ///
    /// ```swift
    /// actor Store { var title = "" ; func setTitle(_ t: String) { title = t } }
    /// final class Document { let store = Store() }
    ///
    /// func rename(_ document: Document, to title: String, old: String, manager: UndoManager) async {
    ///     await document.store.setTitle(title)
    ///     manager.registerUndo(withTarget: document) { document in
    ///         await rename(document, to: old, old: title, manager: manager)
    ///     }
    /// }
    /// ```
    ///
    /// The target is held weakly, as for every registration: a step whose target is gone is
    /// skipped. The registration is like any other (it opens the event's group, ends redo,
    /// counts against the limits); overrides of `registerUndo(withTarget:handler:)` do not
    /// see it, since they could not call an asynchronous handler.
    ///
    /// - Precondition: As for ``registerUndo(withTarget:handler:)-(_,(TargetType)->Void)``.
    public func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        asyncHandler: nonisolated(nonsending) @escaping (TargetType) async throws -> Void
    ) {
        guard registrationIsEnabled else { return }
        let entry = AsyncHandlerEntry(asyncHandler, reference: modelReference(for: target))
        register(UndoStep(command: entry))
    }

    /// Awaits `command`'s ``AsyncUndoableCommand/execute(on:)`` on `model` and records it as an
    /// undoable step: what ``perform(_:on:)`` is for an asynchronous command.
    ///
    /// It waits its turn behind an asynchronous undo or redo in flight (in the order the calls
    /// were made), then executes. If `execute` throws, nothing is recorded and the error is
    /// rethrown. Once it returns, the step is recorded as ``perform(_:on:)`` records one: it
    /// joins the open group or opens the event's, is named after the command, and declares its
    /// ``AsyncUndoableCommand/undoParts``. ``undoAsync()`` awaits
    /// ``AsyncUndoableCommand/undo(on:)`` and ``redoAsync()`` `execute` again.
    ///
    /// ```swift
    /// try await manager.performAsync(AddTitle(title: "Milk"), on: document)
    /// manager.runLoop.tick()
    /// manager.undoMenuItemTitle   // "Undo Add Milk"
    /// ```
    ///
    /// - Precondition: As for ``perform(_:on:)``; not called from an action of an
    ///   asynchronous undo or redo (which would wait for itself).
    public nonisolated(nonsending) func performAsync<Command: AsyncUndoableCommand>(
        _ command: Command,
        on model: Command.Model
    ) async throws where Command.Model: AnyObject {
        try await withAsyncTurn(in: "performAsync(_:on:)", nests: true) {
            try await recording {
                var command = command
                try await command.execute(on: model)
                recordAsyncCommand(command, on: model)
            }
        }
    }

    /// ``performAsync(_:on:)`` after `execute`: records the step, names it and declares its
    /// parts.
    private func recordAsyncCommand<Command: AsyncUndoableCommand>(
        _ command: Command, on model: Command.Model
    ) where Command.Model: AnyObject {
        if registrationIsEnabled {
            register(UndoStep(command: AsyncCommandEntry(command, reference: modelReference(for: model))))
        }
        nameStep(command.actionName, parts: command.undoParts)
    }
}
