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
    /// Declared first, so that it packs beside ``UndoStepOwner/isCommand`` and the object
    /// is 32 bytes, a 32-byte malloc chunk, for a command of no stored properties.
    /// Unchecked exclusivity: only the manager's undo or redo writes it, on an entry it has
    /// popped, which no other code reaches until it is pushed again.
    @exclusivity(unchecked) var runsExecute: Bool
    /// The weak reference to the model, shared with the commands performed on the same model
    /// just before (see ``ModelReference``).
    let modelReference: ModelReference

    /// The model the command runs on; a step whose model is gone is skipped (spec H3).
    var model: AnyObject? { modelReference.object }
    /// `ObjectIdentifier(model)` when recorded, the step's target identity.
    var modelID: ObjectIdentifier { modelReference.id }

    fileprivate init(modelReference: ModelReference, runsExecute: Bool, keepsCommandInStep: Bool = false) {
        self.runsExecute = runsExecute
        self.modelReference = modelReference
        super.init(isCommand: true, keepsCommandInStep: keepsCommandInStep)
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

    /// Runs the command on `model`, this entry's model, already loaded: a run of commands on
    /// one model loads it once (spec H3).
    func run(on model: AnyObject) {
        preconditionFailure("CommandEntry.run(on:) must be overridden")
    }

    /// Runs the command of a step on `model`, this entry's model, already loaded: `execute`
    /// if `executing`, else `undo`. `bits` is the step's handler word, which holds the command
    /// if the step keeps it (``InlineCommandOwner``), updated to the command as the run left
    /// it; an entry that holds its command ignores it, and its ``runsExecute`` says the same
    /// as `executing`.
    func run(_ bits: inout UInt, on model: AnyObject, executing: Bool) {
        run(on: model)
    }

    /// The command of a step with this owner, `bits` being its handler word (see
    /// ``run(_:on:executing:)``).
    func command(bits: UInt) -> Any {
        command
    }

    /// A new entry for `command` on `model`, for history code; ``UndoManager/perform(_:on:)``
    /// makes its own through a cached metatype.
    ///
    /// ```swift
    /// let entry = CommandEntry.make(AddItem(title: "Milk"), on: ModelReference(list), runsExecute: false)
    /// manager.undoStack.pushCommand(entry)   // inside an open group
    /// ```
    static func make<Command: UndoableCommand>(
        _ command: Command, on model: ModelReference, runsExecute: Bool
    ) -> CommandEntry where Command.Model: AnyObject {
        TypedCommandEntry(command, on: model, runsExecute: runsExecute)
    }
}

/// The weak reference to the model of commands, shared by consecutive commands on the same
/// object, as ``ActionTarget`` is by closures (spec H3: the manager never keeps a model
/// alive, and skips a command whose model is gone).
///
/// Shared for two reasons: a command then costs no weak reference of its own (forming and
/// destroying one are atomic operations on the model's side table), and undo and redo load
/// the model once for a run of steps holding the same reference. The same reference object
/// proves the same model.
final class ModelReference {
    weak let object: AnyObject?
    /// `ObjectIdentifier(object)` as it was when made.
    let id: ObjectIdentifier
    /// Never read: an unowned reference keeps the model's memory allocated (not the model
    /// alive: its `deinit` runs when its last strong reference goes), so no other object can
    /// be made at its address while this reference exists. An equal identifier therefore
    /// proves the same model, which lets `perform(_:on:)` find the shared reference without
    /// a weak load (two atomic operations per command).
    private unowned let addressPin: AnyObject

    init(_ object: AnyObject) {
        self.object = object
        id = ObjectIdentifier(object)
        addressPin = object
    }
}

/// A ``CommandEntry`` for commands of one type.
final class TypedCommandEntry<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    // Unchecked exclusivity, as `runsExecute`: `run()` mutates it on a popped entry only.
    // The checks cost about 120 instructions per undo (callgrind, W1 with commands).
    @exclusivity(unchecked) private var storedCommand: Command

    required init(_ command: Command, on model: ModelReference, runsExecute: Bool) {
        storedCommand = command
        super.init(modelReference: model, runsExecute: runsExecute)
    }

    override var command: Any { storedCommand }

    override func run() -> Bool {
        guard let model else { return false }
        run(on: model)
        return true
    }

    override func run(on model: AnyObject) {
        // Sound: whichever commands share the reference, its object was passed to
        // `perform(_:on:)` as this command's `Command.Model`, so it is one.
        let typedModel = unsafeDowncast(model, to: Command.Model.self)
        if runsExecute {
            storedCommand.execute(on: typedModel)
        } else {
            storedCommand.undo(on: typedModel)
        }
        runsExecute.toggle()
    }
}

