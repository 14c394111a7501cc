import Foundation
import Testing
@testable import UndoKit

/// The global order as a plain model: each manager is two lists of named groups and maybe an
/// open one; the coordinator is two lists of (manager, name). Every operation is written
/// down from the spec's rules directly, with none of the real implementation's machinery
/// (tokens, counts, fast paths).
private struct CoordinationReferenceModel {
    struct Group {
        var name: String
        var targets: Set<Int>
    }

    struct Member {
        var generation = 0
        var undo: [Group] = []
        var redo: [Group] = []
        var open: Group?
        var limit = 0
        var isAttached = true
        /// When its open group opened, as the coordinator saw it (0: before it was attached).
        var openSerial = 0
    }

    struct Step: Equatable {
        var slot: Int
        var name: String
    }

    var members: [Member]
    var undoOrder: [Step] = []
    var redoOrder: [Step] = []
    /// Attached slots, in the order the coordinator holds them.
    var attachOrder: [Int]
    /// The run loop's list of managers waiting for the end of the event: (slot, generation).
    var loopList: [(slot: Int, generation: Int)] = []
    var serial = 0

    init(slots: Int) {
        members = Array(repeating: Member(), count: slots)
        attachOrder = Array(0..<slots)
    }

    // MARK: One manager

    mutating func register(in slot: Int, target: Int, name: String) {
        clearRedo(slot)
        if members[slot].open == nil {
            open(slot)
        }
        members[slot].open?.targets.insert(target)
        members[slot].open?.name = name
    }

    /// `setActionName(_:)`: opens the automatic group if needed, without clearing redo
    /// (R37), and names it.
    mutating func name(in slot: Int, name: String) {
        if members[slot].open == nil {
            open(slot)
        }
        members[slot].open?.name = name
    }

    mutating func close(_ slot: Int) {
        guard let group = members[slot].open else { return }
        members[slot].open = nil
        if group.targets.isEmpty {
            clearRedo(slot)   // closing an empty group clears redo (R10.6)
        }
        pushUndo(group, in: slot)
    }

    mutating func undo(_ slot: Int) {
        close(slot)
        guard let group = members[slot].undo.popLast() else { return }
        undoOrder.removeAll { $0.name == group.name }
        guard !group.targets.isEmpty else { return }   // an empty group leaves no redo group
        members[slot].redo.append(group)
        if members[slot].isAttached {
            redoOrder.append(Step(slot: slot, name: group.name))
        }
    }

    mutating func redo(_ slot: Int) {
        precondition(members[slot].open == nil, "the model does not nest redo in an open group")
        guard let group = members[slot].redo.popLast() else { return }
        redoOrder.removeAll { $0.name == group.name }
        pushUndo(group, in: slot)
    }

    mutating func tick() {
        let due = loopList
        loopList.removeAll()
        for entry in due where members[entry.slot].generation == entry.generation {
            close(entry.slot)
        }
    }

    mutating func removeAll(_ slot: Int) {
        members[slot].undo.removeAll()
        members[slot].redo.removeAll()
        members[slot].open = nil
        dropSteps(of: slot)
    }

    mutating func remove(target: Int, in slot: Int) {
        func strip(_ groups: inout [Group]) -> [String] {
            var removed: [String] = []
            var kept: [Group] = []
            for var group in groups {
                // Only groups emptied by this removal go; groups empty already stay (R33).
                if group.targets.remove(target) != nil && group.targets.isEmpty {
                    removed.append(group.name)
                } else {
                    kept.append(group)
                }
            }
            groups = kept
            return removed
        }
        let removedUndo = strip(&members[slot].undo)
        let removedRedo = strip(&members[slot].redo)
        undoOrder.removeAll { removedUndo.contains($0.name) }
        redoOrder.removeAll { removedRedo.contains($0.name) }
        members[slot].open?.targets.remove(target)   // open groups stay, even emptied
    }

    mutating func setLimit(_ limit: Int, in slot: Int) {
        members[slot].limit = limit
        guard limit > 0 else { return }
        while members[slot].undo.count + (members[slot].open == nil ? 0 : 1) > limit {
            dropOldestUndo(slot)
        }
    }

    // MARK: The coordinator

    mutating func coordinatorUndo() {
        endEventGroups()
        if let step = undoOrder.last {
            undo(step.slot)
        }
    }

    mutating func coordinatorRedo() {
        endEventGroups()
        if let step = redoOrder.last {
            redo(step.slot)
        }
    }

    mutating func detach(_ slot: Int) {
        members[slot].isAttached = false
        dropSteps(of: slot)
        attachOrder.removeAll { $0 == slot }
    }

    mutating func attach(_ slot: Int) {
        members[slot].isAttached = true
        members[slot].openSerial = 0
        undoOrder = members[slot].undo.map { Step(slot: slot, name: $0.name) } + undoOrder
        redoOrder = members[slot].redo.map { Step(slot: slot, name: $0.name) } + redoOrder
        attachOrder.append(slot)
    }

