import Testing
@testable import UndoKit

@Suite("UndoManager clean state")
struct CleanStateTests {
    /// A manager with one document, whose steps can be undone and redone forever.
    private final class Fixture {
        let manager = UndoManager()
        let document = Document()
        var changes: [Bool] = []
        /// Kept for the fixture's lifetime: an observation ends when released.
        private var observation: UndoManager.EventObservation?

        init() {
            manager.notificationCenter = nil
            observation = manager.addCleanStateObserver { [unowned self] in self.changes.append($0) }
        }

        func edit(_ target: Document? = nil) {
            register(on: target ?? document)
            manager.runLoop.tick()
        }

        func register(on target: Document) {
            manager.registerUndo(withTarget: target) { [unowned self] target in
                self.register(on: target)
            }
        }
    }

    @Test("A new manager is clean; an edit makes it unclean; undo brings it back")
    func basics() {
        let fixture = Fixture()
        #expect(fixture.manager.isClean)
        fixture.edit()
        #expect(!fixture.manager.isClean)
        fixture.manager.undo()
        #expect(fixture.manager.isClean)
        fixture.manager.redo()
        #expect(!fixture.manager.isClean)
        #expect(fixture.changes == [false, true, false])
    }

    @Test("markClean marks the current position; redo back to it counts")
    func markAndRedo() {
        let fixture = Fixture()
        fixture.edit()
        fixture.edit()
        fixture.manager.markClean()
        #expect(fixture.manager.isClean)
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(!fixture.manager.isClean)
        fixture.manager.redo()
        fixture.manager.redo()
        #expect(fixture.manager.isClean)
        #expect(fixture.changes == [false, true, false, true])
    }

    @Test("A new edit after undoing past the mark makes it unreachable until the next markClean")
    func unreachableAfterNewEdit() {
        let fixture = Fixture()
        fixture.edit()
        fixture.manager.markClean()
        fixture.manager.undo()
        fixture.edit()
        fixture.manager.undo()
        #expect(!fixture.manager.isClean)
        while fixture.manager.canUndo { fixture.manager.undo() }
        while fixture.manager.canRedo { fixture.manager.redo() }
        #expect(!fixture.manager.isClean)
        fixture.manager.markClean()
        #expect(fixture.manager.isClean)
    }

    @Test("Trimming the marked step or one on the way makes it unreachable", arguments: [
        // (steps, mark after step, undos, levelsOfUndo, still reachable)
        (3, 1, 0, 2, false), (3, 2, 0, 2, true), (3, 0, 0, 2, false), (3, 3, 0, 1, true),
        // Redo steps are never trimmed, so a mark two redos away survives.
        (3, 3, 2, 1, true),
    ])
    func trimming(steps: Int, markAfter: Int, undos: Int, levels: Int, reachable: Bool) {
        let fixture = Fixture()
        if markAfter == 0 { fixture.manager.markClean() }
        for step in 1...steps {
            fixture.edit()
            if step == markAfter { fixture.manager.markClean() }
        }
        for _ in 0..<undos { fixture.manager.undo() }
        fixture.manager.levelsOfUndo = levels
        let foundClean = Self.searchForClean(fixture.manager)
        #expect(foundClean == reachable)
    }

    /// Whether any position reachable by undo and redo is clean.
    private static func searchForClean(_ manager: UndoManager) -> Bool {
        while manager.canUndo { manager.undo() }
        if manager.isClean { return true }
        while manager.canRedo {
            manager.redo()
            if manager.isClean { return true }
        }
        return false
    }

    @Test("Removing the marked step makes it unreachable; removing an older one does not")
    func removal() {
        let fixture = Fixture()
        let older = Document("older")
        let marked = Document("marked")
        fixture.edit(older)
        fixture.edit(marked)
        fixture.manager.markClean()
        fixture.edit()
        fixture.manager.removeAllActions(withTarget: older)
        fixture.manager.undo()
        #expect(fixture.manager.isClean)
        fixture.manager.redo()
        fixture.manager.removeAllActions(withTarget: marked)
        #expect(!Self.searchForClean(fixture.manager))
    }

    @Test("removeAllActions keeps a clean manager clean and loses the mark otherwise")
    func clearing() {
        let fixture = Fixture()
        fixture.edit()
        fixture.manager.markClean()
        fixture.manager.removeAllActions()
        #expect(fixture.manager.isClean)
        fixture.edit()
        fixture.manager.removeAllActions()
        #expect(!fixture.manager.isClean)
    }

    @Test("Marking while the event's group is open includes that group")
    func markWithOpenGroup() {
        let fixture = Fixture()
        fixture.register(on: fixture.document)
        fixture.manager.markClean()
        fixture.manager.runLoop.tick()
        #expect(fixture.manager.isClean)
        fixture.manager.undo()
        #expect(!fixture.manager.isClean)
        fixture.manager.redo()
        #expect(fixture.manager.isClean)
    }

    @Test("An undo whose inverse registered nothing cannot come back to the mark")
    func emptyInverse() {
        let fixture = Fixture()
        fixture.manager.registerUndo(withTarget: fixture.document) { _ in }
        fixture.manager.runLoop.tick()
        fixture.manager.markClean()
        fixture.manager.undo()
        #expect(!fixture.manager.isClean)
        #expect(!Self.searchForClean(fixture.manager))
    }

    @Test("Observers hear only real changes, and can be cancelled")
    func observerOnlyOnChange() {
        let fixture = Fixture()
        fixture.manager.markClean()
        fixture.manager.markClean()
        #expect(fixture.changes == [])
        fixture.edit()
        fixture.edit()
        #expect(fixture.changes == [false])
        var other: [Bool] = []
        let observation = fixture.manager.addCleanStateObserver { other.append($0) }
        fixture.manager.markClean()
        observation.cancel()
        fixture.edit()
        #expect(other == [true])
        #expect(fixture.changes == [false, true, false])
    }

    @Test("markClean while undoing traps")
    func markWhileUndoing() async {
        await #expect(processExitsWith: .failure) {
            let manager = UndoManager()
            let document = Document()
            manager.registerUndo(withTarget: document) { [unowned manager] _ in manager.markClean() }
            manager.undo()
        }
    }
}
