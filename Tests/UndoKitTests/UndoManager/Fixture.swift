@testable import UndoKit

/// Event abbreviations of spec section D, so expected sequences read like the spec's table.
let CP = UndoManager.Event.checkpoint
let DO = UndoManager.Event.didOpenUndoGroup
let WC = UndoManager.Event.willCloseUndoGroup
let DC = UndoManager.Event.didCloseUndoGroup(isDiscardable: false)
let DCdisc = UndoManager.Event.didCloseUndoGroup(isDiscardable: true)
let WU = UndoManager.Event.willUndoChange
let DU = UndoManager.Event.didUndoChange(isDiscardable: false)
let DUdisc = UndoManager.Event.didUndoChange(isDiscardable: true)
let WR = UndoManager.Event.willRedoChange
let DR = UndoManager.Event.didRedoChange(isDiscardable: false)
let DRdisc = UndoManager.Event.didRedoChange(isDiscardable: true)

/// A model object whose value changes are undoable; `log` records every handler run, so a
/// test can tell which actions ran and in which order.
final class Document {
    let name: String
    var value = 0
    var log: [String] = []

    init(_ name: String = "doc") {
        self.name = name
    }
}

/// Every observable of a manager at one moment (spec: "read every observable after each
/// step"). Reading `canRedo` and `redoMenuItemTitle` posts checkpoints, so the fixture pauses
/// its recorder while taking one.
struct ManagerState: Equatable, CustomStringConvertible {
    var canUndo = false
    var canRedo = false
    var undoCount = 0
    var redoCount = 0
    var groupingLevel = 0
    var isUndoing = false
    var isRedoing = false
    var isUndoRegistrationEnabled = true
    var undoActionName = ""
    var redoActionName = ""
    var undoMenuItemTitle = "Undo"
    var redoMenuItemTitle = "Redo"
    var undoActionIsDiscardable = false
    var redoActionIsDiscardable = false

    init() {}

    init(_ manager: UndoManager) {
        canUndo = manager.canUndo
        canRedo = manager.canRedo
        undoCount = manager.undoCount
        redoCount = manager.redoCount
        groupingLevel = manager.groupingLevel
        isUndoing = manager.isUndoing
        isRedoing = manager.isRedoing
        isUndoRegistrationEnabled = manager.isUndoRegistrationEnabled
        undoActionName = manager.undoActionName
        redoActionName = manager.redoActionName
        undoMenuItemTitle = manager.undoMenuItemTitle
        redoMenuItemTitle = manager.redoMenuItemTitle
        undoActionIsDiscardable = manager.undoActionIsDiscardable
        redoActionIsDiscardable = manager.redoActionIsDiscardable
    }

    /// A copy with some fields changed, so expectations state only what differs from a base.
    func with(_ change: (inout ManagerState) -> Void) -> ManagerState {
        var copy = self
        change(&copy)
        return copy
    }

    var description: String {
        "undo \(canUndo)/\(undoCount) '\(undoActionName)' redo \(canRedo)/\(redoCount) '\(redoActionName)' level \(groupingLevel)"
    }
}

/// A manager plus a recorder of its events (with the grouping level each observer saw),
/// posting to no notification center so parallel tests cannot hear each other.
final class Fixture {
    let manager: UndoManager
    private(set) var events: [UndoManager.Event] = []
    private var levels: [Int] = []
    private var lastLevels: [Int] = []
    private var isRecording = true
    /// Kept for the fixture's lifetime: an observation ends when released.
    private var observation: UndoManager.EventObservation?

    init(groupsByEvent: Bool = true, manager: UndoManager = UndoManager()) {
        self.manager = manager
        manager.notificationCenter = nil
        manager.groupsByEvent = groupsByEvent
        observation = manager.addEventObserver { [unowned self] event in
            guard isRecording else { return }
            events.append(event)
            levels.append(self.manager.groupingLevel)
        }
    }

    /// The events recorded since the last call, which it forgets.
    func takeEvents() -> [UndoManager.Event] {
        defer {
            events.removeAll()
            lastLevels = levels
            levels.removeAll()
        }
        return events
    }

    /// The grouping levels observers saw with the events the last `takeEvents()` returned.
    var observedLevels: [Int] { lastLevels }

    /// All observables, read without recording the checkpoints the reads post; also checks
    /// the internal invariants.
    var state: ManagerState {
        isRecording = false
        defer { isRecording = true }
        manager.checkInvariants()
        return ManagerState(manager)
    }

    /// Sets `document.value` to `value` and registers the inverse, which re-registers its own
    /// inverse, so undo and redo both work indefinitely.
    func change(_ document: Document, to value: Int) {
        let old = document.value
        document.value = value
        document.log.append("set \(value)")
        manager.registerUndo(withTarget: document) { [unowned self] document in
            change(document, to: old)
        }
    }

    /// Registers an action that records `label` when it runs and registers nothing back.
    func registerOneWay(_ document: Document, _ label: String) {
        manager.registerUndo(withTarget: document) { document in
            document.log.append(label)
        }
    }

    /// One closed top-level group changing `document` to `value`, the way each test needs
    /// it: an event and a tick while grouping by event, an explicit group otherwise.
    func step(_ document: Document, to value: Int, named name: String? = nil) {
        if manager.groupsByEvent {
            change(document, to: value)
            if let name { manager.setActionName(name) }
            manager.runLoop.tick()
        } else {
            manager.beginUndoGrouping()
            change(document, to: value)
            if let name { manager.setActionName(name) }
            manager.endUndoGrouping()
        }
    }
}
