import Foundation
import Testing
@testable import UndoKit

@Suite("UndoCoordinator with coalescing members")
struct CoordinationCoalescingTests {
    @Test("A member's merged step keeps its place in the coordinator's order")
    func mergedStepKeepsItsPlace() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let views = (0..<2).map { _ in CoordinationTextView(runLoop: loop) }
        var now = ContinuousClock.now
        for view in views {
            view.undoManager.coalescingClock = { now }
            coordinator.attach(view.undoManager)
        }
        func type(_ string: String, in index: Int) {
            now += .milliseconds(100)
            views[index].type(string)
            views[index].undoManager.setActionCoalescingKey("typing")
            loop.tick()
        }
        type("a", in: 0)
        type("x", in: 1)
        type("y", in: 1)
        #expect(views[1].undoManager.undoCount == 1)
        #expect(coordinator.order() == CoordinationOrder(undo: ["Type a", "Type y"], redo: []))
        coordinator.undo()
        #expect(views.map(\.text) == ["a", ""])
        coordinator.undo()
        #expect(views.map(\.text) == ["", ""])
        coordinator.redo()
        coordinator.redo()
        #expect(views.map(\.text) == ["a", "xy"])
        views[0].undoManager.checkInvariants()
        views[1].undoManager.checkInvariants()
    }
}
