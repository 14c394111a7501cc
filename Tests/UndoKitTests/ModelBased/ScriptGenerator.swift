// Random scripts for the model-based test: the step vocabulary and a weighted generator
// over the shared SplitMix64. Nothing here knows about UndoKit's internals.

@testable import UndoKit

/// Namespace for the model-based test, so its helper types cannot collide with other suites
/// sharing the test module.
enum ModelBased {}

extension SplitMix64 {
    /// Uniform in `0..<bound`; the modulo bias is irrelevant for test-case selection
    /// and avoiding `Int.random(in:using:)` keeps the sequence independent of the
    /// stdlib's sampling algorithm.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}

extension ModelBased {
    /// The run-loop modes a script can tick in or list in `runLoopModes`.
    enum Mode: Hashable, CustomStringConvertible {
        case standard
        case tracking

        var description: String {
            self == .standard ? ".default" : ".tracking"
        }
    }

    /// An undo operation as data, so the model and the real manager run the very same
    /// operation: it sets its target's value and, depending on `remaining`, registers the
    /// operation that sets the value back.
    struct Action: Equatable {
        var targetID: Int
        var setTo: Int
        /// How many more inverses this chain registers: `nil` forever (the usual
        /// undo/redo ping-pong), `0` none (a handler that registers nothing).
        var remaining: Int?
        /// Called from inside the handler, to cover naming the group being built while
        /// undoing or redoing (spec R34).
        var innerName: String?
        var innerDiscardable: Bool?
        /// Issue 26: called from inside the handler too: `setActionCost(_:)` while undoing or
        /// redoing, which the manager ignores (the step keeps the cost it was recorded with).
        var innerCost: Int? = nil
        /// Issue 26: set for a step recorded by `perform(_:on:)`: the command as the previous
        /// call left it, and which of its methods invoking the step runs. `setTo`, `remaining`
        /// and the inner calls are unused then.
        var command: CommandState? = nil

        /// The operation registered when this one runs and replaces `oldValue`.
        func inverse(restoring oldValue: Int) -> Action? {
            if remaining == 0 {
                return nil
            }
            var inverse = self
            inverse.setTo = oldValue
            inverse.remaining = remaining.map { $0 - 1 }
            return inverse
        }
    }

    /// Issue 26: the commands a script performs with `perform(_:on:)` (UsingCommands.md).
    enum CommandSpec: Equatable, CustomStringConvertible {
        /// Adds `amount` to the target's value; `undo` subtracts it. No name, and one word of
        /// plain data: the kind of command UndoKit keeps inside the step itself.
        case nudge(amount: Int)
        /// Sets the value to `value`, recording in `execute` the value it replaced, for `undo`
        /// to put back; named `name` (empty: leaves the group's name alone).
        case assign(value: Int, name: String)

        var actionName: String {
            if case let .assign(_, name) = self { name } else { "" }
        }

        var description: String {
            switch self {
            case let .nudge(amount): "Nudge(\(amount))"
            case let .assign(value, name): "Assign(\(value), name: \"\(name)\")"
            }
        }
    }

    /// Issue 26: a command as a step holds it: as the previous call left it ("the undo step
    /// holds the command after `execute`, and the redo step holds it after `undo`").
    struct CommandState: Equatable {
        var spec: CommandSpec
        /// What `Assign.execute` recorded.
        var previous: Int?
        /// Whether invoking the step runs `undo(on:)` (an undo step) or `execute(on:)` (a redo
        /// step).
        var runsUndo: Bool

        mutating func execute(on value: inout Int) {
            switch spec {
            case let .nudge(amount): value += amount
            case let .assign(newValue, _):
                previous = value
                value = newValue
            }
        }

        mutating func undo(on value: inout Int) {
            switch spec {
            case let .nudge(amount): value -= amount
            case .assign:
                guard let previous else { preconditionFailure("model: Assign undone before it executed") }
                value = previous
            }
        }
    }

