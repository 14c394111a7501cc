import Testing
@testable import UndoKit

@Suite("EventObservation: an observation lasts as long as its value")
struct EventObservationLifetimeTests {
    /// Something an observer captures, to see when the manager lets go of the observer.
    final class Capture {}

    enum Kind: String, CaseIterable, Sendable {
        case event, cleanState

        func observe(_ manager: UndoManager, calls: @escaping () -> Void) -> UndoManager.EventObservation {
            switch self {
            case .event: manager.addEventObserver { _ in calls() }
            case .cleanState: manager.addCleanStateObserver { _ in calls() }
            }
        }
    }

    /// One closed step on `manager`, which posts events and changes the clean state.
    func edit(_ manager: UndoManager, _ document: Document) {
        manager.registerUndo(withTarget: document) { _ in }
        manager.runLoop.tick()
    }

    @Test("Released, the observer is no longer called and what it captured is released", arguments: Kind.allCases)
    func releaseEnds(_ kind: Kind) {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let document = Document()
        var calls = 0
        weak var weakCapture: Capture?
        var observation: UndoManager.EventObservation?
        do {
            let capture = Capture()
            weakCapture = capture
            observation = kind.observe(manager) { withExtendedLifetime(capture) { calls += 1 } }
        }
        edit(manager, document)
        #expect(calls > 0 && observation != nil)
        let before = calls
        observation = nil
        #expect(weakCapture == nil)
        edit(manager, document)
        manager.undo()
        #expect(calls == before)
    }

    @Test("Cancelled, it behaves as released; cancelling twice or after the manager is gone is harmless",
          arguments: Kind.allCases)
    func cancelEnds(_ kind: Kind) {
        var manager: UndoManager? = UndoManager()
        let document = Document()
        var calls = 0
        let observation = kind.observe(manager!) { calls += 1 }
        observation.cancel()
        observation.cancel()
        edit(manager!, document)
        #expect(calls == 0)
        let second = kind.observe(manager!) { calls += 1 }
        manager = nil
        second.cancel()
        #expect(calls == 0)
    }

    @Test("An observation cancelled by its own observer stops at once; the others still run")
    func cancelFromInside() {
        let manager = UndoManager()
        manager.notificationCenter = nil
        var first: [UndoManager.Event] = []
        var second: [UndoManager.Event] = []
        var firstObservation: UndoManager.EventObservation?
        firstObservation = manager.addEventObserver { event in
            first.append(event)
            firstObservation?.cancel()
        }
        let secondObservation = manager.addEventObserver { second.append($0) }
        edit(manager, Document())
        #expect(first.count == 1)
        #expect(second.count > 1)
        secondObservation.cancel()
    }
}
