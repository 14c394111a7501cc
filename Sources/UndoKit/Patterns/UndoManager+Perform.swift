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
    /// ``removeAllActions(withTarget:)`` with `model` to forget its steps. On a subclass it
    /// is literally a call to ``registerUndo(withTarget:handler:)-(_,(TargetType)->Void)``, so
    /// overrides see each step and each inverse. On a plain manager undo and redo allocate
    /// nothing, and a command that is plain data no larger than a word (an index, an amount)
    /// is kept in the step itself, so performing it allocates nothing either.
    ///
    /// After `execute`, a non-empty ``UndoableCommand/actionName`` names the group, so several
    /// commands performed in one group name it after the last one; undo and redo carry the
    /// name along. An empty name leaves the group's name alone. Its
    /// ``UndoableCommand/undoParts`` are added to the group's parts, as
    /// ``addActionParts(_:)-(UndoPart...)`` would (<doc:EditingTogether>).
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
    @inlinable
    public func perform<Command: UndoableCommand>(
        _ command: Command,
        on model: Command.Model
    ) where Command.Model: AnyObject {
        var command = command
        command.execute(on: model)
        // Read in the caller, which knows the command's type: the default `[]` costs nothing.
        // The runner too: specialized here, where the command's type is known.
        record(command, on: model, parts: command.undoParts, runner: Command.runKept)
        // The same for the default `nil`, which costs nothing either.
        if let changedParts = command.changedParts {
            setActionChangedParts(changedParts)
        }
    }

    /// ``perform(_:on:)`` after `execute`: records the step, declaring `parts`.
    @usableFromInline
    func record<Command: UndoableCommand>(
        _ command: Command, on model: Command.Model, parts: [UndoPart], runner: @escaping KeptCommandRunner
    ) where Command.Model: AnyObject {
        if !state.isSubclassInstance && commandFitsInStep(Command.self) {
            // A small plain command lives in its step: no allocation (see InlineCommandOwner).
            if registrationIsEnabled {
                let owner = inlineCommandOwner(for: model, commandType: Command.self, runner: runner)
                register(UndoStep(
                    targetID: ObjectIdentifier(model), owner: owner,
                    handler: ErasedHandler(inlineBits: stepBits(of: command))))
            }
            nameStep(command.actionName, parts: parts)
            return
        }
        let entryType = cachedClass(
            TypedCommandEntry<Command>.self, key: ObjectIdentifier(Command.self),
            in: &state.commandEntryClassCache
        )
        let entry = entryType.init(command, on: modelReference(for: model), runsExecute: false)
        if state.isSubclassInstance {
            // Overrides of registerUndo(withTarget:handler:) see every step and inverse.
            recordThroughOverrides(entry, on: model)
        } else if registrationIsEnabled {
            // Observably the same registration. Consumed: the step takes this reference, saving
            // a retain and a release per perform (callgrind, W1 with commands).
            register(UndoStep(command: consume entry))
        }
        nameStep(command.actionName, parts: parts)
    }

    /// Executes `command` on `model` and records it as an undoable step that keeps `model`
    /// alive: the opt-in form of ``perform(_:on:)`` for models the manager may own.
    ///
    /// Everything ``perform(_:on:)`` says holds, except that the step refers to `model`
    /// strongly instead of weakly. Undo and redo then skip the weak load and release of the
    /// model, most of the time of undoing a one-step group. Allocation is as with
    /// ``perform(_:on:)``.
    ///
    /// The manager holds `model` until the last step that refers to it is removed, trimmed,
    /// cleared or deallocated; a model that holds its manager strongly makes a cycle that only
    /// removing its steps breaks. <doc:UsingCommands> gives the lifetime precisely.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// manager.perform(AddItem(title: "Buy milk"), retaining: TodoList())
    /// manager.runLoop.tick()
    /// manager.undo()          // runs: the manager kept the list alive
    /// manager.removeAllActions()
    /// // the list is released with its last step
    /// ```
    ///
    /// While registration is disabled, the command executes, nothing is recorded and the
    /// model is not retained.
    ///
    /// - Precondition: As for ``perform(_:on:)``.
    @inlinable
    public func perform<Command: UndoableCommand>(
        _ command: Command,
        retaining model: Command.Model
    ) where Command.Model: AnyObject {
        var command = command
        command.execute(on: model)
        record(command, retaining: model, parts: command.undoParts, runner: Command.runKept)
        if let changedParts = command.changedParts {
            setActionChangedParts(changedParts)
        }
    }

    /// ``perform(_:retaining:)`` after `execute`: records the step, declaring `parts`.
    @usableFromInline
    func record<Command: UndoableCommand>(
        _ command: Command, retaining model: Command.Model, parts: [UndoPart], runner: @escaping KeptCommandRunner
    ) where Command.Model: AnyObject {
        let isSubclassInstance = state.isSubclassInstance
        #if !canImport(ObjectiveC)  // no Objective-C runtime (see ErasedHandler.init(inlineBits:retaining:))
        if !isSubclassInstance && commandFitsInStep(Command.self) {
            // As in perform(_:on:), with the model as the handler's context.
            if registrationIsEnabled {
                let owner = inlineCommandOwner(for: model, commandType: Command.self, runner: runner)
                register(UndoStep(
                    targetID: ObjectIdentifier(model), owner: owner,
                    handler: ErasedHandler(inlineBits: stepBits(of: command), retaining: model)))
            }
            nameStep(command.actionName, parts: parts)
            return
        }
        #endif
        if isSubclassInstance || registrationIsEnabled {
            let entry = RetainingCommandEntry(command, retaining: model, reference: modelReference(for: model))
            if isSubclassInstance {
                recordThroughOverrides(entry, on: model)
            } else {
                // Consumed, as in perform(_:on:): the step takes this reference.
                register(UndoStep(command: consume entry))
            }
        }
        nameStep(command.actionName, parts: parts)
    }

    /// Declares `parts` for the step a command just recorded and names the step
    /// `actionName`, read after the command executed so a name can say what it found; an
    /// empty name leaves the group's name as it is. The synchronous and asynchronous commands'
    /// recording ends here. The name is read after the parts are declared, as it always was:
    /// an autoclosure, as a plain argument read earlier cost `perform(_:retaining:)` three
    /// instructions (callgrind, W1 register).
    @inline(__always)
    func nameStep(_ actionName: @autoclosure () -> String, parts: [UndoPart]) {
        if !parts.isEmpty && registrationIsEnabled {
            addActionParts(parts)
        }
        let actionName = actionName()
        if !actionName.isEmpty {
            setActionName(actionName)
        } else {
            publishObservableChanges()
        }
    }

    /// The ``InlineCommandOwner`` for `commandType` on `model`: the last one, if it matches.
    @inline(__always)
    func inlineCommandOwner<Command: UndoableCommand>(
        for model: Command.Model, commandType: Command.Type, runner: @escaping KeptCommandRunner
    ) -> CommandEntry where Command.Model: AnyObject {
        // An equal model identifier is this very object (see `modelReference(for:)`).
        if let last = state.lastInlineCommandOwner, last.modelID == ObjectIdentifier(model),
           state.lastInlineCommandType == ObjectIdentifier(commandType) {
            return last
        }
        // A cached metatype: instantiating generic metadata on every miss cost more than the
        // rest of `perform`.
        let ownerType = cachedClass(
            InlineCommandOwner<Command>.self, key: ObjectIdentifier(Command.self),
            in: &state.inlineCommandOwnerClassCache
        )
        let created = ownerType.init(modelReference: modelReference(for: model), runner: runner)
        state.lastInlineCommandOwner = created
        state.lastInlineCommandType = ObjectIdentifier(commandType)
        return created
    }

    /// The ``ModelReference`` for `model`: the previous command's, if the same object.
    @inline(__always)
    func modelReference(for model: AnyObject) -> ModelReference {
        // An equal identifier is this very object (see `ModelReference.addressPin`).
        if let last = state.lastModelReference, last.id == ObjectIdentifier(model) {
            return last
        }
        let created = ModelReference(model)
        state.lastModelReference = created
        return created
    }

    /// Records a command's step on a subclass's manager through
    /// `registerUndo(withTarget:handler:)`, so its overrides see it (and each inverse).
    /// The base implementation records `entry` rather than the handler, so the step stays a
    /// command ``undoHistory(of:)`` can save; the handler does the same, for an override that
    /// calls it.
    func recordThroughOverrides(_ entry: CommandEntry, on model: AnyObject) {
        let outerPending = state.pendingCommand
        state.pendingCommand = entry
        registerUndo(withTarget: model) { [unowned self, entry] model in
            if entry.run() {
                recordThroughOverrides(entry, on: model)
            }
        }
        state.pendingCommand = outerPending
    }
}
