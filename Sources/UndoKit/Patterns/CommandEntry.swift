/// A command recorded by ``UndoManager/perform(_:on:)``: its one allocation, held by a step
/// that moves between the stacks and is never copied, so the entry holds the command as the
/// previous call left it. History code makes one with ``make(_:on:runsExecute:)``.
class CommandEntry: UndoStepOwner {
    /// Whether the next run calls `execute(on:)` (a redo) rather than `undo(on:)`; each run
    /// flips it. Declared first, to pack beside ``UndoStepOwner/isCommand`` (a 32-byte
    /// object). Unchecked exclusivity: only undo or redo writes it, on an entry it popped.
    @exclusivity(unchecked) var runsExecute: Bool
    let modelReference: ModelReference

    /// The model the command runs on; a step whose model is gone is skipped (spec H3).
    var model: AnyObject? { modelReference.object }
    /// `ObjectIdentifier(model)` when recorded, the step's target identity.
    var modelID: ObjectIdentifier { modelReference.id }

    init(modelReference: ModelReference, runsExecute: Bool, keepsCommandInStep: Bool = false) {
        self.runsExecute = runsExecute
        self.modelReference = modelReference
        super.init(isCommand: true, keepsCommandInStep: keepsCommandInStep)
    }

    /// The command, as the last run left it.
    var command: Any {
        preconditionFailure("CommandEntry.command must be overridden")
    }

    /// Runs the command as ``runsExecute`` says, and flips it; `false`, having run nothing,
    /// if the model is gone. Every synchronous entry overrides it: only an asynchronous step
    /// (``AsyncActionEntry``) reaches this one, in a synchronous undo or redo, which cannot
    /// await it.
    func run() -> Bool {
        AsyncActionEntry.synchronousRunTrap()
    }

    /// Runs the command on `model`, this entry's model, already loaded: a run of commands on
    /// one model loads it once (spec H3). As for ``run()``, only an asynchronous step reaches
    /// this one.
    func run(on model: AnyObject) {
        AsyncActionEntry.synchronousRunTrap()
    }

    /// Runs a step's command on `model`, already loaded. `bits`, the step's handler word,
    /// holds the command when the step keeps it (``InlineCommandOwner``); other entries
    /// ignore it, and their ``runsExecute`` agrees with `executing`.
    func run(_ bits: inout UInt, on model: AnyObject, executing: Bool) {
        run(on: model)
    }

    /// The command of a step with this owner and handler word `bits`.
    func command(bits: UInt) -> Any {
        command
    }

    /// The command's ``UndoableCommand/changedParts`` as the last run left it, for a step
    /// with this owner and handler word `bits`. Read only for a coordinated manager.
    func changedParts(bits: UInt) -> [UndoPart]? {
        preconditionFailure("CommandEntry.changedParts(bits:) must be overridden")
    }

    /// A new entry for history code (``UndoManager/perform(_:on:)`` uses a cached metatype).
    static func make<Command: UndoableCommand>(
        _ command: Command, on model: ModelReference, runsExecute: Bool
    ) -> CommandEntry where Command.Model: AnyObject {
        TypedCommandEntry(command, on: model, runsExecute: runsExecute)
    }
}

/// The weak reference to the model of commands (spec H3), shared by consecutive commands on
/// the same object as ``ActionTarget`` is by closures; undo and redo load it once per run.
final class ModelReference {
    weak let object: AnyObject?
    /// `ObjectIdentifier(object)` as it was when made.
    let id: ObjectIdentifier
    /// Never read: an unowned reference keeps the model's memory (not the model) allocated,
    /// so no other object gets its address, and an equal identifier proves the same model:
    /// `perform(_:on:)` finds the shared reference without a weak load.
    private unowned let addressPin: AnyObject

    init(_ object: AnyObject) {
        self.object = object
        id = ObjectIdentifier(object)
        addressPin = object
    }
}

