import Foundation
import Observation
import Synchronization
import Testing
@testable import UndoKit

/// Every query agrees with what undo() and redo() would do under each policy; the stale step
/// lists, the titles with a reason, undo anyway, and the drop event's step.
@Suite struct StaleStepQueryTests {
    /// Three steps, title then body then tags; Bob changes the body.
    private func makeManager(policy: StaleStepPolicy) -> (UndoManager, SharedDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = policy
        let document = SharedDocument()
        document.set("title", to: "T", by: manager)
        document.set("body", to: "B", by: manager)
        document.set("tags", to: "G", by: manager)
        return (manager, document)
    }

    @Test("run: Apple's answers, every step listed")
    func runPolicy() {
        let (manager, _) = makeManager(policy: .run)
        manager.noteChanges(to: [UndoPart("field", "tags")], origin: "Bob")
        #expect(manager.undoActionNames == ["Set tags", "Set body", "Set title"])
        #expect(manager.undoActionName == "Set tags" && manager.canUndo)
        #expect(manager.staleUndoSteps.map(\.actionName) == ["Set tags"])
    }

    @Test("refuse: the names list starts with the step undo would run, and stops before the newest stale one")
    func refusePolicy() {
        let (manager, _) = makeManager(policy: .refuse)
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        #expect(manager.undoActionNames == ["Set tags"])
        #expect(manager.undoActionName == "Set tags" && manager.undoMenuItemTitle == "Undo Set tags")
        manager.undo()
        #expect(manager.undoActionNames == [] && manager.undoActionName == "" && !manager.canUndo)
        #expect(manager.undoMenuItemTitle == "Undo")
        #expect(manager.staleUndoMenuItemTitle == "Undo Set body (changed by Bob)")
        #expect(manager.undoCount == 2)
        #expect(manager.staleUndoSteps.map(\.actionName) == ["Set body"])
        #expect(manager.staleUndoSteps.first?.id == manager.historyTree.current)
    }

    @Test("skip: the names list leaves the stale steps out, as undo would")
    func skipPolicy() {
        let (manager, _) = makeManager(policy: .skip)
        manager.noteChanges(to: [UndoPart("field", "tags"), UndoPart("field", "title")], origin: "Bob")
        #expect(manager.undoActionNames == ["Set body"])
        #expect(manager.undoActionName == "Set body")
        #expect(manager.staleUndoSteps.map(\.actionName) == ["Set tags", "Set title"])
        #expect(manager.staleUndoSteps.count == 2)
        #expect(manager.staleUndoMenuItemTitle == "Undo Set tags (changed by Bob)")
    }

    @Test("a stale step's title names someone else when no origin was given; nil when the next step is fresh")
    func titleWithoutOrigin() {
        let (manager, _) = makeManager(policy: .refuse)
        #expect(manager.staleUndoMenuItemTitle == nil && manager.staleRedoMenuItemTitle == nil)
        manager.noteChanges(to: [UndoPart("field", "tags")])
        #expect(manager.staleUndoMenuItemTitle == "Undo Set tags (changed by someone else)")
    }

    @Test("undo anyway runs the stale step once, leaves the policy, and the next undo is refused again")
    func undoAnyway() {
        let (manager, document) = makeManager(policy: .refuse)
        document.fields["tags"] = "Bob's"
        document.fields["body"] = "Bob's"
        manager.noteChanges(to: [UndoPart("field", "tags"), UndoPart("field", "body")], origin: "Bob")
        #expect(!manager.canUndo)
        manager.undoStaleStep()
        #expect(document.fields["tags"] == nil)
        #expect(manager.staleStepPolicy == .refuse && !manager.canUndo)
        // The redo step was just done: fresh.
        #expect(manager.canRedo && manager.redoActionNames == ["Set tags"])
        // Redo puts back what the undo replaced: Bob's value.
        manager.redoStaleStep()
        #expect(document.fields["tags"] == "Bob's")
        // Under skip, undo anyway drops nothing.
        let (skipping, skippingDocument) = makeManager(policy: .skip)
        skipping.noteChanges(to: [UndoPart("field", "tags")])
        skipping.undoStaleStep()
        #expect(skipping.undoCount == 2 && skippingDocument.fields["tags"] == nil)
        #expect(skipping.redoActionNames == ["Set tags"], "\(skipping.redoActionNames) \(skipping.staleRedoSteps)")
    }

    @Test("Observation: a deeper step going stale changes the stale list and the names list, not canUndo")
    func observation() {
        let (manager, _) = makeManager(policy: .refuse)
        let fired = Mutex(0)
        withObservationTracking {
            _ = manager.staleUndoSteps
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        withObservationTracking {
            _ = manager.undoActionNames
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        #expect(fired.withLock { $0 } == 2)
        #expect(manager.canUndo && manager.undoActionNames == ["Set tags", "Set body"])
    }

    @Test("the drop event and notification carry the dropped step: id, name, parts, changes")
    func dropEvent() {
        let (manager, _) = makeManager(policy: .skip)
        let center = NotificationCenter()
        manager.notificationCenter = center
        let notified = Mutex<[StaleStep]>([])
        let token = center.addObserver(forName: .UndoKitDidDropStaleStep, object: manager, queue: nil) { note in
            if let step = note.userInfo?[UndoKitStaleStepKey] as? StaleStep {
                notified.withLock { $0.append(step) }
            }
        }
        var dropped: [StaleStep] = []
        let observation = manager.addEventObserver { event in
            if case .didDropStaleStep(let step) = event { dropped.append(step) }
        }
        let tagsID = manager.historyTree.current
        manager.noteChanges(to: [UndoPart("field", "tags")], origin: "Bob")
        manager.undo()
        #expect(dropped.map(\.id) == [tagsID])
        #expect(dropped.first?.parts == [UndoPart("field", "tags")])
        #expect(dropped.first?.changes == [UndoChange(part: UndoPart("field", "tags"), origin: "Bob")])
        #expect(notified.withLock { $0 } == dropped)
        observation.cancel()
        center.removeObserver(token)
    }
}
