import Foundation
import Testing
@testable import UndoKit

/// Every trap ends with a line that names the fix, chosen from the situation: the table puts
/// a manager in each situation (without trapping) and asks what the trap would say; the exit
/// tests check that real traps print it.
@Suite("Programmer errors name the fix")
struct ProgrammerErrorFixTests {
    final class Target {}

    enum Situation: String, CaseIterable, Sendable {
        case endWithoutBegin, tickAfterManualClose, removeAllDuringUndo, enableWithoutDisable
        case undoWithExplicitGroup, undoWithNestedGroups, undoWhileDisabled, undoFromRedoAction
        case undoNestedGroupWithOpenGroup, undoNestedGroupFromAction, redoFromAction
        case registerAfterManualClose, registerWithGroupsByEventOff, registerFromDidUndoObserver
        case nameFromWillRedoObserver, discardableWithGroupsByEventOff, costAfterManualClose, markCleanWhileUndoing

        /// Apple's detail text of the trap, and the call it is reported in.
        var detail: String {
            switch self {
            case .endWithoutBegin, .tickAfterManualClose, .removeAllDuringUndo: "endUndoGrouping called with no matching begin"
            case .enableWithoutDisable: "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration"
            case .undoWithExplicitGroup, .undoWithNestedGroups, .undoWhileDisabled, .undoFromRedoAction:
                "undo was called with too many nested undo groups"
            case .undoNestedGroupWithOpenGroup, .undoNestedGroupFromAction: "call endUndoGrouping before calling this method"
            case .redoFromAction: "do not invoke this method while undoing"
            case .registerAfterManualClose, .registerWithGroupsByEventOff, .registerFromDidUndoObserver,
                 .nameFromWillRedoObserver:
                "must begin a group before registering undo"
            case .discardableWithGroupsByEventOff: "must begin a group before setting undo action discardability"
            case .costAfterManualClose: "must begin a group before setting an undo action cost"
            case .markCleanWhileUndoing: "markClean may not be called while undoing or redoing"
            }
        }

        var call: PublicCall {
            switch self {
            case .tickAfterManualClose:
                PublicCall("endUndoGrouping()", calledBy: "SimulatedRunLoop.tick(mode:) closing the automatic group")
            case .removeAllDuringUndo: PublicCall("endUndoGrouping()", calledBy: "undoNestedGroup()")
            case .registerFromDidUndoObserver: PublicCall("registerUndo(withTarget:handler:)")
            case .nameFromWillRedoObserver: PublicCall("setActionName(_:)")
            default: PublicCall("some call")
            }
        }

        /// What the fix must say.
        var expected: String {
            switch self {
            case .endWithoutBegin: "withUndoGroup(named:_:)"
            case .tickAfterManualClose: "endEventGroup()"
            case .removeAllDuringUndo: "call removeAllActions() after undo() or redo() returns"
            case .enableWithoutDisable: "once for each disableUndoRegistration()"
            case .undoWithExplicitGroup: "close your group with endUndoGrouping() before undo()"
            case .undoWithNestedGroups: "close the 2 open groups"
            case .undoWhileDisabled: "call enableUndoRegistration() before undo()"
            case .undoFromRedoAction: "undo() from inside a redo action is not allowed"
            case .undoNestedGroupWithOpenGroup: "the newest group is still open"
            case .undoNestedGroupFromAction: "undo from inside an undo or redo action is not allowed"
            case .redoFromAction: "redo() from inside an undo or redo action is not allowed"
            case .registerAfterManualClose: "close it with endEventGroup() instead"
            case .registerWithGroupsByEventOff, .discardableWithGroupsByEventOff: "with groupsByEvent off, open a group first"
            case .registerFromDidUndoObserver: "register from the undo or redo action itself, not from an observer"
            case .nameFromWillRedoObserver: "call setActionName(_:) from the undo or redo action itself"
            case .costAfterManualClose: "close it with endEventGroup() instead"
            case .markCleanWhileUndoing: "after undo() or redo() returns"
            }
        }

