import Foundation
import Testing
@testable import UndoKit

@Suite("Defaults and registration (R1–R8)")
struct DefaultsAndRegistrationTests {
    @Test("R1: a new manager's state")
    func defaults() {
        let manager = UndoManager()
        #expect(manager.groupsByEvent)
        #expect(manager.levelsOfUndo == 0)
        #expect(manager.runLoopModes == [.default])
        #expect(manager.notificationCenter === NotificationCenter.default)
        let fixture = Fixture(manager: manager)
        #expect(fixture.state == ManagerState())
        #expect(fixture.takeEvents().isEmpty)
    }

    @Test("R3: registration while disabled does nothing: no redo clearing, no group, no event")
    func disabledRegistration() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.manager.undo()
        let before = fixture.state
        #expect(before.canRedo)
        _ = fixture.takeEvents()
        fixture.manager.disableUndoRegistration()
        fixture.change(doc, to: 5)
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state == before.with { $0.isUndoRegistrationEnabled = false })
        #expect(!fixture.manager.runLoop.hasPendingEvents)
    }

    @Test("R4: registration clears the redo stack, but not while undoing or redoing")
    func registrationClearsRedo() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.step(doc, to: 2)
        fixture.manager.undo()
        fixture.manager.undo()
        #expect(fixture.state.redoCount == 2)
        // Undo registered the inverses without clearing: both redo groups survived.
        fixture.change(doc, to: 7)
        #expect(fixture.state.canRedo == false)
        #expect(fixture.state.redoCount == 0)
    }

    @Test("R4: a registration into an explicit group nested in the automatic one clears redo")
    func redoClearedInsideExplicitGroup() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.manager.undo()
        fixture.manager.beginUndoGrouping()   // auto + explicit
        #expect(fixture.state.canRedo)
        fixture.change(doc, to: 3)
        #expect(!fixture.state.canRedo)
    }

    @Test("R5: the first registration of an event opens the automatic group and posts DO only")
    func automaticGroup() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        #expect(fixture.takeEvents() == [DO])
        #expect(fixture.observedLevels == [1])
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.groupingLevel = 1
        })
        fixture.change(doc, to: 2)
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.state.groupingLevel == 1)
    }

    @Test("R6/R7: with groupsByEvent off, a registration goes to the innermost open group")
    func explicitGroups() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(doc, "outer")
        fixture.manager.beginUndoGrouping()
        fixture.registerOneWay(doc, "inner")
        fixture.manager.endUndoGrouping()
        fixture.registerOneWay(doc, "outer again")
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoCount == 1)
        fixture.manager.undo()
        #expect(doc.log == ["outer again", "inner", "outer"])
    }

    @Test("R7: while undoing, registrations build the redo group")
    func registrationsWhileUndoingGoToRedo() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1)
        fixture.manager.undo()
        #expect(doc.value == 0)
        #expect(fixture.state.redoCount == 1)
        #expect(fixture.state.undoCount == 0)
    }

    @Test("R8: the target is held weakly and a dead target's action is skipped")
    func weakTarget() {
        let fixture = Fixture(groupsByEvent: false)
        let survivor = Document("survivor")
        weak var weakDoomed: Document?
        fixture.manager.beginUndoGrouping()
        do {
            let doomed = Document("doomed")
            weakDoomed = doomed
            fixture.manager.registerUndo(withTarget: doomed) { _ in
                Issue.record("the action of a dead target ran")
            }
            fixture.registerOneWay(survivor, "ran")
        }
        fixture.manager.endUndoGrouping()
        #expect(weakDoomed == nil)
        fixture.manager.undo()
        #expect(survivor.log == ["ran"])
    }

    @Test("R8: the handler is held strongly until its group is gone")
    func handlerRetained() {
        final class Token {}
        weak var weakToken: Token?
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        do {
            let token = Token()
            weakToken = token
            fixture.manager.beginUndoGrouping()
            fixture.manager.registerUndo(withTarget: doc) { _ in _ = token }
            fixture.manager.endUndoGrouping()
        }
        #expect(weakToken != nil)
        fixture.manager.undo()
        #expect(weakToken == nil)
    }

    @Test("The manager does not keep its targets or itself alive")
    func noCycles() {
        weak var weakManager: UndoManager?
        weak var weakDoc: Document?
        do {
            let fixture = Fixture()
            let doc = Document()
            weakManager = fixture.manager
            weakDoc = doc
            fixture.step(doc, to: 1)
            fixture.step(doc, to: 2)
            fixture.manager.undo()
        }
        #expect(weakManager == nil)
        #expect(weakDoc == nil)
    }
}