/// A ``CommandEntry`` recorded by ``UndoManager/perform(_:retaining:)``: the command of
/// ``TypedCommandEntry`` and a strong reference to its model, so the model lives as long as
/// the step (an entry belongs to one step and moves with it; the manager drops it when the
/// step is removed, trimmed or cleared, or with the manager).
///
/// Undo and redo run the command on the model it holds, so a single step costs no weak load
/// of the model and no release after it (two atomic operations on the model's side table,
/// most of a W1 undo's time). The shared weak ``ModelReference`` stays, for the target
/// identity and for the code that reads `model`; while this entry holds the model, it never
/// reads `nil`. A separate class, not a flag in ``TypedCommandEntry``: the weakly held entry
/// keeps its layout and its code.
final class RetainingCommandEntry<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    // Unchecked exclusivity, as in TypedCommandEntry.
    @exclusivity(unchecked) private var storedCommand: Command
    /// The model, held strongly for as long as this entry (its step) exists.
    let retainedModel: Command.Model

    init(_ command: Command, retaining model: Command.Model, reference: ModelReference) {
        storedCommand = command
        retainedModel = model
        super.init(modelReference: reference, runsExecute: false)
    }

    override var command: Any { storedCommand }

    override func run() -> Bool {
        // The model is this entry's, borrowed for the call: no load, retain or release.
        run(retainedModel)
        return true
    }

    override func run(on model: AnyObject) {
        // The caller's model is this entry's (the run's model has the entry's identity).
        run(unsafeDowncast(model, to: Command.Model.self))
    }

    @inline(__always)
    private func run(_ model: Command.Model) {
        if runsExecute {
            storedCommand.execute(on: model)
        } else {
            storedCommand.undo(on: model)
        }
        runsExecute.toggle()
    }
}

/// Whether a command of this type is kept in its step (``InlineCommandOwner``): plain data of
/// at most a word, as aligned as a word or less. Free functions, so that `perform(_:on:)`,
/// which is generic and not specialized, asks the type's layout and not the owner class's
/// metadata.
@inline(__always)
func commandFitsInStep<Command>(_ type: Command.Type) -> Bool {
    _isPOD(Command.self) && MemoryLayout<Command>.size <= MemoryLayout<UInt>.size
        && MemoryLayout<Command>.alignment <= MemoryLayout<UInt>.alignment
}

/// The bits of `command`, which fits in its step, for the step's handler word.
@inline(__always)
func stepBits<Command>(of command: Command) -> UInt {
    var bits: UInt = 0
    withUnsafeMutablePointer(to: &bits) { word in
        let raw = UnsafeMutableRawPointer(word)
        raw.bindMemory(to: Command.self, capacity: 1).initialize(to: command)
        raw.bindMemory(to: UInt.self, capacity: 1)
    }
    return bits
}

extension ErasedHandler {
    /// The handler word of a step that keeps its command in itself and its model alive
    /// (``UndoManager/perform(_:retaining:)`` with a command that fits in its step): the
    /// command's bits in the function word, as ``init(inlineBits:)``, and the model, retained,
    /// as the context. Copying and destroying the handler retain and release its context,
    /// so the step holds the model strongly for exactly as long as the step exists, with no
    /// allocation. Never called, like every command step's handler.
    ///
    /// Only where every class instance is a native Swift object, whose reference counting is
    /// a closure context's: with the Objective-C runtime a model may be an Objective-C object,
    /// and ``perform(_:retaining:)`` holds it in a ``RetainingCommandEntry`` instead.
    ///
    /// The context is written into a handler made with no context, so the handler owns
    /// exactly the one retain made here (a bit cast to the handler would copy it, retaining
    /// once more). Out of line: writing through `self`'s address gives the function a stack
    /// protector, which would otherwise be inlined into undo and redo.
    @inline(never)
    init(inlineBits: UInt, retaining model: AnyObject) {
        self.init(inlineBits: inlineBits)
        let context = Unmanaged.passRetained(model).toOpaque()
        withUnsafeMutableBytes(of: &self) {
            $0.storeBytes(of: context, toByteOffset: MemoryLayout<UInt>.size, as: UnsafeMutableRawPointer.self)
        }
    }