        /// Runs `check` with the manager in the situation, just before the trap would fire.
        func inSituation(_ check: @escaping (UndoManager) -> Void) {
            let manager = UndoManager(), target = Target()
            manager.notificationCenter = nil
            switch self {
            case .endWithoutBegin, .enableWithoutDisable:
                manager.groupsByEvent = false
                check(manager)
            case .tickAfterManualClose, .registerAfterManualClose, .costAfterManualClose:
                manager.registerUndo(withTarget: target) { _ in }
                manager.endUndoGrouping()
                check(manager)
            case .removeAllDuringUndo, .undoNestedGroupFromAction, .markCleanWhileUndoing:
                manager.registerUndo(withTarget: target) { [unowned manager] _ in check(manager) }
                manager.undo()
            case .undoWithExplicitGroup, .registerWithGroupsByEventOff, .discardableWithGroupsByEventOff:
                manager.groupsByEvent = false
                if self == .undoWithExplicitGroup { manager.beginUndoGrouping() }
                check(manager)
            case .undoWithNestedGroups:
                manager.beginUndoGrouping()   // the automatic group and this one
                check(manager)
            case .undoWhileDisabled:
                manager.registerUndo(withTarget: target) { _ in }
                manager.disableUndoRegistration()
                check(manager)
            case .undoFromRedoAction, .redoFromAction:
                manager.registerUndo(withTarget: target) { [unowned manager] target in
                    manager.registerUndo(withTarget: target) { [unowned manager] _ in check(manager) }
                }
                manager.undo()
                manager.redo()
            case .undoNestedGroupWithOpenGroup:
                manager.registerUndo(withTarget: target) { _ in }
                check(manager)
            case .registerFromDidUndoObserver, .nameFromWillRedoObserver:
                // With groupsByEvent on, the call would open an automatic group on the other
                // stack instead; off, nothing is open outside the action.
                manager.groupsByEvent = false
                manager.beginUndoGrouping()
                manager.registerUndo(withTarget: target) { [unowned manager] target in
                    manager.registerUndo(withTarget: target) { _ in }
                }
                manager.endUndoGrouping()
                let undoes = self == .registerFromDidUndoObserver
                let observation = manager.addEventObserver { [unowned manager] event in
                    switch event {
                    case .didUndoChange where undoes, .willRedoChange where !undoes: check(manager)
                    default: break
                    }
                }
                manager.undo()
                if !undoes { manager.redo() }
                observation.cancel()
            }
        }
    }

    @Test("The fix fits the situation", arguments: Situation.allCases)
    func fixFitsTheSituation(_ situation: Situation) {
        var fix: String?
        situation.inSituation { manager in
            fix = manager.fix(for: situation.detail, in: situation.call)
        }
        #expect(fix?.contains(situation.expected) == true, "\(fix ?? "not reached")")
    }

    @Test("Every trap prints its detail and the fix for its situation", arguments: Trap.allCases)
    func everyTrapPrintsItsFix(_ trap: Trap) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [trap] in
            await trap.trigger()
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains(trap.call), "\(stderr)")
        #expect(stderr.contains(trap.detail), "\(stderr)")
        #expect(stderr.contains("\nFix: "), "the fix is on a line of its own: \(stderr)")
        #expect(stderr.contains(trap.fix), "\(stderr)")
    }
}

/// Every trap the API can reach, triggered for real in a child process (the table above only
/// asks ``UndoManager/fix(for:in:)``): each must print the detail, Apple's text where Apple has
/// one, and a `Fix:` line fitting the situation. The base selector-based members, which stop
/// with the closure API as the fix, are checked in `ObjectiveCOnlyAPITests`.
enum Trap: String, CaseIterable, Codable, Sendable {
    // Spec E, through fix(for:in:).
    case endWithoutBegin, tickAfterManualClose, removeAllDuringUndo, enableWithoutDisable
    case undoWithExplicitGroup, undoWithNestedGroups, undoWhileDisabled, undoFromRedoAction, undoFromUndoAction
    case undoNestedGroupWithOpenGroup, redoFromUndoAction
    case registerAfterManualClose, registerWithGroupsByEventOff, registerFromDidUndoObserver, performWithoutGroup
    case nameWithoutGroup, nameFromWillRedoObserver, discardableWithoutGroup, userInfoWithoutGroup
    case costWithoutGroup, coalescingKeyWithoutGroup, markCleanWhileUndoing
    // UndoKit's own.
    case negativeCost, scopeEndsItsGroup, scopeLeavesGroupOpen, scopeFromUndoAction, runLoopSetWhileEventPending
    case valueHistoryLimitBelowOne, keepNegativeUndoSteps, nestedModifyOfSameValue
    case registerOffRunLoopThread, tickOffRunLoopThread, stopDrivingOffRunLoopThread
    case registerOffMainActor, tickOffMainActor, stopDrivingOffMainActor

