/// One recorded operation, held inline by an action entry of an ``UndoStack`` (24 bytes, the
/// entry 32): a closure that captures nothing is recorded without allocating (its target's
/// weak reference is an ``ActionTarget`` shared by consecutive steps on the same object).
///
/// `targetID` comes first so that the owner reference is the second word: the end mark's
/// `Int` fills the first, and the owner's spare pointer bits hold the entry's case instead of
/// a tag byte that would round the entry up to 40 bytes.
struct UndoStep {
    /// The target's identity when recorded: removal by target scans contiguous memory.
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
}

/// What an ``UndoStep`` holds besides its handler: an ``ActionTarget`` or a ``CommandEntry``,
/// told apart by a stored flag, so that invoking a step costs one load, not a dynamic cast.
class UndoStepOwner {
    let isCommand: Bool
    /// Whether the command is kept in the step's handler word (see ``InlineCommandOwner``)
    /// rather than in the owner.
    let keepsCommandInStep: Bool

    init(isCommand: Bool, keepsCommandInStep: Bool = false) {
        self.isCommand = isCommand
        self.keepsCommandInStep = keepsCommandInStep
    }
}

/// The weak reference to the target of registered closures (spec H3), shared by consecutive
/// steps on the same object: a weak reference per step costs an allocation and atomics.
final class ActionTarget: UndoStepOwner {
    // A `let`, so reads need no exclusivity check.
    weak let object: AnyObject?
    /// `ObjectIdentifier(object)` as it was when recorded.
    let id: ObjectIdentifier
    /// The handlers' parameter type: only registrations with the same type share a target, so
    /// a handler is always called with an object of its type.
    let handlerTypeKey: ObjectIdentifier
    /// Never read: keeps the object's memory allocated (not the object alive), so an equal
    /// identifier proves the same object without a weak load (see ``ModelReference``).
    private unowned let addressPin: AnyObject

    init(object: AnyObject, id: ObjectIdentifier, handlerTypeKey: ObjectIdentifier) {
        self.object = object
        self.id = id
        self.handlerTypeKey = handlerTypeKey
        addressPin = object
        super.init(isCommand: false)
    }

    /// Calls `handler` on the object if it is still alive.
    @inline(__always)
    func invoke(_ handler: ErasedHandler, in manager: UndoManager) {
        guard let object else { return }
        invoke(handler, on: object, in: manager)
    }

    /// Calls `handler` on this target's object, already loaded; meanwhile registrations on the
    /// object share this target (see ``UndoManager/actionTarget(for:id:)``).
    @inline(__always)
    func invoke(_ handler: ErasedHandler, on object: AnyObject, in manager: UndoManager) {
        let outer = manager.state.invokingTarget
        manager.state.invokingTarget = Unmanaged.passUnretained(self)
        handler.call(with: object)
        manager.state.invokingTarget = outer
    }
}

/// A handler `(Target) -> Void` for some class `Target`, stored and called as an
/// `(AnyObject) -> Void`: one stack holds and calls handlers on any class without generics.
///
/// Why this is sound:
/// - Every closure value is two words, an entry point and a reference-counted context,
///   whatever its type, and so is a struct with one closure field: `unsafeBitCast` between
///   ``TypedHandler`` and `ErasedHandler` (which checks the sizes) keeps both words. The casts
///   are between structs, never function types, which a generic argument may wrap in a
///   reabstraction thunk; a struct field keeps the representation it was stored with.
/// - Both entry points take their parameter the same way: a function of a class-constrained
///   type parameter, at any abstraction level, and one of `AnyObject` both take one borrowed
///   object reference in a register, the context as `self`, and return nothing; no metadata
///   is passed. `ErasedHandlerTests` calls handlers erased from concrete, generic,
///   subclass-typed, capturing and main-actor closures through this path.
/// - ``call(with:)`` is only given an object of the handler's type: ``ActionTarget`` holds
///   the object it was recorded with, and only registrations with the same type share it.
struct ErasedHandler {
    private let body: (AnyObject) -> Void

    @inline(__always)
    init<Target: AnyObject>(_ handler: @escaping (Target) -> Void) {
        self = unsafeBitCast(TypedHandler(body: handler), to: ErasedHandler.self)
    }

    private init(body: @escaping (AnyObject) -> Void) {
        self.body = body
    }

    /// The placeholder of a command's step, which has no handler; allocates nothing.
    static var none: ErasedHandler {
        ErasedHandler(body: { _ in preconditionFailure("a command step has no handler") })
    }

    /// Calls the handler with `object`, which must be of the type it was registered for.
    @inline(__always)
    func call(with object: AnyObject) {
        body(object)
    }

    /// The handler of a step that keeps its command in itself (see ``InlineCommandOwner``): the
    /// command's bits in the function word, and no context. Never called: undo and redo run
    /// the command instead.
    ///
    /// Sound as the casts above: copying and destroying a handler look only at its context,
    /// here null; no `Optional` of a handler is ever made, so no bit pattern of the first word
    /// stands for `nil` (`InlineCommandTests` runs commands whose bits are zero and all ones).
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

    // Stated to force it inline: the implicit one stayed a call in every registration
    // (callgrind, W1).
    @inline(__always)
    init(body: @escaping (Target) -> Void) {
        self.body = body
    }
}
