/// One recorded operation: what an action entry of an ``UndoStack`` holds, inline.
///
/// 24 bytes, and the entry that holds it 32 (see ``UndoStack``): recording a closure whose
/// handler captures nothing allocates nothing, because the weak reference to its target lives
/// in an ``ActionTarget`` shared by consecutive steps on the same object, and the handler is
/// stored type-erased in the step itself. A command (``UndoManager/perform(_:on:)``) is one
/// ``CommandEntry`` allocated when it is performed; its step moves between the stacks as it
/// is undone and redone.
///
/// `targetID` comes first so that the owner reference sits in the second word: a multi-payload
/// enum can only keep its case in bits that every case leaves unused, and the end mark's
/// `Int` fills the first word; the second word's spare pointer bits hold the case instead of
/// an extra tag byte that would round the entry up to 40 bytes.
struct UndoStep {
    /// The target's identity when the step was recorded, so that
    /// `removeAllActions(withTarget:)` scans contiguous memory.
    let targetID: ObjectIdentifier
    /// An ``ActionTarget`` or a ``CommandEntry``, as ``UndoStepOwner/isCommand`` says.
    let owner: UndoStepOwner
    /// The registered handler, erased; for a command, unused (``ErasedHandler/none``) or the
    /// command's bits (``ErasedHandler/init(inlineBits:)``), which a run updates in place.
    var handler: ErasedHandler

    init(targetID: ObjectIdentifier, owner: UndoStepOwner, handler: ErasedHandler) {
        self.targetID = targetID
        self.owner = owner
        self.handler = handler
    }

    init(command: CommandEntry) {
        self.targetID = command.modelID
        self.owner = command
        self.handler = .none
    }

    /// The command this step runs, or `nil` for a registered closure.
    var commandEntry: CommandEntry? {
        owner.isCommand ? unsafeDowncast(owner, to: CommandEntry.self) : nil
    }
}

/// What an ``UndoStep`` holds besides its handler: an ``ActionTarget`` or a ``CommandEntry``.
///
/// A stored flag rather than a dynamic cast tells them apart, so that invoking a step costs
/// one load.
class UndoStepOwner {
    let isCommand: Bool
    /// Whether the command is kept in the step itself, in its handler's first word (see
    /// ``InlineCommandOwner``), rather than in the owner (``CommandEntry``). A stored flag
    /// beside ``isCommand``, in the same word of the object.
    let keepsCommandInStep: Bool

    init(isCommand: Bool, keepsCommandInStep: Bool = false) {
        self.isCommand = isCommand
        self.keepsCommandInStep = keepsCommandInStep
    }
}

/// The weak reference to the target of registered closures, shared by consecutive steps on
/// the same object (spec H3: the manager never keeps a target alive, and skips a step whose
/// target is gone).
///
/// Shared, because a weak reference per step costs an allocation and the atomic operations
/// of forming and destroying it; with one `ActionTarget` for a run of steps, a registration
/// on the same object (the undo of an edit, the redo an undo registers) only retains it.
final class ActionTarget: UndoStepOwner {
    // A `let`, so reads need no exclusivity check.
    weak let object: AnyObject?
    /// `ObjectIdentifier(object)` as it was when recorded.
    let id: ObjectIdentifier
    /// `ObjectIdentifier` of the parameter type the handlers were registered with: only
    /// registrations with the same type share a target, so that a handler is always called
    /// with an object of the type it was registered for.
    let handlerTypeKey: ObjectIdentifier
    /// Never read: keeps the object's memory allocated (not the object alive; see
    /// ``ModelReference``), so that an equal identifier proves the same object and a
    /// registration finds the shared target without a weak load.
    private unowned let addressPin: AnyObject

    init(object: AnyObject, id: ObjectIdentifier, handlerTypeKey: ObjectIdentifier) {
        self.object = object
        self.id = id
        self.handlerTypeKey = handlerTypeKey
        addressPin = object
        super.init(isCommand: false)
    }

    /// Calls `handler`, recorded with this target, on the object if it is still alive.
    ///
    /// While the handler runs, `manager` offers this target to registrations on the same
    /// object (see ``UndoManager/actionTarget(for:id:)``).
    @inline(__always)
    func invoke(_ handler: ErasedHandler, in manager: UndoManager) {
        guard let object else { return }
        invoke(handler, on: object, in: manager)
    }