    /// The call the message must name (the UndoKit traps name it in their detail).
    var call: String {
        switch self {
        case .endWithoutBegin: "endUndoGrouping(): "
        case .tickAfterManualClose: "endUndoGrouping() called by SimulatedRunLoop.tick(mode:)"
        case .removeAllDuringUndo, .undoFromUndoAction: "undoNestedGroup() called by undo(): "
        case .enableWithoutDisable: "enableUndoRegistration(): "
        case .undoWithExplicitGroup, .undoWithNestedGroups, .undoWhileDisabled, .undoFromRedoAction: "undo(): "
        case .undoNestedGroupWithOpenGroup: "undoNestedGroup(): "
        case .redoFromUndoAction: "redo(): "
        case .registerAfterManualClose, .registerWithGroupsByEventOff, .registerFromDidUndoObserver:
            "registerUndo(withTarget:handler:): "
        case .performWithoutGroup: "perform(_:on:): "
        case .nameWithoutGroup, .nameFromWillRedoObserver: "setActionName(_:): "
        case .discardableWithoutGroup: "setActionIsDiscardable(_:): "
        case .userInfoWithoutGroup: "setActionUserInfoValue(_:forKey:): "
        case .costWithoutGroup, .negativeCost: "setActionCost(_:)"
        case .coalescingKeyWithoutGroup: "setActionCoalescingKey(_:): "
        case .markCleanWhileUndoing: "markClean(): "
        case .scopeEndsItsGroup, .scopeLeavesGroupOpen, .scopeFromUndoAction: "withUndoGroup(named:_:): "
        case .runLoopSetWhileEventPending: "UndoManager.runLoop set"
        case .valueHistoryLimitBelowOne: "ValueHistory(_:limit:): "
        case .keepNegativeUndoSteps: "UndoHistory.keepNewestUndoSteps(_:)"
        case .nestedModifyOfSameValue: "UndoableValue.modify(actionName:_:) called"
        case .registerOffRunLoopThread, .registerOffMainActor: "an UndoManager on a loop driven by"
        case .tickOffRunLoopThread, .tickOffMainActor: "a SimulatedRunLoop driven by"
        case .stopDrivingOffRunLoopThread, .stopDrivingOffMainActor: "stopDriving() called"
        }
    }

