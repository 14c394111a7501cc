import Testing
import UndoKit

/// Spec H3 for commands: undo and redo load the model of a run of consecutive commands once
/// and hold it until the run ends, as for closures (`RunTargetLifetimeTests`).
@Suite("Models held for a run of commands (H3)")
struct CommandRunLifetimeTests {
    final class Model {
        let name: String
        let log: Log
        var release: (() -> Void)?
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        deinit { log.entries.append("deinit \(name)") }
    }

    final class Log { var entries: [String] = [] }

    struct Note: UndoableCommand {
        let text: String
        var releasesModel = false
        func execute(on model: Model) {
            model.log.entries.append("do \(text) on \(model.name)")
        }
        func undo(on model: Model) {
            model.log.entries.append("undo \(text) on \(model.name)")
            if releasesModel { model.release?() }
        }
    }

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        return manager
    }

    @Test func aModelReleasedInItsRunIsDeallocatedWhenTheRunEnds() {
        let manager = makeManager()
        let log = Log()
        var holder: Model? = Model("A", log: log)
        holder!.release = { holder = nil }
        manager.beginUndoGrouping()
        manager.perform(Note(text: "1"), on: holder!)
        manager.perform(Note(text: "2"), on: holder!)
        manager.perform(Note(text: "3", releasesModel: true), on: holder!)
        manager.endUndoGrouping()
        log.entries.removeAll()
        manager.undo()
        #expect(log.entries == ["undo 3 on A", "undo 2 on A", "undo 1 on A", "deinit A"])
    }

    @Test func aDeadModelsLaterRunDoesNotRun() {
        let manager = makeManager()
        let log = Log()
        var a: Model? = Model("A", log: log)
        let b = Model("B", log: log)
        a!.release = { a = nil }
        manager.beginUndoGrouping()
        manager.perform(Note(text: "a1"), on: a!)
        manager.perform(Note(text: "b1"), on: b)
        manager.perform(Note(text: "a2", releasesModel: true), on: a!)
        manager.endUndoGrouping()
        log.entries.removeAll()
        manager.undo()
        // A's run is a2 alone: A goes when B's run starts, so a1 finds it dead.
        #expect(log.entries == ["undo a2 on A", "deinit A", "undo b1 on B"])
        withExtendedLifetime(b) {}
    }

    @Test func aNewModelAtADeadModelsAddressNeverRunsTheDeadOnesCommands() {
        let manager = makeManager()
        let log = Log()
        manager.beginUndoGrouping()
        do {
            let old = Model("old", log: log)
            manager.perform(Note(text: "old"), on: old)
        }
        // Likely at the same address as the dead model.
        let fresh = Model("fresh", log: log)
        manager.perform(Note(text: "fresh"), on: fresh)
        manager.endUndoGrouping()
        log.entries.removeAll()
        manager.undo()
        #expect(log.entries == ["undo fresh on fresh"])
        manager.redo()
        #expect(log.entries == ["undo fresh on fresh", "do fresh on fresh"])
        withExtendedLifetime(fresh) {}
    }

    @Test func commandsOnOneModelShareOneReferenceAcrossUndoAndRedo() {
        let manager = makeManager()
        let log = Log()
        let model = Model("M", log: log)
        manager.beginUndoGrouping()
        for index in 1...100 { manager.perform(Note(text: "\(index)"), on: model) }
        manager.endUndoGrouping()
        log.entries.removeAll()
        manager.undo()
        manager.redo()
        #expect(log.entries.count == 200)
        #expect(log.entries.first == "undo 100 on M" && log.entries.last == "do 100 on M")
    }
}
