import Foundation
import Synchronization
import Testing
@testable import UndoKit

@Suite("Notifications (R42–R44, A.1)")
struct NotificationTests {
    /// What a private center delivered. `NotificationCenter`'s block observers are
    /// `@Sendable`, so the record lives behind a mutex although every post here is synchronous.
    final class Recorder: Sendable {
        struct Record {
            var names: [Notification.Name] = []
            var discardableFlags: [Bool?] = []
            var objects: [ObjectIdentifier?] = []
        }
        let record = Mutex(Record())

        func append(_ note: Notification) {
            let flag = note.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool
            let object = (note.object as AnyObject?).map(ObjectIdentifier.init)
            record.withLock {
                $0.names.append(note.name)
                $0.discardableFlags.append(flag)
                $0.objects.append(object)
            }
        }

        var names: [Notification.Name] { record.withLock { $0.names } }
        var discardableFlags: [Bool?] { record.withLock { $0.discardableFlags } }
        var objects: [ObjectIdentifier?] { record.withLock { $0.objects } }
    }

    @Test("A.1: Apple's raw names and key")
    func rawNames() {
        #expect(Notification.Name.NSUndoManagerCheckpoint.rawValue == "NSUndoManagerCheckpointNotification")
        #expect(Notification.Name.NSUndoManagerDidOpenUndoGroup.rawValue == "NSUndoManagerDidOpenUndoGroupNotification")
        #expect(Notification.Name.NSUndoManagerWillCloseUndoGroup.rawValue == "NSUndoManagerWillCloseUndoGroupNotification")
        #expect(Notification.Name.NSUndoManagerDidCloseUndoGroup.rawValue == "NSUndoManagerDidCloseUndoGroupNotification")
        #expect(Notification.Name.NSUndoManagerWillUndoChange.rawValue == "NSUndoManagerWillUndoChangeNotification")
        #expect(Notification.Name.NSUndoManagerDidUndoChange.rawValue == "NSUndoManagerDidUndoChangeNotification")
        #expect(Notification.Name.NSUndoManagerWillRedoChange.rawValue == "NSUndoManagerWillRedoChangeNotification")
        #expect(Notification.Name.NSUndoManagerDidRedoChange.rawValue == "NSUndoManagerDidRedoChangeNotification")
        #expect(NSUndoManagerGroupIsDiscardableKey == "NSUndoManagerGroupIsDiscardableKey")
    }

