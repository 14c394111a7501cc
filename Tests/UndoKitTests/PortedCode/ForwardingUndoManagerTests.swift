import Foundation
import Testing
import UndoKit

/// The shape of Zavala's StackedUndoManager: a manager handed to the responder chain that
/// forwards every member to the focused view's manager, and undoes and redoes with a fallback
/// (the document's manager) when the focused one has nothing to do.
private final class StackedUndoManager: UndoManager {
    let main: UndoManager
    let fallback: UndoManager

    init(main: UndoManager, fallback: UndoManager) {
        self.main = main
        self.fallback = fallback
        super.init()
        runLoop = SimulatedRunLoop()
    }

    override func beginUndoGrouping() { main.beginUndoGrouping() }
    override func endUndoGrouping() { main.endUndoGrouping() }
    override var groupingLevel: Int { main.groupingLevel }
    override func disableUndoRegistration() { main.disableUndoRegistration() }
    override func enableUndoRegistration() { main.enableUndoRegistration() }
    override var isUndoRegistrationEnabled: Bool { main.isUndoRegistrationEnabled }

    override var groupsByEvent: Bool {
        get { main.groupsByEvent }
        set { main.groupsByEvent = newValue }
    }

    override var levelsOfUndo: Int {
        get { main.levelsOfUndo }
        set { main.levelsOfUndo = newValue }
    }

    override var runLoopModes: [RunLoop.Mode] {
        get { main.runLoopModes }
        set { main.runLoopModes = newValue }
    }

    override func undo() {
        if main.canUndo { main.undo() } else { fallback.undo() }
    }

    override func redo() {
        if main.canRedo { main.redo() } else { fallback.redo() }
    }

    override func undoNestedGroup() { main.undoNestedGroup() }
    override var canUndo: Bool { main.canUndo || fallback.canUndo }
    override var canRedo: Bool { main.canRedo || fallback.canRedo }
    override var isUndoing: Bool { main.isUndoing || fallback.isUndoing }
    override var isRedoing: Bool { main.isRedoing || fallback.isRedoing }
    override func removeAllActions() { main.removeAllActions() }
    override func removeAllActions(withTarget target: Any) { main.removeAllActions(withTarget: target) }
    override func setActionIsDiscardable(_ discardable: Bool) { main.setActionIsDiscardable(discardable) }
    override var undoActionIsDiscardable: Bool { main.undoActionIsDiscardable }
    override var redoActionIsDiscardable: Bool { main.redoActionIsDiscardable }
    override var undoActionName: String { main.undoActionName }
    override var redoActionName: String { main.redoActionName }
    override func setActionName(_ actionName: String) { main.setActionName(actionName) }
    override var undoMenuItemTitle: String { main.undoMenuItemTitle }
    override var redoMenuItemTitle: String { main.redoMenuItemTitle }
    override func undoMenuTitle(forUndoActionName actionName: String) -> String {
        main.undoMenuTitle(forUndoActionName: actionName)
    }
    override func redoMenuTitle(forUndoActionName actionName: String) -> String {
        main.redoMenuTitle(forUndoActionName: actionName)
    }
}

@Suite("Ported code: a manager that forwards every member to others")
struct ForwardingUndoManagerTests {
    private struct Setup {
        let main = UndoManager(runLoop: SimulatedRunLoop())
        let fallback = UndoManager(runLoop: SimulatedRunLoop())
        let stacked: UndoManager
        let field = PortedNote("field")
        let document = PortedNote("document")

        init() {
            stacked = StackedUndoManager(main: main, fallback: fallback)
        }

        /// One step on the focused field's manager, one on the document's.
        func editBoth() {
            document.setText("document edited", using: fallback)
            fallback.runLoop.tick()
            field.setText("field edited", using: main)
            main.setActionName("Typing")
            main.runLoop.tick()
        }
    }

    @Test func undoTakesTheFocusedManagersStepThenFallsBack() {
        let setup = Setup()
        setup.editBoth()
        #expect(setup.stacked.canUndo && setup.stacked.undoMenuItemTitle == "Undo Typing")
        setup.stacked.undo()
        #expect(setup.field.text == "field" && setup.document.text == "document edited")
        setup.stacked.undo()
        #expect(setup.document.text == "document")
        #expect(!setup.stacked.canUndo && setup.stacked.canRedo)
    }

    @Test func redoTakesTheFocusedManagersStepThenFallsBack() {
        let setup = Setup()
        setup.editBoth()
        setup.stacked.undo()
        setup.stacked.undo()
        setup.stacked.redo()
        #expect(setup.field.text == "field edited" && setup.document.text == "document")
        setup.stacked.redo()
        #expect(setup.document.text == "document edited")
        #expect(setup.stacked.redoMenuItemTitle == "Redo")
    }

    @Test func groupingAndSettingsLandOnTheFocusedManager() {
        let setup = Setup()
        setup.stacked.groupsByEvent = false
        setup.stacked.levelsOfUndo = 7
        setup.stacked.beginUndoGrouping()
        setup.field.setText("grouped", using: setup.main)
        setup.stacked.setActionName("Paste")
        #expect(setup.stacked.groupingLevel == 1 && setup.main.groupingLevel == 1)
        setup.stacked.endUndoGrouping()
        #expect(!setup.main.groupsByEvent && setup.main.levelsOfUndo == 7)
        #expect(setup.main.undoActionName == "Paste" && setup.fallback.groupsByEvent)
        setup.stacked.disableUndoRegistration()
        #expect(!setup.main.isUndoRegistrationEnabled && setup.fallback.isUndoRegistrationEnabled)
        setup.stacked.enableUndoRegistration()
    }

    @Test func clearingLandsOnTheFocusedManagerOnly() {
        let setup = Setup()
        setup.editBoth()
        setup.stacked.removeAllActions(withTarget: setup.document)
        #expect(setup.fallback.canUndo)
        setup.stacked.removeAllActions()
        #expect(!setup.main.canUndo && setup.fallback.canUndo)
    }
}