    /// Calls `handler` on `object`, this target's object, already loaded: a run of steps on
    /// one target loads it once (spec H3).
    @inline(__always)
    func invoke(_ handler: ErasedHandler, on object: AnyObject, in manager: UndoManager) {
        let outer = manager.state.invokingTarget
        manager.state.invokingTarget = Unmanaged.passUnretained(self)
        handler.call(with: object)
        manager.state.invokingTarget = outer
    }
}

/// A handler `(Target) -> Void` for some class `Target`, stored and called as an
/// `(AnyObject) -> Void`, so that one stack holds handlers on targets of any class and calls
/// them without generic code.
///
/// Why this is sound:
/// - Every Swift closure value (a "thick" function) is two words, an entry point and a
///   reference-counted context, whatever its type; a struct with one closure field has that
///   layout, so `unsafeBitCast` between ``TypedHandler`` and `ErasedHandler` (which checks
///   the sizes) keeps both words. The casts are between structs, never between function
///   types: `unsafeBitCast` is generic, and a function value passed as a generic argument may
///   be wrapped in a reabstraction thunk; a struct field keeps the representation it was
///   stored with.
/// - The entry point takes its parameter the same way in both types: a function of a
///   class-constrained type parameter (`Target: AnyObject`), at any abstraction level, and a
///   function of `AnyObject` both take one object reference, borrowed (guaranteed), directly
///   in a register, with the context as `self`, and return nothing; no metadata is passed
///   (a closure captures what it needs in its context). `ErasedHandlerTests` calls handlers
///   erased from concrete, generic, subclass-typed, capturing and main-actor closures through
///   this path.
/// - ``call(with:)`` is only given an object of the type the handler was registered for:
///   ``ActionTarget`` holds the object it was recorded with, and only registrations with the
///   same handler type share it.
struct ErasedHandler {
    private let body: (AnyObject) -> Void

    @inline(__always)
    init<Target: AnyObject>(_ handler: @escaping (Target) -> Void) {
        self = unsafeBitCast(TypedHandler(body: handler), to: ErasedHandler.self)
    }

    private init(body: @escaping (AnyObject) -> Void) {
        self.body = body
    }

    /// The placeholder of a command's step, which has no handler. A closure that captures
    /// nothing, so making it allocates nothing.
    static var none: ErasedHandler {
        ErasedHandler(body: { _ in preconditionFailure("a command step has no handler") })
    }

    /// Calls the handler with `object`, which must be of the type it was registered for.
    @inline(__always)
    func call(with object: AnyObject) {
        body(object)
    }

    /// The handler word of a step that keeps its command in itself (see
    /// ``InlineCommandOwner``): the command's bits in the function word, and no context. Never
    /// called: such a step's owner is a command's, which undo and redo run instead.
    ///
    /// Sound as the casts above are: a handler is two words, an entry point and a context
    /// that is reference counted when not null; these bits are never called, and the null
    /// context is what copying and destroying the handler look at. No `Optional` of a
    /// handler is ever made, so no bit pattern of the first word stands for `nil`
    /// (`InlineCommandTests` runs commands whose bits are zero and all ones).
    @inline(__always)
    init(inlineBits: UInt) {
        self = unsafeBitCast(InlineBits(bits: inlineBits, context: nil), to: ErasedHandler.self)
    }

    /// The bits ``init(inlineBits:)`` stored.
    @inline(__always)
    var inlineBits: UInt {
        unsafeBitCast(self, to: InlineBits.self).bits
    }
}

/// The two words of an ``ErasedHandler`` that holds a command's bits.
private struct InlineBits {
    let bits: UInt
    let context: UnsafeRawPointer?
}

/// A handler kept in a struct, so that it can be bit-cast as memory (see ``ErasedHandler``).
struct TypedHandler<Target: AnyObject> {
    let body: (Target) -> Void

    // Stated, so that it can be forced inline: the implicit one was left as a call in every
    // registration (callgrind, W1).
    @inline(__always)
    init(body: @escaping (Target) -> Void) {
        self.body = body
    }
}