/// A ``CommandEntry`` for commands of one type.
final class TypedCommandEntry<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    // Unchecked, as `runsExecute`: the checks cost about 120 instructions per undo (W1).
    @exclusivity(unchecked) private var storedCommand: Command

    required init(_ command: Command, on model: ModelReference, runsExecute: Bool) {
        storedCommand = command
        super.init(modelReference: model, runsExecute: runsExecute)
    }

    override var command: Any { storedCommand }

    override func changedParts(bits: UInt) -> [UndoPart]? { storedCommand.changedParts }

    override func run() -> Bool {
        guard let model else { return false }
        run(on: model)
        return true
    }

    override func run(on model: AnyObject) {
        // Sound: the object was passed to `perform(_:on:)` as this command's model.
        let typedModel = unsafeDowncast(model, to: Command.Model.self)
        if runsExecute {
            storedCommand.execute(on: typedModel)
        } else {
            storedCommand.undo(on: typedModel)
        }
        runsExecute.toggle()
    }
}

/// A ``CommandEntry`` recorded by ``UndoManager/perform(_:retaining:)``: the command and a
/// strong reference to its model, which lives as long as the step. Undo and redo then pay no
/// weak load and release (most of a W1 undo's time). The weak ``ModelReference`` stays, for
/// the target identity. A separate class, so ``TypedCommandEntry`` keeps its layout and code.
final class RetainingCommandEntry<Command: UndoableCommand>: CommandEntry where Command.Model: AnyObject {
    @exclusivity(unchecked) private var storedCommand: Command  // as in TypedCommandEntry
    let retainedModel: Command.Model

    init(_ command: Command, retaining model: Command.Model, reference: ModelReference) {
        storedCommand = command
        retainedModel = model
        super.init(modelReference: reference, runsExecute: false)
    }

    override var command: Any { storedCommand }

    override func changedParts(bits: UInt) -> [UndoPart]? { storedCommand.changedParts }

    override func run() -> Bool {
        // Borrowed for the call: no load, retain or release.
        run(retainedModel)
        return true
    }

    override func run(on model: AnyObject) {
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

/// Whether a command of this type is kept in its step (``InlineCommandOwner``): plain data,
/// at most a word. Free functions, so unspecialized `perform(_:on:)` asks the type's layout,
/// not the owner class's metadata.
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
    /// (``UndoManager/perform(_:retaining:)`` with a small command): the command's bits, as
    /// ``init(inlineBits:)``, and the model, retained, as the context, so the step holds the
    /// model exactly as long as it exists. Never called. Without the Objective-C runtime only
    /// (a model may be an Objective-C object, whose reference counting is not a context's).
    ///
    /// Written into a handler with no context, so it owns exactly this one retain (a bit cast
    /// would retain once more). Out of line: writing through `self`'s address gives the
    /// function a stack protector, which would be inlined into undo and redo.
    @inline(never)
    init(inlineBits: UInt, retaining model: AnyObject) {
        self.init(inlineBits: inlineBits)
        let context = Unmanaged.passRetained(model).toOpaque()
        withUnsafeMutableBytes(of: &self) {
            $0.storeBytes(of: context, toByteOffset: MemoryLayout<UInt>.size, as: UnsafeMutableRawPointer.self)
        }
    }

    /// The model a step's handler retains, unretained; `nil` for other command steps.
    @inline(__always)
    var retainedModel: Unmanaged<AnyObject>? {
        unsafeBitCast(self, to: RetainingInlineBits.self).context.map { Unmanaged.fromOpaque($0) }
    }

    /// This handler with the command's bits replaced by `bits`, its model retained once more.
    /// A new value, not a write through the handler's address, whose stack protector would
    /// cost every undo and redo about 5 instructions.
    @inline(__always)
    func replacingInlineBits(with bits: UInt) -> ErasedHandler {
        guard let model = retainedModel else { return ErasedHandler(inlineBits: bits) }
        return model._withUnsafeGuaranteedRef { ErasedHandler(inlineBits: bits, retaining: $0) }
    }
}

extension UndoStep {
    /// Records that the step's kept command ran to `bits`: the handler word is replaced only
    /// when the run changed the command (the replacement retains a retained model once more,
    /// and the old handler releases it).
    @inline(__always)
    mutating func keepCommand(ranTo bits: UInt) {
        if bits != handler.inlineBits {
            handler = handler.replacingInlineBits(with: bits)
        }
    }
}

/// An ``ErasedHandler`` holding a command's bits and, for a retained model, its context.
private struct RetainingInlineBits {
    let bits: UInt
    let context: UnsafeMutableRawPointer?
}

/// Runs a command kept in a step's handler word (`bits`, updated by the run) on the step's
/// model: `execute(on:)` if `executing` (a redo), else `undo(on:)`. ``UndoManager/perform(_:on:)``
/// passes the one for its command's type, ``UndoableCommand/runKept(in:on:executing:)``,
/// which the compiler specializes there, where the type is known.
@usableFromInline
typealias KeptCommandRunner = (inout UInt, AnyObject, Bool) -> Void

/// The owner of steps that keep their command in themselves (``InlineCommandOwner``), apart
/// from the command's type: undo and redo call ``runKeptCommand`` on it directly, a call
/// specialized for the command, where the generic class's override of
/// ``CommandEntry/run(_:on:executing:)`` would run unspecialized code and reach the command
/// through its witness table (callgrind, W2 with commands: about 20 instructions a step).
class InlineStepOwner: CommandEntry {
    /// The command type's runner, from ``UndoManager/perform(_:on:)``.
    let runKeptCommand: KeptCommandRunner

