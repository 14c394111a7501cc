import Foundation
import Testing
import UndoKit

/// The shape of PencilMarkRedux's canvas controller: a nested class that is itself named
/// `UndoManager`, whose `undo()` and `redo()` call `super` and then tell the controller.
private final class SketchController {
    private(set) var refreshes: [String] = []
    let undoManager: UndoManager

    init(runLoop: SimulatedRunLoop) {
        undoManager = UndoManager(runLoop: runLoop)
        undoManager.controller = self
    }

    final class UndoManager: UndoKit.UndoManager {
        /// Not set during `init`; set right after.
        weak var controller: SketchController?

        override func undo() {
            super.undo()
            controller?.refreshes.append("undo, redo available: \(canRedo)")
        }

        override func redo() {
            super.redo()
            controller?.refreshes.append("redo, undo available: \(canUndo)")
        }
    }
}

/// A manager that refuses to undo while suspended (during a save or a sync) and localizes its
/// names and titles, the shape of a localized document app's manager.
private final class SuspendableUndoManager: UndoManager {
    var isSuspended = false
    private let french = ["Typing": "Saisie", "Delete": "Suppression"]

    override var canUndo: Bool { !isSuspended && super.canUndo }
    override var canRedo: Bool { !isSuspended && super.canRedo }

    override func undo() {
        if canUndo { super.undo() }
    }

    override func redo() {
        if canRedo { super.redo() }
    }

    override func setActionName(_ actionName: String) {
        super.setActionName(french[actionName] ?? actionName)
    }

    override func undoMenuTitle(forUndoActionName actionName: String) -> String {
        "Annuler « \(actionName) »"
    }

    override func redoMenuTitle(forUndoActionName actionName: String) -> String {
        "Rétablir « \(actionName) »"
    }
}

/// The shape of a block editor's manager: grouping by event off, and `undo()` /
/// `undoNestedGroup()` close a group left open by the editor before undoing.
private final class BlockEditorUndoManager: UndoManager {
    override init() {
        super.init()
        groupsByEvent = false
    }

    override func undo() {
        if groupingLevel >= 1 {
            super.endUndoGrouping()
        }
        super.undo()
    }

    override func undoNestedGroup() {
        if groupingLevel >= 1 {
            super.endUndoGrouping()
        }
        super.undoNestedGroup()
    }
}

/// Logs the end of each group, made with `override init()` so that it drives its own loop.
private final class GroupLoggingUndoManager: UndoManager {
    private(set) var closes = 0

    override init() {
        super.init()
    }

    override func endUndoGrouping() {
        closes += 1
        super.endUndoGrouping()
    }
}

@Suite("Ported code: overridden undo() behind UndoKit's own entry points")
struct OverriddenUndoTests {
    @Test func aCoordinatorsUndoAndRedoGoThroughTheNestedUndoManagerClass() {
        let controller = SketchController(runLoop: SimulatedRunLoop())
        let coordinator = UndoCoordinator()
        coordinator.attach(controller.undoManager)
        let note = PortedNote()
        note.setText("stroke", using: controller.undoManager)
        coordinator.undo()
        coordinator.redo()
        #expect(note.text == "stroke")
        #expect(controller.refreshes == ["undo, redo available: true", "redo, undo available: true"])
    }

    @Test func aCoordinatorsUndoIsRefusedByTheOverrideWhileSuspended() {
        let manager = SuspendableUndoManager(runLoop: SimulatedRunLoop())
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.isSuspended = true
        coordinator.undo()
        #expect(note.text == "a")
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)   // the event group was still ended
        manager.isSuspended = false
        coordinator.undo()
        #expect(note.text == "")
    }

    @Test func endEventGroupIsNotAffectedByAnUndoOverride() {
        let manager = SuspendableUndoManager(runLoop: SimulatedRunLoop())
        manager.isSuspended = true
        PortedNote().setText("a", using: manager)
        #expect(manager.endEventGroup())
        #expect(manager.groupingLevel == 0 && manager.undoCount == 1)
    }

    @Test func performedCommandsAreRefusedAndAllowedThroughTheOverride() {
        let manager = SuspendableUndoManager(runLoop: SimulatedRunLoop())
        let list = PortedList()
        manager.perform(PortedAppend(item: "milk"), on: list)
        manager.runLoop.tick()
        manager.isSuspended = true
        manager.undo()
        #expect(list.items == ["milk"])
        manager.isSuspended = false
        manager.undo()
        #expect(list.items.isEmpty)
        manager.redo()
        #expect(list.items == ["milk"])
    }

    @Test func localizedNamesAndTitlesReachTheMenuThroughTheOverrides() {
        let manager = SuspendableUndoManager(runLoop: SimulatedRunLoop())
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.setActionName("Typing")
        manager.runLoop.tick()
        #expect(manager.undoActionName == "Saisie")
        #expect(manager.undoMenuItemTitle == "Annuler « Saisie »")
        #expect(coordinator.undoMenuItemTitle == "Annuler « Saisie »")
        manager.isSuspended = true
        #expect(manager.undoMenuItemTitle == "Undo")   // canUndo is false: the plain title
        manager.isSuspended = false
        coordinator.undo()
        #expect(manager.redoMenuItemTitle == "Rétablir « Saisie »")
        #expect(coordinator.redoMenuItemTitle == "Rétablir « Saisie »")
    }

    @Test func theUndoOverrideClosesAnExplicitGroupLeftOpen() {
        // Without the override, undo() with an explicit group open is a misuse (spec E3).
        let manager = BlockEditorUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        manager.beginUndoGrouping()
        note.setText("block", using: manager)
        manager.undo()
        #expect(note.text == "" && manager.groupingLevel == 0 && manager.redoCount == 1)
        manager.redo()
        #expect(note.text == "block")
    }

    @Test func undoNestedGroupOverrideClosesTheOpenGroupFirst() {
        let manager = BlockEditorUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        manager.beginUndoGrouping()
        note.setText("a", using: manager)
        manager.undoNestedGroup()
        #expect(note.text == "" && manager.redoCount == 1)
    }

    @Test func theRunLoopDriverClosesEachTimerFiresGroupThroughTheOverride() async {
        let log = await timerFires(2, makeManager: { GroupLoggingUndoManager() }) { manager in
            "closes: \((manager as? GroupLoggingUndoManager)?.closes ?? -1)"
        }
        #expect(log == ["fire 1: 0 steps, level 0", "fire 2: 1 steps, level 0", "after: 2 steps, level 0", "undo: 1!", "closes: 2"])
    }
}
