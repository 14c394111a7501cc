import Observation
import Synchronization
import Testing
@testable import UndoKit

/// How often a tracking's `onChange` ran. `onChange` is `@Sendable`; the count is atomic
/// although every change here is announced synchronously.
final class ChangeCount: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// Tracks what `read` reads on `manager` once (as `withObservationTracking` does), runs
/// `operation`, and returns how often the tracking fired.
func changes(
    of manager: UndoManager, reading read: (UndoManager) -> Void, after operation: () -> Void
) -> Int {
    let count = ChangeCount()
    withObservationTracking {
        read(manager)
    } onChange: {
        count.increment()
    }
    operation()
    return count.value
}

@Suite("Observation (spec J1): every public query is tracked and fires when an operation changes it")
struct ObservationTests {
    /// One observable property: how to read it, how to set the scene, and an operation that
    /// changes it.
    enum Scenario: String, CaseIterable, Sendable {
        case canUndo, canRedo, undoMenuItemTitle, redoMenuItemTitle, undoActionName, redoActionName
        case undoActionNames, redoActionNames, undoCount, redoCount, groupingLevel
        case isUndoRegistrationEnabled, levelsOfUndo, isClean, totalActionCost, currentHistoryNodeID

        func read(_ manager: UndoManager) {
            switch self {
            case .canUndo: _ = manager.canUndo
            case .canRedo: _ = manager.canRedo
            case .undoMenuItemTitle: _ = manager.undoMenuItemTitle
            case .redoMenuItemTitle: _ = manager.redoMenuItemTitle
            case .undoActionName: _ = manager.undoActionName
            case .redoActionName: _ = manager.redoActionName
            case .undoActionNames: _ = manager.undoActionNames
            case .redoActionNames: _ = manager.redoActionNames
            case .undoCount: _ = manager.undoCount
            case .redoCount: _ = manager.redoCount
            case .groupingLevel: _ = manager.groupingLevel
            case .isUndoRegistrationEnabled: _ = manager.isUndoRegistrationEnabled
            case .levelsOfUndo: _ = manager.levelsOfUndo
            case .isClean: _ = manager.isClean
            case .totalActionCost: _ = manager.totalActionCost
            case .currentHistoryNodeID: _ = manager.currentHistoryNodeID
            }
        }

        /// Brings `fixture` to where the operation changes the property.
        func setUp(_ fixture: Fixture, _ document: Document) {
            switch self {
            case .canRedo, .redoMenuItemTitle, .redoActionName, .redoActionNames, .redoCount:
                fixture.step(document, to: 1, named: "Typing")
            case .undoMenuItemTitle, .undoActionName:
                fixture.change(document, to: 1)   // the automatic group is open, unnamed
            default:
                break
            }
        }

        /// An operation that changes the property.
        func change(_ fixture: Fixture, _ document: Document) {
            let manager = fixture.manager
            switch self {
            case .canUndo: fixture.change(document, to: 1)
            case .canRedo, .redoMenuItemTitle, .redoActionName, .redoActionNames, .redoCount: manager.undo()
            case .undoMenuItemTitle, .undoActionName: manager.setActionName("Typing")
            case .undoActionNames, .undoCount, .isClean, .currentHistoryNodeID: fixture.step(document, to: 1)
            case .groupingLevel: manager.beginUndoGrouping()
            case .isUndoRegistrationEnabled: manager.disableUndoRegistration()
            case .levelsOfUndo: manager.levelsOfUndo = 5
            case .totalActionCost:
                fixture.change(document, to: 1)
                manager.setActionCost(64)
            }
        }
    }

    @Test("Each property fires once when an operation changes it", arguments: Scenario.allCases)
    func firesOnChange(_ scenario: Scenario) {
        let fixture = Fixture(), document = Document()
        scenario.setUp(fixture, document)
        let fired = changes(of: fixture.manager, reading: scenario.read) {
            scenario.change(fixture, document)
        }
        #expect(fired == 1)
    }

    @Test("isUndoing and isRedoing, read while an action runs, fire when the undo or redo ends")
    func busyFlags() {
        let fixture = Fixture(), document = Document()
        fixture.step(document, to: 1)
        let count = ChangeCount()
        let manager = fixture.manager
        let observation = manager.addEventObserver { event in
            guard event == .willUndoChange || event == .willRedoChange else { return }
            withObservationTracking {
                _ = manager.isUndoing
                _ = manager.isRedoing
            } onChange: {
                count.increment()
            }
        }
        defer { observation.cancel() }
        manager.undo()
        #expect(count.value == 1)
        manager.redo()
        #expect(count.value == 2)
    }

    @Test("A read in the middle of an operation still tells earlier readers of the change they missed")
    func readMidOperation() {
        let fixture = Fixture(), document = Document()
        fixture.step(document, to: 1)
        let manager = fixture.manager
        let early = ChangeCount(), late = ChangeCount()
        withObservationTracking { _ = manager.redoCount } onChange: { early.increment() }
        let observation = manager.addEventObserver { event in
            guard case .didUndoChange = event else { return }
            // The redo group is on the stack now; the undo has not returned yet.
            withObservationTracking { _ = manager.redoCount } onChange: { late.increment() }
        }
        defer { observation.cancel() }
        manager.undo()
        #expect(early.value == 1)
        #expect(late.value == 0, "it read the value the undo ended with")
        manager.redo()
        #expect(late.value == 1)
    }

