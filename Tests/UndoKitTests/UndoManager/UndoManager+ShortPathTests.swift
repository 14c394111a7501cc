import Foundation
import Synchronization
import Testing
@testable import UndoKit

/// Issue 37: a step of one action undoes and redoes on a short path when nothing needs the
/// general one (`UndoManager+UndoRedo.swift`). Each test runs one scenario twice: on a plain
/// manager, which may take the short path, and on a subclass that overrides nothing, which
/// always takes the general path (a subclass may override what undo and redo call). What
/// either leaves observable (the scenario's log of events, notifications and values, every
/// observable property, the step ids on both stacks, the clean state, the invariants) must be
/// the same; the debug counter of steps finished on the short path says which path ran.
@Suite("The short path of a one-action undo or redo")
struct ShortPathTests {
    /// The reference: every undo and redo takes the general path.
    final class GeneralPathManager: UndoManager {}

    final class Model {
        var value = 0
        var log: [String] = []
    }

    /// Adds `amount`: one word of plain data, kept inside its step.
    struct Add: UndoableCommand {
        let amount: Int

        func execute(on model: Model) { model.value += amount }
        func undo(on model: Model) { model.value -= amount }
    }

    /// What a scenario left observable.
    struct Outcome: Equatable, CustomStringConvertible {
        var log: [String]
        var state: ManagerState
        var undoSteps: [StepID]
        var redoSteps: [StepID]
        var isClean: Bool

        var description: String {
            "\(log) \(state) undo ids \(undoSteps) redo ids \(redoSteps) clean \(isClean)"
        }
    }

    /// How a scenario records its steps.
    enum API: CaseIterable, CustomTestStringConvertible {
        case closure, command, retainedCommand

        var testDescription: String { "\(self)" }
    }

    /// Records a step of one action adding `amount` to `model` through `api`.
    static func record(_ amount: Int, on model: Model, in manager: UndoManager, using api: API) {
        manager.beginUndoGrouping()
        switch api {
        case .closure:
            model.value += amount
            registerAddition(-amount, to: model, in: manager)
        case .command:
            manager.perform(Add(amount: amount), on: model)
        case .retainedCommand:
            manager.perform(Add(amount: amount), retaining: model)
        }
        manager.endUndoGrouping()
    }

    /// Registers a closure that adds `amount` and registers its inverse.
    static func registerAddition(_ amount: Int, to model: Model, in manager: UndoManager) {
        manager.registerUndo(withTarget: model) { model in
            model.value += amount
            model.log.append("ran \(amount) at level \(manager.groupingLevel)")
            registerAddition(-amount, to: model, in: manager)
        }
    }

    /// Runs `scenario` on a fresh plain manager and on a fresh ``GeneralPathManager``
    /// (notifications off, no grouping by event), and returns both outcomes and how many
    /// steps the plain manager finished on the short path (0 in release builds, which keep
    /// no count).
    static func compare(
        _ scenario: (UndoManager) -> [String]
    ) -> (plain: Outcome, general: Outcome, shortPathSteps: Int) {
        func run(on manager: UndoManager) -> Outcome {
            manager.notificationCenter = nil
            manager.groupsByEvent = false
            let log = scenario(manager)
            manager.checkInvariants()
            return Outcome(
                log: log, state: ManagerState(manager), undoSteps: manager.undoStack.steps.ids,
                redoSteps: manager.redoStack.steps.ids, isClean: manager.isClean)
        }
        let plain = UndoManager()
        let plainOutcome = run(on: plain)
        let generalOutcome = run(on: GeneralPathManager())
        #if DEBUG
        let shortPathSteps = plain.state.stepsFinishedOnShortPath
        #else
        let shortPathSteps = 0
        #endif
        return (plainOutcome, generalOutcome, shortPathSteps)
    }

    // MARK: The short path itself

