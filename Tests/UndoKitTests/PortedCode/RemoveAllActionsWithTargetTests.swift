import Foundation
import Testing
import UndoKit

/// What app code passes to `removeAllActions(withTarget: Any)` (spec I.4): objects, optionals
/// from weak references, and values that were never targets.
enum TargetArgument: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case object, optionalObject, nestedOptionalObject, anyObjectExistential
    case nilOptional, structValue, string, int, otherObject

    var testDescription: String { rawValue }

    /// Whether the argument stands for `note`, whose actions it then removes.
    var isTheNote: Bool {
        switch self {
        case .object, .optionalObject, .nestedOptionalObject, .anyObjectExistential: true
        case .nilOptional, .structValue, .string, .int, .otherObject: false
        }
    }

    func value(for note: PortedNote) -> Any {
        switch self {
        case .object: note
        case .optionalObject: Optional(note) as Any
        case .nestedOptionalObject: Optional(Optional(note)) as Any
        case .anyObjectExistential: note as AnyObject
        case .nilOptional: PortedNote?.none as Any
        case .structValue: CGPoint(x: 1, y: 2)
        case .string: note.text
        case .int: 42
        case .otherObject: PortedNote(note.text)
        }
    }
}

/// The shape of ghostty's ExpiringUndoManager: registrations go through a proxy target of the
/// subclass's own, and its override of `removeAllActions(withTarget:)` maps the real target,
/// received as `Any`, to its proxies.
private final class ProxyingUndoManager: UndoManager {
    final class Proxy {
        weak var target: AnyObject?

        init(_ target: AnyObject) {
            self.target = target
        }
    }

    private var proxies: [Proxy] = []

    /// A new registration form that subclasses add next to Apple's.
    func registerUndo<TargetType: AnyObject>(withProxyFor target: TargetType, handler: @escaping (TargetType) -> Void) {
        let proxy = Proxy(target)
        proxies.append(proxy)
        super.registerUndo(withTarget: proxy) { proxy in
            guard let target = proxy.target as? TargetType else { return }
            handler(target)
        }
    }

    override func removeAllActions(withTarget target: Any) {
        super.removeAllActions(withTarget: target)
        if target is Proxy { return }
        let object = target as AnyObject
        for proxy in proxies where proxy.target === object {
            super.removeAllActions(withTarget: proxy)
        }
        proxies.removeAll { $0.target === object }
    }

    override func removeAllActions() {
        proxies.removeAll()
        super.removeAllActions()
    }
}

@Suite("Ported code: removeAllActions(withTarget: Any)")
struct RemoveAllActionsWithTargetTests {
    /// Two steps: the note and another note changed together, then the note alone.
    private func twoSteps() -> (UndoManager, note: PortedNote, other: PortedNote) {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        let other = PortedNote()
        note.setText("a", using: manager)
        other.setText("x", using: manager)
        manager.runLoop.tick()
        note.setText("b", using: manager)
        manager.runLoop.tick()
        return (manager, note, other)
    }

    @Test(arguments: TargetArgument.allCases)
    func onlyTheNotesActionsGo(_ argument: TargetArgument) {
        let (manager, note, other) = twoSteps()
        manager.removeAllActions(withTarget: argument.value(for: note))
        if argument.isTheNote {
            #expect(manager.undoCount == 1)   // the note-only step went with its action
            manager.undo()
            #expect(other.text == "" && note.text == "b")
        } else {
            #expect(manager.undoCount == 2)
            manager.undo()
            #expect(note.text == "a" && other.text == "x")
        }
    }

    @Test func removingFromTheRedoStackToo() {
        let (manager, note, other) = twoSteps()
        manager.undo()
        manager.undo()
        manager.removeAllActions(withTarget: Optional(note) as Any)
        #expect(manager.redoCount == 1)
        manager.redo()
        #expect(other.text == "x" && note.text == "")
    }

    @Test func theManagerCanBeItsOwnTarget() {
        let manager = UndoManager(runLoop: SimulatedRunLoop())
        var log: [String] = []
        manager.registerUndo(withTarget: manager) { _ in log.append("undone") }
        manager.runLoop.tick()
        manager.registerUndo(withTarget: manager) { _ in log.append("second") }
        manager.removeAllActions(withTarget: manager)
        #expect(manager.groupingLevel == 1)   // open groups stay (spec R33)
        manager.undo()
        manager.undo()
        #expect(log.isEmpty)
    }

    @Test func aSubclassMapsTheRealTargetToItsProxies() {
        let manager = ProxyingUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote("start")
        let other = PortedNote("other")
        manager.registerUndo(withProxyFor: note) { $0.setText("start", using: manager) }
        manager.registerUndo(withProxyFor: other) { $0.setText("other", using: manager) }
        manager.runLoop.tick()
        note.setText("changed", using: manager)   // a direct registration
        manager.runLoop.tick()

        manager.removeAllActions(withTarget: note)
        #expect(manager.undoCount == 1)
        manager.undo()
        #expect(other.history == ["other"] && note.history == ["changed"])
    }

    @Test func aNonObjectTargetRemovesNothingFromASubclassEither() {
        let manager = ProxyingUndoManager(runLoop: SimulatedRunLoop())
        let note = PortedNote()
        manager.registerUndo(withProxyFor: note) { _ in }
        manager.removeAllActions(withTarget: "not a target")
        manager.removeAllActions(withTarget: 7)
        #expect(manager.canUndo && manager.groupingLevel == 1)
        manager.runLoop.tick()
        #expect(manager.undoCount == 1)
    }
}
