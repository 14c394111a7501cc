import Observation
import Testing
@testable import UndoKit

/// Issue 25: a rolled-back `withUndoGroup` is silent. Its close makes the scope's group a step
/// and its undo takes the step away, so `isClean` and the observable properties flicker and
/// come back; clean-state observers and Observation hear only where the rollback ends.
@Suite("Scoped groups: a rollback posts no clean-state change and no announcement for state that ends where it began")
struct ScopedGroupSilenceTests {
    private struct Failure: Error {}

    /// The observable properties the rollback's close and undo change and change back: the
    /// close makes the scope's group a step (a new current node, a name in the listing, an
    /// unclean manager), the undo puts it on the redo stack, the rollback drops it there.
    private static func readWhatTheRollbackFlickers(_ manager: UndoManager) {
        _ = manager.isClean
        _ = manager.canRedo
        _ = manager.redoCount
        _ = manager.redoMenuItemTitle
        _ = manager.redoActionName
        _ = manager.undoActionNames
        _ = manager.redoActionNames
        _ = manager.currentHistoryNodeID
        _ = manager.historyTree
    }

    /// Runs a scope that installs a tracking of `read` right before its body throws, and
    /// returns how often the tracking fired during the rollback.
    private static func firesDuringRollback(
        of manager: UndoManager, reading read: @escaping (UndoManager) -> Void, body: () -> Void
    ) -> Int {
        let count = ChangeCount()
        try? manager.withUndoGroup(named: "Fails") {
            body()
            withObservationTracking { read(manager) } onChange: { count.increment() }
            throw Failure()
        }
        return count.value
    }

    @Test("a clean manager stays silent through a rollback at the top level", arguments: [true, false])
    func cleanStateObserversHearNothing(groupsByEvent: Bool) {
        let manager = UndoManager()
        manager.groupsByEvent = groupsByEvent
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.endEventGroup()
        manager.markClean()
        var heard: [Bool] = []
        let observation = manager.addCleanStateObserver { heard.append($0) }
        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: "Fails") {
                document.append(2)
                document.append(3)
                throw Failure()
            }
        }
        observation.cancel()
        #expect(heard.isEmpty)
        #expect(manager.isClean && document.items == [1])
    }

    @Test("an unclean manager (the mark one undo away) stays silent too")
    func uncleanManagerHearsNothing() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let document = TreeDocument(manager: manager)
        manager.markClean()
        document.add(1)
        var heard: [Bool] = []
        let observation = manager.addCleanStateObserver { heard.append($0) }
        try? manager.withUndoGroup {
            document.append(2)
            throw Failure()
        }
        observation.cancel()
        #expect(heard.isEmpty && !manager.isClean)
    }

    @Test("Observation announces nothing for what the rollback changes and changes back", arguments: [true, false])
    func observationHearsNothing(groupsByEvent: Bool) {
        let manager = UndoManager()
        manager.groupsByEvent = groupsByEvent
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.endEventGroup()
        manager.markClean()
        let fired = Self.firesDuringRollback(of: manager, reading: Self.readWhatTheRollbackFlickers) {
            document.append(2)
        }
        #expect(fired == 0)
        #expect(manager.undoActionNames == ["Add 1"] && manager.isClean)
    }

    @Test("a rollback of a scope nested in an open step announces nothing either")
    func nestedRollbackHearsNothing() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let document = TreeDocument(manager: manager)
        document.add(1)
        manager.undo()  // a redo step, which the scope's registration parks and the rollback puts back
        var heard: [Bool] = []
        let observation = manager.addCleanStateObserver { heard.append($0) }
        manager.withUndoGroup(named: "Outer") {
            document.append(2)
            let fired = Self.firesDuringRollback(of: manager, reading: Self.readWhatTheRollbackFlickers) {
                document.append(3)
            }
            #expect(fired == 0)
        }
        observation.cancel()
        // The outer step's close is a real change, heard once.
        #expect(heard == [false])
        #expect(document.items == [2])
    }

    @Test("what does change is heard once, after the rollback")
    func aRealChangeIsHeardOnceAtTheEnd() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let document = TreeDocument(manager: manager)
        document.add(1)  // unclean: the mark is at the start
        var heard: [Bool] = []
        let observation = manager.addCleanStateObserver { heard.append($0) }
        var heardAtThrow: [Bool] = []
        try? manager.withUndoGroup {
            document.append(2)
            manager.markClean()  // clean while the scope's group is open: heard at once
            heardAtThrow = heard
            throw Failure()
        }
        observation.cancel()
        // The rollback puts the old mark back: unclean, heard once, after the rollback.
        #expect(heardAtThrow == [true])
        #expect(heard == [true, false])
        #expect(!manager.isClean)
    }

    @Test("the notifications of the close and the undo are still posted, balancing the open")
    func notificationsStillDescribeTheCloseAndTheUndo() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.notificationCenter = nil
        let document = TreeDocument(manager: manager)
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        try? manager.withUndoGroup {
            document.append(1)
            throw Failure()
        }
        observation.cancel()
        #expect(events == [
            .checkpoint, .didOpenUndoGroup,
            .checkpoint, .willCloseUndoGroup, .didCloseUndoGroup(isDiscardable: false),
            .checkpoint, .willUndoChange, .checkpoint, .checkpoint, .didUndoChange(isDiscardable: false),
        ])
    }
}
