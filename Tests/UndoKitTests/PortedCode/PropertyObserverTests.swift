import Foundation
import Testing
import UndoKit

/// A settings-aware manager: observers on the overridden settable properties keep a log (an
/// app would update its preferences UI or persist the limit there).
private final class ObservingUndoManager: UndoManager {
    private(set) var log: [String] = []

    override init() {
        super.init()
        levelsOfUndo = 10   // observers run for a change made in the initializer, after super.init
    }

    override var levelsOfUndo: Int {
        willSet { log.append("levels will \(levelsOfUndo) → \(newValue)") }
        didSet { log.append("levels did \(oldValue) → \(levelsOfUndo)") }
    }

    override var groupsByEvent: Bool {
        willSet { log.append("groupsByEvent will \(groupsByEvent) → \(newValue)") }
        didSet { log.append("groupsByEvent did \(oldValue) → \(groupsByEvent)") }
    }

    override var runLoopModes: [RunLoop.Mode] {
        didSet { log.append("modes did \(oldValue.map(\.rawValue)) → \(runLoopModes.map(\.rawValue))") }
    }

    func takeLog() -> [String] {
        defer { log.removeAll() }
        return log
    }
}

@Suite("Ported code: property observers on settable properties")
struct PropertyObserverTests {
    private func makeManager() -> ObservingUndoManager {
        ObservingUndoManager(runLoop: SimulatedRunLoop())
    }

    @Test func aChangeInTheInitializerReachesTheObservers() {
        let manager = makeManager()
        #expect(manager.takeLog() == ["levels will 0 → 10", "levels did 0 → 10"])
        #expect(manager.levelsOfUndo == 10)
    }

    @Test func levelsOfUndoObserversSeeOldAndNewValuesAndTheStackIsTrimmed() {
        let manager = makeManager()
        let note = PortedNote()
        for step in 1...5 {
            note.setText("\(step)", using: manager)
            manager.runLoop.tick()
        }
        _ = manager.takeLog()
        manager.levelsOfUndo = 2
        #expect(manager.takeLog() == ["levels will 10 → 2", "levels did 10 → 2"])
        #expect(manager.undoCount == 2)
        note.setText("6", using: manager)
        manager.runLoop.tick()
        #expect(manager.undoCount == 2)   // the limit keeps working after the observed set
        manager.undo()
        manager.undo()
        #expect(note.text == "4" && !manager.canUndo)
    }

    @Test func groupsByEventObserversSeeTheFlipAndTheFlipTakesEffect() {
        let manager = makeManager()
        _ = manager.takeLog()
        manager.groupsByEvent = false
        #expect(manager.takeLog() == ["groupsByEvent will true → false", "groupsByEvent did true → false"])
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 1)   // no automatic group opened first
        manager.endUndoGrouping()
        manager.groupsByEvent = true
        #expect(manager.takeLog() == ["groupsByEvent will false → true", "groupsByEvent did false → true"])
    }

    @Test func runLoopModesObserversSeeTheModesAndTicksFollowThem() {
        let manager = makeManager()
        let tracking = RunLoop.Mode("tracking")
        _ = manager.takeLog()
        manager.runLoopModes = [tracking]
        #expect(manager.takeLog() == ["modes did [\"\(RunLoop.Mode.default.rawValue)\"] → [\"tracking\"]"])
        PortedNote().setText("a", using: manager)
        manager.runLoop.tick()
        #expect(manager.groupingLevel == 1)
        manager.runLoop.tick(mode: tracking)
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)
    }

    @Test func theManagerReadsItsOwnStateNotTheObservedProperties() {
        // Registrations, ticks and undo read no property, so the observers log nothing.
        let manager = makeManager()
        _ = manager.takeLog()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.runLoop.tick()
        manager.undo()
        manager.redo()
        #expect(manager.takeLog().isEmpty)
        #expect(note.text == "a")
    }
}
