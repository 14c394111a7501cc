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
    /// The names of the ordered steps, oldest first (the redo steps in the order they were
    /// undone), read from the members' stacks and placed by when each landed there.
    func order() -> CoordinationOrder {
        dropGoneMembers()
        func names(onRedoStacks: Bool) -> [String] {
            var landed: [(stamp: Int64, name: String)] = []
            for member in members {
                guard let manager = member.manager else { continue }
                let (ids, metadata) = onRedoStacks
                    ? (manager.redoStack.steps.ids, manager.redoStack.closedTopLevelMetadata())
                    : (manager.undoStack.steps.ids, manager.undoStack.closedTopLevelMetadata())
                for (id, metadata) in zip(ids, metadata) {
                    landed.append((member.landedAt[id] ?? .min, member.landedAt[id] == nil ? "<missing>" : metadata?.name ?? ""))
                }
            }
            return landed.sorted { $0.stamp < $1.stamp }.map(\.name)
        }
        return CoordinationOrder(undo: names(onRedoStacks: false), redo: names(onRedoStacks: true))
    }
}
