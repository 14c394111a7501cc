import Foundation
import Testing
@testable import UndoKit

// Issue 26: model-based randomized test of `UndoCoordinator`. Random scripts run two or three
// managers on one `SimulatedRunLoop`, attached to one coordinator, on UndoKit and on the
// reference model (ReferenceModel+Coordinator.swift over one `Reference` per member). After
// every step the coordinator's observables (its managers, can-undo/redo, names, titles,
// listings, clean state) and every member's full observation (as in ModelBasedTests.swift:
// events, counts, names, costs, clean state, targets...) must agree.
//
// Reproducing a failure: as for the single-manager test, with
//   UNDOKIT_COORDINATOR_SEED=<seed> UNDOKIT_COORDINATOR_ONLY=<index> swift test --filter ModelBased
// and UNDOKIT_COORDINATOR_TRACE=1 to print every step before it runs.

extension ModelBased {
    /// One step of a coordinated script.
    enum CoordinatedStep: CustomStringConvertible {
        /// A call on member `slot`'s manager (or its targets), as in a single-manager script.
        case member(Int, Step)
        /// The shared run loop's `tick()`: the end of the event for every member.
        case tick
        case undo
        case redo
        case markClean
        case attach(Int)
        case detach(Int)
        /// The member's manager goes away (its owner releases it); a new, unattached manager
        /// takes its slot.
        case release(Int)
        /// The members' shared coalescing clock.
        case advanceClock(milliseconds: Int)

        var description: String {
            switch self {
            case let .member(slot, step): "m\(slot).\(step)"
            case .tick: "loop.tick()"
            case .undo: "coordinator.undo()"
            case .redo: "coordinator.redo()"
            case .markClean: "coordinator.markClean()"
            case let .attach(slot): "coordinator.attach(m\(slot))"
            case let .detach(slot): "coordinator.detach(m\(slot))"
            case let .release(slot): "release m\(slot) (a new manager takes its slot)"
            case let .advanceClock(milliseconds): "clock += \(milliseconds) ms"
            }
        }
    }

    /// The members' configurations, and which of them are attached (in that order) before the
    /// first step.
    struct CoordinatedSetup: CustomStringConvertible {
        var members: [Setup]
        var attached: [Int]

        var description: String {
            members.enumerated().map { "m\($0.offset): \($0.element)" }.joined(separator: "; ")
                + "; attached \(attached.map { "m\($0)" })"
        }
    }

    /// Everything a client can read from the coordinator.
    struct CoordinatorObservation: Equatable {
        var managers: [Int]
        var canUndo: Bool
        var canRedo: Bool
        var undoActionName: String
        var redoActionName: String
        var undoMenuItemTitle: String
        var redoMenuItemTitle: String
        var undoActionNames: [String]
        var redoActionNames: [String]
        var isClean: Bool

        static func differences(expected: Self, actual: Self) -> [String] {
            zip(Mirror(reflecting: expected).children, Mirror(reflecting: actual).children).compactMap { pair in
                let (want, got) = (String(describing: pair.0.value), String(describing: pair.1.value))
                return want == got ? nil : "coordinator.\(pair.0.label ?? "?"): model \(want), UndoKit \(got)"
            }
        }
    }

    struct CoordinatedScript: GeneratedScript {
        var setup: CoordinatedSetup
        var steps: [CoordinatedStep]

        init(setup: CoordinatedSetup, steps: [CoordinatedStep]) {
            self.setup = setup
            self.steps = steps
        }

        init(masterSeed: UInt64, index: Int) {
            var mixer = SplitMix64(seed: masterSeed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
            var generator = CoordinatedScriptGenerator(seed: mixer.next())
            setup = generator.setup()
            let count = setup.members.count
            steps = (0..<generator.length()).map { _ in generator.step(memberCount: count) }
        }
    }

    struct CoordinatedScriptGenerator {
        private var base: ScriptGenerator

        init(seed: UInt64) {
            base = ScriptGenerator(seed: seed)
        }

        private var rng: SplitMix64 {
            get { base.rng }
            set { base.rng = newValue }
        }

