import Foundation
import Testing
import UndoKit

/// What each kind of observer of one manager saw, as spec section D's abbreviations.
@MainActor
private final class ThreeObservers {
    private(set) var events: [String] = []
    private(set) var notifications: [String] = []
    private(set) var messages: [String] = []
    private var tokens: [Any] = []
    private var observation: UndoManager.EventObservation?
    private let center: NotificationCenter

    init(_ manager: UndoManager, center: NotificationCenter) {
        self.center = center
        observation = manager.addEventObserver { [unowned self] event in
            events.append(Self.abbreviation(of: event))
        }
        // One observer per name: on Linux, Foundation hands a posted message to observers
        // added with `forName: nil` for the same object as if it were a `Notification`, and the
        // cast stops the program (see `UndoManager.postsMessages`).
        for name in Self.undoManagerNotificationNames {
            tokens.append(center.addObserver(forName: name, object: manager, queue: nil) { [unowned self] note in
                let discardable = note.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool ?? false
                let abbreviation = Self.abbreviation(of: note.name, discardable: discardable)
                MainActor.assumeIsolated {
                    notifications.append(abbreviation)
                }
            })
        }
        observeMessages(of: manager)
    }

    private func observeMessages(of manager: UndoManager) {
        tokens.append(center.addObserver(of: manager, for: .checkpoint) { [unowned self] _ in messages.append("CP") })
        tokens.append(center.addObserver(of: manager, for: .didOpenUndoGroup) { [unowned self] _ in messages.append("DO") })
        tokens.append(center.addObserver(of: manager, for: .willCloseUndoGroup) { [unowned self] _ in messages.append("WC") })
        tokens.append(center.addObserver(of: manager, for: .didCloseUndoGroup) { [unowned self] message in
            messages.append(message.groupIsDiscardable ? "DC{disc}" : "DC")
        })
        tokens.append(center.addObserver(of: manager, for: .willUndoChange) { [unowned self] _ in messages.append("WU") })
        tokens.append(center.addObserver(of: manager, for: .didUndoChange) { [unowned self] message in
            messages.append(message.groupIsDiscardable ? "DU{disc}" : "DU")
        })
        tokens.append(center.addObserver(of: manager, for: .willRedoChange) { [unowned self] _ in messages.append("WR") })
        tokens.append(center.addObserver(of: manager, for: .didRedoChange) { [unowned self] message in
            messages.append(message.groupIsDiscardable ? "DR{disc}" : "DR")
        })
    }

    /// Forgets what was seen so far.
    func reset() {
        events.removeAll()
        notifications.removeAll()
        messages.removeAll()
    }

    nonisolated static let undoManagerNotificationNames: [Notification.Name] = [
        .NSUndoManagerCheckpoint, .NSUndoManagerDidOpenUndoGroup, .NSUndoManagerWillCloseUndoGroup,
        .NSUndoManagerDidCloseUndoGroup, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
        .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
    ]

    nonisolated static func abbreviation(of event: UndoManager.Event) -> String {
        abbreviation(of: event.notificationName, discardable: event.userInfo != nil)
    }

    nonisolated static func abbreviation(of name: Notification.Name, discardable: Bool) -> String {
        let abbreviations: [Notification.Name: String] = [
            .NSUndoManagerCheckpoint: "CP", .NSUndoManagerDidOpenUndoGroup: "DO",
            .NSUndoManagerWillCloseUndoGroup: "WC", .NSUndoManagerDidCloseUndoGroup: "DC",
            .NSUndoManagerWillUndoChange: "WU", .NSUndoManagerDidUndoChange: "DU",
            .NSUndoManagerWillRedoChange: "WR", .NSUndoManagerDidRedoChange: "DR",
        ]
        let abbreviation = abbreviations[name] ?? name.rawValue
        return discardable ? abbreviation + "{disc}" : abbreviation
    }
}