    /// The manager in `slot` goes away and a fresh, attached one takes its place.
    mutating func replace(_ slot: Int) {
        dropSteps(of: slot)
        attachOrder.removeAll { $0 == slot }
        members[slot] = Member(generation: members[slot].generation + 1)
        attachOrder.append(slot)
    }

    var canUndo: Bool {
        !undoOrder.isEmpty || attachOrder.contains { members[$0].open != nil }
    }

    var undoActionName: String {
        if let slot = newestOpenSlot {
            return members[slot].open?.name ?? ""
        }
        return undoOrder.last?.name ?? ""
    }

    /// The step redo() would perform once the open groups are ended: an empty open group
    /// of an attached manager is a new edit when it closes, which ends redo for all.
    var redoStep: Step? {
        guard !attachOrder.contains(where: { members[$0].open.map(\.targets.isEmpty) ?? false }) else { return nil }
        return redoOrder.last
    }

    // MARK: Helpers

    /// Opens the automatic group and arms the end of the event.
    private mutating func open(_ slot: Int) {
        members[slot].open = Group(name: "", targets: [])
        if members[slot].isAttached {
            serial += 1
            members[slot].openSerial = serial
        }
        // A group opened again in the pass (after endEventGroup() or an undo ended the first)
        // closes behind the groups opened since: a tick ends groups in the order they opened,
        // as the coordinator's undo() does.
        let generation = members[slot].generation
        loopList.removeAll { $0.slot == slot && $0.generation == generation }
        loopList.append((slot, generation))
    }

    private var openSlotsInEndingOrder: [Int] {
        attachOrder.enumerated()
            .filter { members[$0.element].open != nil }
            .sorted { (members[$0.element].openSerial, $0.offset) < (members[$1.element].openSerial, $1.offset) }
            .map(\.element)
    }

    private var newestOpenSlot: Int? {
        openSlotsInEndingOrder.last
    }

    private mutating func endEventGroups() {
        for slot in openSlotsInEndingOrder {
            close(slot)
        }
    }

    private mutating func pushUndo(_ group: Group, in slot: Int) {
        members[slot].undo.append(group)
        if members[slot].isAttached {
            undoOrder.append(Step(slot: slot, name: group.name))
        }
        let limit = members[slot].limit
        if limit > 0 && members[slot].undo.count > limit {
            dropOldestUndo(slot)
        }
    }

    private mutating func dropOldestUndo(_ slot: Int) {
        let dropped = members[slot].undo.removeFirst()
        undoOrder.removeAll { $0.name == dropped.name }
    }

    /// A new edit: the manager's own redo steps go (R4, R10.6) and, if it is attached, the
    /// coordinated history is one line, so every attached manager's redo steps go too.
    private mutating func clearRedo(_ slot: Int) {
        members[slot].redo.removeAll()
        redoOrder.removeAll { $0.slot == slot }
        guard members[slot].isAttached else { return }
        for other in attachOrder {
            members[other].redo.removeAll()
        }
        redoOrder.removeAll()
    }

    private mutating func dropSteps(of slot: Int) {
        undoOrder.removeAll { $0.slot == slot }
        redoOrder.removeAll { $0.slot == slot }
    }
}

@Suite("UndoCoordinator against a reference model, randomized with fixed seeds")
struct CoordinationRandomizedTests {
    private enum Operation: CustomStringConvertible {
        case edit(slot: Int, target: Int, end: EventEnd)
        case name(slot: Int)
        case tick
        case undo(slot: Int)
        case redo(slot: Int)
        case coordinatorUndo
        case coordinatorRedo
        case removeAll(slot: Int)
        case removeTarget(slot: Int, target: Int)
        case setLimit(slot: Int, limit: Int)
        case toggleAttachment(slot: Int)
        case replace(slot: Int)

        enum EventEnd {
            case stayOpen, endEventGroup, tick
        }

        var description: String {
            switch self {
            case .edit(let slot, let target, let end): "edit(\(slot), target \(target), \(end))"
            case .name(let slot): "name(\(slot))"
            case .tick: "tick"
            case .undo(let slot): "undo(\(slot))"
            case .redo(let slot): "redo(\(slot))"
            case .coordinatorUndo: "coordinator.undo()"
            case .coordinatorRedo: "coordinator.redo()"
            case .removeAll(let slot): "removeAll(\(slot))"
            case .removeTarget(let slot, let target): "removeTarget(\(slot), \(target))"
            case .setLimit(let slot, let limit): "levelsOfUndo(\(slot)) = \(limit)"
            case .toggleAttachment(let slot): "toggleAttachment(\(slot))"
            case .replace(let slot): "replace(\(slot))"
            }
        }
    }

