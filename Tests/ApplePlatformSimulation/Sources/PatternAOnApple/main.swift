// Drives Sketch.swift, which is README's example of pattern (a) word for word (run.py checks).
// Built twice by run.py: here, on a simulated Apple platform (Linux plays one: the dependency
// on UndoKit is conditioned out, and AppleFoundation is imported into every file as Apple's
// names are by `import Foundation`), compiled only, since the stand-in declares and does not
// implement; and on Linux from README's manifest for the pattern, with UndoKit, and run.
import Foundation
#if canImport(UndoKit)
import UndoKit
#endif

let sketch = Sketch()
var closedGroups = 0
// Foundation's name and key on Apple platforms, UndoKit's (the same raw values) elsewhere.
let observer = NotificationCenter.default.addObserver(
    forName: .NSUndoManagerDidCloseUndoGroup, object: sketch.undoManager, queue: nil
) { notification in
    if notification.userInfo?[NSUndoManagerGroupIsDiscardableKey] == nil {
        MainActor.assumeIsolated { closedGroups += 1 }
    }
}
sketch.draw("line")
sketch.endOfEvent()
NotificationCenter.default.removeObserver(observer)

#if canImport(UndoKit)
precondition(sketch.undoManager.undoMenuItemTitle == "Undo Draw" && closedGroups == 1)
sketch.undoManager.undo()
precondition(sketch.strokes.isEmpty && sketch.undoManager.redoMenuItemTitle == "Redo Draw")
sketch.undoManager.redo()
precondition(sketch.strokes == ["line"])
print("pattern (a) with UndoKit's UndoManager: ok")
#else
print("pattern (a) with Foundation's UndoManager: built")
#endif