    /// The detail the message must carry.
    var detail: String {
        switch self {
        case .endWithoutBegin, .tickAfterManualClose, .removeAllDuringUndo: "endUndoGrouping called with no matching begin"
        case .enableWithoutDisable: "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration"
        case .undoWithExplicitGroup, .undoWithNestedGroups, .undoWhileDisabled, .undoFromRedoAction:
            "undo was called with too many nested undo groups"
        case .undoFromUndoAction, .undoNestedGroupWithOpenGroup: "call endUndoGrouping before calling this method"
        case .redoFromUndoAction: "do not invoke this method while undoing"
        case .registerAfterManualClose, .registerWithGroupsByEventOff, .registerFromDidUndoObserver, .performWithoutGroup,
             .nameWithoutGroup, .nameFromWillRedoObserver:
            "must begin a group before registering undo"
        case .discardableWithoutGroup: "must begin a group before setting undo action discardability"
        case .userInfoWithoutGroup: "must begin a group before setting undo action user info"
        case .costWithoutGroup: "must begin a group before setting an undo action cost"
        case .coalescingKeyWithoutGroup: "must begin a group before setting an undo coalescing key"
        case .markCleanWhileUndoing: "markClean may not be called while undoing or redoing"
        case .negativeCost: "setActionCost(_:) needs a cost of 0 or more, got -1"
        case .scopeEndsItsGroup: "the body of withUndoGroup left groupingLevel 0 where its group is at level 1"
        case .scopeLeavesGroupOpen: "the body of withUndoGroup left groupingLevel 2 where its group is at level 1"
        case .scopeFromUndoAction: "withUndoGroup may not be called while undoing or redoing"
        case .runLoopSetWhileEventPending: "UndoManager.runLoop set while an automatic group waits for the end of an event"
        case .valueHistoryLimitBelowOne: "ValueHistory(_:limit:): limit must be at least 1 (the current value counts), got 0"
        case .keepNegativeUndoSteps: "UndoHistory.keepNewestUndoSteps(_:) needs a count of 0 or more, not -1"
        case .nestedModifyOfSameValue: "called from inside the body of a modify of the same value"
        case .registerOffRunLoopThread: "an UndoManager on a loop driven by a run loop registered on another thread"
        case .tickOffRunLoopThread: "a SimulatedRunLoop driven by a run loop ticked on another thread"
        case .stopDrivingOffRunLoopThread: "stopDriving() called on another thread than the run loop driving the loop"
        case .registerOffMainActor: "registered off the main actor"
        case .tickOffMainActor: "a SimulatedRunLoop driven by the main queue or main actor ticked off the main actor"
        case .stopDrivingOffMainActor: "stopDriving() called off the main actor"
        }
    }

    /// What the fix line must say.
    var fix: String {
        switch self {
        case .endWithoutBegin: "call endUndoGrouping() only after a beginUndoGrouping() it closes, or wrap the edit in withUndoGroup(named:_:)"
        case .tickAfterManualClose: "close it with endEventGroup() instead of endUndoGrouping()"
        case .removeAllDuringUndo: "call removeAllActions() after undo() or redo() returns"
        case .enableWithoutDisable: "call enableUndoRegistration() once for each disableUndoRegistration()"
        case .undoWithExplicitGroup: "close your group with endUndoGrouping() before undo()"
        case .undoWithNestedGroups: "close the 2 open groups with endUndoGrouping() (the event's automatic group with endEventGroup()) before undo()"
        case .undoWhileDisabled: "call enableUndoRegistration() before undo()"
        case .undoFromRedoAction: "undo() from inside a redo action is not allowed"
        case .undoFromUndoAction: "undo from inside an undo or redo action is not allowed"
        case .undoNestedGroupWithOpenGroup: "the newest group is still open: close it with endUndoGrouping()"
        case .redoFromUndoAction: "redo() from inside an undo or redo action is not allowed"
        case .registerAfterManualClose: "the event's automatic group was closed by hand (endUndoGrouping() at level 1)"
        case .registerWithGroupsByEventOff, .performWithoutGroup, .nameWithoutGroup, .discardableWithoutGroup,
             .userInfoWithoutGroup, .costWithoutGroup, .coalescingKeyWithoutGroup:
            "with groupsByEvent off, open a group first: beginUndoGrouping() … endUndoGrouping(), or withUndoGroup(named:_:)"
        case .registerFromDidUndoObserver: "register from the undo or redo action itself"
        case .nameFromWillRedoObserver: "call setActionName(_:) from the undo or redo action itself"
        case .markCleanWhileUndoing: "call markClean() when the save completes, after undo() or redo() returns"
        case .negativeCost: "pass the bytes the step keeps alive"
        case .scopeEndsItsGroup, .scopeLeavesGroupOpen: "end every group the body begins"
        case .scopeFromUndoAction: "an undo or redo action registers its inverse directly"
        case .runLoopSetWhileEventPending: "set runLoop before the first registration"
        case .valueHistoryLimitBelowOne: "pass nil for an unbounded history"
        case .keepNegativeUndoSteps: "pass the number of undo steps to keep (0 keeps none)"
        case .nestedModifyOfSameValue: "make the change through the outer body's inout value"
        case .registerOffRunLoopThread, .tickOffRunLoopThread, .stopDrivingOffRunLoopThread:
            "use the loop and its managers only on the thread that called drive(with: .currentRunLoop)"
        case .registerOffMainActor: "use the manager only on the main actor"
        case .tickOffMainActor: "tick the loop on the main actor"
        case .stopDrivingOffMainActor: "call stopDriving() on the main actor"
        }
    }

