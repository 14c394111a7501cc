import Foundation
import Testing
@testable import UndoKit

/// `endEventGroup()`: a new undo step now, without Apple's R17 hazard. A trap anywhere in
/// these tests would crash the test process, so each passing test also shows that nothing
/// traps.
@Suite("UndoManager.endEventGroup(): a safe new step within one event")
struct CoordinationEventGroupTests {
    @Test("It closes the automatic group; the next registration opens a new step; the tick does not trap")
    func splitsOneEvent() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.setActionName("First")
        #expect(manager.endEventGroup())
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)
        #expect(!manager.runLoop.hasPendingEvents)
        counter.add(2, using: manager)   // same event: opens a new automatic group
        manager.setActionName("Second")
        #expect(manager.groupingLevel == 1)
        #expect(manager.runLoop.hasPendingEvents)
        manager.runLoop.tick()            // closes the second step, no trap
        #expect(manager.groupingLevel == 0 && manager.undoCount == 2)
        manager.undo()
        #expect(counter.value == 1 && manager.undoActionName == "First")
        manager.undo()
        #expect(counter.value == 0)
        manager.checkInvariants()
    }

    @Test("With nothing registered after it, the end of the event does nothing")
    func tickAfterwardsDoesNothing() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        #expect(manager.endEventGroup())
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        manager.runLoop.tick()
        #expect(events.isEmpty)
        #expect(manager.undoCount == 1)
        observation.cancel()
    }

    @Test("It posts what the end of the event posts")
    func postsLikeTheEndOfAnEvent() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.setActionIsDiscardable(true)
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        manager.endEventGroup()
        #expect(events == [.checkpoint, .willCloseUndoGroup, .didCloseUndoGroup(isDiscardable: true)])
        observation.cancel()
    }

    @Test("An empty automatic group stays as a step and clears the redo stack, as at the end of an event")
    func emptyGroup() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.runLoop.tick()
        manager.undo()
        #expect(manager.canRedo)
        manager.setActionName("Named, empty")   // opens the automatic group, registers nothing
        #expect(manager.endEventGroup())
        #expect(manager.undoCount == 1 && manager.undoActionName == "Named, empty")
        #expect(!manager.canRedo)
    }

    @Test("A registration by a did-close observer opens the next automatic group, which the tick closes")
    func registrationInsideDidClose() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        var reacted = false
        let observation = manager.addEventObserver { event in
            if case .didCloseUndoGroup = event, !reacted {
                reacted = true
                counter.add(10, using: manager)
            }
        }
        counter.add(1, using: manager)
        #expect(manager.endEventGroup())
        #expect(manager.groupingLevel == 1 && manager.runLoop.hasPendingEvents)
        manager.runLoop.tick()
        #expect(manager.undoCount == 2 && manager.groupingLevel == 0)
        observation.cancel()
    }

    @Test("It closes the group even after groupsByEvent was turned off during the event")
    func groupsByEventTurnedOff() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.groupsByEvent = false
        #expect(manager.endEventGroup())
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)
        manager.groupsByEvent = true
        manager.runLoop.tick()   // disarmed: nothing to close, no trap
        #expect(manager.undoCount == 1)
    }

    @Test("It returns false and does nothing when there is no automatic group to close")
    func falseWithoutAutomaticGroup() {
        let manager = UndoManager()
        #expect(!manager.endEventGroup())   // nothing registered
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.runLoop.tick()
        #expect(!manager.endEventGroup())   // the event already ended
        #expect(manager.undoCount == 1)

        manager.groupsByEvent = false
        manager.beginUndoGrouping()           // an explicit group, not an automatic one
        counter.add(1, using: manager)
        #expect(!manager.endEventGroup())
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()
        manager.checkInvariants()
    }

    @Test("It returns false after the automatic group was closed by hand (the R17 state)")
    func falseAfterManualClose() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.endUndoGrouping()   // Apple's hazardous way
        #expect(!manager.endEventGroup())
        #expect(manager.groupingLevel == 0 && manager.storage.pointee.automaticGroupIsPending)
        manager.undo()   // undo() works in this state and leaves the close armed (R17)
        manager.removeAllActions()   // what disarms it, short of the trap at the tick
        manager.runLoop.tick()
    }

    @Test("It returns false while explicit groups are open inside the automatic group")
    func falseWithNestedGroups() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        manager.beginUndoGrouping()   // automatic group and explicit group: level 2
        counter.add(1, using: manager)
        #expect(!manager.endEventGroup())
        #expect(manager.groupingLevel == 2)
        manager.endUndoGrouping()
        #expect(manager.endEventGroup())
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)
        manager.runLoop.tick()
    }

    @Test("It returns false while registration is disabled")
    func falseWhileDisabled() {
        let manager = UndoManager()
        let counter = CoordinationCounter()
        counter.add(1, using: manager)
        manager.disableUndoRegistration()
        #expect(!manager.endEventGroup())
        #expect(manager.groupingLevel == 1)
        manager.enableUndoRegistration()
        #expect(manager.endEventGroup())
    }

    @Test("It returns false during an undo or a redo")
    func falseWhileBusy() {
        let target = CoordinationCounter()
        // Undo: undoNestedGroup() reverts a group nested in the automatic group, which stays
        // open and armed at level 1, so only the undo in progress stands in the way.
        let manager = UndoManager()
        var duringUndo: Bool?
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: target) { _ in
            duringUndo = manager.endEventGroup()
        }
        manager.endUndoGrouping()
        manager.undoNestedGroup()
        #expect(duringUndo == false)
        #expect(manager.groupingLevel == 1)
        #expect(manager.endEventGroup())

        // Redo: with the automatic group closed by hand (the close stays armed, R17), the
        // group a redo opens is the only open one: again only the redo stands in the way.
        let other = UndoManager()
        var duringRedo: Bool?
        func change() {
            other.registerUndo(withTarget: target) { _ in
                if other.isRedoing {
                    duringRedo = other.endEventGroup()
                }
                change()
            }
        }
        change()
        other.endUndoGrouping()
        other.undo()   // allowed in this state; its inverse becomes the redo group
        other.redo()
        #expect(duringRedo == false)
        #expect(other.undoCount == 1 && other.groupingLevel == 0)
        // Disarms the close, which would trap at the tick, and frees the handlers, which
        // capture their managers.
        other.removeAllActions()
        manager.removeAllActions()
        other.runLoop.tick()
    }
}