    init(modelReference: ModelReference, runner: @escaping KeptCommandRunner) {
        runKeptCommand = runner
        super.init(modelReference: modelReference, runsExecute: false, keepsCommandInStep: true)
    }

    final override func run(_ bits: inout UInt, on model: AnyObject, executing: Bool) {
        runKeptCommand(&bits, model, executing)
    }
}

/// The owner of steps that keep their command in themselves: commands of one type, plain data
/// no larger than a word (an index, a flag), on one model. The command's bits sit in the
/// step's handler word, so performing allocates nothing (a W1 step: 32 bytes, not 80).
/// Shared by consecutive such commands on the model. The stack a step is on says which way
/// it runs, so ``CommandEntry/runsExecute`` is unused. Not used on a subclass's manager.
final class InlineCommandOwner<Command: UndoableCommand>: InlineStepOwner where Command.Model: AnyObject {
    required override init(modelReference: ModelReference, runner: @escaping KeptCommandRunner) {
        super.init(modelReference: modelReference, runner: runner)
    }

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

    override func changedParts(bits: UInt) -> [UndoPart]? {
        Self.command(from: bits).changedParts
    }

    override func run() -> Bool {
        preconditionFailure("InlineCommandOwner.run(): the command is in the step; use run(_:on:executing:)")
    }

    override func run(on model: AnyObject) {
        preconditionFailure("InlineCommandOwner.run(on:): the command is in the step; use run(_:on:executing:)")
    }
}

extension UndoableCommand where Model: AnyObject {
    /// The ``KeptCommandRunner`` of this command type: runs the command whose bits are `bits`
    /// on `model`, in place (copying the command out and back would go through value
    /// witnesses where the type is not known). Inlinable, so that the reference
    /// ``UndoManager/perform(_:on:)`` makes to it is specialized in the caller's module.
    @inlinable
    static func runKept(in bits: inout UInt, on model: AnyObject, executing: Bool) {
        // Sound: the step's owner was made for this model and this command type.
        let typedModel = unsafeDowncast(model, to: Model.self)
        withUnsafeMutablePointer(to: &bits) { word in
            let raw = UnsafeMutableRawPointer(word)
            let command = raw.bindMemory(to: Self.self, capacity: 1)
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
    mutating func pushCommand(_ entry: CommandEntry) {
        pushAction(UndoStep(command: entry))
    }
}