    @Test("a plain manager undoes and redoes one-action steps on the short path", arguments: API.allCases)
    func plainSteps(api: API) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            for amount in [1, 10, 100] {
                Self.record(amount, on: model, in: manager, using: api)
            }
            manager.markClean()
            manager.undo()
            manager.undo()
            manager.redo()
            manager.undo()
            manager.undo()
            manager.redo()
            manager.redo()
            return ["value \(model.value)"] + model.log
        }
        #expect(plain == general)
        #expect(plain.log.first == "value 11")
        #if DEBUG
        #expect(shortPathSteps == 7)
        #endif
    }

    @Test("with levelsOfUndo the short close trims as the general one", arguments: API.allCases)
    func limitedHistory(api: API) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.levelsOfUndo = 2
            for amount in [1, 10, 100, 1000] {
                Self.record(amount, on: model, in: manager, using: api)
            }
            manager.undo()
            manager.undo()
            manager.redo()
            manager.redo()
            manager.undo()
            return ["value \(model.value)", "counts \(manager.undoCount) \(manager.redoCount)"]
        }
        #expect(plain == general)
        #expect(plain.state.undoCount == 1 && plain.state.redoCount == 1)
        #if DEBUG
        #expect(shortPathSteps == 5)
        #endif
    }

    // MARK: Conditions met during the step: the general close finishes it

    /// What the step's action adds while it runs.
    enum ListenerAddedDuringStep: CaseIterable, CustomTestStringConvertible {
        case eventObserver, notificationCenter, eventStream, cleanStateObserver

        var testDescription: String { "\(self)" }
    }

    @Test("a listener added during the step hears the rest of that undo and redo", arguments: ListenerAddedDuringStep.allCases)
    func listenerAddedDuringStep(listener: ListenerAddedDuringStep) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            let heard = Heard()
            var keptAlive: [AnyObject] = []
            manager.beginUndoGrouping()
            // Undone, it adds the listener, then registers its inverse, which does nothing more.
            manager.registerUndo(withTarget: model) { model in
                model.value -= 1
                switch listener {
                case .eventObserver:
                    keptAlive.append(manager.addEventObserver { heard.append("event \($0)") })
                case .notificationCenter:
                    let center = NotificationCenter()
                    keptAlive.append(center.addObserver(forName: nil, object: manager, queue: nil) {
                        heard.append("notification \($0.name.rawValue)")
                    } as AnyObject)
                    keptAlive.append(center)
                    manager.notificationCenter = center
                case .eventStream:
                    keptAlive.append(StreamBox(manager.events()))
                case .cleanStateObserver:
                    keptAlive.append(manager.addCleanStateObserver { heard.append("clean \($0)") })
                }
                manager.registerUndo(withTarget: model) { $0.value += 1 }
            }
            manager.endUndoGrouping()
            manager.markClean()
            manager.undo()
            heard.append("-- redo")
            manager.redo()
            withExtendedLifetime(keptAlive) {}
            return ["value \(model.value)"] + heard.lines
        }
        #expect(plain == general)
        if listener == .eventObserver {
            // The rest of the undo: the close's checkpoint and the did-undo event.
            let undone = Array(plain.log.prefix { $0 != "-- redo" }.dropFirst())
            #expect(undone == ["event \(CP)", "event \(DU)"])
        }
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    /// What the step's action registers or changes on its group while it runs.
    enum RegistrationDuringStep: CaseIterable, CustomTestStringConvertible {
        case twoInverses, nothing, actionName, discardable, cost

        var testDescription: String { "\(self)" }
    }

    @Test("a step whose action registers anything but one inverse closes on the general path", arguments: RegistrationDuringStep.allCases)
    func registrationDuringStep(registration: RegistrationDuringStep) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: model) { model in
                model.value -= 1
                switch registration {
                case .twoInverses:
                    manager.registerUndo(withTarget: model) { $0.value += 1 }
                    manager.registerUndo(withTarget: model) { $0.log.append("second inverse ran") }
                case .nothing:
                    break
                case .actionName:
                    manager.registerUndo(withTarget: model) { $0.value += 1 }
                    manager.setActionName("Renamed")
                case .discardable:
                    manager.registerUndo(withTarget: model) { $0.value += 1 }
                    manager.setActionIsDiscardable(true)
                case .cost:
                    // Ignored while undoing or redoing: the group stays one action.
                    manager.registerUndo(withTarget: model) { $0.value += 1 }
                    manager.setActionCost(64)
                }
            }
            manager.endUndoGrouping()
            manager.undo()
            manager.redo()
            return ["value \(model.value)", "cost \(manager.totalActionCost)"] + model.log
        }
        #expect(plain == general)
        #if DEBUG
        // A cost set while undoing is ignored, so that undo takes the short path; the redo
        // does not (every inverse here registers nothing, so its group stays empty).
        #expect(shortPathSteps == (registration == .cost ? 1 : 0))
        #endif
    }

    @Test("a step whose model or target is gone is dropped as on the general path", arguments: API.allCases)
    func modelGone(api: API) {
        guard api != .retainedCommand else { return }  // a retained model cannot go
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let kept = Model()
            Self.record(1, on: kept, in: manager, using: api)
            do {
                let gone = Model()
                Self.record(10, on: gone, in: manager, using: api)
                manager.undo()
                manager.redo()
            }
            // The step on the gone model is dropped by its undo; the one below runs.
            manager.undo()
            manager.undo()
            manager.redo()
            return ["value \(kept.value)", "counts \(manager.undoCount) \(manager.redoCount)"]
        }
        #expect(plain == general)
        #expect(plain.log == ["value 1", "counts 1 0"])
        #if DEBUG
        // The undo and redo before the model went, and the last undo and redo; not the undo
        // that found the model gone.
        #expect(shortPathSteps == 4)
        #endif
    }

    // MARK: Conditions the eligibility flag holds

    @Test("coalescing sends undo and redo down the general path")
    func coalescing() {
        let now = ContinuousClock.now
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.coalescingClock = { now }
            for amount in [1, 2, 3] {
                manager.beginUndoGrouping()
                model.value += amount
                Self.registerAddition(-amount, to: model, in: manager)
                manager.setActionCoalescingKey("typing")
                manager.endUndoGrouping()
            }
            manager.undo()
            manager.redo()
            // The undo stopped coalescing: this step stays apart.
            manager.beginUndoGrouping()
            model.value += 4
            Self.registerAddition(-4, to: model, in: manager)
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
            manager.undo()
            return ["value \(model.value)", "counts \(manager.undoCount) \(manager.redoCount)"] + model.log
        }
        #expect(plain == general)
        #expect(plain.state.undoCount == 1 && plain.state.redoCount == 1)
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    @Test("a coordinator sends its members' undo and redo down the general path", arguments: [UndoCoordinator.Mode.singleOrder, .perMember])
    func coordinator(mode: UndoCoordinator.Mode) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let other = manager is GeneralPathManager ? GeneralPathManager() : UndoManager()
            other.notificationCenter = nil
            other.groupsByEvent = false
            let coordinator = UndoCoordinator(mode: mode)
            coordinator.attach(manager, origin: "first")
            coordinator.attach(other, origin: "second")
            let model = Model()
            Self.record(1, on: model, in: manager, using: .command)
            Self.record(10, on: model, in: other, using: .closure)
            Self.record(100, on: model, in: manager, using: .closure)
            manager.undo()
            other.undo()
            manager.redo()
            other.checkInvariants()
            return [
                "value \(model.value)", "other \(ManagerState(other))",
                "other ids \(other.undoStack.steps.ids) \(other.redoStack.steps.ids)",
            ]
        }
        #expect(plain == general)
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    @Test("a stale-step policy sends undo and redo down the general path", arguments: [StaleStepPolicy.run, .refuse, .skip])
    func staleStepPolicy(policy: StaleStepPolicy) {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.staleStepPolicy = policy
            for (amount, part) in [(1, "a"), (10, "b"), (100, "c")] {
                manager.beginUndoGrouping()
                model.value += amount
                Self.registerAddition(-amount, to: model, in: manager)
                manager.addActionParts(UndoPart("item", part))
                manager.endUndoGrouping()
            }
            manager.noteChanges(to: [UndoPart("item", "c")], origin: "elsewhere")
            manager.undo()
            manager.undo()
            manager.redo()
            return ["value \(model.value)", "counts \(manager.undoCount) \(manager.redoCount)"]
        }
        #expect(plain == general)
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    @Test("the history tree, with branches or without, sends undo and redo down the general path", arguments: [false, true])
    func historyTree(keepsBranches: Bool) {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.historyTreeClock = { start }
            manager.keepsRedoBranches = keepsBranches
            // Made at its first read, which is what turns recording on.
            _ = manager.historyTree
            Self.record(1, on: model, in: manager, using: .command)
            Self.record(10, on: model, in: manager, using: .closure)
            manager.undo()
            Self.record(100, on: model, in: manager, using: .command)
            manager.undo()
            manager.redo()
            let tree = manager.historyTree
            return ["value \(model.value)", "tree \(tree)", "current \(String(describing: manager.currentHistoryNodeID))"]
        }
        #expect(plain == general)
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    @Test("an undo or redo inside an open group takes the general path")
    func openGroup() {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            Self.record(1, on: model, in: manager, using: .command)
            manager.undo()
            manager.beginUndoGrouping()
            manager.redo()
            Self.record(10, on: model, in: manager, using: .command)
            manager.undoNestedGroup()
            manager.endUndoGrouping()
            manager.undo()
            return ["value \(model.value)"]
        }
        #expect(plain == general)
        #if DEBUG
        // Only the first undo: the redo and the nested undo ran inside the open group, and
        // the last undo takes a step of more than one action.
        #expect(shortPathSteps == 1)
        #endif
    }

    @Test("a step of more than one action takes the general path")
    func stepOfTwoActions() {
        let (plain, general, shortPathSteps) = Self.compare { manager in
            let model = Model()
            manager.beginUndoGrouping()
            manager.perform(Add(amount: 1), on: model)
            manager.perform(Add(amount: 10), on: model)
            manager.endUndoGrouping()
            manager.undo()
            manager.redo()
            return ["value \(model.value)"]
        }
        #expect(plain == general)
        #if DEBUG
        #expect(shortPathSteps == 0)
        #endif
    }

    // MARK: The flag

    /// One condition of ``UndoManagerStorage/stepsTakeShortPath``, set on a manager and
    /// taken back.
    enum Condition: CaseIterable, CustomTestStringConvertible {
        case notificationCenter, eventObserver, eventStream, cleanStateObserver, coalescing, coordinator,
             staleStepPolicy, historyTree

        var testDescription: String { "\(self)" }

        /// Sets the condition on `manager`. Returns what must stay alive for it to hold, and
        /// what takes it back, `nil` if nothing public can (an `events()` stream while kept, a
        /// coalescing key once set, a part log once made, a tree once asked for).
        func set(on manager: UndoManager) -> (keptAlive: Any?, takeBack: (() -> Void)?) {
            switch self {
            case .notificationCenter:
                manager.notificationCenter = NotificationCenter()
                return (nil, { manager.notificationCenter = nil })
            case .eventObserver:
                let observation = manager.addEventObserver { _ in }
                return (observation, { observation.cancel() })
            case .eventStream:
                return (manager.events(), nil)
            case .cleanStateObserver:
                let observation = manager.addCleanStateObserver { _ in }
                return (observation, { observation.cancel() })
            case .coalescing:
                manager.setActionCoalescingKey("typing")
                return (nil, nil)
            case .coordinator:
                let coordinator = UndoCoordinator()
                coordinator.attach(manager)
                return (coordinator, { coordinator.detach(manager) })
            case .staleStepPolicy:
                manager.noteChanges(to: [UndoPart("item", "a")])
                return (nil, nil)
            case .historyTree:
                _ = manager.historyTree
                return (nil, nil)
            }
        }
    }

    @Test("each condition turns the short path off, and taking it back turns it on", arguments: Condition.allCases)
    func flagFollowsCondition(condition: Condition) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        #expect(!manager.state.stepsTakeShortPath)  // notifications go to the default centre
        manager.notificationCenter = nil
        #expect(manager.state.stepsTakeShortPath)
        manager.beginUndoGrouping()
        let (keptAlive, takeBack) = condition.set(on: manager)
        manager.endUndoGrouping()
        #expect(!manager.state.stepsTakeShortPath)
        if let takeBack {
            takeBack()
            #expect(manager.state.stepsTakeShortPath)
        }
        withExtendedLifetime(keptAlive) {}
        #expect(!GeneralPathManager().state.stepsTakeShortPath)
    }

    /// Collects what listeners heard, shared by the closures that append to it (a
    /// notification centre's block is `@Sendable`).
    final class Heard: Sendable {
        private let storage = Mutex<[String]>([])

        var lines: [String] { storage.withLock { $0 } }

        func append(_ line: String) {
            storage.withLock { $0.append(line) }
        }
    }

    /// Keeps an `events()` stream, and so its listener, alive.
    final class StreamBox {
        let stream: AsyncStream<UndoManager.Event>

        init(_ stream: AsyncStream<UndoManager.Event>) {
            self.stream = stream
        }
    }
}
