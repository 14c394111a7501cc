import Foundation
import Testing
import UndoKit

/// A document's manager, as app code names one; only its name matters here.
private final class InspectorUndoManager: UndoManager {}

/// `NSObject` behaviour that app code relies on (spec I.3): managers as `Set` elements and
/// dictionary keys (one per window or document), compared by identity.
@Suite("Ported code: managers compare, hash and print as NSObjects")
struct IdentityTests {
    @Test func equalityIsIdentity() {
        let manager = UndoManager()
        let same = manager
        let other = UndoManager()
        #expect(manager == same)
        #expect(manager != other)
        #expect(!(manager == other))
        #expect(manager.isEqual(same) && !manager.isEqual(other))
    }

    @Test func twoSubclassInstancesInTheSameStateAreStillDifferent() {
        let first = InspectorUndoManager()
        let second = InspectorUndoManager()
        #expect(first != second)
        #expect(first.description != second.description)   // the address differs
    }

    @Test func managersAreSetElementsOfMixedClasses() {
        let plain = UndoManager()
        let inspector = InspectorUndoManager()
        let managers: Set<UndoManager> = [plain, inspector, plain]
        #expect(managers.count == 2)
        #expect(managers.contains(inspector))
        #expect(!managers.contains(UndoManager()))
    }

    @Test func managersAreDictionaryKeysWhoseHashIgnoresTheirState() {
        let manager = InspectorUndoManager()
        var windowTitles: [UndoManager: String] = [manager: "Inspector"]
        let hashBefore = manager.hashValue
        let note = PortedNote()
        note.setText("changed", using: manager)
        manager.setActionName("Edit")
        manager.undo()
        #expect(manager.hashValue == hashBefore)
        #expect(windowTitles[manager] == "Inspector")
        windowTitles[manager] = nil
        #expect(windowTitles.isEmpty)
    }

    @Test func descriptionNamesTheSubclassAndSummarizesTheStacks() {
        let manager = InspectorUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.runLoop.tick()
        note.setText("b", using: manager)
        let description = manager.description
        #expect(description.hasPrefix("<InspectorUndoManager 0x"))
        #expect(description.contains("2 undo groups") && description.contains("0 redo groups"))   // the open group counts
        #expect(description.contains("groupingLevel 1"))
        #expect("\(manager)" == description)
    }

    @Test func readingTheDescriptionPostsNothingAndChangesNothing() {
        let center = NotificationCenter()
        let manager = InspectorUndoManager(runLoop: SimulatedRunLoop())
        manager.notificationCenter = center
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        nonisolated(unsafe) var notifications = 0
        let token = center.addObserver(forName: nil, object: manager, queue: nil) { _ in notifications += 1 }
        _ = manager.description
        _ = String(describing: manager)
        #expect(events.isEmpty && notifications == 0)
        #expect(manager.groupingLevel == 0 && !manager.canUndo)
        observation.cancel()
        center.removeObserver(token)
    }
}
