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

    /// One step of a script: a public call on the manager (or on a target's lifetime).
    enum Step: CustomStringConvertible {
        /// The app edits target `slot` to `value` and registers the edit's inverse.
        case edit(slot: Int, value: Int, remaining: Int?, innerName: String?, innerDiscardable: Bool?)
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

        var description: String {
            switch self {
            case let .edit(slot, value, remaining, innerName, innerDiscardable):
                var text = "edit(t\(slot) = \(value), inverses: \(remaining.map(String.init) ?? "always")"
                if let innerName { text += ", innerName: \"\(innerName)\"" }
                if let innerDiscardable { text += ", innerDiscardable: \(innerDiscardable)" }
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
            }
        }
    }

    /// A notification's kind, without its payload.
    enum EventKind: CaseIterable {
        case checkpoint, didOpen, willClose, didClose, willUndo, didUndo, willRedo, didRedo

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

        var description: String {
            let kinds = reactions.map { "\($0)" }.sorted()
            return "groupsByEvent = \(groupsByEvent), levelsOfUndo = \(levelsOfUndo), observer reacts to \(kinds)"
        }
    }

    static let targetCount = 3
    static let userInfoKeyCount = 2
    static let actionNames = ["", "Typing", "Move", "Delete"]
    static let coalescingKeys: [String?] = ["typing", "typing", "typing", "move", nil]

    /// Draws steps with fixed weights. The generator ignores the manager's state on purpose:
    /// steps that would trap are filtered by the model's prediction instead, so the
    /// prediction itself is exercised on every kind of step.
    struct ScriptGenerator {
        var rng: SplitMix64
        private var nextValue = 1

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
            return Setup(groupsByEvent: groupsByEvent, levelsOfUndo: levels, reactions: reactions)
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
                }
            }

            static let totalWeight = allCases.reduce(0) { $0 + $1.weight }
        }

        mutating func step() -> Step {
            var roll = rng.below(Kind.totalWeight)
            var kind = Kind.edit
            for candidate in Kind.allCases {
                if roll < candidate.weight {
                    kind = candidate
                    break
                }
                roll -= candidate.weight
            }
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
            }
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
            return .edit(
                slot: rng.below(ModelBased.targetCount), value: nextValue, remaining: remaining,
                innerName: innerName, innerDiscardable: innerDiscardable)
        }
    }
}
