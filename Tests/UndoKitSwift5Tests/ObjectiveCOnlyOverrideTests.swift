import Foundation
import Testing
import UndoKit

// The same overrides as Swift 5 code written for older SDKs spells them: non-final classes,
// implicitly unwrapped objects, and AppKit's modes in `runLoopModes`.

class TextViewUndoManager: UndoManager {
    override init() {
        super.init()
        runLoopModes = [RunLoop.Mode.default, RunLoop.Mode.eventTracking, RunLoop.Mode.modalPanel]
    }

    override func registerUndo(withTarget target: Any, selector aSelector: Selector, object anObject: Any!) {
        // The text system's selector-based registrations are replaced by closures elsewhere.
    }

    override func prepare(withInvocationTarget target: Any) -> Any {
        return target
    }
}

@Suite("Swift 5: overrides of the Objective-C-only API")
struct ObjectiveCOnlyOverrideTests {
    @Test func overridesCompileAndTheModesEndEvents() {
        let manager = TextViewUndoManager()
        manager.notificationCenter = nil
        final class Box { var value = 0 }
        let box = Box()
        manager.registerUndo(withTarget: box) { $0.value = 0 }
        manager.runLoop.tick(mode: .modalPanel)
        #expect(manager.undoCount == 1)
        #expect(manager.runLoopModes.contains(.eventTracking))
    }
}
