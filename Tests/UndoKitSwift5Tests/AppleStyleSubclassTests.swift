import Foundation
import Testing
import UndoKit

// Client code in the style written for SDKs before the main-actor annotations, compiled in
// Swift 5 language mode: non-final classes, Xcode's `where TargetType : AnyObject` override
// signature, optional-chained managers, `override init()`, observers, and `Any` targets.

class Shape {
    var position = CGPoint.zero
    var color = "black"
}

class ShapeUndoManager: UndoManager {
    var registrationCount = 0
    var settingsLog: [String] = []

    override init() {
        super.init()
        levelsOfUndo = 25
    }

    override func registerUndo<TargetType>(withTarget target: TargetType, handler: @escaping (TargetType) -> Void) where TargetType : AnyObject {
        registrationCount += 1
        super.registerUndo(withTarget: target, handler: handler)
    }

    override var levelsOfUndo: Int {
        didSet { settingsLog.append("levelsOfUndo \(oldValue) -> \(levelsOfUndo)") }
    }

    override var groupsByEvent: Bool {
        didSet { settingsLog.append("groupsByEvent \(oldValue) -> \(groupsByEvent)") }
    }

    override func undoMenuTitle(forUndoActionName actionName: String) -> String {
        return "Undo “\(actionName)”"
    }
}

class CanvasController {
    var undoManager: UndoManager?
    var shapes: [Shape] = []

    func move(_ shape: Shape, to position: CGPoint) {
        let oldPosition = shape.position
        shape.position = position
        undoManager?.registerUndo(withTarget: self) { controller in
            controller.move(shape, to: oldPosition)
        }
        undoManager?.setActionName("Move")
    }

    func recolor(_ shape: Shape, to color: String) {
        let oldColor = shape.color
        shape.color = color
        undoManager?.registerUndo(withTarget: shape) { [weak self] shape in
            self?.recolor(shape, to: oldColor)
        }
        undoManager?.setActionName("Color")
    }
}

@Suite("Swift 5 mode: Apple-style subclasses and client code")
struct AppleStyleSubclassTests {
    @Test func overrideInitRunsAndItsObserversFire() {
        let manager = ShapeUndoManager()
        #expect(manager.levelsOfUndo == 25)
        #expect(manager.settingsLog == ["levelsOfUndo 0 -> 25"])
        manager.groupsByEvent = false
        #expect(manager.settingsLog.last == "groupsByEvent true -> false")
    }

    @Test func theOverrideSeesEveryRegistrationIncludingInverses() {
        let manager = ShapeUndoManager()
        let controller = CanvasController()
        controller.undoManager = manager
        let shape = Shape()
        controller.move(shape, to: CGPoint(x: 10, y: 20))
        controller.recolor(shape, to: "red")
        manager.runLoop.tick()
        #expect(manager.registrationCount == 2)
        manager.undo()
        #expect(shape.position == .zero && shape.color == "black")
        #expect(manager.registrationCount == 4)
        manager.redo()
        #expect(shape.position == CGPoint(x: 10, y: 20) && shape.color == "red")
        #expect(manager.registrationCount == 6)
    }

    @Test func menuTitlesComeFromTheOverride() {
        let manager = ShapeUndoManager()
        let controller = CanvasController()
        controller.undoManager = manager
        controller.move(Shape(), to: CGPoint(x: 1, y: 1))
        manager.runLoop.tick()
        #expect(manager.undoMenuItemTitle == "Undo “Move”")
    }

    @Test func removeAllActionsWithTargetTakesAnyValue() {
        let manager = ShapeUndoManager()
        let controller = CanvasController()
        controller.undoManager = manager
        let shape = Shape()
        controller.recolor(shape, to: "red")
        manager.runLoop.tick()
        let maybeShape: Shape? = shape
        manager.removeAllActions(withTarget: "red")
        manager.removeAllActions(withTarget: 3)
        #expect(manager.canUndo)
        manager.removeAllActions(withTarget: maybeShape as Any)
        #expect(!manager.canUndo)
    }

    @Test func aControllerWithoutAManagerRegistersNothing() {
        let controller = CanvasController()
        let shape = Shape()
        controller.move(shape, to: CGPoint(x: 5, y: 5))
        #expect(shape.position == CGPoint(x: 5, y: 5))
    }

    @Test func managersAreHashableNSObjects() {
        let first = ShapeUndoManager()
        let second = UndoManager()
        let byWindow: [UndoManager: String] = [first: "Canvas", second: "Inspector"]
        #expect(byWindow[first] == "Canvas" && first != second)
        #expect(first.description.hasPrefix("<ShapeUndoManager 0x"))
    }
}
