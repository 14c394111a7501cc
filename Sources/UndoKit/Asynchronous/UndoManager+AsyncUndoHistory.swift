/// Saving and restoring histories with asynchronous commands (issue 34 item 6): the
/// counterparts of ``UndoManager/undoHistory(of:)``, ``UndoManager/undoHistoryStep(_:of:)``
/// and ``UndoManager/restoreUndoHistory(_:on:)``, named apart so that no existing call or
/// documentation link becomes ambiguous.
extension UndoManager {
    /// The manager's undo and redo stacks as a value of asynchronous `Command`s that can be
    /// encoded and restored in a later process: ``undoHistory(of:)`` for steps recorded by
    /// ``performAsync(_:on:)``.
    ///
    /// Every step must have been recorded by ``performAsync(_:on:)`` with a `Command`; the
    /// history holds what ``undoHistory(of:)`` holds (nesting, names, ids, dates, branches,
    /// the clean mark, staleness), each command as its last run left it.
    ///
    /// ```swift
    /// try await manager.performAsync(AddTitle(title: "Milk"), on: document)
    /// manager.endEventGroup()
    /// let history = try manager.undoHistory(ofAsync: AddTitle.self)
    /// try history.encoded().write(to: historyURL)
    /// ```
    ///
    /// - Throws: As ``undoHistory(of:)``: ``UndoHistoryError/notACommand(stack:stepIndex:)``
    ///   for a step holding anything else (a closure, an `asyncHandler`, a synchronous
    ///   command; for both kinds use ``undoHistory(of:async:)``). Nothing changes.
    public func undoHistory<Command: AsyncUndoableCommand & Codable>(
        ofAsync _: Command.Type
    ) throws(UndoHistoryError) -> UndoHistory<Command> where Command.Model: AnyObject {
        try undoHistory(reading: .asynchronous)
    }

    /// One step of a history of asynchronous commands: ``undoHistoryStep(_:of:)`` for
    /// ``undoHistory(ofAsync:)``.
    ///
    /// ```swift
    /// if let current = manager.historyTree.current {
    ///     let step = try manager.undoHistoryStep(current, ofAsync: AddTitle.self)
    /// }
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/notACommand(stack:stepIndex:)`` if the step holds
    ///   anything but `Command`s.
    public func undoHistoryStep<Command: AsyncUndoableCommand & Codable>(
        _ id: UndoTree.NodeID, ofAsync _: Command.Type
    ) throws(UndoHistoryError) -> UndoHistory<Command>.Group? where Command.Model: AnyObject {
        try undoHistoryStep(id, reading: .asynchronous)
    }

    /// Rebuilds the undo and redo stacks from a history taken by ``undoHistory(ofAsync:)``,
    /// with `model` as every step's model: ``restoreUndoHistory(_:on:)`` for asynchronous
    /// commands.
    ///
    /// Afterwards ``undoAsync()`` and ``redoAsync()`` run the saved commands as they would
    /// have before saving (same steps, ids, names, order and direction, clean mark); a failing
    /// one is reverted as any asynchronous step is. ``undo()`` and ``redo()`` stop the program
    /// on them, naming the asynchronous calls, as before saving. Restoring runs no command.
    ///
    /// ```swift
    /// let history = try UndoHistory<AddTitle>(encoded: savedData)
    /// try manager.restoreUndoHistory(async: history, on: document)
    /// manager.undoActionName       // "Add Milk"
    /// try await manager.undoAsync() // awaits the saved command's undo(on:)
    /// ```
    ///
    /// - Throws: As ``restoreUndoHistory(_:on:)``; the manager is untouched.
    public func restoreUndoHistory<Command: AsyncUndoableCommand & Codable>(
        async history: UndoHistory<Command>, on model: Command.Model
    ) throws(UndoHistoryError) where Command.Model: AnyObject {
        try restoreUndoHistory(history, on: model, making: .asynchronous)
    }