        mutating func setup() -> CoordinatedSetup {
            let count = 2 + rng.below(2)
            let members = (0..<count).map { _ in
                var reactions: Set<EventKind> = []
                if rng.chance(25) {
                    for kind in EventKind.allCases where rng.chance(30) {
                        reactions.insert(kind)
                    }
                }
                return Setup(
                    groupsByEvent: !rng.chance(15), levelsOfUndo: rng.chance(15) ? 1 + rng.below(3) : 0,
                    reactions: reactions, recordsTree: false, keepsRedoBranches: false,
                    actionCostLimit: rng.chance(15) ? [10, 25, 50][rng.below(3)] : 0, isSubclassInstance: rng.chance(25))
            }
            // Usually all attached; sometimes one joins later, with a history.
            var attached = Array(0..<count)
            if rng.chance(25) {
                attached.remove(at: rng.below(count))
            }
            return CoordinatedSetup(members: members, attached: attached)
        }

        mutating func length() -> Int {
            15 + rng.below(46)
        }

        mutating func step(memberCount: Int) -> CoordinatedStep {
            let roll = rng.below(100)
            switch roll {
            case ..<66: return .member(rng.below(memberCount), base.coordinatedMemberStep())
            case ..<76: return .tick
            case ..<85: return .undo
            case ..<91: return .redo
            case ..<93: return .markClean
            case ..<96: return .attach(rng.below(memberCount))
            case ..<97: return .detach(rng.below(memberCount))
            case ..<98: return .release(rng.below(memberCount))
            default: return .advanceClock(milliseconds: [300, 700, 1000, 2500][rng.below(4)])
            }
        }
    }

    /// The members (each a model and UndoKit side by side) and the coordinator, on both sides.
    final class CoordinatedSides {
        let setup: CoordinatedSetup
        let withUndoKit: Bool
        private(set) var members: [SideBySide] = []
        let model: CoordinatorReference
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()

        init(_ setup: CoordinatedSetup, withUndoKit: Bool) {
            self.setup = setup
            self.withUndoKit = withUndoKit
            let loop = loop
            members = setup.members.map { member in
                SideBySide(member, withUndoKit: withUndoKit, manager: withUndoKit ? Self.manager(for: member, on: loop) : nil)
            }
            model = CoordinatorReference(members: members.map(\.model.model))
            for slot in setup.attached {
                model.attach(slot)
                if let real = members[slot].real {
                    coordinator.attach(real.manager)
                }
            }
        }

        private static func manager(for setup: Setup, on loop: SimulatedRunLoop) -> UndoManager {
            setup.isSubclassInstance ? SubclassedUndoManager(runLoop: loop) : UndoManager(runLoop: loop)
        }

        /// Why the script must skip `step`: a trap the model predicts, or nil.
        func skipReason(for step: CoordinatedStep) -> SkipReason? {
            switch step {
            case let .member(slot, memberStep):
                return model.members[slot].skipReason(for: memberStep)
            case .tick:
                return model.members.lazy.compactMap { $0.skipReason(for: .tick(.standard)) }.first
            case .undo:
                // The member whose step it would undo has a group open that ending the event
                // does not close: its undo() stops the program (UndoCoordinator.undo()'s
                // precondition).
                guard model.undoWouldTrap else { return nil }
                return SkipReason(
                    rule: "coordinator undo() (E3)", detail: "undo was called with too many nested undo groups",
                    situation: "the undone step's member has a group open")
            case let .attach(slot):
                // When a group open at the attach opened, relative to the other members' open
                // groups, the coordinator cannot know; the docs say only that it joins the
                // order when it closes. UndoKit counts it as the oldest open group when
                // `undo()` ends the event. Unsettled: kept out.
                let member = model.members[slot]
                if !model.attached.contains(slot) && member.autoPending && member.undoStack.nesting > 0 {
                    return SkipReason(rule: "attach(_:)", detail: nil, situation: "the manager's event group is open")
                }
                return nil
            case .redo, .markClean, .detach, .release, .advanceClock:
                return nil
            }
        }

