import Testing
@testable import UndoKit

/// Issue 37, W2: undo and redo move the steps of a run of commands on one model to the other
/// stack through a `StepTransfer` (`UndoManager.runCommands(on:from:executing:)`), which
/// computes the two slots once and checks before each move that nothing the commands ran
/// moved the stacks. Each test runs a scenario on a plain manager, which may use a transfer,
/// and on a subclass that overrides nothing, which never does (a subclass's overrides must see
/// every registration); everything observable must agree, and the debug counter says whether
/// the plain manager's transfer moved steps.
@Suite("A run of commands moved to the other stack by a transfer")
struct CommandGroupTransferTests {
    /// The reference: every step of a group takes the general move.
    final class GeneralPathManager: UndoManager {}

    final class Model {
        var value = 0
        /// Called after each run with the model and whether it was an undo.
        var onRun: ((Model, Bool) -> Void)?
    }

    /// Adds `amount`: half a word of plain data, kept inside its step.
    struct Add: UndoableCommand {
        let amount: Int32

        func execute(on model: Model) {
            model.value += Int(amount)
            model.onRun?(model, false)
        }

        func undo(on model: Model) {
            model.value -= Int(amount)
            model.onRun?(model, true)
        }
    }

    /// Sets the value, remembering the old one in itself: a word that changes at every run, so
    /// each move writes the step's new bits.
    struct SetValue: UndoableCommand {
        let value: Int32
        var previous: Int32 = 0

        mutating func execute(on model: Model) {
            previous = Int32(model.value)
            model.value = Int(value)
            model.onRun?(model, false)
        }

        mutating func undo(on model: Model) {
            model.value = Int(previous)
            model.onRun?(model, true)
        }
    }

    /// `Add` too large to be kept in its step: the manager allocates an entry for it.
    struct BoxedAdd: UndoableCommand {
        let amount: Int
        let padding: (Int, Int) = (0, 0)

        func execute(on model: Model) {
            model.value += amount
            model.onRun?(model, false)
        }

        func undo(on model: Model) {
            model.value -= amount
            model.onRun?(model, true)
        }
    }

    enum Kind: CaseIterable, CustomTestStringConvertible {
        case kept, retained, mutating, boxed
        var testDescription: String { "\(self)" }
    }

    /// Records command `index` of a group on `model`.
    static func perform(_ kind: Kind, _ index: Int, on model: Model, in manager: UndoManager) {
        switch kind {
        case .kept: manager.perform(Add(amount: Int32(index % 7 + 1)), on: model)
        case .retained: manager.perform(Add(amount: Int32(index % 7 + 1)), retaining: model)
        case .mutating: manager.perform(SetValue(value: Int32(index)), on: model)
        case .boxed: manager.perform(BoxedAdd(amount: index % 7 + 1), on: model)
        }
    }

    /// One manager and its models, driven by a scenario.
    struct World {
        let manager: UndoManager
        let model = Model()
        let other = Model()

        init(general: Bool) {
            manager = general ? GeneralPathManager() : UndoManager()
            manager.groupsByEvent = false
            manager.notificationCenter = nil
        }

        /// The models and every count and name both stacks show.
        var state: String {
            "\(model.value)/\(other.value) undo \(manager.undoCount) redo \(manager.redoCount) "
                + "level \(manager.groupingLevel) names \(manager.undoActionNames) / \(manager.redoActionNames)"
        }

        /// Undoes everything, then redoes everything, noting the state after each.
        func replay() -> [String] {
            var states: [String] = []
            while manager.canUndo {
                manager.undo()
                states.append(state)
            }
            while manager.canRedo {
                manager.redo()
                states.append(state)
            }
            return states
        }
    }

    /// Runs `scenario` on both managers; expects the same states throughout and returns how
    /// many steps the plain manager's transfers moved.
    @discardableResult
    func expectSameOutcome(_ scenario: (World) -> [String]) -> Int {
        let plain = World(general: false)
        let general = World(general: true)
        let moved = plain.manager.state.stepsMovedByTransfer
        let plainStates = scenario(plain) + plain.replay()
        let generalStates = scenario(general) + general.replay()
        #expect(plainStates == generalStates)
        #expect(general.manager.state.stepsMovedByTransfer == 0)
        plain.manager.checkInvariants()
        return plain.manager.state.stepsMovedByTransfer - moved
    }