    @Test("R42: posted synchronously on the chosen center, object = the manager, in section D's order")
    func postsToCenter() {
        let center = NotificationCenter()
        let manager = UndoManager()
        manager.notificationCenter = center
        let recorder = Recorder()
        let names: [Notification.Name] = [
            .NSUndoManagerCheckpoint, .NSUndoManagerDidOpenUndoGroup, .NSUndoManagerWillCloseUndoGroup,
            .NSUndoManagerDidCloseUndoGroup, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
            .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
        ]
        var tokens: [NSObjectProtocol] = []
        for name in names {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { note in
                recorder.append(note)
            })
        }
        defer { tokens.forEach(center.removeObserver) }
        let doc = Document()
        manager.registerUndo(withTarget: doc) { _ in }
        manager.setActionIsDiscardable(true)
        manager.runLoop.tick()
        manager.undo()
        #expect(recorder.names == [
            .NSUndoManagerDidOpenUndoGroup,
            .NSUndoManagerCheckpoint, .NSUndoManagerWillCloseUndoGroup, .NSUndoManagerDidCloseUndoGroup,
            .NSUndoManagerCheckpoint, .NSUndoManagerCheckpoint, .NSUndoManagerWillUndoChange,
            .NSUndoManagerCheckpoint, .NSUndoManagerDidUndoChange,
        ])
        #expect(recorder.objects.allSatisfy { $0 == ObjectIdentifier(manager) })
        #expect(recorder.discardableFlags == [nil, nil, nil, true, nil, nil, nil, nil, true])
    }

    @Test("H7: notificationCenter = nil posts nothing; typed observers still hear everything")
    func turnedOff() {
        let center = NotificationCenter()
        let manager = UndoManager()
        manager.notificationCenter = nil
        let recorder = Recorder()
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { recorder.append($0) }
        defer { center.removeObserver(token) }
        let fixture = Fixture(manager: manager)
        manager.registerUndo(withTarget: Document()) { _ in }
        #expect(recorder.names.isEmpty)
        #expect(fixture.takeEvents() == [DO])
    }

    @Test("A listener added while an undo runs hears the rest of that undo")
    func listenerAddedDuringUndo() {
        let center = NotificationCenter()
        let recorder = Recorder()
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { recorder.append($0) }
        defer { center.removeObserver(token) }
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.notificationCenter = nil
        var events: [UndoManager.Event] = []
        var observation: UndoManager.EventObservation?
        let doc = Document()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: doc) { _ in
            observation = manager.addEventObserver { events.append($0) }
            manager.notificationCenter = center
        }
        manager.endUndoGrouping()
        manager.undo()
        // What the undo posts after its action ran: the redo group's close checkpoint, then
        // did-undo (section D).
        #expect(events == [.checkpoint, .didUndoChange(isDiscardable: false)])
        #expect(recorder.names == [.NSUndoManagerCheckpoint, .NSUndoManagerDidUndoChange])
        observation?.cancel()
        manager.notificationCenter = nil
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: doc) { _ in }
        manager.endUndoGrouping()
        #expect(events.count == 2)
        #expect(recorder.names.count == 2)
    }

    @Test("Typed observers run before the center and can be cancelled")
    func observationOrderAndCancel() {
        let center = NotificationCenter()
        let manager = UndoManager()
        manager.notificationCenter = center
        let centerLog = Recorder()
        let token = center.addObserver(forName: .NSUndoManagerDidOpenUndoGroup, object: nil, queue: nil) {
            centerLog.append($0)
        }
        defer { center.removeObserver(token) }
        // The typed observer notes how many center deliveries it has seen when it runs.
        var centerCountsSeenByTyped: [Int] = []
        let observation = manager.addEventObserver { event in
            if event == DO { centerCountsSeenByTyped.append(centerLog.names.count) }
        }
        let doc = Document()
        manager.registerUndo(withTarget: doc) { _ in }
        #expect(centerCountsSeenByTyped == [0])
        #expect(centerLog.names.count == 1)
        observation.cancel()
        observation.cancel()
        manager.runLoop.tick()
        manager.registerUndo(withTarget: doc) { _ in }
        #expect(centerCountsSeenByTyped == [0])
        #expect(centerLog.names.count == 2)
    }

    @Test("R43: a checkpoint raised by a checkpoint observer is not posted")
    func checkpointReentrancy() {
        let fixture = Fixture()
        var nestedReads = 0
        let observation = fixture.manager.addEventObserver { [unowned fixture] event in
            if event == CP && nestedReads < 5 {
                nestedReads += 1
                _ = fixture.manager.canRedo   // would post CP again
            }
        }
        defer { observation.cancel() }
        _ = fixture.manager.canRedo
        #expect(fixture.takeEvents() == [CP])
        #expect(nestedReads == 1)
        _ = fixture.manager.canRedo           // the guard was released
        #expect(fixture.takeEvents() == [CP])
    }

    @Test("Event names and userInfo match the notifications", arguments: [
        (CP, Notification.Name.NSUndoManagerCheckpoint, false),
        (DO, .NSUndoManagerDidOpenUndoGroup, false),
        (WC, .NSUndoManagerWillCloseUndoGroup, false),
        (DC, .NSUndoManagerDidCloseUndoGroup, false),
        (DCdisc, .NSUndoManagerDidCloseUndoGroup, true),
        (WU, .NSUndoManagerWillUndoChange, false),
        (DUdisc, .NSUndoManagerDidUndoChange, true),
        (WR, .NSUndoManagerWillRedoChange, false),
        (DRdisc, .NSUndoManagerDidRedoChange, true),
    ])
    func eventMapping(event: UndoManager.Event, name: Notification.Name, discardable: Bool) {
        #expect(event.notificationName == name)
        #expect((event.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool) == (discardable ? true : nil))
    }
}
