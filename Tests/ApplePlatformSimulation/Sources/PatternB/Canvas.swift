// A file of the module that does not import UndoKit: `UndoManager` is still UndoKit's, through
// the module's typealias, although Apple's Foundation (here AppleFoundation) declares one too.
import Foundation
import AppleFoundation

final class Canvas {
    let undoManager = UndoManager()
    private(set) var shapes: [String] = []

    func add(_ shape: String) {
        shapes.append(shape)
        undoManager.registerUndo(withTarget: self) { canvas in
            canvas.remove(shape)
        }
        undoManager.setActionName("Add \(shape)")
    }

    func remove(_ shape: String) {
        shapes.removeAll { $0 == shape }
        undoManager.registerUndo(withTarget: self) { canvas in
            canvas.add(shape)
        }
        undoManager.setActionName("Remove \(shape)")
    }
}