        /// Runs `step` on the model, then on UndoKit.
        func apply(_ step: CoordinatedStep) {
            switch step {
            case let .member(slot, memberStep):
                members[slot].apply(memberStep)
                // Another member's new edit may have cleared this one's redo steps, a removal
                // or a trim may have dropped steps.
                model.prune()
            case .tick:
                model.tick()
                if withUndoKit { loop.tick() }
            case .undo:
                model.undo()
                if withUndoKit { coordinator.undo() }
            case .redo:
                model.redo()
                if withUndoKit { coordinator.redo() }
            case .markClean:
                model.markClean()
                if withUndoKit { coordinator.markClean() }
            case let .attach(slot):
                model.attach(slot)
                if let real = members[slot].real { coordinator.attach(real.manager) }
            case let .detach(slot):
                model.detach(slot)
                if let real = members[slot].real { coordinator.detach(real.manager) }
            case let .release(slot):
                // The old side, and with it the old manager, goes here.
                members[slot] = SideBySide(
                    setup.members[slot], withUndoKit: withUndoKit,
                    manager: withUndoKit ? Self.manager(for: setup.members[slot], on: loop) : nil)
                model.release(slot, with: members[slot].model.model)
            case let .advanceClock(milliseconds):
                for member in members {
                    member.apply(.advanceClock(milliseconds: milliseconds))
                }
            }
        }

        /// All coverage so far: the coordinator's and its current members'.
        var coverage: [String: Int] {
            model.members.reduce(into: model.coverage) { total, member in
                total.merge(member.coverage, uniquingKeysWith: +)
            }
        }

        func observeModel() -> (CoordinatorObservation, [Observation]) {
            let coordinator = CoordinatorObservation(
                managers: model.attached, canUndo: model.canUndo, canRedo: model.canRedo,
                undoActionName: model.undoActionName, redoActionName: model.redoActionName,
                undoMenuItemTitle: model.undoMenuItemTitle, redoMenuItemTitle: model.redoMenuItemTitle,
                undoActionNames: model.undoActionNames, redoActionNames: model.redoActionNames, isClean: model.isClean)
            return (coordinator, members.map { $0.model.observe() })
        }

        /// The coordinator is read first: whatever its reads post shows in the members' events.
        func observeUndoKit() -> (CoordinatorObservation, [Observation]) {
            let reals = members.map { $0.real! }
            let observed = CoordinatorObservation(
                managers: coordinator.managers.map { manager in reals.firstIndex { $0.manager === manager } ?? -1 },
                canUndo: coordinator.canUndo, canRedo: coordinator.canRedo,
                undoActionName: coordinator.undoActionName, redoActionName: coordinator.redoActionName,
                undoMenuItemTitle: coordinator.undoMenuItemTitle, redoMenuItemTitle: coordinator.redoMenuItemTitle,
                undoActionNames: coordinator.undoActionNames, redoActionNames: coordinator.redoActionNames,
                isClean: coordinator.isClean)
            return (observed, reals.map { $0.observe(stepEvents: $0.takeEvents()) })
        }
    }

    typealias CoordinatedMismatch = ScriptMismatch<CoordinatedScript>

    static func run(_ script: CoordinatedScript, trace: Bool, statistics: inout RunStatistics) -> CoordinatedMismatch? {
        let sides = CoordinatedSides(script.setup, withUndoKit: true)
        if trace {
            print("[Coordinated] setup: \(script.setup)")
        }
        statistics.scripts += 1
        defer { statistics.coverage.merge(sides.coverage, uniquingKeysWith: +) }
        var skipped: [Int: SkipReason] = [:]
        for (position, step) in script.steps.enumerated() {
            let skip = sides.skipReason(for: step)
            if trace {
                print("[Coordinated] \(position + 1). \(skip.map { "(skipped, \($0)) " } ?? "")\(step)")
            }
            if let skip {
                skipped[position] = skip
                statistics.stepsSkipped += 1
                continue
            }
            // A member rolling a scope back: only the net change of its clean state compares.
            var rollsBack: (slot: Int, wasClean: Bool)?
            if case let .member(slot, memberStep) = step, memberStep.containsFailingScope,
                sides.model.members[slot].isEnabled
            {
                rollsBack = (slot, sides.model.members[slot].isClean)
            }
            sides.apply(step)
            statistics.stepsRun += 1
            for member in sides.members {
                member.real!.manager.checkInvariants()
            }
            var (expectedCoordinator, expected) = sides.observeModel()
            var (actualCoordinator, actual) = sides.observeUndoKit()
            if sides.model.newestOpenGroupWouldCoalesce {
                sides.model.cover("coordinator undo name: the newest open group will merge into an older step")
            }
            if sides.model.undoWouldTrap {
                // Unsettled (see `undoWouldTrap`): UndoKit names the member's open group, as
                // UndoManager.undoActionName does; the docs name the step undo() reverts.
                sides.model.cover("coordinator undo name not compared: undo() would stop the program")
                for title in [\CoordinatorObservation.undoActionName, \.undoMenuItemTitle] {
                    expectedCoordinator[keyPath: title] = "(not compared)"
                    actualCoordinator[keyPath: title] = "(not compared)"
                }
            }
            if let (slot, wasClean) = rollsBack {
                // The model does not run what a rollback undoes (see ModelBased.run).
                expected[slot].stepEvents = []
                actual[slot].stepEvents = []
                expected[slot].cleanChanges = expected[slot].isClean != wasClean ? [expected[slot].isClean] : []
                actual[slot].cleanChanges = actual[slot].isClean != wasClean ? [actual[slot].isClean] : []
            }
            var differences = CoordinatorObservation.differences(expected: expectedCoordinator, actual: actualCoordinator)
            for slot in expected.indices where expected[slot] != actual[slot] {
                differences += Observation.differences(expected: expected[slot], actual: actual[slot]).map { "m\(slot).\($0)" }
            }
            if !differences.isEmpty {
                return CoordinatedMismatch(
                    script: CoordinatedScript(setup: script.setup, steps: Array(script.steps[...position])),
                    skipped: skipped, differences: differences)
            }
        }
        return nil
    }