    /// One step of a script: a public call on the manager (or on a target's lifetime).
    enum Step: CustomStringConvertible {
        /// The app edits target `slot` to `value` and registers the edit's inverse.
        case edit(slot: Int, value: Int, remaining: Int?, innerName: String?, innerDiscardable: Bool?, innerCost: Int?)
        case begin
        case end
        case undo
        case undoNested
        case redo
        case tick(Mode)
        case setLevels(Int)
        case disable
        case enable
        case removeAll
        case removeAllWithTarget(slot: Int)
        case setName(String)
        case setDiscardable(Bool)
        case setUserInfo(key: Int, value: Int?)
        case setGroupsByEvent(Bool)
        case setRunLoopModes([Mode])
        /// The target in `slot` is released and replaced by a fresh object (spec R8, H3).
        case replaceTarget(slot: Int)
        /// Issue 10: `setActionCoalescingKey(_:)`.
        case setCoalescingKey(String?)
        /// Issue 10: the injected coalescing clock moves on by this many milliseconds.
        case advanceClock(milliseconds: Int)
        /// Issue 10: `markClean()`.
        case markClean
        /// Issue 18: `withUndoGroup(named:_:)` running `body`, which throws after its last step
        /// if `fails` (the script catches it). Its steps never trap; a target whose actions
        /// are removed in the scope is not edited or redone in it (its edits could not be
        /// rolled back: their inverses are gone).
        indirect case scope(name: String?, body: [Step], fails: Bool)
        /// Issue 20: `keepsRedoBranches = flag`.
        case setKeepsRedoBranches(Bool)
        /// Issue 20: `go(to:)` a node of the tree as it is before the step: of its nodes in
        /// id order followed by nil (the start), the one at `rank` modulo their number. The
        /// generator does not know the tree; the harness picks the node when the step runs.
        case goTo(rank: Int)
        /// Issue 20: `go(to:)` a node that has left the tree (a trap): of those, in id order,
        /// the one at `rank` modulo their number.
        case goToRemoved(rank: Int)
        /// Issue 20: `goToEarlierState()` and `goToLaterState()`.
        case goToEarlierState
        case goToLaterState
        /// Issue 26: `perform(command, on: t<slot>)`.
        case perform(slot: Int, command: CommandSpec)
        /// Issue 26: `setActionCost(_:)` (a negative cost traps) and `actionCostLimit = n`.
        case setCost(Int)
        case setCostLimit(Int)
        /// Issue 26: `endEventGroup()`, which `UndoCoordinator.undo()` and `redo()` call on
        /// every member.
        case endEventGroup

        /// Whether this is a scope that throws, or a scope holding one.
        var containsFailingScope: Bool {
            guard case let .scope(_, body, fails) = self else { return false }
            return fails || body.contains(where: \.containsFailingScope)
        }

