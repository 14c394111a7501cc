/// A command recorded by ``UndoManager/perform(_:on:)``: the one allocation a performed
/// command costs, held by an ``UndoStep`` that moves between the stacks as the command is
/// undone and redone.
///
/// The entry is mutated in place: a step moves, it is never copied, so each entry has one
/// owner at a time and holds the command as the previous call left it, which is what
/// ``UndoableCommand`` promises.
///
/// Also the interface for code that reads or rebuilds a history of commands: on the undo
/// stack an entry has `runsExecute == false` (the next run calls `undo(on:)`), on the redo
/// stack `true` (the next run calls `execute(on:)`). Make one with
/// ``make(_:on:runsExecute:)`` and push it with ``UndoStack/pushCommand(_:)`` inside a group
/// opened on either stack; read it back from an entry with ``UndoStack/Entry/commandEntry``.
class CommandEntry: UndoStepOwner {
    /// Whether the next run calls `execute(on:)` (the entry is a redo) rather than
    /// `undo(on:)` (an undo). Each run flips it.
    ///
    /// Declared first, so that it packs beside ``UndoStepOwner/isCommand`` and
    /// the object stays at 40 bytes, a 48-byte malloc chunk, for a command of no stored properties (with the
    /// flag last it was 41 bytes, a 64-byte chunk).
    /// Unchecked exclusivity: only the manager's undo or redo writes it, on an entry it has
    /// popped, which no other code reaches until it is pushed again.
    @exclusivity(unchecked) var runsExecute: Bool
    /// The model the command runs on; a step whose model is gone is skipped (spec H3).
    weak let model: AnyObject?
    /// `ObjectIdentifier(model)` when recorded, the step's target identity.
    let modelID: ObjectIdentifier

    fileprivate init(model: AnyObject, runsExecute: Bool) {
        self.runsExecute = runsExecute
        self.model = model
        self.modelID = ObjectIdentifier(model)
        super.init(isCommand: true)
    }

    /// The command, as the last run left it (an `UndoableCommand` of the type it was
    /// performed with).
    var command: Any {
        preconditionFailure("CommandEntry.command must be overridden")
    }

    /// Undoes or executes the command on its model, as ``runsExecute`` says, and flips
    /// ``runsExecute``.
    ///
    /// - Returns: `false`, having run nothing, if the model is gone.
    func run() -> Bool {
        preconditionFailure("CommandEntry.run() must be overridden")
    }

    /// A new entry for `command` on `model`, for history code; ``UndoManager/perform(_:on:)``
    /// makes its own through a cached metatype.
    ///
    /// ```swift
    /// let entry = CommandEntry.make(AddItem(title: "Milk"), on: list, runsExecute: false)
    /// manager.undoStack.pushCommand(entry)   // inside an open group
    /// ```
    static func make<Command: UndoableCommand>(
        _ command: Command, on model: Command.Model, runsExecute: Bool
    ) -> CommandEntry where Command.Model: AnyObject {
        TypedCommandEntry(command, on: model, runsExecute: runsExecute)
    }
}

/// A ``CommandEntry`` for commands of one type.
final class TypedCommandEntry<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    // Unchecked exclusivity, as `runsExecute`: `run()` mutates it on a popped entry only.
    // The checks cost about 120 instructions per undo (callgrind, W1 with commands).
    @exclusivity(unchecked) private var storedCommand: Command

    required init(_ command: Command, on model: Command.Model, runsExecute: Bool) {
        storedCommand = command
        super.init(model: model, runsExecute: runsExecute)
    }

    override var command: Any { storedCommand }

    override func run() -> Bool {
        guard let model else { return false }
        // Sound: the model was recorded as a `Command.Model` by the initializer.
        let typedModel = unsafeDowncast(model, to: Command.Model.self)
        if runsExecute {
            storedCommand.execute(on: typedModel)
        } else {
            storedCommand.undo(on: typedModel)
        }
        runsExecute.toggle()
        return true
    }
}

extension UndoStack {
    /// Pushes a command's step into the innermost open group.
    ///
    /// ```swift
    /// manager.undoStack.pushBegin()
    /// manager.undoStack.pushCommand(CommandEntry.make(AddItem(title: "Milk"), on: list, runsExecute: false))
    /// manager.undoStack.closeGroup(discardIfEmpty: false)
    /// ```
    mutating func pushCommand(_ entry: CommandEntry) {
        pushAction(UndoStep(command: entry))
    }
}

extension UndoStack.Entry {
    /// The command of an action or singleton entry recorded by ``UndoManager/perform(_:on:)``
    /// (or ``UndoStack/pushCommand(_:)``); `nil` for group marks and registered closures.
    var commandEntry: CommandEntry? {
        step?.commandEntry
    }
}