    /// A coordinator-level step the model predicts to trap (the coordinator's undo, the shared
    /// loop's tick), located in a generated script.
    struct CoordinatedTrapSample: CustomStringConvertible {
        var masterSeed: UInt64
        var index: Int
        var position: Int
        var reason: SkipReason

        var description: String {
            "\(reason) at step \(position + 1) of coordinated script #\(index) (UNDOKIT_COORDINATOR_SEED=\(masterSeed))"
        }
    }

    /// The first coordinator-level trap of each rule and situation in the first `scripts`
    /// scripts (member steps' traps are the single-manager test's).
    static func coordinatedTrapSamples(masterSeed: UInt64, scripts: Int) -> [CoordinatedTrapSample] {
        var found: Set<SkipReason> = []
        var samples: [CoordinatedTrapSample] = []
        for index in 0..<scripts {
            let script = CoordinatedScript(masterSeed: masterSeed, index: index)
            let sides = CoordinatedSides(script.setup, withUndoKit: false)
            for (position, step) in script.steps.enumerated() {
                guard let reason = sides.skipReason(for: step) else {
                    sides.apply(step)
                    continue
                }
                switch step {
                case .undo, .tick:
                    if reason.detail != nil && found.insert(reason).inserted {
                        samples.append(CoordinatedTrapSample(masterSeed: masterSeed, index: index, position: position, reason: reason))
                    }
                default: break
                }
            }
        }
        return samples
    }

    /// Replays a coordinated script on UndoKit as the randomized test does, then runs the
    /// coordinator-level step at `position`, which the model says traps. For an exit test.
    static func replayIntoCoordinatedTrap(masterSeed: UInt64, index: Int, position: Int) {
        let script = CoordinatedScript(masterSeed: masterSeed, index: index)
        let sides = CoordinatedSides(script.setup, withUndoKit: true)
        for step in script.steps[..<position] where sides.skipReason(for: step) == nil {
            sides.apply(step)
        }
        switch script.steps[position] {
        case .undo: sides.coordinator.undo()
        case .tick: sides.loop.tick()
        default: preconditionFailure("not a coordinator-level step")
        }
    }

    static func shrink(_ mismatch: CoordinatedMismatch, budget: Int = 2000) -> CoordinatedMismatch {
        var scratch = RunStatistics()
        return shrink(mismatch, budget: budget) { run($0, trace: false, statistics: &scratch) }
    }
}

@Suite("ModelBased coordinator")
struct CoordinatorModelBasedTests {
    static let defaultMasterSeed: UInt64 = 0x5EED_2026_C00D_0001
    static let defaultScriptCount = 800