/// The operations of spec section D, each from the state its row assumes.
enum MessageRow: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case registerOpeningTheAutomaticGroup
    case beginAtLevelZeroWhileGroupingByEvent
    case beginWithoutGroupingByEvent
    case endUndoGrouping
    case tick
    case undoWithTheAutomaticGroupOpen
    case undoOfAClosedGroup
    case undoWithoutGroupingByEvent
    case undoWithNothingToUndo
    case undoNestedGroup
    case redo
    case redoWithNothingToRedo
    case canRedo
    case undoWhileDisabled
    case redoWhileDisabled
    case closeADiscardableGroup
    case undoADiscardableGroup
    case redoADiscardableGroup

    var testDescription: String { rawValue }

    /// The expected sequence, from spec section D.
    var expected: [String] {
        switch self {
        case .registerOpeningTheAutomaticGroup: ["DO"]
        case .beginAtLevelZeroWhileGroupingByEvent: ["DO", "CP", "DO"]
        case .beginWithoutGroupingByEvent: ["CP", "DO"]
        case .endUndoGrouping, .tick: ["CP", "WC", "DC"]
        case .undoWithTheAutomaticGroupOpen: ["CP", "CP", "WC", "DC", "CP", "WU", "CP", "DU"]
        case .undoOfAClosedGroup: ["CP", "CP", "WU", "CP", "DU"]
        case .undoWithoutGroupingByEvent: ["CP", "CP", "WU", "CP", "CP", "DU"]
        case .undoWithNothingToUndo: ["CP", "CP"]
        case .undoNestedGroup: ["CP", "WU", "CP", "DU"]
        case .redo: ["CP", "WR", "CP", "CP", "DR"]
        case .redoWithNothingToRedo, .canRedo: ["CP"]
        case .undoWhileDisabled: ["CP", "CP", "WU", "DU"]
        case .redoWhileDisabled: ["CP", "WR", "CP", "DR"]
        case .closeADiscardableGroup: ["CP", "WC", "DC{disc}"]
        case .undoADiscardableGroup: ["CP", "CP", "WU", "CP", "DU{disc}"]
        case .redoADiscardableGroup: ["CP", "WR", "CP", "CP", "DR{disc}"]
        }
    }

    /// Brings `manager` to the row's starting state (recording nothing that matters), then
    /// returns the operation itself.
    func prepare(_ manager: UndoManager, note: PortedNote) -> () -> Void {
        switch self {
        case .registerOpeningTheAutomaticGroup:
            return { note.setText("a", using: manager) }
        case .beginAtLevelZeroWhileGroupingByEvent:
            return { manager.beginUndoGrouping() }
        case .beginWithoutGroupingByEvent:
            manager.groupsByEvent = false
            return { manager.beginUndoGrouping() }
        case .endUndoGrouping:
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            note.setText("a", using: manager)
            return { manager.endUndoGrouping() }
        case .tick:
            note.setText("a", using: manager)
            return { manager.runLoop.tick() }
        case .undoWithTheAutomaticGroupOpen:
            note.setText("a", using: manager)
            return { manager.undo() }
        case .undoOfAClosedGroup:
            note.setText("a", using: manager)
            manager.runLoop.tick()
            return { manager.undo() }
        case .undoWithoutGroupingByEvent:
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            note.setText("a", using: manager)
            manager.endUndoGrouping()
            return { manager.undo() }
        case .undoWithNothingToUndo:
            return { manager.undo() }
        case .undoNestedGroup:
            note.setText("a", using: manager)
            manager.runLoop.tick()
            return { manager.undoNestedGroup() }
        case .redo:
            note.setText("a", using: manager)
            manager.undo()
            return { manager.redo() }
        case .redoWithNothingToRedo:
            return { manager.redo() }
        case .canRedo:
            return { _ = manager.canRedo }
        case .undoWhileDisabled:
            note.setText("a", using: manager)
            manager.runLoop.tick()
            manager.disableUndoRegistration()
            return { manager.undo() }
        case .redoWhileDisabled:
            note.setText("a", using: manager)
            manager.undo()
            manager.disableUndoRegistration()
            return { manager.redo() }
        case .closeADiscardableGroup:
            note.setText("a", using: manager)
            manager.setActionIsDiscardable(true)
            return { manager.runLoop.tick() }
        case .undoADiscardableGroup:
            note.setText("a", using: manager)
            manager.setActionIsDiscardable(true)
            manager.runLoop.tick()
            return { manager.undo() }
        case .redoADiscardableGroup:
            note.setText("a", using: manager)
            manager.setActionIsDiscardable(true)
            manager.undo()
            return { manager.redo() }
        }
    }
}

