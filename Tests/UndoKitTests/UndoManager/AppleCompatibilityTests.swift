import Testing
import UndoKit

@MainActor
final class TextViewModel {
    let undoManager = UndoManager()
    private(set) var text = ""

    func setText(_ newText: String) {
        let old = text
        text = newText
        undoManager.registerUndo(withTarget: self) { model in
            model.setText(old)          // a main-actor method, as on Apple platforms
        }
        undoManager.setActionName("Typing")
    }
}

/// Spec H2: code written against Apple's `@MainActor` API, calling main-actor methods from the
/// handler, compiles unchanged under Swift 6 strict concurrency and behaves the same.
@Suite("Apple compatibility (H2)")
struct AppleCompatibilityTests {
    @Test @MainActor func appleStyleCodeCompilesOnTheMainActor() {
        let model = TextViewModel()
        model.setText("Hello")
        model.undoManager.runLoop.tick()
        model.undoManager.undo()
        #expect(model.text == "")
        model.undoManager.redo()
        #expect(model.text == "Hello")
    }
}
