import Testing
@testable import UndoKit

/// A command recorded by `perform(_:on:)` is observably the closure registration it stands
/// for: a handler that changes the model and registers its inverse. Undo and redo run a run
/// of commands on one model in a loop of their own, moving each step to the other stack as
/// its own inverse; this checks, on random scripts, that what a command's own code does in
/// the middle of a run (register a closure, remove actions, turn
/// registration off and on) comes out exactly as it does for the closures.
@Suite("Commands behave as the closure registrations they stand for")
struct CommandClosureEquivalenceTests {
    final class Model {
        let name: String
        var value = 0
        /// The world, for commands that hold no reference (`SmallBump`).
        unowned var world: World?
        init(_ name: String) { self.name = name }
    }

    /// What a step does besides changing its model's value, each time it runs.
    enum Effect: Equatable {
        case none
        /// Registers a closure on the other model (it lands in the group being built).
        case registerOnOther
        /// `removeAllActions(withTarget:)` on the other model, or on its own. Only while
        /// undoing or redoing: while an edit is being recorded it may remove the group the
        /// edit goes into. (`removeAllActions()` in a step is left out: it ends the undo, and
        /// the inverse the step then registers, outside any group, stops the program.)
        case removeOther, removeOwn
        /// Turns registration off and on again.
        case disableAndEnable
    }

    /// The world both managers act on: the managers and their two models each.
    final class World {
        let manager = UndoManager()
        let models = [Model("m0"), Model("m1")]
        var events: [String] = []
        var observation: UndoManager.EventObservation?

        init() {
            for model in models { model.world = self }
            manager.notificationCenter = nil
            manager.groupsByEvent = false
            observation = manager.addEventObserver { [unowned self] event in events.append("\(event)") }
        }

        func perform(_ effect: Effect, on model: Model, manager: UndoManager) {
            let other = models[model === models[0] ? 1 : 0]
            let inUndoOrRedo = manager.isUndoing || manager.isRedoing
            switch effect {
            case .none: break
            case .registerOnOther: manager.registerUndo(withTarget: other) { $0.value += 1000 }
            case .removeOther: if inUndoOrRedo { manager.removeAllActions(withTarget: other) }
            case .removeOwn: if inUndoOrRedo { manager.removeAllActions(withTarget: model) }
            case .disableAndEnable:
                manager.disableUndoRegistration()
                manager.enableUndoRegistration()
            }
        }

        /// The models, the manager's counts and listing, and the events since the last call.
        func takeState() -> [String] {
            defer { events.removeAll() }
            return models.map { "\($0.name)=\($0.value)" } + [
                "undo \(manager.undoCount) redo \(manager.redoCount) level \(manager.groupingLevel)",
                "names \(manager.undoActionNames) / \(manager.redoActionNames)",
            ] + events
        }
    }

    /// The command: adds `amount`, and does `effect` each time it runs, before its inverse is
    /// recorded (as a handler does before it registers its inverse).
    struct Bump: UndoableCommand {
        let amount: Int
        let effect: Effect
        unowned let world: World

        func execute(on model: Model) {
            model.value += amount
            world.perform(effect, on: model, manager: world.manager)
        }

        func undo(on model: Model) {
            model.value -= amount
            world.perform(effect, on: model, manager: world.manager)
        }
    }

    /// `Bump` as plain data of less than a word, which the manager keeps in the step itself
    /// (`InlineCommandOwner`); it reaches the world through its model.
    struct SmallBump: UndoableCommand {
        let amount: Int32
        let effect: Effect

        func execute(on model: Model) {
            model.value += Int(amount)
            model.world!.perform(effect, on: model, manager: model.world!.manager)
        }

        func undo(on model: Model) {
            model.value -= Int(amount)
            model.world!.perform(effect, on: model, manager: model.world!.manager)
        }
    }

    /// The closure registration a `Bump` stands for.
    static func bump(_ amount: Int, _ effect: Effect, on model: Model, in world: World) {
        model.value += amount
        world.perform(effect, on: model, manager: world.manager)
        world.manager.registerUndo(withTarget: model) { model in bump(-amount, effect, on: model, in: world) }
    }

    @Test("random scripts: every state and event agrees",
          arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8], [false, true])
    func randomScripts(seed: UInt64, commandsInSteps: Bool) {
        #expect(InlineCommandOwner<SmallBump>.fitsInStep && !InlineCommandOwner<Bump>.fitsInStep)
        var random = SplitMix64(seed: seed)
        let commands = World(), closures = World()
        var log: [String] = []
        for _ in 0..<150 {
            let choice = Int.random(in: 0..<10, using: &random)
            switch choice {
            case 0...4:
                // A group of runs: commands on one model, then maybe on the other.
                let steps = Int.random(in: 1...8, using: &random)
                var description = "group:"
                commands.manager.beginUndoGrouping()
                closures.manager.beginUndoGrouping()
                for _ in 0..<steps {
                    let index = Int.random(in: 0..<4, using: &random) == 0 ? 1 : 0
                    let amount = Int.random(in: 1...9, using: &random)
                    let effect: Effect = switch Int.random(in: 0..<40, using: &random) {
                    case 0: .registerOnOther
                    case 1: .removeOther
                    case 2: .removeOwn
                    case 3: .disableAndEnable
                    default: .none
                    }
                    description += " \(index):\(amount)\(effect == .none ? "" : "(\(effect))")"
                    if commandsInSteps {
                        commands.manager.perform(SmallBump(amount: Int32(amount), effect: effect), on: commands.models[index])
                    } else {
                        commands.manager.perform(Bump(amount: amount, effect: effect, world: commands), on: commands.models[index])
                    }
                    Self.bump(amount, effect, on: closures.models[index], in: closures)
                }
                if commands.manager.groupingLevel > 0 { commands.manager.endUndoGrouping() }
                if closures.manager.groupingLevel > 0 { closures.manager.endUndoGrouping() }
                log.append(description)
            case 5...6:
                if commands.manager.canUndo { commands.manager.undo() }
                if closures.manager.canUndo { closures.manager.undo() }
                log.append("undo")
            case 7...8:
                if commands.manager.canRedo { commands.manager.redo() }
                if closures.manager.canRedo { closures.manager.redo() }
                log.append("redo")
            default:
                let index = Int.random(in: 0..<2, using: &random)
                commands.manager.removeAllActions(withTarget: commands.models[index])
                closures.manager.removeAllActions(withTarget: closures.models[index])
                log.append("remove m\(index)")
            }
            let (expected, actual) = (closures.takeState(), commands.takeState())
            #expect(actual == expected, "seed \(seed) after \(log.suffix(5))")
            if actual != expected { return }
        }
    }
}