    /// Records one group of `count` commands of `kind`, named.
    static func recordGroup(_ kind: Kind, count: Int, in world: World, name: String = "Group") {
        world.manager.beginUndoGrouping()
        for index in 0..<count {
            perform(kind, index, on: world.model, in: world.manager)
        }
        world.manager.setActionName(name)
        world.manager.endUndoGrouping()
    }

    @Test("a long group undoes and redoes through a transfer", arguments: Kind.allCases)
    func longGroup(kind: Kind) {
        let moved = expectSameOutcome { world in
            Self.recordGroup(kind, count: 1000, in: world)
            var states = [world.state]
            for _ in 0..<3 {
                world.manager.undo()
                states.append(world.state)
                world.manager.redo()
                states.append(world.state)
            }
            return states
        }
        // Every step after a run's first two, at each of the eight moves of the group: six
        // here and the replay's undo and redo.
        #expect(moved == 8 * 998)
    }

    @Test("runs broken by nested groups and by steps on another model", arguments: Kind.allCases)
    func brokenRuns(kind: Kind) {
        expectSameOutcome { world in
            let manager = world.manager
            manager.beginUndoGrouping()
            for index in 0..<60 {
                switch index % 15 {
                case 4:
                    // A nested group of one step: a singleton inside the group.
                    manager.beginUndoGrouping()
                    Self.perform(kind, index, on: world.model, in: manager)
                    manager.endUndoGrouping()
                case 9:
                    Self.perform(kind, index, on: world.other, in: manager)
                case 12:
                    manager.registerUndo(withTarget: world.model) { $0.value += 1 }
                default:
                    Self.perform(kind, index, on: world.model, in: manager)
                }
            }
            manager.endUndoGrouping()
            return [world.state]
        }
    }

    /// What a command's run does to the manager in the middle of a group.
    enum Interference: CaseIterable, CustomTestStringConvertible {
        /// Registers enough closures on the other model to grow the stacks' buffer, which
        /// moves the redo side: the transfer must stop and the rest go through the sides.
        case growBuffer
        /// Registers one closure: the destination has a step the transfer did not put.
        case registerOne
        /// Removes the model's steps: the rest of the group is skipped.
        case removeOwnSteps
        /// Removes the other model's steps.
        case removeOtherSteps
        /// Turns registration off for 30 steps of each undo and redo: their inverses are not
        /// recorded.
        case disableRegistration
        /// Turns registration off and on again.
        case disableAndEnable

        var testDescription: String { "\(self)" }
    }

    @Test("what a command does mid-run", arguments: Interference.allCases, Kind.allCases)
    func interference(_ interference: Interference, kind: Kind) {
        expectSameOutcome { world in
            Self.recordGroup(kind, count: 300, in: world)
            var runs = 0
            world.model.onRun = { model, _ in
                runs += 1
                let manager = world.manager
                if interference == .disableRegistration && runs == 80 {
                    manager.enableUndoRegistration()
                }
                guard runs == 50 || (interference != .disableRegistration && runs == 150) else { return }
                switch interference {
                case .growBuffer:
                    for _ in 0..<2_000 {
                        manager.registerUndo(withTarget: world.other) { $0.value += 1 }
                    }
                case .registerOne:
                    manager.registerUndo(withTarget: world.other) { $0.value += 1 }
                case .removeOwnSteps:
                    manager.removeAllActions(withTarget: model)
                case .removeOtherSteps:
                    manager.removeAllActions(withTarget: world.other)
                case .disableRegistration:
                    manager.disableUndoRegistration()
                case .disableAndEnable:
                    manager.disableUndoRegistration()
                    manager.enableUndoRegistration()
                }
            }
            var states: [String] = []
            for _ in 0..<2 {
                // Counted per undo and redo, so each has its window of disabled registration
                // whole: left disabled, the undo's redo group would stay open.
                runs = 0
                world.manager.undo()
                states.append(world.state)
                runs = 0
                world.manager.redo()
                states.append(world.state)
            }
            world.model.onRun = nil
            return states
        }
    }
}