    /// The model a step's handler retains (see ``init(inlineBits:retaining:)``), unretained;
    /// `nil` for every other command step (no context).
    @inline(__always)
    var retainedModel: Unmanaged<AnyObject>? {
        unsafeBitCast(self, to: RetainingInlineBits.self).context.map { Unmanaged.fromOpaque($0) }
    }

    /// This handler with the command's bits replaced by `bits`: the same retained model, if
    /// any, retained once more for the new handler (the old one releases its own).
    ///
    /// A new value rather than a write through the handler's address: a function that writes
    /// through a local's address gets a stack protector, which inlined into undo and redo cost
    /// every undo and redo, closures' too, about 5 instructions. Called only when a run
    /// changed the bits.
    @inline(__always)
    func replacingInlineBits(with bits: UInt) -> ErasedHandler {
        guard let model = retainedModel else { return ErasedHandler(inlineBits: bits) }
        return model._withUnsafeGuaranteedRef { ErasedHandler(inlineBits: bits, retaining: $0) }
    }
}

/// The two words of an ``ErasedHandler`` that holds a command's bits and, for a retained
/// model, the model as its context.
private struct RetainingInlineBits {
    let bits: UInt
    let context: UnsafeMutableRawPointer?
}

/// The owner of the steps that keep their command in themselves: commands of one type, no
/// larger than a word and holding no references (an index, an amount, a flag), performed on one
/// model. Their steps hold the command's bits in the handler word a closure's step uses, so
/// performing one allocates nothing: what a W1 step costs drops from 80 bytes (a
/// ``CommandEntry`` of 48 and the stack entry) to the 32 of the entry. Shared by consecutive
/// commands of the type on the model, as ``ModelReference`` is by all commands on it.
///
/// Which way a step runs comes from the stack it is on (an undo step's command is undone, a
/// redo or branch step's executed), so the owner keeps no ``CommandEntry/runsExecute`` of its
/// own. A subclass's manager keeps every command in a ``CommandEntry``: its overrides see a
/// handler per step that runs the entry.
final class InlineCommandOwner<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    required init(modelReference: ModelReference) {
        super.init(modelReference: modelReference, runsExecute: false, keepsCommandInStep: true)
    }

    /// Whether commands of this type fit in a step (see ``commandFitsInStep(_:)``).
    static var fitsInStep: Bool { commandFitsInStep(Command.self) }

    static func command(from bits: UInt) -> Command {
        withUnsafeBytes(of: bits) { $0.load(as: Command.self) }
    }

    override var command: Any {
        preconditionFailure("InlineCommandOwner.command: the command is in the step; use command(bits:)")
    }

    override func command(bits: UInt) -> Any {
        Self.command(from: bits)
    }

    override func run() -> Bool {
        preconditionFailure("InlineCommandOwner.run(): the command is in the step; use run(_:on:executing:)")
    }

    override func run(on model: AnyObject) {
        preconditionFailure("InlineCommandOwner.run(on:): the command is in the step; use run(_:on:executing:)")
    }

    override func run(_ bits: inout UInt, on model: AnyObject, executing: Bool) {
        // Sound: the owner is shared only by commands performed on its model, a Command.Model.
        let typedModel = unsafeDowncast(model, to: Command.Model.self)
        // In place: the command is plain data in the word, as aligned as a word or less, so the
        // word's memory can be viewed as the command for the call. Copying it out and back
        // went through the type's value witnesses (this code is generic, never specialized).
        withUnsafeMutablePointer(to: &bits) { word in
            let raw = UnsafeMutableRawPointer(word)
            let command = raw.bindMemory(to: Command.self, capacity: 1)
            if executing {
                command.pointee.execute(on: typedModel)
            } else {
                command.pointee.undo(on: typedModel)
            }
            raw.bindMemory(to: UInt.self, capacity: 1)
        }
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
