/// Taking and restoring an ``UndoHistory``: reading the stacks' command steps into a value,
/// and rebuilding both stacks from one.
extension UndoManager {
    /// The manager's undo and redo stacks as a value of `Command`s that can be encoded and
    /// restored in a later process.
    ///
    /// Every step must have been recorded by ``perform(_:on:)`` with a `Command`; the history
    /// holds each command in the state its last `execute` or `undo` left it, with the steps'
    /// grouping, action names and discardable flags.
    ///
    /// ```swift
    /// manager.perform(AddItem(title: "Milk"), on: list)
    /// manager.endEventGroup()                            // close the event's group first
    /// let history = try manager.undoHistory(of: AddItem.self)
    /// history.undoSteps.count                            // 1
    /// try history.encoded().write(to: historyURL)
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/groupOpen(groupingLevel:)`` while a group is open, and
    ///   ``UndoHistoryError/notACommand(stack:stepIndex:)`` if a step holds anything else (a
    ///   closure from `registerUndo(withTarget:handler:)`, another command type, or a command
    ///   performed while undoing, which sits on the redo stack the other way round). Nothing
    ///   changes either way.
    public func undoHistory<Command: UndoableCommand & Codable>(
        of _: Command.Type
    ) throws(UndoHistoryError) -> UndoHistory<Command> where Command.Model: AnyObject {
        let level = undoStack.nesting + redoStack.nesting
        guard level == 0 else { throw .groupOpen(groupingLevel: level) }
        return UndoHistory(
            undoSteps: try HistoryReader<Command>(stack: "undo", runsExecute: false).steps(of: undoStack),
            redoSteps: try HistoryReader<Command>(stack: "redo", runsExecute: true).steps(of: redoStack)
        )
    }

    /// Rebuilds the undo and redo stacks from a history taken by ``undoHistory(of:)``, with
    /// `model` as every step's model.
    ///
    /// Call it on a manager with nothing to undo or redo, with `model` in the state the
    /// history was taken in (the history's undo steps revert to older states from there).
    /// Afterwards ``canUndo``, ``canRedo``, ``undoCount``, ``redoCount``, the action names,
    /// the menu titles, ``undo()`` and ``redo()`` are what they were when the history was
    /// taken. Restoring runs no command and posts no notification: it changes no model and
    /// no step is new. ``levelsOfUndo`` applies, keeping the newest undo steps. The restored
    /// position counts as clean (``isClean``): it is the state the model was loaded in.
    ///
    /// ```swift
    /// let history = try UndoHistory<AddItem>(encoded: savedData)
    /// try manager.restoreUndoHistory(history, on: list)
    /// manager.undoActionName   // "Add “Milk”"
    /// manager.undo()           // runs the saved command's undo(on:) on list
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/managerNotEmpty(undoCount:redoCount:)`` or
    ///   ``UndoHistoryError/groupOpen(groupingLevel:)``; the manager is untouched.
    public func restoreUndoHistory<Command: UndoableCommand & Codable>(
        _ history: UndoHistory<Command>, on model: Command.Model
    ) throws(UndoHistoryError) where Command.Model: AnyObject {
        let level = undoStack.nesting + redoStack.nesting
        guard level == 0 else { throw .groupOpen(groupingLevel: level) }
        guard undoStack.isEmpty && redoStack.isEmpty else {
            throw .managerNotEmpty(undoCount: undoStack.topLevelCount, redoCount: redoStack.topLevelCount)
        }
        for step in history.redoSteps {
            push(step, onto: &redoStack, model: model, runsExecute: true, isTopLevel: true)
        }
        for step in history.undoSteps {
            push(step, onto: &undoStack, model: model, runsExecute: false, isTopLevel: true)
        }
        releaseDroppedEntries()
        checkInvariantsInDebugBuilds()
        publishObservableChanges()
    }

    private func push<Command: UndoableCommand>(
        _ group: UndoHistory<Command>.Group, onto stack: inout UndoStack,
        model: Command.Model, runsExecute: Bool, isTopLevel: Bool
    ) where Command.Model: AnyObject {
        stack.pushBegin()
        if isTopLevel && (group.actionName != nil || group.isDiscardable) {
            let metadata = stack.openTopMetadata()
            metadata.name = group.actionName
            metadata.isDiscardable = group.isDiscardable
        }
        for item in group.items {
            switch item {
            case .command(let command):
                stack.pushCommand(CommandEntry.make(command, on: model, runsExecute: runsExecute))
            case .group(let nested):
                push(nested, onto: &stack, model: model, runsExecute: runsExecute, isTopLevel: false)
            }
        }
        stack.closeGroup(discardIfEmpty: false)
    }
}

/// Reads one stack's closed groups into history groups, oldest first.
private struct HistoryReader<Command: UndoableCommand & Codable> where Command.Model: AnyObject {
    /// "undo" or "redo", for errors.
    let stack: String
    /// The direction every command step of this stack must have.
    let runsExecute: Bool

    func steps(of undoStack: borrowing UndoStack) throws(UndoHistoryError) -> [UndoHistory<Command>.Group] {
        // Open groups under construction, outermost first; the finished top-level groups.
        var open: [UndoHistory<Command>.Group] = []
        var steps: [UndoHistory<Command>.Group] = []
        func finish(_ group: UndoHistory<Command>.Group) {
            if open.isEmpty {
                steps.append(group)
            } else {
                open[open.count - 1].items.append(.group(group))
            }
        }
        for index in undoStack.head..<undoStack.entries.count {
            switch undoStack.entries[index] {
            case .begin(let metadata):
                var group = UndoHistory<Command>.Group()
                if open.isEmpty {
                    group.actionName = metadata?.name
                    group.isDiscardable = metadata?.isDiscardable ?? false
                }
                open.append(group)
            case .end:
                finish(open.removeLast())
            case .action(_, let owner, _):
                open[open.count - 1].items.append(.command(try command(in: owner, step: steps.count)))
            case .singleton(_, let owner, _):
                finish(UndoHistory<Command>.Group(items: [.command(try command(in: owner, step: steps.count))]))
            }
        }
        return steps
    }

    private func command(in owner: UndoStepOwner, step: Int) throws(UndoHistoryError) -> Command {
        guard owner.isCommand else { throw .notACommand(stack: stack, stepIndex: step) }
        let entry = unsafeDowncast(owner, to: CommandEntry.self)
        guard entry.runsExecute == runsExecute, let command = entry.command as? Command else {
            throw .notACommand(stack: stack, stepIndex: step)
        }
        return command
    }
}