/// The OS 26 typed messages (spec I.6), observed on a private center on the main actor next
/// to name-based observers of the same center and `addEventObserver`.
@MainActor
@Suite("Ported code: typed messages next to notifications and events")
struct TypedMessageTests {
    private func makeManager(center: NotificationCenter) -> UndoManager {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        manager.notificationCenter = center
        return manager
    }

    @Test(arguments: MessageRow.allCases)
    func eachKindOfObserverSeesEachEventOnceInOrder(_ row: MessageRow) {
        let center = NotificationCenter()
        let manager = makeManager(center: center)
        let note = PortedNote()
        let operation = row.prepare(manager, note: note)
        let observers = ThreeObservers(manager, center: center)
        operation()
        #expect(observers.events == row.expected)
        #expect(observers.notifications == row.expected)
        #expect(observers.messages == row.expected)
    }

    @Test func noMessageOrNotificationWithoutACenter() {
        let center = NotificationCenter()
        let manager = makeManager(center: center)
        let observers = ThreeObservers(manager, center: center)
        manager.notificationCenter = nil
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.undo()
        manager.redo()
        #expect(observers.notifications.isEmpty && observers.messages.isEmpty)
        #expect(observers.events.count == 14)
    }

    @Test func messagesGoOnlyToTheirOwnManagersObservers() {
        let center = NotificationCenter()
        let manager = makeManager(center: center)
        let other = makeManager(center: center)
        let observers = ThreeObservers(manager, center: center)
        PortedNote().setText("a", using: other)
        other.runLoop.tick()
        #expect(observers.notifications.isEmpty && observers.messages.isEmpty && observers.events.isEmpty)
    }

    @Test func theAsyncSequenceDeliversTheMessagesInOrder() async {
        let center = NotificationCenter()
        let manager = makeManager(center: center)
        let note = PortedNote()
        let stream = center.messages(of: manager, for: .didUndoChange)
        var iterator = stream.makeAsyncIterator()

        note.setText("a", using: manager)
        manager.setActionIsDiscardable(true)
        manager.runLoop.tick()
        note.setText("b", using: manager)
        manager.runLoop.tick()
        manager.undo()
        manager.undo()
        // Two messages of our own behind them, so that the two reads below end even if the
        // manager's messages never arrive (then they read these, and the test fails).
        for _ in 0..<2 {
            center.post(UndoManager.DidUndoChangeMessage(groupIsDiscardable: true), subject: manager)
        }

        var received: [Bool] = []
        while received.count < 2, let message = await iterator.next() {
            received.append(message.groupIsDiscardable)
        }
        #expect(received == [false, true])   // "b" first, then the discardable "a"
    }

    @Test func messageValuesCarryTheirDiscardableFlagAndName() {
        #expect(UndoManager.DidCloseUndoGroupMessage(groupIsDiscardable: true).groupIsDiscardable)
        #expect(!UndoManager.DidRedoChangeMessage(groupIsDiscardable: false).groupIsDiscardable)
        #expect(UndoManager.CheckpointMessage.name == .NSUndoManagerCheckpoint)
        #expect(UndoManager.DidUndoChangeMessage.name == .NSUndoManagerDidUndoChange)
        #expect(UndoManager.WillRedoChangeMessage.name == .NSUndoManagerWillRedoChange)
    }
}
