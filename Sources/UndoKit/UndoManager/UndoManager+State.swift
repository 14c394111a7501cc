import Foundation

/// The manager's own view of its state: what internal code reads and writes instead of the
/// `open` properties a subclass may override.
extension UndoManager {
    /// A fresh state and a fresh pair of stacks, for the designated initializers.
    static func allocateState() -> (
        UnsafeMutablePointer<UndoManagerStorage>, UnsafeMutablePointer<UndoStack>, UnsafeMutablePointer<TwinStackBuffer>,
        UnsafeMutablePointer<StepLedger>
    ) {
        let storage = UnsafeMutablePointer<UndoManagerStorage>.allocate(capacity: 1)
        storage.initialize(to: UndoManagerStorage())
        let entries = UnsafeMutablePointer<TwinStackBuffer>.allocate(capacity: 1)
        entries.initialize(to: TwinStackBuffer())
        let ledger = UnsafeMutablePointer<StepLedger>.allocate(capacity: 1)
        ledger.initialize(to: StepLedger())
        let stacks = UnsafeMutablePointer<UndoStack>.allocate(capacity: 2)
        stacks.initialize(to: UndoStack(entries: StackEntries(entries, redoSide: false), ledger: ledger, isUndoStack: true))
        (stacks + 1).initialize(to: UndoStack(entries: StackEntries(entries, redoSide: true), ledger: ledger, isUndoStack: false))
        return (storage, stacks, entries, ledger)
    }

    /// ``runLoop``: the loop given to ``init(runLoop:)``, or a loop of the manager's own, driven
    /// by the caller's event loop (``SimulatedRunLoop/drive(with:)-(AutomaticDriver)``). Made
    /// lazily, so that ``init(runLoop:)``, which starts from ``init()``, makes none to drop.
    var ownedOrSharedRunLoop: SimulatedRunLoop {
        if let runLoop = state.runLoop {
            return runLoop
        }
        let ownLoop = SimulatedRunLoop()
        ownLoop.drive(with: .automatic)
        state.runLoop = ownLoop
        return ownLoop
    }

    /// The ``runLoop`` setter.
    func moveToRunLoop(_ newLoop: SimulatedRunLoop) {
        if state.isScheduledOnRunLoop {
            // fatalError rather than precondition: release builds keep the message.
            fatalError(
                "UndoManager.runLoop set while an automatic group waits for the end of an event on the old loop "
                    + "[\(stateDescription)]\nFix: set runLoop before the first registration (in the initializer), "
                    + "or end the event first with endEventGroup() or a tick of the old loop"
            )
        }
        state.runLoop = newLoop
    }

    /// The manager's mutable state, in place (see ``storage`` for why behind a pointer).
    var state: UndoManagerStorage {
        unsafeAddress { UnsafePointer(storage) }
        unsafeMutableAddress { storage }
    }

    /// The shared part of the step ledger, in place.
    var ledger: StepLedger {
        unsafeAddress { UnsafePointer(sharedLedger) }
        unsafeMutableAddress { sharedLedger }
    }

    var undoStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks) }
        unsafeMutableAddress { stacks }
    }

    var redoStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks + 1) }
        unsafeMutableAddress { stacks + 1 }
    }

    /// The stack that registrations go to: the redo stack while undoing, else the undo stack.
    var currentStack: UndoStack {
        unsafeAddress { UnsafePointer(stacks + (state.isUndoing ? 1 : 0)) }
        unsafeMutableAddress { stacks + (state.isUndoing ? 1 : 0) }
    }

    var isBusy: Bool { state.isUndoing || state.isRedoing }

    var registrationIsEnabled: Bool { state.registrationDisableCount == 0 }

    // MARK: Routing through overridable members

    /// Calls one of the manager's overridable members on behalf of the public call `call`, as
    /// Apple's does (``undo()`` calls ``undoNestedGroup()``), so that a trap inside names `call`.
    func route(from call: StaticString, _ body: () -> Void) {
        let outer = state.routedCall
        state.routedCall = call
        body()
        // Cleared even when an override did not call `super`, so that no later call inherits it.
        state.routedCall = outer
    }

    /// ``beginUndoGrouping()`` where the manager calls it: dynamically dispatched on a subclass
    /// instance, which may override it (see SubclassingUndoManager.md); straight to the
    /// implementation on a plain `UndoManager`, where nothing can tell. The hops cost undo and
    /// redo about a tenth of their instructions (callgrind, W1).
    @inline(__always)
    func beginUndoGroupingThroughOverrides() {
        if state.isSubclassInstance {
            beginUndoGrouping()
        } else {
            openGroup()
        }
    }

    /// ``endUndoGrouping()`` where the manager calls it on behalf of the public call `caller`
    /// (see ``beginUndoGroupingThroughOverrides()``).
    @inline(__always)
    func endUndoGroupingThroughOverrides(from caller: StaticString) {
        if state.isSubclassInstance {
            route(from: caller) { endUndoGrouping() }
        } else {
            closeGroup(in: PublicCall("endUndoGrouping()", calledBy: caller), discardingEmpty: false)
        }
    }

    /// ``canRedo`` where the manager asks it (see ``beginUndoGroupingThroughOverrides()``).
    @inline(__always)
    var canRedoThroughOverrides: Bool {
        state.isSubclassInstance ? canRedo : checkpointThenHasRedoGroup()
    }

    /// ``canRedo``'s implementation: posts the checkpoint Apple posts when it is read.
    @inline(__always)
    func checkpointThenHasRedoGroup() -> Bool {
        post(.checkpoint)
        return redoIsAvailable
    }

    /// The call a trap in this member reports: the member, and the public call it runs for.
    /// Takes the routed call, so that client code the member runs does not inherit it.
    func takeRoutedCall(default name: StaticString) -> PublicCall {
        defer { state.routedCall = nil }
        return PublicCall(name, calledBy: state.routedCall)
    }
}

/// The public call a misuse trap names (spec H5): a member, and the call that made the
/// manager call it. Formatted only on the way to a trap, so carrying it allocates nothing.
struct PublicCall: CustomStringConvertible {
    let name: StaticString
    let caller: StaticString?

    init(_ name: StaticString, calledBy caller: StaticString? = nil) {
        self.name = name
        self.caller = caller
    }

    var description: String {
        caller.map { "\(name) called by \($0)" } ?? "\(name)"
    }
}
