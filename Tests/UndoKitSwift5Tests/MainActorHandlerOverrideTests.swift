import Foundation
import Testing
import UndoKit

// The override of Apple's current signature, with a `@MainActor` handler, compiled in Swift 5
// language mode: kept in a file of its own because of what the compiler says about the `super`
// call (see the report of issue 9 item 9).

class MainActorHandlerUndoManager: UndoManager {
    var registrationCount = 0

    override func registerUndo<TargetType>(withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void) where TargetType : AnyObject {
        registrationCount += 1
        // `super.registerUndo(withTarget: target, handler: handler)` resolves to the same
        // (nonisolated) overload in Swift 5 mode, with a "loses global actor" warning; the
        // typed reference says so without the warning (see SubclassingUndoManager.md).
        let superRegister: (TargetType, @escaping @MainActor (TargetType) -> Void) -> Void = super.registerUndo(withTarget:handler:)
        superRegister(target, handler)
    }
}

class Layer {
    var opacity = 1.0
}

@Suite("Swift 5 mode: overriding the @MainActor registration")
struct MainActorHandlerOverrideTests {
    @Test func closureLiteralRegistrationsAreSeenOnce() {
        let manager = MainActorHandlerUndoManager()
        let layer = Layer()
        layer.opacity = 0.5
        manager.registerUndo(withTarget: layer) { $0.opacity = 1.0 }
        manager.runLoop.tick()
        #expect(manager.registrationCount == 1)
        manager.undo()
        #expect(layer.opacity == 1.0)
        #expect(manager.registrationCount == 1)
    }

    @MainActor
    @Test func mainActorTypedRegistrationsAreSeenTwiceInSwift5Mode() {
        let manager = MainActorHandlerUndoManager()
        let layer = Layer()
        var runs = 0
        let handler: @MainActor (Layer) -> Void = { layer in
            runs += 1
            layer.opacity = 0.25
        }
        manager.registerUndo(withTarget: layer, handler: handler)
        manager.registerUndo(withTarget: layer, handler: handler)
        // A caller passing an already `@MainActor`-typed function enters the override first;
        // its `super` call reaches the nonisolated overload, which routes back through the
        // override: the documented Swift 5 limitation (SubclassingUndoManager.md), twice each.
        #expect(manager.registrationCount == 4)
        manager.undo()
        #expect(runs == 2)   // recorded once each all the same
        #expect(layer.opacity == 0.25)
    }
}
