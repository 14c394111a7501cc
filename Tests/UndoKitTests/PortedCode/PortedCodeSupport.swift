import Foundation
import UndoKit

// What the ported-code suites share. These files import UndoKit without `@testable`, as client
// code in another module would: they see only the public surface.

/// A model object the way app code writes one: a value that changes, and a setter that
/// registers its own inverse, so undo and redo both work for as many cycles as asked.
final class PortedNote {
    private(set) var text: String
    /// Every change, in order, so a test can tell which handlers ran.
    private(set) var history: [String] = []

    init(_ text: String = "") {
        self.text = text
    }

    /// Sets the text and registers the inverse with `manager`.
    func setText(_ newText: String, using manager: UndoManager) {
        let oldText = text
        text = newText
        history.append(newText)
        manager.registerUndo(withTarget: self) { [unowned manager] note in
            note.setText(oldText, using: manager)
        }
    }
}

/// The calls a ``RecordingUndoManager`` saw, by member name.
enum Call: Hashable {
    case registerNonisolated
    case registerMainActor
    case canUndo, canRedo, undoCount, redoCount
    case undo, undoNestedGroup, redo
    case getLevelsOfUndo, setLevelsOfUndo(Int)
    case beginUndoGrouping, endUndoGrouping, groupingLevel
    case getGroupsByEvent, setGroupsByEvent(Bool)
    case getRunLoopModes, setRunLoopModes
    case disableUndoRegistration, enableUndoRegistration, isUndoRegistrationEnabled
    case isUndoing, isRedoing
    case removeAllActions, removeAllActionsWithTarget
    case setActionName(String), undoActionName, redoActionName
    case undoMenuItemTitle, redoMenuItemTitle
    case undoMenuTitle(String), redoMenuTitle(String)
    case setActionIsDiscardable(Bool), undoActionIsDiscardable, redoActionIsDiscardable
    case setActionUserInfoValue(String), undoActionUserInfoValue(String), redoActionUserInfoValue(String)
    case description
}

/// A subclass that overrides every member of Apple's surface that UndoKit declares `open`,
/// records each call in order, and calls `super`: the shape of logging managers in app code.
final class RecordingUndoManager: UndoManager {
    private(set) var calls: [Call] = []
    private var pauses = 0

    override init() {
        super.init()
    }

    /// The calls recorded since the last call, which it forgets.
    func takeCalls() -> [Call] {
        defer { calls.removeAll() }
        return calls
    }

    /// Runs `body` without recording, for a test's own reads.
    func unrecorded<Result>(_ body: () -> Result) -> Result {
        pauses += 1
        defer { pauses -= 1 }
        return body()
    }

    private func record(_ call: Call) {
        if pauses == 0 {
            calls.append(call)
        }
    }

    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping (TargetType) -> Void
    ) {
        record(.registerNonisolated)
        super.registerUndo(withTarget: target, handler: handler)
    }

    override func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
    ) {
        record(.registerMainActor)
        super.registerUndo(withTarget: target, handler: handler)
    }

    override var canUndo: Bool { record(.canUndo); return super.canUndo }
    override var canRedo: Bool { record(.canRedo); return super.canRedo }
    override var undoCount: Int { record(.undoCount); return super.undoCount }
    override var redoCount: Int { record(.redoCount); return super.redoCount }

    override func undo() { record(.undo); super.undo() }
    override func undoNestedGroup() { record(.undoNestedGroup); super.undoNestedGroup() }
    override func redo() { record(.redo); super.redo() }

    override var levelsOfUndo: Int {
        get { record(.getLevelsOfUndo); return super.levelsOfUndo }
        set { record(.setLevelsOfUndo(newValue)); super.levelsOfUndo = newValue }
    }

    override func beginUndoGrouping() { record(.beginUndoGrouping); super.beginUndoGrouping() }
    override func endUndoGrouping() { record(.endUndoGrouping); super.endUndoGrouping() }
    override var groupingLevel: Int { record(.groupingLevel); return super.groupingLevel }

    override var groupsByEvent: Bool {
        get { record(.getGroupsByEvent); return super.groupsByEvent }
        set { record(.setGroupsByEvent(newValue)); super.groupsByEvent = newValue }
    }

    override var runLoopModes: [RunLoop.Mode] {
        get { record(.getRunLoopModes); return super.runLoopModes }
        set { record(.setRunLoopModes); super.runLoopModes = newValue }
    }

    override func disableUndoRegistration() { record(.disableUndoRegistration); super.disableUndoRegistration() }
    override func enableUndoRegistration() { record(.enableUndoRegistration); super.enableUndoRegistration() }
    override var isUndoRegistrationEnabled: Bool { record(.isUndoRegistrationEnabled); return super.isUndoRegistrationEnabled }

    override var isUndoing: Bool { record(.isUndoing); return super.isUndoing }
    override var isRedoing: Bool { record(.isRedoing); return super.isRedoing }

    override func removeAllActions() { record(.removeAllActions); super.removeAllActions() }
    override func removeAllActions(withTarget target: Any) {
        record(.removeAllActionsWithTarget)
        super.removeAllActions(withTarget: target)
    }

    override func setActionName(_ actionName: String) { record(.setActionName(actionName)); super.setActionName(actionName) }
    override var undoActionName: String { record(.undoActionName); return super.undoActionName }
    override var redoActionName: String { record(.redoActionName); return super.redoActionName }
    override var undoMenuItemTitle: String { record(.undoMenuItemTitle); return super.undoMenuItemTitle }
    override var redoMenuItemTitle: String { record(.redoMenuItemTitle); return super.redoMenuItemTitle }
    override func undoMenuTitle(forUndoActionName actionName: String) -> String {
        record(.undoMenuTitle(actionName))
        return super.undoMenuTitle(forUndoActionName: actionName)
    }
    override func redoMenuTitle(forUndoActionName actionName: String) -> String {
        record(.redoMenuTitle(actionName))
        return super.redoMenuTitle(forUndoActionName: actionName)
    }

    override func setActionIsDiscardable(_ discardable: Bool) {
        record(.setActionIsDiscardable(discardable))
        super.setActionIsDiscardable(discardable)
    }
    override var undoActionIsDiscardable: Bool { record(.undoActionIsDiscardable); return super.undoActionIsDiscardable }
    override var redoActionIsDiscardable: Bool { record(.redoActionIsDiscardable); return super.redoActionIsDiscardable }

    override func setActionUserInfoValue(_ info: Any?, forKey key: UserInfoKey) {
        record(.setActionUserInfoValue(key.rawValue))
        super.setActionUserInfoValue(info, forKey: key)
    }
    override func undoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        record(.undoActionUserInfoValue(key.rawValue))
        return super.undoActionUserInfoValue(forKey: key)
    }
    override func redoActionUserInfoValue(forKey key: UserInfoKey) -> Any? {
        record(.redoActionUserInfoValue(key.rawValue))
        return super.redoActionUserInfoValue(forKey: key)
    }

    override var description: String { record(.description); return super.description }
}
