import Foundation
@testable import UndoKit

/// A text view with an undo manager of its own, as in the note app: typing registers the
/// undo of the change and names the step after what was typed, so tests can follow steps by
/// name.
final class CoordinationTextView {
    let undoManager: UndoManager
    private(set) var text = ""

    init(runLoop: SimulatedRunLoop) {
        undoManager = UndoManager(runLoop: runLoop)
        // The coordinator must not need notifications; leaving none proves it.
        undoManager.notificationCenter = nil
    }

    /// Appends `string` with one registration, in the automatic group of the current event.
    func type(_ string: String) {
        replaceText(with: text + string)
        undoManager.setActionName("Type \(string)")
    }

    private func replaceText(with newText: String) {
        let oldText = text
        text = newText
        undoManager.registerUndo(withTarget: self) { view in
            view.replaceText(with: oldText)
        }
    }
}

/// An undoable integer, for managers that need several targets.
final class CoordinationCounter {
    private(set) var value = 0

    func add(_ delta: Int, using manager: UndoManager) {
        value += delta
        // Unowned: the manager keeps this handler, so a strong capture would keep the
        // manager alive forever.
        manager.registerUndo(withTarget: self) { [unowned manager] counter in
            counter.add(-delta, using: manager)
        }
    }
}

/// The coordinator's order, by step name.
struct CoordinationOrder: Equatable, CustomStringConvertible {
    var undo: [String]
    var redo: [String]

    var description: String { "undo \(undo), redo \(redo)" }
}

extension UndoCoordinator {
    /// The names of the ordered steps, read from the groups of their step ids.
    func order() -> CoordinationOrder {
        dropGoneMembers()
        func name(of step: Step, onRedoStack: Bool) -> String {
            guard let manager = step.member.manager else { return "<gone>" }
            let (ids, metadata) = onRedoStack
                ? (manager.redoStack.steps.ids, manager.redoStack.closedTopLevelMetadata())
                : (manager.undoStack.steps.ids, manager.undoStack.closedTopLevelMetadata())
            guard let index = ids.firstIndex(of: step.id) else { return "<missing>" }
            return metadata[index]?.name ?? ""
        }
        return CoordinationOrder(
            undo: undoSteps.map { name(of: $0, onRedoStack: false) },
            redo: redoSteps.map { name(of: $0, onRedoStack: true) }
        )
    }
}
