import Foundation
import Testing
@testable import UndoKit

@Suite("events(): the typed events as an AsyncSequence")
struct EventStreamTests {
    /// A script that posts every kind of event: a named step, a tick, an explicit group, an
    /// undo and a redo.
    static func runScript(on fixture: Fixture, _ document: Document) {
        fixture.change(document, to: 1)
        fixture.manager.setActionName("One")
        fixture.manager.runLoop.tick()
        fixture.manager.beginUndoGrouping()
        fixture.change(document, to: 2)
        fixture.manager.endUndoGrouping()
        fixture.manager.runLoop.tick()
        fixture.manager.undo()
        fixture.manager.redo()
    }

    /// Takes the events buffered in `stream` so far; the manager is gone or the stream was
    /// finished, so the iteration ends.
    static func drain(_ stream: AsyncStream<UndoManager.Event>) async -> [UndoManager.Event] {
        var events: [UndoManager.Event] = []
        for await event in stream { events.append(event) }
        return events
    }

    @Test("Delivers the events addEventObserver sees, in the same order, and ends with the manager")
    func sameOrderAsObservers() async {
        var stream: AsyncStream<UndoManager.Event>
        var observed: [UndoManager.Event]
        do {
            let fixture = Fixture()   // notificationCenter = nil
            stream = fixture.manager.events()
            Self.runScript(on: fixture, Document())
            observed = fixture.takeEvents()
        }
        let streamed = await Self.drain(stream)
        #expect(streamed == observed)
        #expect(streamed.contains(.willUndoChange) && streamed.contains(.didRedoChange(isDiscardable: false)))
    }

    @Test("Works with notifications posted too, and each call has its own stream")
    func independentStreams() async {
        var first: AsyncStream<UndoManager.Event>
        var second: AsyncStream<UndoManager.Event>
        var observed: [UndoManager.Event]
        do {
            let manager = UndoManager()
            manager.notificationCenter = NotificationCenter()
            let fixture = Fixture(manager: manager)
            manager.notificationCenter = NotificationCenter()   // the fixture turned it off
            first = manager.events()
            Self.runScript(on: fixture, Document())
            second = manager.events()   // from here on only
            manager.undo()
            observed = fixture.takeEvents()
        }
        let fromFirst = await Self.drain(first)
        let fromSecond = await Self.drain(second)
        #expect(fromFirst == observed)
        #expect(fromSecond == [.checkpoint, .checkpoint, .willUndoChange, .checkpoint, .didUndoChange(isDiscardable: false)])
    }

    @Test("The stream does not keep the manager alive")
    func doesNotRetain() {
        weak var weakManager: UndoManager?
        var stream: AsyncStream<UndoManager.Event>?
        do {
            let manager = UndoManager()
            weakManager = manager
            stream = manager.events()
        }
        #expect(weakManager == nil)
        #expect(stream != nil)
    }

    @Test("Cancelling the consuming task ends the stream; the manager drops it at its next event")
    func cancellation() async {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let stream = manager.events()
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        consumer.cancel()
        _ = await consumer.value   // ends although the manager lives on
        #expect(manager.storage.pointee.eventStreams.count == 1)
        manager.registerUndo(withTarget: Document()) { _ in }   // posts an event
        #expect(manager.storage.pointee.eventStreams.isEmpty)
        #expect(manager.state.eventObservers.isEmpty)
    }

    @Test("A consumer task on another executor receives the events as they happen")
    func crossTask() async {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let stream = manager.events()
        let consumer = Task {
            var seen: [UndoManager.Event] = []
            for await event in stream {
                seen.append(event)
                if case .didUndoChange = event { break }
            }
            return seen
        }
        let document = Document()
        manager.registerUndo(withTarget: document) { _ in }
        manager.undo()
        let seen = await consumer.value
        #expect(seen.first == .didOpenUndoGroup)
        #expect(seen.last == .didUndoChange(isDiscardable: false))
    }
}
