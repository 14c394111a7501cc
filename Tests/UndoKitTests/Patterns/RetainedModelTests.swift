import Testing
import UndoKit

/// `perform(_:retaining:)`: the manager holds the model strongly until the last step that
/// refers to it is gone (removed, trimmed, cleared, or the manager deallocated), and only
/// then releases it. Written from the documented lifetime, one test per way a step goes.
@Suite("Commands that retain their model")
struct RetainedModelTests {
    final class Log { var entries: [String] = [] }

    final class Model {
        let name: String
        let log: Log
        var value = 0
        /// Set to make the model hold its manager: the cycle the documentation warns about.
        var manager: UndoManager?
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        deinit { log.entries.append("deinit \(name)") }
    }

    struct Add: UndoableCommand {
        let amount: Int
        func execute(on model: Model) {
            model.value += amount
            model.log.entries.append("do \(amount) on \(model.name)")
        }
        func undo(on model: Model) {
            model.value -= amount
            model.log.entries.append("undo \(amount) on \(model.name)")
        }
    }

    /// A command too large for its step, so that both of `perform(_:on:)`'s layouts are mixed.
    struct Rename: UndoableCommand {
        let title: String
        private var old: String?
        init(_ title: String) { self.title = title }
        var actionName: String { "Rename" }
        mutating func execute(on model: Model) {
            old = model.log.entries.last
            model.log.entries.append("rename \(title) on \(model.name)")
        }
        mutating func undo(on model: Model) {
            model.log.entries.append("unrename \(title) on \(model.name)")
        }
    }

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        return manager
    }

    private func step(_ manager: UndoManager, _ body: () -> Void) {
        manager.beginUndoGrouping()
        body()
        manager.endUndoGrouping()
    }

    /// Performs `Add(amount)` retaining a model that nothing else references.
    private func performOnTemporaryModel(_ manager: UndoManager, _ name: String, log: Log, amount: Int = 1) {
        step(manager) { manager.perform(Add(amount: amount), retaining: Model(name, log: log)) }
    }

    @Test func theModelLivesWhileItsStepsExistAndUndoAndRedoRunOnIt() {
        let manager = makeManager()
        let log = Log()
        performOnTemporaryModel(manager, "A", log: log, amount: 5)
        #expect(log.entries == ["do 5 on A"])
        manager.undo()
        manager.redo()
        manager.undo()
        #expect(log.entries == ["do 5 on A", "undo 5 on A", "do 5 on A", "undo 5 on A"])
        #expect(manager.canRedo && !manager.canUndo)
    }

    @Test func removeAllActionsReleasesTheModel() {
        let manager = makeManager()
        let log = Log()
        performOnTemporaryModel(manager, "A", log: log)
        manager.undo()   // the step is now the redo step, which holds the model too
        #expect(!log.entries.contains("deinit A"))
        manager.removeAllActions()
        #expect(log.entries.last == "deinit A")
    }

    @Test func removeAllActionsWithTargetReleasesTheModelAndKeepsTheOthers() {
        let manager = makeManager()
        let log = Log()
        var a: Model? = Model("A", log: log)
        let b = Model("B", log: log)
        step(manager) { manager.perform(Add(amount: 1), retaining: a!) }
        step(manager) { manager.perform(Add(amount: 2), retaining: b) }
        step(manager) {
            manager.perform(Add(amount: 3), retaining: a!)
            manager.perform(Rename("x"), retaining: a!)
        }
        weak let weakA = a
        a = nil
        #expect(weakA != nil)
        manager.removeAllActions(withTarget: weakA!)
        #expect(log.entries.last == "deinit A")
        #expect(manager.undoCount == 1)
        log.entries.removeAll()
        manager.undo()
        #expect(log.entries == ["undo 2 on B"] && b.value == 0)
    }

    @Test func trimmingByLevelsOfUndoReleasesTheOldestModel() {
        let manager = makeManager()
        manager.levelsOfUndo = 2
        let log = Log()
        performOnTemporaryModel(manager, "A", log: log)
        performOnTemporaryModel(manager, "B", log: log)
        #expect(!log.entries.contains { $0.hasPrefix("deinit") })
        performOnTemporaryModel(manager, "C", log: log)
        #expect(log.entries.filter { $0.hasPrefix("deinit") } == ["deinit A"])
        manager.undo()
        manager.undo()
        #expect(!manager.canUndo && manager.redoCount == 2)
    }

    @Test func trimmingByTheCostLimitReleasesTheModel() {
        let manager = makeManager()
        manager.actionCostLimit = 10
        let log = Log()
        step(manager) {
            manager.perform(Add(amount: 1), retaining: Model("A", log: log))
            manager.setActionCost(10)
        }
        step(manager) {
            manager.perform(Add(amount: 1), retaining: Model("B", log: log))
            manager.setActionCost(10)
        }
        #expect(log.entries.filter { $0.hasPrefix("deinit") } == ["deinit A"])
        #expect(manager.undoCount == 1)
    }

    @Test func aNewRegistrationClearingTheRedoStepsReleasesTheirModel() {
        let manager = makeManager()
        let log = Log()
        let other = Model("other", log: log)
        performOnTemporaryModel(manager, "A", log: log)
        manager.undo()
        #expect(!log.entries.contains("deinit A"))
        step(manager) { manager.perform(Add(amount: 1), on: other) }
        #expect(log.entries.contains("deinit A"))
    }

    @Test func aRedoBranchKeepsTheModelUntilTheBranchGoes() {
        let manager = makeManager()
        manager.keepsRedoBranches = true
        let log = Log()
        let other = Model("other", log: log)
        performOnTemporaryModel(manager, "A", log: log)
        manager.undo()
        step(manager) { manager.perform(Add(amount: 1), on: other) }
        #expect(!log.entries.contains("deinit A"))
        manager.keepsRedoBranches = false
        #expect(log.entries.contains("deinit A"))
    }

    @Test func deallocatingTheManagerReleasesTheModel() {
        let log = Log()
        do {
            let manager = makeManager()
            performOnTemporaryModel(manager, "A", log: log)
            performOnTemporaryModel(manager, "B", log: log)
            manager.undo()
            #expect(!log.entries.contains { $0.hasPrefix("deinit") })
        }
        #expect(log.entries.filter { $0.hasPrefix("deinit") }.sorted() == ["deinit A", "deinit B"])
    }

    @Test func weakStepsOnTheSameModelRunWhileARetainingStepKeepsItAlive() {
        let manager = makeManager()
        manager.levelsOfUndo = 3
        let log = Log()
        var model: Model? = Model("M", log: log)
        step(manager) { manager.perform(Add(amount: 1), retaining: model!) }
        step(manager) { manager.perform(Add(amount: 2), on: model!) }
        step(manager) { manager.perform(Rename("y"), on: model!) }
        model = nil
        log.entries.removeAll()
        // The retaining step (the oldest) keeps the model: the weak ones run.
        manager.undo()
        manager.undo()
        manager.redo()
        manager.redo()
        #expect(log.entries == ["unrename y on M", "undo 2 on M", "do 2 on M", "rename y on M"])
        // A fourth group trims the retaining step: the model goes, and its weak steps are skipped.
        let other = Model("other", log: log)
        step(manager) { manager.perform(Add(amount: 9), on: other) }
        #expect(log.entries.last == "deinit M")
        log.entries.removeAll()
        manager.undo()
        manager.undo()
        manager.undo()
        #expect(log.entries == ["undo 9 on other"])
        #expect(!manager.canUndo)
    }

    @Test func bothKindsInOneGroupUndoAndRedoInOrder() {
        let manager = makeManager()
        let log = Log()
        let model = Model("M", log: log)
        step(manager) {
            manager.perform(Add(amount: 1), on: model)
            manager.perform(Add(amount: 2), retaining: model)
            manager.perform(Rename("z"), retaining: model)
            manager.perform(Add(amount: 3), on: model)
        }
        log.entries.removeAll()
        manager.undo()
        manager.redo()
        #expect(log.entries == [
            "undo 3 on M", "unrename z on M", "undo 2 on M", "undo 1 on M",
            "do 1 on M", "do 2 on M", "rename z on M", "do 3 on M",
        ])
        #expect(model.value == 6 && manager.undoMenuItemTitle == "Undo Rename")
    }

    @Test func aModelThatHoldsItsManagerIsFreedOnlyOnceItsStepsAreRemoved() {
        let log = Log()
        weak var weakManager: UndoManager?
        weak var weakModel: Model?
        do {
            let manager = makeManager()
            let model = Model("M", log: log)
            model.manager = manager
            step(manager) { manager.perform(Add(amount: 1), retaining: model) }
            weakManager = manager
            weakModel = model
        }
        // The cycle: manager → step → model → manager.
        #expect(weakManager != nil && weakModel != nil)
        weakManager!.removeAllActions(withTarget: weakModel!)
        #expect(weakManager == nil && weakModel == nil)
        #expect(log.entries.last == "deinit M")
    }

    @Test func whileRegistrationIsDisabledTheCommandRunsAndNothingIsRetained() {
        let manager = makeManager()
        let log = Log()
        manager.disableUndoRegistration()
        step(manager) { manager.perform(Add(amount: 4), retaining: Model("A", log: log)) }
        manager.enableUndoRegistration()
        #expect(log.entries == ["do 4 on A", "deinit A"])
        #expect(!manager.canUndo)
    }

    @Test func aSubclassSeesTheRegistrationsAndTheModelStillLives() {
        final class Counting: UndoManager {
            var registrations = 0
            override func registerUndo<TargetType: AnyObject>(
                withTarget target: TargetType, handler: @escaping (TargetType) -> Void
            ) {
                registrations += 1
                super.registerUndo(withTarget: target, handler: handler)
            }
        }
        let manager = Counting()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        let log = Log()
        step(manager) { manager.perform(Add(amount: 1), retaining: Model("A", log: log)) }
        #expect(manager.registrations == 1)
        manager.undo()
        manager.redo()
        #expect(manager.registrations == 3)
        #expect(log.entries == ["do 1 on A", "undo 1 on A", "do 1 on A"])
        manager.removeAllActions()
        #expect(log.entries.last == "deinit A")
    }

    /// A command kept in its step whose bits change on every run: the step's new bits must
    /// keep the retained model, in one-step groups and in a run of several steps.
    struct Flip: UndoableCommand {
        var runs = 0
        mutating func execute(on model: Model) {
            runs += 1
            model.value += runs
        }
        mutating func undo(on model: Model) {
            model.value -= runs
            runs += 1
        }
    }

    @Test func aStepWhoseCommandChangesKeepsItsModelAcrossCycles() {
        let manager = makeManager()
        let log = Log()
        weak var weakModel: Model?
        do {
            let model = Model("F", log: log)
            weakModel = model
            step(manager) { manager.perform(Flip(), retaining: model) }
            step(manager) {
                manager.perform(Flip(), retaining: model)
                manager.perform(Flip(), retaining: model)
                manager.perform(Add(amount: 10), retaining: model)
            }
        }
        for _ in 0..<5 {
            manager.undo()
            manager.undo()
            manager.redo()
            manager.redo()
        }
        #expect(weakModel != nil && !log.entries.contains("deinit F"))
        manager.undo()
        manager.undo()
        #expect(weakModel?.value == 0)
        manager.removeAllActions()
        #expect(weakModel == nil && log.entries.filter { $0 == "deinit F" }.count == 1)
    }

    @Test func aRetainedCommandsHistoryCanBeSaved() throws {
        struct Bump: UndoableCommand, Codable {
            let by: Int
            func execute(on model: Model) { model.value += by }
            func undo(on model: Model) { model.value -= by }
        }
        let manager = makeManager()
        let log = Log()
        let model = Model("M", log: log)
        step(manager) { manager.perform(Bump(by: 2), retaining: model) }
        step(manager) { manager.perform(Bump(by: 3), retaining: model) }
        manager.undo()
        let history = try manager.undoHistory(of: Bump.self)
        #expect(history.undoSteps.count == 1 && history.redoSteps.count == 1)
    }
}