    @Test("Random coordinated scripts agree with the reference model, step by step")
    func randomCoordinatedScriptsMatchReferenceModel() {
        let environment = ProcessInfo.processInfo.environment
        let masterSeed = environment["UNDOKIT_COORDINATOR_SEED"].flatMap { UInt64($0) } ?? Self.defaultMasterSeed
        let scriptCount = environment["UNDOKIT_COORDINATOR_SCRIPTS"].flatMap { Int($0) } ?? Self.defaultScriptCount
        let only = environment["UNDOKIT_COORDINATOR_ONLY"].flatMap { Int($0) }
        let trace = environment["UNDOKIT_COORDINATOR_TRACE"] != nil
        var statistics = ModelBased.RunStatistics()
        let start = ContinuousClock.now
        for index in only.map({ [$0] }) ?? Array(0..<scriptCount) {
            let script = ModelBased.CoordinatedScript(masterSeed: masterSeed, index: index)
            if trace {
                print("[Coordinated] script #\(index)")
            }
            guard let mismatch = ModelBased.run(script, trace: trace, statistics: &statistics) else { continue }
            statistics.failures += 1
            let shrunk = ModelBased.shrink(mismatch)
            Issue.record(
                Comment(
                    rawValue: ModelBased.report(
                        mismatch, shrunk: shrunk, model: "Coordinator model", variables: "UNDOKIT_COORDINATOR",
                        masterSeed: masterSeed, index: index)))
            if statistics.failures == ModelBasedTests.maximumReportedFailures {
                break
            }
        }
        print(
            "[Coordinated] \(statistics.scripts) scripts, \(statistics.stepsRun) steps run, "
                + "\(statistics.stepsSkipped) skipped, \(statistics.failures) failing, in \(ContinuousClock.now - start); "
                + "coverage: \(statistics.coverage.sorted { $0.key < $1.key })")
        // As in the single-manager test: the generator must keep reaching these situations.
        if only == nil && scriptCount >= Self.defaultScriptCount && statistics.failures == 0 {
            let guardsTheGenerator = masterSeed == Self.defaultMasterSeed
            for situation in [
                "coordinator undo", "coordinator redo", "coordinator undo with nothing to undo",
                "coordinator redo with nothing to redo", "coordinator ended a member's event",
                "ended several members' events, oldest first", "one tick closed several members' groups",
                "an undo left no redo step: the step left the order", "a redo kept no undo step: the step left the order",
                "a new edit cleared another member's redo steps", "steps a member dropped left the order",
                "attached a manager with a history", "attached a manager with redo steps", "attached twice: nothing happened",
                "detached a manager", "an attached manager went away", "coordinator redo nested in a member's open group",
                "groups coalesced", "command undone", "command redone", "cost travelled to the redo stack",
                "cost limit trimmed after a close", "withUndoGroup rolled back", "withUndoGroup succeeded",
                "endEventGroup closed the automatic group", "removal dropped a top-level group",
                "coordinator cannot redo: ending an empty event group would end redo",
                "clean mark lost: another member's new edit cleared the redos it needed",
                // The situations of the bugs the model found (ModelFoundRegressionTests.swift).
                "a discarded redo group took its cost with it",
                "one tick closed a group opened again in the pass behind a newer one",
                "coordinator undo name: the newest open group will merge into an older step",
            ] where statistics.coverage[situation, default: 0] == 0 {
                if guardsTheGenerator {
                    Issue.record("never reached: \(situation)")
                } else {
                    print("[Coordinated] not reached with master seed \(masterSeed): \(situation)")
                }
            }
        }
    }

    @Test("Every coordinator-level trap the model predicts traps UndoKit too")
    func predictedCoordinatorTrapsTrapUndoKit() async {
        let samples = ModelBased.coordinatedTrapSamples(masterSeed: Self.defaultMasterSeed, scripts: 100)
        let rules = Set(samples.map(\.reason.rule))
        print("[Coordinated] checking \(samples.count) predicted traps, covering \(rules.sorted())")
        #expect(rules == ["coordinator undo() (E3)", "E1 (R15, R17)"], "trap rows reached: \(rules.sorted())")
        for sample in samples {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent], "\(sample)") {
                [seed = sample.masterSeed as UInt64, index = sample.index as Int, position = sample.position as Int] in
                ModelBased.replayIntoCoordinatedTrap(masterSeed: seed, index: index, position: position)
            }
            if let result, let detail = sample.reason.detail {
                let message = String(decoding: result.standardErrorContent, as: UTF8.self)
                #expect(message.contains(detail), "\(sample): the trap message was \(message)")
            }
        }
    }
}