    /// The manager's undo and redo stacks as a value holding both synchronous `Command`s
    /// (recorded by ``perform(_:on:)``) and asynchronous `AsyncCommand`s (recorded by
    /// ``performAsync(_:on:)``) on one model; see ``SyncOrAsyncCommand``.
    ///
    /// ```swift
    /// manager.perform(Rename(to: "Groceries"), on: document)
    /// try await manager.performAsync(AddTitle(title: "Milk"), on: document)
    /// manager.endEventGroup()
    /// let history = try manager.undoHistory(of: Rename.self, async: AddTitle.self)
    /// try history.encoded().write(to: historyURL)
    /// ```
    ///
    /// - Throws: As ``undoHistory(of:)``; ``UndoHistoryError/notACommand(stack:stepIndex:)``
    ///   for a step holding anything but the two types.
    public func undoHistory<Command, AsyncCommand>(
        of _: Command.Type, async _: AsyncCommand.Type
    ) throws(UndoHistoryError) -> UndoHistory<SyncOrAsyncCommand<Command, AsyncCommand>>
    where Command.Model == AsyncCommand.Model, Command.Model: AnyObject {
        try undoHistory(reading: .mixed())
    }

    /// One step of a history of both kinds: ``undoHistoryStep(_:of:)`` for
    /// ``undoHistory(of:async:)``.
    ///
    /// ```swift
    /// if let current = manager.historyTree.current {
    ///     let step = try manager.undoHistoryStep(current, of: Rename.self, async: AddTitle.self)
    /// }
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/notACommand(stack:stepIndex:)`` if the step holds
    ///   anything but the two types.
    public func undoHistoryStep<Command, AsyncCommand>(
        _ id: UndoTree.NodeID, of _: Command.Type, async _: AsyncCommand.Type
    ) throws(UndoHistoryError) -> UndoHistory<SyncOrAsyncCommand<Command, AsyncCommand>>.Group?
    where Command.Model == AsyncCommand.Model, Command.Model: AnyObject {
        try undoHistoryStep(id, reading: .mixed())
    }

    /// Rebuilds the undo and redo stacks from a history taken by ``undoHistory(of:async:)``,
    /// with `model` as every step's model.
    ///
    /// As ``restoreUndoHistory(async:on:)``: steps with an asynchronous command run with
    /// ``undoAsync()`` and ``redoAsync()`` only; steps of synchronous commands alone also
    /// with ``undo()`` and ``redo()``, as before saving.
    ///
    /// ```swift
    /// let history = try UndoHistory<SyncOrAsyncCommand<Rename, AddTitle>>(encoded: savedData)
    /// try manager.restoreUndoHistory(mixed: history, on: document)
    /// try await manager.undoAsync()
    /// ```
    ///
    /// - Throws: As ``restoreUndoHistory(_:on:)``; the manager is untouched.
    public func restoreUndoHistory<Command, AsyncCommand>(
        mixed history: UndoHistory<SyncOrAsyncCommand<Command, AsyncCommand>>, on model: Command.Model
    ) throws(UndoHistoryError) where Command.Model == AsyncCommand.Model, Command.Model: AnyObject {
        try restoreUndoHistory(history, on: model, making: .mixed())
    }
}

extension HistoryCommandKind where Command: AsyncUndoableCommand & Codable, Command.Model: AnyObject {
    /// Asynchronous commands of one type (``UndoManager/performAsync(_:on:)``).
    static var asynchronous: Self {
        Self(
            command: { $0 as? Command },
            entry: { command, model, runsExecute in
                AsyncCommandEntry(command, reference: model, runsExecute: runsExecute)
            }
        )
    }
}

extension HistoryCommandKind {
    /// Commands of either kind, on one model.
    static func mixed<Sync, Async>() -> Self
    where Command == SyncOrAsyncCommand<Sync, Async>, Sync.Model == Async.Model, Sync.Model: AnyObject {
        let synchronous = HistoryCommandKind<Sync>.synchronous
        let asynchronous = HistoryCommandKind<Async>.asynchronous
        return Self(
            command: { command in
                if let command = synchronous.command(command) {
                    return .synchronous(command)
                }
                return asynchronous.command(command).map { .asynchronous($0) }
            },
            entry: { command, model, runsExecute in
                switch command {
                case .synchronous(let command): synchronous.entry(command, model, runsExecute)
                case .asynchronous(let command): asynchronous.entry(command, model, runsExecute)
                }
            }
        )
    }
}
