/// The owner of a step whose action is asynchronous: an `async throws` closure registered
/// with ``UndoManager/registerUndo(withTarget:asyncHandler:)`` or an
/// ``AsyncUndoableCommand``. A ``CommandEntry``, so the synchronous undo and redo reach it on
/// the path they already take for commands, and its synchronous runs trap there: finding an
/// asynchronous step costs the synchronous paths nothing.
///
/// It overrides none of the synchronous `run` methods: they are `CommandEntry`'s own, which
/// trap with ``synchronousRunTrap()`` (only an asynchronous entry reaches them). An override
/// here made the calls of the synchronous commands' overrides indirect (callgrind, W1 with
/// commands: undo 704 -> 764 instructions per action).
class AsyncActionEntry: CommandEntry {
    /// `runsExecute` is the direction of the entry's next run, for an entry a restored history
    /// puts on the redo stack; only a command's entry keeps it up to date (see
    /// ``AsyncCommandEntry``), which ``UndoManager/undoHistory(of:)-(AsyncCommand.Type)`` reads.
    init(modelReference: ModelReference, runsExecute: Bool = false) {
        super.init(modelReference: modelReference, runsExecute: runsExecute)
    }

    /// Runs the action on `model` (this entry's, loaded), on the caller's isolation. Returns
    /// whether the step is its own inverse (a command, which ``UndoManager`` then records),
    /// rather than an action that registered its inverse itself.
    nonisolated(nonsending) func runAsync(on model: AnyObject, executing: Bool) async throws -> Bool {
        preconditionFailure("AsyncActionEntry.runAsync(on:executing:) must be overridden")
    }

    override var command: Any {
        preconditionFailure("AsyncActionEntry.command must be overridden")
    }

    override func changedParts(bits: UInt) -> [UndoPart]? { nil }

    /// Spec K5: the synchronous undo and redo cannot await an action. The message names the
    /// calls that can (the same trap on every path: undo(), redo(), undoNestedGroup(), a
    /// scope's rollback, a coordinator's replay).
    static func synchronousRunTrap() -> Never {
        fatalError(
            "UndoManager: undo() or redo() reached an asynchronous action "
                + "(registerUndo(withTarget:asyncHandler:) or performAsync(_:on:)), which it cannot await.\n"
                + "Fix: undo and redo steps with asynchronous actions with `try await manager.undoAsync()` and "
                + "`try await manager.redoAsync()`"
        )
    }
}

/// An `async throws` closure on a weakly held target (spec H3: a target that is gone is
/// skipped), which registers its own inverse as a synchronous handler does.
final class AsyncHandlerEntry<Target: AnyObject>: AsyncActionEntry {
    let handler: nonisolated(nonsending) (Target) async throws -> Void

    init(_ handler: nonisolated(nonsending) @escaping (Target) async throws -> Void, reference: ModelReference) {
        self.handler = handler
        super.init(modelReference: reference)
    }

    override var command: Any { handler }

    override nonisolated(nonsending) func runAsync(on model: AnyObject, executing: Bool) async throws -> Bool {
        // Sound: the object was registered as this handler's target.
        try await handler(unsafeDowncast(model, to: Target.self))
        return false
    }
}

/// An ``AsyncUndoableCommand`` and its model, weakly held; like ``TypedCommandEntry``, the
/// step is its own inverse and the entry keeps the command as the last run left it.
/// ``CommandEntry/runsExecute`` follows its runs (the stack it is on), so a saved history
/// knows the command's direction, as for a synchronous command.
final class AsyncCommandEntry<Command: AsyncUndoableCommand>: AsyncActionEntry where Command.Model: AnyObject {
    private var storedCommand: Command

    init(_ command: Command, reference: ModelReference, runsExecute: Bool = false) {
        storedCommand = command
        super.init(modelReference: reference, runsExecute: runsExecute)
    }

    override var command: Any { storedCommand }

    override nonisolated(nonsending) func runAsync(on model: AnyObject, executing: Bool) async throws -> Bool {
        let typedModel = unsafeDowncast(model, to: Command.Model.self)
        // A copy, written back only when the run succeeded: a throw means nothing changed,
        // the command included.
        var command = storedCommand
        if executing {
            try await command.execute(on: typedModel)
        } else {
            try await command.undo(on: typedModel)
        }
        storedCommand = command
        // An execute leaves the step on the undo stack, whose next run undoes; an undo leaves
        // it for redo. A failed step's revert runs the other way, which sets it back.
        runsExecute = !executing
        return true
    }
}
