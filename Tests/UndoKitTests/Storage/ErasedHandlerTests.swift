import Testing
@testable import UndoKit

/// The handler erasure of ``ErasedHandler``: a handler registered for any class-typed target,
/// written in any of the ways client code writes one, is called through the erased
/// `(AnyObject) -> Void` entry point with its target, its captures intact.
@Suite struct ErasedHandlerTests {
    class Shape {
        var log: [String] = []
    }

    final class Circle: Shape {}

    final class Box<Payload>: Shape {
        var payload: Payload
        init(_ payload: Payload) { self.payload = payload }
    }

    @Test func concreteClosureReceivesItsTarget() {
        let circle = Circle()
        let handler = ErasedHandler { (target: Circle) in target.log.append("circle") }
        handler.call(with: circle)
        #expect(circle.log == ["circle"])
    }

    @Test func capturesSurviveErasure() {
        let circle = Circle()
        let words = ["a", "b"]
        var calls = 0
        let handler = ErasedHandler { (target: Circle) in
            calls += 1
            target.log += words
        }
        handler.call(with: circle)
        handler.call(with: circle)
        #expect(circle.log == ["a", "b", "a", "b"])
        #expect(calls == 2)
    }

    /// A handler made inside generic code, where the closure has the generic abstraction.
    static func erase<Target: Shape>(_: Target.Type, note: String) -> ErasedHandler {
        ErasedHandler { (target: Target) in target.log.append("\(note) \(Target.self)") }
    }

    @Test func genericallyMadeHandlerReceivesItsTarget() {
        let box = Box(7)
        Self.erase(Box<Int>.self, note: "generic").call(with: box)
        #expect(box.log == ["generic Box<Int>"])
    }

    @Test func superclassTypedHandlerReceivesSubclassTarget() {
        let circle = Circle()
        let handler = ErasedHandler { (target: Shape) in target.log.append("shape") }
        handler.call(with: circle)
        #expect(circle.log == ["shape"])
    }

    @MainActor @Test func mainActorHandlerRegisteredThroughTheManager() {
        let manager = UndoManager()
        let circle = Circle()
        let handler: @MainActor (Circle) -> Void = { $0.log.append("main actor") }
        manager.registerUndo(withTarget: circle, handler: handler)
        manager.undo()
        #expect(circle.log == ["main actor"])
    }

    @Test func targetsOfDifferentHandlerTypesOnOneObjectAreNotShared() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let circle = Circle()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: circle) { (target: Circle) in target.log.append("as circle") }
        manager.registerUndo(withTarget: circle as Shape) { (target: Shape) in target.log.append("as shape") }
        manager.registerUndo(withTarget: circle) { (target: Circle) in target.log.append("as circle again") }
        manager.endUndoGrouping()
        manager.undo()
        #expect(circle.log == ["as circle again", "as shape", "as circle"])
    }
}
