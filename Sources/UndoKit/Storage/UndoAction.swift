/// A registered undo operation, type-erased so that one stack can hold actions on targets of
/// any class.
///
/// A class rather than a closure: one allocation holds both the weak target and the handler,
/// and the subclass keeps the handler's concrete parameter type, so invoking it needs no
/// wrapper closure (which would cost a second allocation per action).
class UndoAction {
    init() {}

    /// Runs the operation if its target is still alive.
    func invoke() {
        preconditionFailure("UndoAction.invoke() must be overridden")
    }
}

/// The action registered by ``UndoManager/registerUndo(withTarget:handler:)-(_,(TargetType)->Void)``.
final class HandlerAction<Target: AnyObject>: UndoAction {
    // Weak, as spec H3 decides: Apple keeps an unretained pointer and crashes on a dead
    // target; UndoKit skips the action instead. A `let`, so reads need no exclusivity check.
    weak let target: Target?

    let handler: (Target) -> Void

    init(target: Target, handler: @escaping (Target) -> Void) {
        self.target = target
        self.handler = handler
        super.init()
    }

    override func invoke() {
        if let target {
            handler(target)
        }
    }
}
