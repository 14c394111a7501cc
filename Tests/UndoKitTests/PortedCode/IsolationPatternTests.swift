import Foundation
import Testing
import UndoKit

// Swift 6 patterns of app code written against Apple's main-actor UndoManager (spec H2, I.5),
// compiled in Swift 6 language mode with strict concurrency, each also run.

/// A main-actor view model that owns its manager and registers handlers that call its
/// main-actor methods.
@MainActor
private final class DrawingViewModel {
    let undoManager = UndoManager(runLoop: SimulatedRunLoop())
    private(set) var strokes: [String] = []

    func add(_ stroke: String) {
        strokes.append(stroke)
        undoManager.registerUndo(withTarget: self) { model in
            model.removeLastStroke()
        }
        undoManager.setActionName("Draw")
    }

    func removeLastStroke() {
        let stroke = strokes.removeLast()
        undoManager.registerUndo(withTarget: self) { model in
            model.add(stroke)
        }
    }

    /// The end of the user's gesture.
    func endGesture() {
        undoManager.runLoop.tick()
    }
}

/// The shape of MainOffender's helper: an extension for registering main-actor handlers.
extension UndoManager {
    @MainActor
    fileprivate func registerMainActorUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping @MainActor (TargetType) -> Void
    ) {
        registerUndo(withTarget: target, handler: { handlerTarget in
            nonisolated(unsafe) let mainTarget = handlerTarget
            MainActor.assumeIsolated {
                handler(mainTarget)
            }
        })
    }
}

/// Apple-original form: `@MainActor final class ...: UndoManager` with a stored property that
/// `override func undo()` mutates. It does not compile against UndoKit: overrides keep the
/// superclass member's isolation (nonisolated), so the mutation is reported as "main
/// actor-isolated property 'undos' can not be mutated from a nonisolated context"; marking
/// the override `@MainActor` instead gives "main actor-isolated instance method 'undo()' has
/// different actor isolation from nonisolated overridden declaration". The smallest change
/// that compiles: drop `@MainActor` from the class (kept on the members that need it).
private final class StrokeCountingUndoManager: UndoManager {
    private(set) var undos = 0
    private(set) var registrations = 0

    override func undo() {
        undos += 1
        super.undo()
    }

    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
    ) {
        registrations += 1
        super.registerUndo(withTarget: target, handler: handler)
    }

    @MainActor
    func undoFromTheMenu() {
        if canUndo { undo() }
    }
}

/// Another way that compiles: keep `@MainActor` on the class and opt the state the overrides
/// touch out of its isolation. (Reaching it through `MainActor.assumeIsolated` inside the
/// override does not compile: "sending 'self' risks causing data races".)
@MainActor
private final class OptedOutUndoManager: UndoManager {
    nonisolated(unsafe) private(set) var undos = 0

    override func undo() {
        undos += 1
        super.undo()
    }
}

@MainActor
private final class Counter {
    private(set) var value = 0

    func add(_ amount: Int, using manager: UndoManager) {
        value += amount
        manager.registerMainActorUndo(withTarget: self) { counter in
            counter.add(-amount, using: manager)
        }
    }
}

@Suite("Ported code: Swift 6 isolation patterns")
struct IsolationPatternTests {
    @MainActor
    @Test func aViewModelsHandlersCallItsMainActorMethods() {
        let model = DrawingViewModel()
        model.add("line")
        model.endGesture()
        model.add("circle")
        model.endGesture()
        model.undoManager.undo()
        #expect(model.strokes == ["line"])
        #expect(model.undoManager.redoMenuItemTitle == "Redo Draw")
        model.undoManager.redo()
        #expect(model.strokes == ["line", "circle"])
    }

    @MainActor
    @Test func aMainActorTaskUndoesFromMainActorCode() async {
        let model = DrawingViewModel()
        model.add("line")
        model.endGesture()
        let manager = model.undoManager
        let task = Task { @MainActor in
            manager.undo()
        }
        await task.value
        #expect(model.strokes.isEmpty)
        #expect(manager.canRedo)
    }

    @Test func aManagerMadeOffTheMainActorIsHandedToMainActorRun() async {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let texts = await MainActor.run {
            let counter = Counter()
            counter.add(5, using: manager)
            manager.runLoop.tick()
            manager.undo()
            let afterUndo = counter.value
            manager.redo()
            return [afterUndo, counter.value]
        }
        #expect(texts == [0, 5])
    }

    @MainActor
    @Test func aSubclassWithoutTheClassLevelMainActorOverridesAndRuns() {
        let manager = StrokeCountingUndoManager(runLoop: SimulatedRunLoop())
        let model = DrawingViewModel()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.registerUndo(withTarget: model) { model in model.add("restored") }
        manager.undoFromTheMenu()
        #expect(manager.undos == 1 && manager.registrations == 3)   // two registrations and one inverse
        #expect(note.text == "" && model.strokes == ["restored"])
    }

    @MainActor
    @Test func aMainActorSubclassWithNonisolatedUnsafeStateOverridesAndRuns() {
        let manager = OptedOutUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.undo()
        #expect(manager.undos == 1 && note.text == "")
    }

    @MainActor
    @Test func aHelperRegisteringMainActorHandlersUndoesAndRedoes() {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let counter = Counter()
        counter.add(2, using: manager)
        manager.runLoop.tick()
        counter.add(3, using: manager)
        manager.runLoop.tick()
        manager.undo()
        #expect(counter.value == 2)
        manager.redo()
        #expect(counter.value == 5)
    }
}
