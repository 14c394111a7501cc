import Foundation
import Testing
@testable import UndoKit

@Suite("UndoCoordinator: the listing and clean state of the whole")
struct CoordinationListingTests {
    @Test("undoActionNames and redoActionNames list every member's steps in the coordinated order")
    func listing() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let first = CoordinationTextView(runLoop: loop)
        let second = CoordinationTextView(runLoop: loop)
        coordinator.attach(first.undoManager)
        coordinator.attach(second.undoManager)
        first.type("a"); loop.tick()
        second.type("b"); loop.tick()
        first.type("c"); loop.tick()
        #expect(coordinator.undoActionNames == ["Type c", "Type b", "Type a"])
        #expect(coordinator.redoActionNames == [])
        coordinator.undo()
        coordinator.undo()
        #expect(coordinator.undoActionNames == ["Type a"])
        #expect(coordinator.redoActionNames == ["Type b", "Type c"])
        #expect(coordinator.redoActionName == "Type b")
    }

    @Test("isClean is every member at its mark; markClean marks them all")
    func cleanState() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let first = CoordinationTextView(runLoop: loop)
        let second = CoordinationTextView(runLoop: loop)
        coordinator.attach(first.undoManager)
        coordinator.attach(second.undoManager)
        #expect(coordinator.isClean)
        first.type("a"); loop.tick()
        #expect(!coordinator.isClean)
        coordinator.markClean()
        #expect(coordinator.isClean)
        second.type("b"); loop.tick()
        #expect(!coordinator.isClean)
        coordinator.undo()
        #expect(coordinator.isClean)
    }

    @Test("a coordinated manager cannot keep branches, and a branch-keeping one cannot join",
          arguments: ["set on member", "attach"])
    func branchesAreRefused(situation: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [situation] in
            let coordinator = UndoCoordinator()
            let manager = UndoManager()
            if situation == "attach" {
                manager.keepsRedoBranches = true
                coordinator.attach(manager)
            } else {
                coordinator.attach(manager)
                manager.keepsRedoBranches = true
            }
        }
        let output = result.standardErrorText
        #expect(output.contains("Fix:"))
        #expect(output.contains(situation == "attach" ? "UndoCoordinator.attach(_:)" : "keepsRedoBranches"))
    }
}
