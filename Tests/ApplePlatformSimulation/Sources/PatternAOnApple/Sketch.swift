import Foundation
#if canImport(UndoKit)
import UndoKit   // only where Foundation has no UndoManager
#endif

@MainActor final class Sketch {
    let undoManager = UndoManager()   // Foundation's on Apple platforms, UndoKit's elsewhere
    private(set) var strokes: [String] = []

    func draw(_ stroke: String) {
        setStrokes(strokes + [stroke])
        undoManager.setActionName("Draw")
    }

    private func setStrokes(_ newStrokes: [String]) {
        let old = strokes
        strokes = newStrokes
        undoManager.registerUndo(withTarget: self) { sketch in
            sketch.setStrokes(old)
        }
    }

    /// The end of a user event. Apple's run loop closes the event's undo group by itself;
    /// where UndoKit runs with no event loop (a command, a request, a test), say so.
    func endOfEvent() {
        #if canImport(UndoKit)
        undoManager.runLoop.tick()
        #endif
    }
}
