import Foundation
import Testing
import UndoKit

/// A stack shape for `undoCount`, built by a script, and what Apple's walk (spec R26) counts
/// for it: end marks at relative depth 0 from the newest entry, a begin mark lowering the depth.
/// Expected values were worked out by hand from that definition.
struct CountShape: Sendable, CustomTestStringConvertible {
    enum Step: Sendable {
        case begin, end, register, tick, undo
    }

    let name: String
    var groupsByEvent = true
    let steps: [Step]
    let undoCount: Int
    let groupingLevel: Int
    var canUndo = true

    var testDescription: String { name }

    static let all: [CountShape] = [
        CountShape(name: "new manager", steps: [], undoCount: 0, groupingLevel: 0, canUndo: false),
        CountShape(name: "registration, event still open", steps: [.register], undoCount: 0, groupingLevel: 1),
        CountShape(name: "registration, event ended", steps: [.register, .tick], undoCount: 1, groupingLevel: 0),
        CountShape(name: "three events", steps: [.register, .tick, .register, .tick, .register, .tick], undoCount: 3, groupingLevel: 0),
        CountShape(name: "two events, third open", steps: [.register, .tick, .register, .tick, .register], undoCount: 0, groupingLevel: 1),
        CountShape(name: "empty event group", steps: [.begin, .end, .tick], undoCount: 1, groupingLevel: 0),
        // The example: the automatic group closed by hand, then a new explicit group.
        CountShape(name: "begin, end, end, begin", steps: [.begin, .end, .end, .begin], undoCount: 1, groupingLevel: 1),
        // The walk passes the open group's begin mark and goes on below it.
        CountShape(name: "begin, end, end, begin, register", steps: [.begin, .end, .end, .begin, .register], undoCount: 1, groupingLevel: 1),
        CountShape(name: "two nested groups closed by hand, then begin", steps: [.begin, .end, .begin, .end, .end, .begin], undoCount: 2, groupingLevel: 1),
        CountShape(name: "explicit groups inside the open event", steps: [.begin, .end, .begin, .register, .end], undoCount: 2, groupingLevel: 1),
        CountShape(name: "undo of the open event", steps: [.register, .tick, .register, .undo], undoCount: 1, groupingLevel: 0),
        CountShape(name: "no grouping by event: two closed, one open", groupsByEvent: false, steps: [.begin, .register, .end, .begin, .end, .begin], undoCount: 0, groupingLevel: 1),
        CountShape(name: "no grouping by event: closed child inside the open group", groupsByEvent: false, steps: [.begin, .end, .begin, .begin, .register, .end], undoCount: 1, groupingLevel: 1),
        CountShape(name: "no grouping by event: all closed", groupsByEvent: false, steps: [.begin, .register, .end, .begin, .begin, .end, .end], undoCount: 2, groupingLevel: 0),
    ]

    func build(_ manager: UndoManager, note: PortedNote) {
        manager.groupsByEvent = groupsByEvent
        for (index, step) in steps.enumerated() {
            switch step {
            case .begin: manager.beginUndoGrouping()
            case .end: manager.endUndoGrouping()
            case .register: note.setText("\(index)", using: manager)
            case .tick: manager.runLoop.tick()
            case .undo: manager.undo()
            }
        }
    }
}

@Suite("Ported code: undoCount and redoCount follow Apple's walk")
struct UndoCountTableTests {
    @Test(arguments: CountShape.all)
    func undoCountOfAStackShape(_ shape: CountShape) {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        manager.notificationCenter = nil
        let note = PortedNote()
        shape.build(manager, note: note)
        #expect(manager.undoCount == shape.undoCount)
        #expect(manager.groupingLevel == shape.groupingLevel)
        #expect(manager.canUndo == shape.canUndo)
    }

    @Test func redoCountCountsClosedRedoGroups() {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        for text in ["a", "b", "c"] {
            note.setText(text, using: manager)
            manager.runLoop.tick()
        }
        manager.undo()
        manager.undo()
        #expect(manager.redoCount == 2 && manager.undoCount == 1)
    }

    @Test func countsReadFromInsideUndoAndRedoHandlersStartInsideTheGroupBeingBuilt() {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        var seen: [String] = []
        for text in ["a", "b"] {
            note.setText(text, using: manager)
            manager.registerUndo(withTarget: note) { [unowned manager] _ in
                seen.append("undo handler: redo \(manager.redoCount), undo \(manager.undoCount)")
            }
            manager.runLoop.tick()
        }
        manager.undo()   // redo stack: the group being built is open and empty so far
        manager.undo()   // redo stack: one closed group below the open one
        // The walk passes the open group's begin mark and then counts nothing at depth 0.
        #expect(seen == ["undo handler: redo 0, undo 1", "undo handler: redo 0, undo 0"])
    }
}
