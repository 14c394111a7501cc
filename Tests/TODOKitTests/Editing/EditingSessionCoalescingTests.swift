import Foundation
import Testing
import UndoKit
@testable import TODOKit

/// Retyping an item's title is one undo step: UndoKit's coalescing, keyed by the item.
@Suite struct EditingSessionCoalescingTests {
    private func makeSession() -> (EditingSession, () -> Void) {
        let session = EditingSession()
        var now = ContinuousClock.now
        session.undoManager.coalescingClock = { now }
        return (session, { now += .seconds(5) })
    }

    @Test func repeatedTitleEditsOfOneItemWithinTheIntervalAreOneStep() throws {
        let (session, wait) = makeSession()
        try session.add("Buy mlk")
        session.endEvent()
        try session.setTitle("Buy mik", at: 0)
        session.endEvent()
        wait()
        try session.setTitle("Buy milk", at: 0)
        session.endEvent()
        #expect(session.history.undo == ["Edit \"Buy milk\"", "Add \"Buy mlk\""])
        try session.undo()
        #expect(session.list.items[0].title == "Buy mlk")
        try session.redo()
        #expect(session.list.items[0].title == "Buy milk")
    }

    @Test func anotherItemAnotherKindOfEditOrAPauseStartsANewStep() throws {
        let (session, _) = makeSession()
        try session.add("a")
        try session.add("b")
        session.endEvent()
        try session.setTitle("a2", at: 0)
        session.endEvent()
        try session.setTitle("b2", at: 1)          // another item
        session.endEvent()
        try session.setDone(true, at: 1)           // another kind of edit
        session.endEvent()
        try session.setTitle("b3", at: 1)
        try session.setDone(false, at: 1)          // a step with another edit in it
        session.endEvent()
        try session.setTitle("b4", at: 1)
        session.endEvent()
        #expect(session.history.undo.count == 6)

        let (paused, wait) = makeSession()
        try paused.add("c")
        paused.endEvent()
        try paused.setTitle("c2", at: 0)
        paused.endEvent()
        wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait(); wait()
        try paused.setTitle("c3", at: 0)           // 65 seconds later
        paused.endEvent()
        #expect(paused.history.undo == ["Edit \"c3\"", "Edit \"c2\"", "Add \"c\""])
    }

    @Test func aMergedStepIsSavedAndRestoredAsOneStep() throws {
        let (session, _) = makeSession()
        try session.add("x")
        session.endEvent()
        try session.setTitle("y", at: 0)
        session.endEvent()
        try session.setTitle("z", at: 0)
        session.endEvent()
        let history = try session.undoManager.undoHistory(of: TODOCommand.self)
        #expect(history.undoSteps.map(\.actionName) == ["Add \"x\"", "Edit \"z\""])
        let restored = EditingSession(list: session.list)
        try restored.restoreHistory(history)
        try restored.undo()
        #expect(restored.list.items[0].title == "x")
    }
}