    final class Target {}
    final class Model {}
    struct Touch: UndoableCommand, Codable {
        func execute(on model: Model) {}
        func undo(on model: Model) {}
    }

    /// Stops the process with the trap (in an exit test's child).
    func trigger() async {
        let manager = UndoManager(), target = Target()
        switch self {
        case .endWithoutBegin:
            manager.endUndoGrouping()
        case .tickAfterManualClose:
            manager.registerUndo(withTarget: target) { _ in }
            manager.endUndoGrouping()
            manager.runLoop.tick()
        case .removeAllDuringUndo:
            manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.removeAllActions() }
            manager.runLoop.tick()
            manager.undo()
        case .enableWithoutDisable:
            manager.enableUndoRegistration()
        case .undoWithExplicitGroup:
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.undo()
        case .undoWithNestedGroups:
            manager.beginUndoGrouping()
            manager.undo()
        case .undoWhileDisabled:
            manager.registerUndo(withTarget: target) { _ in }
            manager.disableUndoRegistration()
            manager.undo()
        case .undoFromRedoAction:
            manager.registerUndo(withTarget: target) { [unowned manager] target in
                manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.undo() }
            }
            manager.runLoop.tick()
            manager.undo()
            manager.redo()
        case .undoFromUndoAction:
            // A step below, so that the inner undo finds something to undo.
            manager.registerUndo(withTarget: target) { _ in }
            manager.runLoop.tick()
            manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.undo() }
            manager.runLoop.tick()
            manager.undo()
        case .undoNestedGroupWithOpenGroup:
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
            manager.undoNestedGroup()
        case .redoFromUndoAction:
            manager.registerUndo(withTarget: target) { [unowned manager] target in
                manager.registerUndo(withTarget: target) { _ in }
                manager.redo()
            }
            manager.runLoop.tick()
            manager.undo()
        case .registerAfterManualClose:
            manager.registerUndo(withTarget: target) { _ in }
            manager.endUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
        case .registerWithGroupsByEventOff:
            manager.groupsByEvent = false
            manager.registerUndo(withTarget: target) { _ in }
        case .registerFromDidUndoObserver, .nameFromWillRedoObserver:
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: target) { [unowned manager] target in
                manager.registerUndo(withTarget: target) { _ in }
            }
            manager.endUndoGrouping()
            let undoes = self == .registerFromDidUndoObserver
            let observation = manager.addEventObserver { [unowned manager] event in
                switch event {
                case .didUndoChange where undoes: manager.registerUndo(withTarget: target) { _ in }
                case .willRedoChange where !undoes: manager.setActionName("Again")
                default: break
                }
            }
            withExtendedLifetime(observation) {
                manager.undo()
                manager.redo()
            }
        case .performWithoutGroup:
            manager.groupsByEvent = false
            manager.perform(Touch(), on: Model())
        case .nameWithoutGroup:
            manager.groupsByEvent = false
            manager.setActionName("Typing")
        case .discardableWithoutGroup:
            manager.groupsByEvent = false
            manager.setActionIsDiscardable(true)
        case .userInfoWithoutGroup:
            manager.groupsByEvent = false
            manager.setActionUserInfoValue(1, forKey: "key")
        case .costWithoutGroup:
            manager.groupsByEvent = false
            manager.setActionCost(8)
        case .coalescingKeyWithoutGroup:
            manager.groupsByEvent = false
            manager.setActionCoalescingKey("typing")
        case .markCleanWhileUndoing:
            manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.markClean() }
            manager.runLoop.tick()
            manager.undo()
        case .negativeCost:
            manager.registerUndo(withTarget: target) { _ in }
            manager.setActionCost(-1)
        case .scopeEndsItsGroup:
            manager.groupsByEvent = false
            manager.withUndoGroup { manager.endUndoGrouping() }
        case .scopeLeavesGroupOpen:
            manager.groupsByEvent = false
            manager.withUndoGroup { manager.beginUndoGrouping() }
        case .scopeFromUndoAction:
            manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.withUndoGroup {} }
            manager.runLoop.tick()
            manager.undo()
        case .runLoopSetWhileEventPending:
            manager.registerUndo(withTarget: target) { _ in }
            manager.runLoop = SimulatedRunLoop()
        case .valueHistoryLimitBelowOne:
            _ = ValueHistory(0, limit: 0)
        case .keepNegativeUndoSteps:
            var history = UndoHistory<Touch>()
            history.keepNewestUndoSteps(-1)
        case .nestedModifyOfSameValue:
            let counter = UndoableValue(0, undoManager: manager)
            counter.modify { outer in
                outer += 1
                counter.modify { $0 += 10 }
            }
        case .registerOffRunLoopThread, .tickOffRunLoopThread, .stopDrivingOffRunLoopThread:
            let driven = Self.loopDrivenByAnotherThread(registering: self == .tickOffRunLoopThread)
            withExtendedLifetime(driven.value.manager) { misuse(driven.value.loop) }
        case .registerOffMainActor, .tickOffMainActor, .stopDrivingOffMainActor:
            let driven = await MainActor.run {
                let loop = SimulatedRunLoop()
                loop.drive(with: .mainQueue)
                var manager: UndoManager?
                if self == .tickOffMainActor {
                    // Closed only by a tick by hand: the driver's ticks leave it pending.
                    manager = UndoManager(runLoop: loop)
                    manager?.runLoopModes = [.eventTracking]
                    manager?.registerUndo(withTarget: Target()) { _ in }
                }
                return UnsafeHandOff((loop: loop, manager: manager))
            }
            // The tick the registration scheduled on the main queue has run after this.
            await MainActor.run {}
            withExtendedLifetime(driven.value.manager) { misuse(driven.value.loop) }
        }
    }

    /// The misuse of a confined loop from the wrong thread or actor.
    private func misuse(_ loop: SimulatedRunLoop) {
        switch self {
        case .registerOffRunLoopThread, .registerOffMainActor:
            UndoManager(runLoop: loop).registerUndo(withTarget: Target()) { _ in }
        case .tickOffRunLoopThread:
            loop.tick()
        case .tickOffMainActor:
            loop.tick(mode: .eventTracking)
        default:
            loop.stopDriving()
        }
    }

    /// A loop driven by the run loop of a thread that then waits forever, without running its
    /// run loop (so a registration made there stays pending).
    private static func loopDrivenByAnotherThread(
        registering: Bool
    ) -> UnsafeHandOff<(loop: SimulatedRunLoop, manager: UndoManager?)> {
        let ready = DispatchSemaphore(value: 0)
        let handOff = UnsafeHandOff<(loop: SimulatedRunLoop, manager: UndoManager?)?>(nil)
        Thread {
            let loop = SimulatedRunLoop()
            loop.drive(with: .currentRunLoop)
            var manager: UndoManager?
            if registering {
                manager = UndoManager(runLoop: loop)
                manager?.registerUndo(withTarget: Target()) { _ in }
            }
            handOff.value = (loop, manager)
            ready.signal()
            DispatchSemaphore(value: 0).wait()
        }.start()
        ready.wait()
        return UnsafeHandOff(handOff.value!)
    }
}

/// Carries a confined object to another thread on purpose: the traps above are about exactly
/// that misuse.
///
/// Why `@unchecked Sendable` is acceptable: each hand-off is ordered by a semaphore or an
/// `await`, and the thread or actor that made the value no longer touches it (the thread waits
/// forever, the main queue has run its last block for it), so `value` is never accessed from
/// two threads at once; the test only checks that the first wrong-thread use stops.
final class UnsafeHandOff<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
