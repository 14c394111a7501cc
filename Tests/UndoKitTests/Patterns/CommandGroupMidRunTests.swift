import Testing
import UndoKit

/// What a command sees of its manager while an undo or redo runs a group of commands on one
/// model (W2's loop): the same state for its first, a middle and its last step, the group off
/// the stack it came from and its inverse group open on the other, uncounted. Recorded from
/// the one-by-one loop, to pin what a faster run of a command group must keep
/// (Benchmarks/README.md, issue 37, third pass).
@Suite("A command group's run seen from inside")
struct CommandGroupMidRunTests {
    struct Snapshot: Equatable {
        var undoCount: Int
        var redoCount: Int
        var canUndo: Bool
        var canRedo: Bool
        var isUndoing: Bool
        var isRedoing: Bool
        var groupingLevel: Int
        var undoActionName: String
        var redoActionName: String

        init(of manager: UndoManager) {
            undoCount = manager.undoCount
            redoCount = manager.redoCount
            canUndo = manager.canUndo
            canRedo = manager.canRedo
            isUndoing = manager.isUndoing
            isRedoing = manager.isRedoing
            groupingLevel = manager.groupingLevel
            undoActionName = manager.undoActionName
            redoActionName = manager.redoActionName
        }
    }

    final class Model {
        var value = 0
        /// Called with the step's number whenever a command runs on the model.
        var observe: ((Int) -> Void)?
    }

    struct Add: UndoableCommand {
        let number: Int
        func execute(on model: Model) {
            model.value += number
            model.observe?(number)
        }
        func undo(on model: Model) {
            model.value -= number
            model.observe?(number)
        }
    }

    static let stepCount = 5
    /// The first step to run, a middle one, the last: undo runs newest first, redo oldest first.
    static let observedSteps: Set<Int> = [1, 3, 5]

    /// A manager with one older one-step group ("Older") and, on top, a group of
    /// `stepCount` commands named "Adds".
    private func makeManager(_ model: Model, retaining: Bool) -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        for (name, numbers) in [("Older", [100]), ("Adds", Array(1...Self.stepCount))] {
            manager.beginUndoGrouping()
            for number in numbers {
                if retaining {
                    manager.perform(Add(number: number), retaining: model)
                } else {
                    manager.perform(Add(number: number), on: model)
                }
            }
            manager.setActionName(name)
            manager.endUndoGrouping()
        }
        return manager
    }

    @Test(arguments: [false, true])
    func undoShowsEveryStepTheSameState(retaining: Bool) {
        let model = Model()
        let manager = makeManager(model, retaining: retaining)
        var seen: [Int: Snapshot] = [:]
        model.observe = { number in
            if Self.observedSteps.contains(number) {
                seen[number] = Snapshot(of: manager)
            }
        }
        manager.undo()
        let after = Snapshot(of: manager)
        #expect(Set(seen.keys) == Self.observedSteps)
        for (_, snapshot) in seen {
            // The group is off the undo stack; its redo group is open, not yet counted.
            #expect(snapshot.undoCount == 1)
            #expect(snapshot.redoCount == 0)
            #expect(snapshot.canUndo)
            #expect(snapshot.canRedo)
            #expect(snapshot.isUndoing)
            #expect(!snapshot.isRedoing)
            #expect(snapshot.groupingLevel == 1)
            #expect(snapshot.undoActionName == "Older")
        }
        #expect(seen.values.allSatisfy { $0 == seen[1] })
        #expect(model.value == 100)
        #expect(after.undoCount == 1 && after.redoCount == 1 && after.redoActionName == "Adds")
    }

    @Test(arguments: [false, true])
    func redoShowsEveryStepTheSameState(retaining: Bool) {
        let model = Model()
        let manager = makeManager(model, retaining: retaining)
        manager.undo()
        var seen: [Int: Snapshot] = [:]
        model.observe = { number in
            if Self.observedSteps.contains(number) {
                seen[number] = Snapshot(of: manager)
            }
        }
        manager.redo()
        #expect(Set(seen.keys) == Self.observedSteps)
        for (_, snapshot) in seen {
            // The group is off the redo stack; its undo group is open, named as it was,
            // not yet counted, and the older group is under it.
            #expect(snapshot.undoCount == 0)
            #expect(snapshot.redoCount == 0)
            #expect(snapshot.canUndo)
            #expect(snapshot.canRedo == false)
            #expect(!snapshot.isUndoing)
            #expect(snapshot.isRedoing)
            #expect(snapshot.groupingLevel == 1)
            #expect(snapshot.undoActionName == "Adds")
        }
        #expect(seen.values.allSatisfy { $0 == seen[1] })
        #expect(model.value == 115)
        #expect(manager.undoCount == 2 && manager.redoCount == 0 && manager.undoActionName == "Adds")
    }
}
