/// The action ``UndoManager/perform(_:on:)`` records: a command, its model (weakly, as every
/// target, spec H3) and which of its two methods the step runs.
///
/// One object serves a command for its whole life: undoing it runs ``UndoableCommand/undo(on:)``,
/// flips it to run ``UndoableCommand/execute(on:)`` and records the same object as the redo
/// step, and redoing flips it back. So undo and redo of commands allocate nothing, and the
/// command stays inspectable on the stacks, which persisted history
/// (``UndoManager/undoHistory(of:)``) relies on.
final class CommandAction<Command: UndoableCommand>: UndoAction where Command.Model: AnyObject {
    weak let model: Command.Model?
    /// The command in the state its last `execute` or `undo` left it.
    var command: Command
    /// True when invoking this step runs `execute(on:)` (a redo of `perform`), false when it
    /// runs `undo(on:)`.
    var runsExecute: Bool
    /// Unowned: the action lives in this manager's stacks, so it only runs while the manager
    /// is alive, and a strong reference would make the manager own itself.
    unowned let manager: UndoManager

    init(_ command: Command, on model: Command.Model, runsExecute: Bool, manager: UndoManager) {
        self.model = model
        self.command = command
        self.runsExecute = runsExecute
        self.manager = manager
        super.init()
    }

    override func invoke() {
        guard let model else { return }
        if runsExecute {
            command.execute(on: model)
        } else {
            command.undo(on: model)
        }
        runsExecute.toggle()
        manager.record(self, on: model)
    }
}