        var description: String {
            switch self {
            case let .edit(slot, value, remaining, innerName, innerDiscardable, innerCost):
                var text = "edit(t\(slot) = \(value), inverses: \(remaining.map(String.init) ?? "always")"
                if let innerName { text += ", innerName: \"\(innerName)\"" }
                if let innerDiscardable { text += ", innerDiscardable: \(innerDiscardable)" }
                if let innerCost { text += ", innerCost: \(innerCost)" }
                return text + ")"
            case .begin: return "beginUndoGrouping()"
            case .end: return "endUndoGrouping()"
            case .undo: return "undo()"
            case .undoNested: return "undoNestedGroup()"
            case .redo: return "redo()"
            case let .tick(mode): return "runLoop.tick(mode: \(mode))"
            case let .setLevels(levels): return "levelsOfUndo = \(levels)"
            case .disable: return "disableUndoRegistration()"
            case .enable: return "enableUndoRegistration()"
            case .removeAll: return "removeAllActions()"
            case let .removeAllWithTarget(slot): return "removeAllActions(withTarget: t\(slot))"
            case let .setName(name): return "setActionName(\"\(name)\")"
            case let .setDiscardable(flag): return "setActionIsDiscardable(\(flag))"
            case let .setUserInfo(key, value):
                return "setActionUserInfoValue(\(value.map(String.init) ?? "nil"), forKey: k\(key))"
            case let .setGroupsByEvent(flag): return "groupsByEvent = \(flag)"
            case let .setRunLoopModes(modes): return "runLoopModes = \(modes)"
            case let .replaceTarget(slot): return "replace t\(slot) (old object released)"
            case let .setCoalescingKey(key): return "setActionCoalescingKey(\(key.map { "\"\($0)\"" } ?? "nil"))"
            case let .advanceClock(milliseconds): return "clock += \(milliseconds) ms"
            case .markClean: return "markClean()"
            case let .scope(name, body, fails):
                let steps = body.map(\.description) + (fails ? ["throw"] : [])
                return "withUndoGroup(named: \(name.map { "\"\($0)\"" } ?? "nil")) { \(steps.joined(separator: "; ")) }"
            case let .setKeepsRedoBranches(flag): return "keepsRedoBranches = \(flag)"
            case let .goTo(rank): return "go(to: tree node at rank \(rank), nil past the last)"
            case let .goToRemoved(rank): return "go(to: removed node at rank \(rank)) (stale)"
            case .goToEarlierState: return "goToEarlierState()"
            case .goToLaterState: return "goToLaterState()"
            case let .perform(slot, command): return "perform(\(command), on: t\(slot))"
            case let .setCost(bytes): return "setActionCost(\(bytes))"
            case let .setCostLimit(bytes): return "actionCostLimit = \(bytes)"
            case .endEventGroup: return "endEventGroup()"
            }
        }
    }

    /// A notification's kind, without its payload.
    enum EventKind: CaseIterable {
        case checkpoint, didOpen, willClose, didClose, willUndo, didUndo, willRedo, didRedo, didDropStale, didFailAsync

        init(_ event: UndoManager.Event) {
            self =
                switch event {
                case .checkpoint: .checkpoint
                case .didOpenUndoGroup: .didOpen
                case .willCloseUndoGroup: .willClose
                case .didCloseUndoGroup: .didClose
                case .willUndoChange: .willUndo
                case .didUndoChange: .didUndo
                case .willRedoChange: .willRedo
                case .didRedoChange: .didRedo
                case .didDropStaleStep: .didDropStale
                case .didFailAsyncStep: .didFailAsync
                }
        }
    }

    /// A script's starting configuration, applied before its first step.
    struct Setup: CustomStringConvertible {
        var groupsByEvent: Bool
        var levelsOfUndo: Int
        /// The notifications on which the observer reads the manager's state and `canRedo`,
        /// as a menu-validating observer would: checks the state seen in the middle of an
        /// operation and the checkpoint re-entrancy guard (spec R43).
        var reactions: Set<EventKind>
        /// Issue 20: whether the script uses the history tree at all (reads it from the
        /// start, compares it after every step, and may turn branches on and jump). The
        /// others are issue 2's scripts of Apple's behaviour alone, which never make the
        /// manager record a tree.
        var recordsTree: Bool
        var keepsRedoBranches: Bool
        /// Issue 26: `actionCostLimit` (0: none).
        var actionCostLimit = 0
        /// Issue 26: whether the manager is an instance of a (trivial) subclass, on which
        /// UndoKit records commands through `registerUndo(withTarget:handler:)` and routes undo
        /// through the overridable members.
        var isSubclassInstance = false

        var description: String {
            let kinds = reactions.map { "\($0)" }.sorted()
            let tree = recordsTree ? "keepsRedoBranches = \(keepsRedoBranches)" : "history tree not recorded"
            return "groupsByEvent = \(groupsByEvent), \(tree), levelsOfUndo = \(levelsOfUndo), "
                + "actionCostLimit = \(actionCostLimit), \(isSubclassInstance ? "a subclass instance, " : "")"
                + "observer reacts to \(kinds)"
        }
    }

    static let targetCount = 3
    static let userInfoKeyCount = 2
    static let actionNames = ["", "Typing", "Move", "Delete"]
    static let coalescingKeys: [String?] = ["typing", "typing", "typing", "move", nil]
    /// Issue 26: costs and budgets of a size that makes a few steps fill a budget.
    static let costs = [0, 1, 3, 5, 10, 20, 40]
    static let costLimits = [0, 8, 15, 30, 60, -5]

    /// Draws steps with fixed weights. The generator ignores the manager's state on purpose:
    /// steps that would trap are filtered by the model's prediction instead, so the
    /// prediction itself is exercised on every kind of step.
    struct ScriptGenerator {
        var rng: SplitMix64
        private var nextValue = 1
        /// Issue 20: the setup's `recordsTree`; without it no step touches the tree.
        private var recordsTree = true

        init(seed: UInt64) {
            rng = SplitMix64(seed: seed)
        }

        mutating func setup() -> Setup {
            let groupsByEvent = !rng.chance(20)
            let levels = rng.chance(25) ? 1 + rng.below(3) : 0
            var reactions: Set<EventKind> = []
            if rng.chance(35) {
                for kind in EventKind.allCases where rng.chance(30) {
                    reactions.insert(kind)
                }
            }
            // Drawn last, so that the other choices stay what they were before issue 20.
            let keepsRedoBranches = rng.chance(50)
            recordsTree = keepsRedoBranches || rng.chance(50)
            // Issue 26.
            let costLimit = rng.chance(20) ? [10, 25, 50][rng.below(3)] : 0
            return Setup(
                groupsByEvent: groupsByEvent, levelsOfUndo: levels, reactions: reactions,
                recordsTree: recordsTree, keepsRedoBranches: keepsRedoBranches, actionCostLimit: costLimit)
        }

        mutating func length() -> Int {
            10 + rng.below(51)
        }

        /// The kinds of step with their weights (summing to 100). Registration-related steps
        /// dominate so stacks get deep enough for trimming, nesting and removal to matter.
        private enum Kind: CaseIterable {
            case edit, begin, end, undo, undoNested, redo, tick, setLevels, disable, enable
            case removeAll, removeAllWithTarget, setName, setDiscardable, setUserInfo
            case setGroupsByEvent, setRunLoopModes, replaceTarget
            case setCoalescingKey, advanceClock, markClean
            case scope
            case setKeepsRedoBranches, goTo, goToRemoved, goToEarlierState, goToLaterState
            case perform, setCost, setCostLimit, endEventGroup

            var usesTree: Bool {
                switch self {
                case .setKeepsRedoBranches, .goTo, .goToRemoved, .goToEarlierState, .goToLaterState: true
                default: false
                }
            }

            var weight: Int {
                switch self {
                case .edit: 28
                case .begin: 8
                case .end: 9
                case .undo: 9
                case .undoNested: 4
                case .redo: 7
                case .tick: 9
                case .setLevels: 2
                case .disable: 2
                case .enable: 4
                case .removeAll: 1
                case .removeAllWithTarget: 3
                case .setName: 5
                case .setDiscardable: 3
                case .setUserInfo: 2
                case .setGroupsByEvent: 2
                case .setRunLoopModes: 1
                case .replaceTarget: 1
                // Issue 10's steps, on top of the original 100.
                case .setCoalescingKey: 14
                case .advanceClock: 4
                case .markClean: 4
                // Issue 18's scoped groups.
                case .scope: 5
                // Issue 20's history tree: jumps often enough that branches are walked
                // and trimmed, toggling rarely enough that branches grow.
                case .setKeepsRedoBranches: 2
                case .goTo: 7
                case .goToRemoved: 1
                case .goToEarlierState: 3
                case .goToLaterState: 3
                // Issue 26: commands, costs and ending the event by hand.
                case .perform: 12
                case .setCost: 8
                case .setCostLimit: 4
                case .endEventGroup: 3
                }
            }

            static let totalWeight = allCases.reduce(0) { $0 + $1.weight }
        }

        mutating func step() -> Step {
            var kind = Kind.edit
            repeat {
                var roll = rng.below(Kind.totalWeight)
                for candidate in Kind.allCases {
                    if roll < candidate.weight {
                        kind = candidate
                        break
                    }
                    roll -= candidate.weight
                }
            } while kind.usesTree && !recordsTree
            return step(of: kind)
        }

        /// Issue 26: a step of one member of a coordinated script (CoordinatorModelBasedTests
        /// .swift). The shared run loop's ticks and the clock are the script's own steps;
        /// `groupsByEvent` and the run-loop modes stay as set up; coordinated managers cannot
        /// keep branches, and the scripts do not record the tree.
        mutating func coordinatedMemberStep() -> Step {
            let weights: [(Kind, Int)] = [
                (.edit, 22), (.perform, 10), (.begin, 4), (.end, 5), (.undo, 6), (.undoNested, 2), (.redo, 5),
                (.setLevels, 1), (.disable, 1), (.enable, 2), (.removeAll, 1), (.removeAllWithTarget, 3),
                (.setName, 4), (.setDiscardable, 1), (.setUserInfo, 1), (.replaceTarget, 1), (.setCoalescingKey, 7),
                (.markClean, 2), (.scope, 3), (.setCost, 5), (.setCostLimit, 2), (.endEventGroup, 3),
            ]
            var roll = rng.below(weights.reduce(0) { $0 + $1.1 })
            for (kind, weight) in weights {
                if roll < weight {
                    return step(of: kind)
                }
                roll -= weight
            }
            preconditionFailure("unreachable")
        }

        private mutating func step(of kind: Kind) -> Step {
            switch kind {
            case .edit: return edit()
            case .begin: return .begin
            case .end: return .end
            case .undo: return .undo
            case .undoNested: return .undoNested
            case .redo: return .redo
            case .tick: return .tick(rng.chance(10) ? .tracking : .standard)
            case .setLevels: return .setLevels([0, 1, 2, 3, 5][rng.below(5)])
            case .disable: return .disable
            case .enable: return .enable
            case .removeAll: return .removeAll
            case .removeAllWithTarget: return .removeAllWithTarget(slot: rng.below(ModelBased.targetCount))
            case .setName: return .setName(ModelBased.actionNames[rng.below(ModelBased.actionNames.count)])
            case .setDiscardable: return .setDiscardable(rng.chance(60))
            case .setUserInfo:
                return .setUserInfo(
                    key: rng.below(ModelBased.userInfoKeyCount), value: rng.chance(25) ? nil : rng.below(10))
            case .setGroupsByEvent: return .setGroupsByEvent(rng.chance(60))
            case .setRunLoopModes:
                return .setRunLoopModes([[.standard], [.standard, .tracking], [.tracking]][rng.below(3)])
            case .replaceTarget: return .replaceTarget(slot: rng.below(ModelBased.targetCount))
            case .setCoalescingKey:
                return .setCoalescingKey(ModelBased.coalescingKeys[rng.below(ModelBased.coalescingKeys.count)])
            case .advanceClock: return .advanceClock(milliseconds: [300, 700, 999, 1000, 2500][rng.below(5)])
            case .markClean: return .markClean
            case .scope: return scope()
            case .setKeepsRedoBranches: return .setKeepsRedoBranches(rng.chance(60))
            case .goTo: return .goTo(rank: rng.below(64))
            case .goToRemoved: return .goToRemoved(rank: rng.below(64))
            case .goToEarlierState: return .goToEarlierState
            case .goToLaterState: return .goToLaterState
            case .perform: return perform()
            case .setCost: return setCost()
            case .setCostLimit: return .setCostLimit(ModelBased.costLimits[rng.below(ModelBased.costLimits.count)])
            case .endEventGroup: return .endEventGroup
            }
        }

        /// Issue 26: a negative cost now and then, for the trap.
        mutating func setCost() -> Step {
            .setCost(rng.chance(2) ? -1 : ModelBased.costs[rng.below(ModelBased.costs.count)])
        }

        /// Issue 26: a command on a random target, with a fresh value as for an edit.
        mutating func perform() -> Step {
            nextValue += 1
            let slot = rng.below(ModelBased.targetCount)
            if rng.chance(45) {
                return .perform(slot: slot, command: .nudge(amount: nextValue))
            }
            let name = rng.chance(60) ? ModelBased.actionNames[rng.below(ModelBased.actionNames.count)] : ""
            return .perform(slot: slot, command: .assign(value: nextValue, name: name))
        }

        /// A scope of up to four steps, nested scopes among them (two levels at most).
        private mutating func scope() -> Step {
            let removesActions = rng.chance(30)
            var edited: Set<Int> = []
            var removed: [Int] = []
            var top = scope(depth: 0, removesActions: removesActions, edited: &edited, removed: &removed)
            if top.containsFailingScope {
                // A rollback undoes what the redone actions registered; a redone step whose
                // actions register nothing (a finite chain of inverses) cannot be rolled back,
                // so the model could not say where its targets end up. The unit tests cover
                // redo in a failing scope with actions that always register their inverse.
                top = Self.removingRedos(from: top)
            }
            guard removesActions else { return top }
            // Removal targets: slots the scope does not edit (chosen once the body is known).
            let untouched = (0..<ModelBased.targetCount).filter { !edited.contains($0) }
            return Self.resolvingRemovals(top, to: untouched)
        }

        private mutating func scope(depth: Int, removesActions: Bool, edited: inout Set<Int>, removed: inout [Int]) -> Step {
            let name = rng.chance(40) ? ModelBased.actionNames[rng.below(ModelBased.actionNames.count)] : nil
            var body: [Step] = []
            for _ in 0..<rng.below(5) {
                let roll = rng.below(100)
                switch roll {
                case ..<42:
                    let step = edit()
                    if case let .edit(slot, _, _, _, _, _) = step { edited.insert(slot) }
                    body.append(step)
                case ..<52:
                    // Issue 26: commands and costs inside scopes.
                    let step = perform()
                    if case let .perform(slot, _) = step { edited.insert(slot) }
                    body.append(step)
                case ..<55:
                    body.append(.setCost(ModelBased.costs[rng.below(ModelBased.costs.count)]))
                case ..<62: body.append(.setName(ModelBased.actionNames[rng.below(ModelBased.actionNames.count)]))
                case ..<70:
                    body.append(.setCoalescingKey(ModelBased.coalescingKeys[rng.below(ModelBased.coalescingKeys.count)]))
                case ..<74: body.append(.setDiscardable(rng.chance(60)))
                case ..<78: body.append(.setUserInfo(key: rng.below(ModelBased.userInfoKeyCount), value: rng.below(10)))
                case ..<82: body.append(.markClean)
                case ..<89:
                    // A redo can bring back actions on any target, so it is left out of scopes
                    // that remove actions (and out of failing scopes, see `scope()`).
                    body.append(removesActions ? .removeAllWithTarget(slot: -1) : .redo)
                default:
                    if depth < 2 {
                        body.append(scope(depth: depth + 1, removesActions: removesActions, edited: &edited, removed: &removed))
                    }
                }
            }
            return .scope(name: name, body: body, fails: rng.chance(60))
        }

        private static func removingRedos(from step: Step) -> Step {
            guard case let .scope(name, body, fails) = step else { return step }
            return .scope(
                name: name,
                body: body.compactMap { step in
                    if case .redo = step { return nil }
                    return removingRedos(from: step)
                },
                fails: fails)
        }

        /// Replaces the placeholder removals (slot -1) with the slots in `slots`, in turn; drops
        /// them if there is none.
        private static func resolvingRemovals(_ step: Step, to slots: [Int]) -> Step {
            var next = 0
            func resolve(_ step: Step) -> Step? {
                switch step {
                case .removeAllWithTarget(slot: -1):
                    guard !slots.isEmpty else { return nil }
                    defer { next += 1 }
                    return .removeAllWithTarget(slot: slots[next % slots.count])
                case let .scope(name, body, fails):
                    return .scope(name: name, body: body.compactMap(resolve), fails: fails)
                default:
                    return step
                }
            }
            return resolve(step)!
        }

        private mutating func edit() -> Step {
            // Fresh values make every invocation distinguishable, so a wrong order or a
            // skipped or repeated action shows in the targets' logs.
            nextValue += 1
            let remainingRoll = rng.below(100)
            let remaining: Int? =
                switch remainingRoll {
                case ..<70: nil
                case ..<85: 0
                case ..<95: 1
                default: 2
                }
            let innerName = rng.chance(10) ? ModelBased.actionNames[rng.below(ModelBased.actionNames.count)] : nil
            let innerDiscardable = rng.chance(8) ? rng.chance(50) : nil
            let innerCost = rng.chance(6) ? ModelBased.costs[1 + rng.below(ModelBased.costs.count - 1)] : nil
            return .edit(
                slot: rng.below(ModelBased.targetCount), value: nextValue, remaining: remaining,
                innerName: innerName, innerDiscardable: innerDiscardable, innerCost: innerCost)
        }
    }
}