    @Test("An operation that does not change what was read does not fire")
    func unchangedDoesNotFire() {
        let fixture = Fixture(), document = Document()
        let fired = changes(of: fixture.manager, reading: { _ = $0.levelsOfUndo; _ = $0.isUndoRegistrationEnabled }) {
            fixture.step(document, to: 1)
            fixture.manager.undo()
            fixture.manager.redo()
            fixture.manager.removeAllActions()
        }
        #expect(fired == 0)
    }

    @Test("A tracking that reads again after each change fires once per changing operation")
    func oncePerOperation() {
        let fixture = Fixture(), document = Document()
        let manager = fixture.manager
        let count = ChangeCount()
        func track() {
            withObservationTracking {
                _ = manager.undoCount
                _ = manager.canRedo
                _ = manager.undoMenuItemTitle
            } onChange: {
                count.increment()
            }
        }
        track()
        fixture.step(document, to: 1, named: "One")   // undoCount 0 → 1, title changes
        #expect(count.value == 1)
        track()
        manager.levelsOfUndo = 10                       // changes nothing read
        #expect(count.value == 1)
        manager.undo()                                  // undoCount, canRedo, title
        #expect(count.value == 2)
        track()
        manager.redo()
        #expect(count.value == 3)
    }

    @Test("Removal, clearing, trimming, markClean and restoring fire what they change")
    func otherOperations() {
        let fixture = Fixture(), document = Document(), other = Document()
        let manager = fixture.manager
        fixture.step(document, to: 1)
        fixture.step(other, to: 2)
        #expect(changes(of: manager, reading: { _ = $0.undoCount }) {
            manager.removeAllActions(withTarget: other)
        } == 1)
        fixture.step(other, to: 3)
        #expect(changes(of: manager, reading: { _ = $0.undoActionNames }) {
            manager.levelsOfUndo = 1
        } == 1)
        #expect(changes(of: manager, reading: { _ = $0.isClean }) {
            manager.markClean()
        } == 1)
        #expect(changes(of: manager, reading: { _ = $0.canUndo }) {
            manager.removeAllActions()
        } == 1)
    }

    @Test("The end of an event fires for what the close changed")
    func endOfEvent() {
        let fixture = Fixture(), document = Document()
        fixture.change(document, to: 1)
        #expect(changes(of: fixture.manager, reading: { _ = $0.undoCount }) {
            fixture.manager.runLoop.tick()
        } == 1)
        fixture.change(document, to: 2)
        #expect(changes(of: fixture.manager, reading: { _ = $0.groupingLevel }) {
            _ = fixture.manager.endEventGroup()
        } == 1)
    }

    /// A subclass whose getter adds to the manager's answer, as a subclass may.
    final class ReadOnlyAwareManager: UndoManager {
        var isReadOnly = false
        override var canUndo: Bool {
            let hasSteps = super.canUndo   // read first: tracked even while read-only
            return !isReadOnly && hasSteps
        }
    }

    @Test("Observers read a subclass's overridden getter, and it is tracked through super")
    func subclassGetter() {
        let manager = ReadOnlyAwareManager()
        manager.notificationCenter = nil
        let fixture = Fixture(manager: manager), document = Document()
        manager.isReadOnly = true
        var seen: [Bool] = []
        let count = ChangeCount()
        withObservationTracking {
            seen.append(manager.canUndo)
        } onChange: {
            count.increment()
        }
        fixture.change(document, to: 1)
        #expect(count.value == 1)
        #expect(seen == [false])
        #expect(manager.canUndo == false)   // what the observer reads again
    }

    @Test("A coordinator's members fire as it changes them")
    func coordinatorMembers() {
        let coordinator = UndoCoordinator()
        let text = Fixture(), canvas = Fixture()
        let page = Document(), shape = Document()
        coordinator.attach(text.manager)
        coordinator.attach(canvas.manager)
        text.step(page, to: 1)
        canvas.step(shape, to: 1)
        #expect(changes(of: canvas.manager, reading: { _ = $0.canRedo }) { coordinator.undo() } == 1)
        coordinator.undo()
        // A new edit in one member ends redo for all: the other member's redo stack clears.
        #expect(changes(of: canvas.manager, reading: { _ = $0.redoCount }) { text.step(page, to: 5) } == 1)
        #expect(canvas.manager.redoCount == 0)
    }

    @Test("Observations yields a new value after each operation that changes it")
    @MainActor
    func observationsSequence() async {
        let manager = UndoManager()
        manager.notificationCenter = nil
        let document = Document()
        let titles = Observations { manager.undoMenuItemTitle }
        var iterator = titles.makeAsyncIterator()
        #expect(await iterator.next() == "Undo")
        manager.registerUndo(withTarget: document) { $0.value = 0 }
        manager.setActionName("Typing")
        #expect(await iterator.next() == "Undo Typing")
        manager.undo()
        #expect(await iterator.next() == "Undo")
    }

    @Test("Reading properties with nothing tracking leaves the manager working as before")
    func plainReads() {
        let fixture = Fixture(), document = Document()
        for value in 1...20 {
            _ = fixture.manager.canUndo
            _ = fixture.manager.undoActionNames
            fixture.step(document, to: value, named: "Step \(value)")
        }
        #expect(fixture.manager.undoCount == 20)
        #expect(fixture.manager.undoActionNames.first == "Step 20")
    }
}
