import Foundation
import Testing
import UndoKit

/// A document's manager with stored properties and a designated initializer of its own that
/// calls `super.init()`.
private final class DocumentUndoManager: UndoManager {
    let documentName: String
    private(set) var editCount = 0

    init(documentName: String) {
        self.documentName = documentName
        super.init()
    }

    override func endUndoGrouping() {
        super.endUndoGrouping()
        if groupingLevel == 0 {
            editCount += 1
        }
    }
}

/// The shape of managers whose initializer assigns its properties and stops (StackedUndoManager,
/// a TCA editor's manager). As with Apple's `UndoManager`, `init()` is the only designated
/// initializer, so Swift calls `super.init()` implicitly and the original form compiles.
private final class ForwardingEditorUndoManager: UndoManager {
    let send: (String) -> Void

    init(send: @escaping (String) -> Void) {
        self.send = send
    }

    override func undo() {
        super.undo()
        send("undo")
    }
}

/// An editor's manager configured in `override init()`, as STTextView's and Runestone's are.
private final class ConfiguredUndoManager: UndoManager {
    override init() {
        super.init()
        groupsByEvent = false
        levelsOfUndo = 50
        runLoopModes = [.default, .common, RunLoop.Mode("eventTracking")]
    }

    convenience init(limit: Int) {
        self.init()
        levelsOfUndo = limit
    }
}

/// Several views of one window share the window's event stream: one loop, one tick.
private final class ViewUndoManager: UndoManager {
    let viewName: String

    init(viewName: String, runLoop: SimulatedRunLoop) {
        self.viewName = viewName
        super.init()
        self.runLoop = runLoop
    }
}

@Suite("Ported code: subclasses with initializers of their own")
struct InitializerTests {
    @Test func anOwnDesignatedInitializerGetsTheDefaultsAndStoredProperties() {
        let manager = DocumentUndoManager(documentName: "Report")
        #expect(manager.documentName == "Report")
        #expect(manager.groupsByEvent && manager.levelsOfUndo == 0 && manager.runLoopModes == [.default])
        #expect(manager.isUndoRegistrationEnabled && !manager.canUndo && manager.undoMenuItemTitle == "Undo")
    }

    @Test func anOwnDesignatedInitializerGetsALoopOfItsOwnThatEndsEvents() {
        let manager = DocumentUndoManager(documentName: "Report")
        let other = DocumentUndoManager(documentName: "Notes")
        #expect(manager.runLoop !== other.runLoop)
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.runLoop.tick()   // goes through the endUndoGrouping() override
        note.setText("b", using: manager)
        manager.runLoop.tick()
        #expect(manager.editCount == 2 && manager.undoCount == 2)
        manager.undo()
        #expect(note.text == "a")
    }

    @Test func anInitializerThatOnlyAssignsItsPropertiesWorks() {
        var sent: [String] = []
        let manager = ForwardingEditorUndoManager { sent.append($0) }
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.undo()
        #expect(note.text == "" && sent == ["undo"])
        #expect(manager.groupsByEvent)
    }

    @Test func overrideInitConfiguresTheManager() {
        let manager = ConfiguredUndoManager()
        #expect(!manager.groupsByEvent && manager.levelsOfUndo == 50)
        #expect(manager.runLoopModes.map(\.rawValue) == [RunLoop.Mode.default.rawValue, RunLoop.Mode.common.rawValue, "eventTracking"])
        manager.beginUndoGrouping()
        PortedNote().setText("a", using: manager)
        manager.endUndoGrouping()
        #expect(manager.undoCount == 1)
    }

    @Test func aConvenienceInitializerDelegatesToOverrideInit() {
        let manager = ConfiguredUndoManager(limit: 3)
        #expect(manager.levelsOfUndo == 3 && !manager.groupsByEvent)
    }

    @Test func managersMadeWithASharedLoopEndTheirEventsTogether() {
        let loop = SimulatedRunLoop()
        let text = ViewUndoManager(viewName: "text", runLoop: loop)
        let canvas = ViewUndoManager(viewName: "canvas", runLoop: loop)
        #expect(text.runLoop === loop && canvas.runLoop === loop)
        let note = PortedNote()
        let sketch = PortedNote()
        note.setText("a", using: text)
        sketch.setText("line", using: canvas)
        #expect(loop.hasPendingEvents)
        loop.tick()
        #expect(text.undoCount == 1 && canvas.undoCount == 1)
        #expect(!loop.hasPendingEvents)
        canvas.undo()
        #expect(sketch.text == "" && note.text == "a")
    }

    @Test func aSubclassInstanceIsReleasedWithNoCycleThroughItsLoop() {
        weak var released: DocumentUndoManager?
        do {
            let manager = DocumentUndoManager(documentName: "Scratch")
            let note = PortedNote()
            note.setText("a", using: manager)
            manager.runLoop.tick()
            released = manager
        }
        #expect(released == nil)
    }
}
