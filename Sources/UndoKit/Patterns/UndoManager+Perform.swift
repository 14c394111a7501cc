extension UndoManager {
    /// Executes `command` on `model` and records it as an undoable step.
    ///
    /// The undo runs the command's ``UndoableCommand/undo(on:)`` and records the redo, which
    /// runs ``UndoableCommand/execute(on:)`` again and records the undo, and so on for any
    /// number of cycles. Each recorded step keeps the command as the previous call left it,
    /// so a command that records state in `execute` (the item a removal took out) finds that
    /// state in `undo`.
    ///
    /// The step is an ordinary registration with `model` as the target, so everything about
    /// registrations applies: it joins the open group (or opens the event's automatic group),
    /// clears the redo stack, counts against ``levelsOfUndo``, posts the usual notifications,
    /// and is skipped if `model` is gone by the time it is undone. Call
    /// ``removeAllActions(withTarget:)`` with `model` to forget its steps.
    ///
    /// After `execute`, a non-empty ``UndoableCommand/actionName`` names the group, so several
    /// commands performed in one group name it after the last one; undo and redo carry the
    /// name along. An empty name leaves the group's name alone.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// let list = TodoList()
    /// manager.perform(AddItem(title: "Buy milk"), on: list)
    /// manager.runLoop.tick()                     // end of the event: one undo step
    /// manager.perform(RemoveItem(at: 0), on: list)
    /// manager.runLoop.tick()
    /// manager.undoMenuItemTitle                  // "Undo Delete"
    /// manager.undo()                             // "Buy milk" is back
    /// manager.undo()                             // list is empty
    /// manager.redo()                             // "Buy milk" again
    /// ```
    ///
    /// While registration is disabled, the command executes and nothing is recorded.
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on and the event's automatic
    ///   group can be opened, as for ``registerUndo(withTarget:handler:)-(_,(TargetType)->Void)``.
    public func perform<Command: UndoableCommand>(
        _ command: Command,
        on model: Command.Model
    ) where Command.Model: AnyObject {
        var command = command
        command.execute(on: model)
        record(CommandAction(command, on: model, runsExecute: false, manager: self), on: model)
        // Read after execute, so that a name can describe what execute found ("Delete Milk").
        let name = command.actionName
        if !name.isEmpty {
            setActionName(name)
        }
    }

    /// Records a command's step as a registration on `model`.
    ///
    /// A plain manager pushes the action at once. A subclass's manager passes the
    /// registration through `registerUndo(withTarget:handler:)`, so its overrides see it as
    /// they see every registration; when the call reaches the base implementation, that
    /// records `action` itself rather than the handler (which only invokes it), so the step
    /// stays a command that persisted history can read. An override that hands `super` a
    /// handler of its own for the same target therefore does not change what runs.
    func record<Command: UndoableCommand>(_ action: CommandAction<Command>, on model: Command.Model) {
        guard storage.pointee.isSubclassInstance else {
            if registrationIsEnabled {
                register(action, on: ObjectIdentifier(model))
            }
            return
        }
        let outerPending = storage.pointee.pendingCommand
        storage.pointee.pendingCommand = (action, ObjectIdentifier(model))
        registerUndo(withTarget: model) { [action] _ in action.invoke() }
        storage.pointee.pendingCommand = outerPending
    }
}
