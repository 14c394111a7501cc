import Foundation
import Testing
import UndoKit

// Counting and logging managers (the shapes of phantom-undo's FBUndoManager and of apps that
// count edits): each overrides one of the two registration overloads plus a few queries, and
// calls super. Whichever overload a subclass overrides, it must see every registration once.

/// What both counting managers count besides registrations, and a query whose override
/// changes what callers see.
class CountingUndoManager: UndoManager {
    fileprivate(set) var registrations = 0
    private(set) var canUndoReads = 0
    private(set) var undos = 0
    private(set) var redos = 0

    override var canUndo: Bool {
        canUndoReads += 1
        return super.canUndo
    }

    override var undoActionName: String {
        super.undoActionName.uppercased()
    }

    override func undo() {
        undos += 1
        super.undo()
    }

    override func redo() {
        redos += 1
        super.redo()
    }
}

/// Counts registrations through UndoKit's overload, the one closure literals pick.
final class NonisolatedCountingUndoManager: CountingUndoManager {
    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping (TargetType) -> Void
    ) {
        registrations += 1
        super.registerUndo(withTarget: target, handler: handler)
    }
}

/// Counts registrations through Apple's current signature, with a main-actor handler.
final class MainActorCountingUndoManager: CountingUndoManager {
    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
    ) {
        registrations += 1
        super.registerUndo(withTarget: target, handler: handler)
    }
}

/// Either counting subclass, for parameterized tests.
enum CountingVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case nonisolatedOverride, mainActorOverride

    var testDescription: String { rawValue }

    func makeManager() -> CountingUndoManager {
        let manager: CountingUndoManager = switch self {
        case .nonisolatedOverride: NonisolatedCountingUndoManager(runLoop: SimulatedRunLoop())
        case .mainActorOverride: MainActorCountingUndoManager(runLoop: SimulatedRunLoop())
        }
        manager.notificationCenter = nil
        return manager
    }
}

/// A drawing, and its selection, restored along with its edits by the companion registration
/// of ``CompanionRegisteringUndoManager``. (Separate objects, as in editors that keep the
/// selection in a view: a companion registered on the edit's own target inside an override of
/// the `@MainActor` form is recorded but not seen by that override, see
/// UndoManager+Registration.swift.)
private final class Canvas {
    var shapes: [String] = []
    let selection = Selection()
}

private final class Selection {
    var shapes: [String] = []
}

/// The shape of an editor's manager that, when a registration starts a new step, first
/// registers a companion action (restoring the selection) and then the caller's: a
/// registration made from inside the override, before its `super` call.
private final class CompanionRegisteringUndoManager: UndoManager {
    private(set) var registrations = 0
    let canvas: Canvas

    init(canvas: Canvas) {
        self.canvas = canvas
        super.init()
        runLoop = SimulatedRunLoop()
        groupsByEvent = false
    }

    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
    ) {
        registrations += 1
        if groupingLevel == 0 {
            beginUndoGrouping()
            let selected = canvas.selection.shapes
            registerUndo(withTarget: canvas.selection) { $0.shapes = selected }
        }
        super.registerUndo(withTarget: target, handler: handler)
    }
}

@Suite("Ported code: managers that count registrations")
struct CountingUndoManagerTests {
    @Test(arguments: CountingVariant.allCases)
    func closureLiteralRegistrationsCountOnceEach(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        note.setText("b", using: manager)
        manager.runLoop.tick()
        note.setText("c", using: manager)
        #expect(manager.registrations == 3)
    }

    @Test(arguments: CountingVariant.allCases)
    func mainActorHandlerRegistrationsCountOnceEach(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let note = PortedNote()
        let handler: @MainActor (PortedNote) -> Void = { _ in }
        manager.registerUndo(withTarget: note, handler: handler)
        manager.registerUndo(withTarget: note, handler: handler)
        #expect(manager.registrations == 2)
    }

    @Test(arguments: CountingVariant.allCases)
    func inversesRegisteredByUndoAndRedoHandlersCountToo(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.undo()
        #expect(manager.registrations == 2)
        manager.redo()
        #expect(manager.registrations == 3)
        #expect(note.text == "a")
        #expect(manager.undos == 1 && manager.redos == 1)
    }

    @Test(arguments: CountingVariant.allCases)
    func performCountsItsStepAndEachInverse(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let list = PortedList()
        manager.perform(PortedAppend(item: "milk"), on: list)
        manager.perform(PortedAppend(item: "eggs"), on: list)
        #expect(manager.registrations == 2)
        manager.undo()
        #expect(list.items.isEmpty)
        #expect(manager.registrations == 4)
        manager.redo()
        #expect(list.items == ["milk", "eggs"])
        #expect(manager.registrations == 6)
    }

    @Test(arguments: CountingVariant.allCases)
    func undoableValueCountsEachChangeAndEachRestore(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let value = UndoableValue(1, undoManager: manager)
        value.modify { $0 += 1 }
        manager.runLoop.tick()
        value.modify { $0 += 1 }
        #expect(manager.registrations == 2)
        manager.undo()
        #expect(value.value == 2)
        #expect(manager.registrations == 3)
    }

    @Test(arguments: CountingVariant.allCases)
    func overriddenQueriesChangeWhatCallersSeeButNotHowTheManagerWorks(_ variant: CountingVariant) {
        let manager = variant.makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.setActionName("Rename")
        #expect(manager.undoActionName == "RENAME")
        #expect(manager.undoMenuItemTitle == "Undo RENAME")      // the title is built from the override
        #expect(manager.canUndoReads == 1)  // read once, by undoMenuItemTitle
        manager.undo()
        #expect(manager.canUndoReads == 1)  // undo() itself reads no getter
        #expect(manager.redoActionName == "Rename")              // stored as set
    }

    @Test(arguments: CountingVariant.allCases)
    func aRegistrationWhileDisabledIsSeenByEitherOverride(_ variant: CountingVariant) {
        // On Apple the overridable registration method is entered before the disabled check
        // (spec R3 makes it a no-op inside), so a counting override sees the call either way.
        let manager = variant.makeManager()
        manager.disableUndoRegistration()
        PortedNote().setText("a", using: manager)
        #expect(manager.registrations == 1)
        #expect(!manager.canUndo)
    }

    @Test func aRegistrationMadeInsideTheOverrideIsSeenByTheOverrideToo() {
        let canvas = Canvas()
        let manager = CompanionRegisteringUndoManager(canvas: canvas)
        manager.notificationCenter = nil
        canvas.selection.shapes = ["circle"]
        canvas.shapes.append("square")
        manager.registerUndo(withTarget: canvas) { $0.shapes.removeLast() }
        canvas.selection.shapes = ["square"]
        manager.endUndoGrouping()

        manager.undo()
        #expect(canvas.shapes.isEmpty && canvas.selection.shapes == ["circle"])
        #expect(manager.registrations == 2)
    }
}