    private static func randomOperation(using random: inout SplitMix64, slots: Int) -> Operation {
        let slot = Int.random(in: 0..<slots, using: &random)
        let target = Int.random(in: 0..<2, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<34:
            let end: Operation.EventEnd = switch Int.random(in: 0..<4, using: &random) {
            case 0: .stayOpen
            case 1: .endEventGroup
            default: .tick
            }
            return .edit(slot: slot, target: target, end: end)
        case 34..<38: return .name(slot: slot)
        case 38..<42: return .tick
        case 42..<52: return .undo(slot: slot)
        case 52..<60: return .redo(slot: slot)
        case 60..<73: return .coordinatorUndo
        case 73..<84: return .coordinatorRedo
        case 84..<86: return .removeAll(slot: slot)
        case 86..<92: return .removeTarget(slot: slot, target: target)
        case 92..<95: return .setLimit(slot: slot, limit: Int.random(in: 0...3, using: &random))
        case 95..<98: return .toggleAttachment(slot: slot)
        default: return .replace(slot: slot)
        }
    }

    @Test("Random edits, undos, redos, removals, limits, detaching and deallocation keep the model's order",
          arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
    func matchesReferenceModel(seed: UInt64) {
        let slots = 3
        let steps = 3000
        var random = SplitMix64(seed: seed)
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        var managers: [UndoManager] = (0..<slots).map { _ in UndoManager(runLoop: loop) }
        let targets = (0..<slots).map { _ in [CoordinationCounter(), CoordinationCounter()] }
        for manager in managers {
            coordinator.attach(manager)
        }
        var model = CoordinationReferenceModel(slots: slots)
        var nextName = 0

        for index in 0..<steps {
            let operation = Self.randomOperation(using: &random, slots: slots)
            switch operation {
            case .edit(let slot, let target, let end):
                nextName += 1
                let name = "g\(nextName)"
                targets[slot][target].add(1, using: managers[slot])
                managers[slot].setActionName(name)
                model.register(in: slot, target: target, name: name)
                switch end {
                case .stayOpen:
                    break
                case .endEventGroup:
                    #expect(managers[slot].endEventGroup())
                    model.close(slot)
                case .tick:
                    loop.tick()
                    model.tick()
                }
            case .name(let slot):
                nextName += 1
                let name = "g\(nextName)"
                managers[slot].setActionName(name)
                model.name(in: slot, name: name)
            case .tick:
                loop.tick()
                model.tick()
            case .undo(let slot):
                managers[slot].undo()
                model.undo(slot)
            case .redo(let slot):
                guard model.members[slot].open == nil else { continue }
                managers[slot].redo()
                model.redo(slot)
            case .coordinatorUndo:
                coordinator.undo()
                model.coordinatorUndo()
            case .coordinatorRedo:
                coordinator.redo()
                model.coordinatorRedo()
            case .removeAll(let slot):
                managers[slot].removeAllActions()
                model.removeAll(slot)
            case .removeTarget(let slot, let target):
                managers[slot].removeAllActions(withTarget: targets[slot][target])
                model.remove(target: target, in: slot)
            case .setLimit(let slot, let limit):
                managers[slot].levelsOfUndo = limit
                model.setLimit(limit, in: slot)
            case .toggleAttachment(let slot):
                if model.members[slot].isAttached {
                    coordinator.detach(managers[slot])
                    model.detach(slot)
                } else {
                    coordinator.attach(managers[slot])
                    model.attach(slot)
                }
            case .replace(let slot):
                weak let old = managers[slot]
                managers[slot] = UndoManager(runLoop: loop)
                #expect(old == nil, "the coordinator keeps no manager alive")
                coordinator.attach(managers[slot])
                model.replace(slot)
            }

            // Queries synchronize the coordinator, so checking after every operation would
            // never let an undo or a close meet a removal the coordinator has not seen yet.
            guard Int.random(in: 0..<3, using: &random) == 0 || index == steps - 1 else { continue }
            let expected = CoordinationOrder(
                undo: model.undoOrder.map(\.name),
                redo: model.redoOrder.map(\.name)
            )
            let actual = coordinator.order()
            let context = "seed \(seed), step \(index): \(operation)"
            guard actual == expected,
                  coordinator.canUndo == model.canUndo,
                  coordinator.undoActionName == model.undoActionName,
                  coordinator.canRedo == (model.redoStep != nil),
                  coordinator.redoActionName == (model.redoStep?.name ?? "")
            else {
                Issue.record("""
                    \(context)
                    order: \(actual), model: \(expected)
                    canUndo \(coordinator.canUndo) (model \(model.canUndo)), \
                    undoActionName \(coordinator.undoActionName) (model \(model.undoActionName)), \
                    canRedo \(coordinator.canRedo) (model \(model.redoStep != nil)), \
                    redoActionName \(coordinator.redoActionName) (model \(model.redoStep?.name ?? ""))
                    """)
                return
            }
            coordinator.checkInvariants()
            for manager in managers {
                manager.checkInvariants()
            }
        }
    }
}
