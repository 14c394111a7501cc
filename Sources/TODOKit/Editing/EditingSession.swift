import Foundation
import UndoKit

/// The editable TODO list: every change goes through one `UndoManager`, so each can be undone
/// and redone any number of times.
///
/// The session owns its undo manager and that manager's `SimulatedRunLoop`. Each edit is a
/// ``TODOCommand`` (a change of ``list``, its exact inverse, a name and a date) performed with
/// UndoKit's `perform(_:on:)`, which executes it, records it and names the step. Undo and redo
/// move the same command between the stacks, so the cycle continues indefinitely, and items
/// come back with the same identity and at the same position. Because the steps are `Codable`
/// values, the history can be saved with the list and restored in a later process
/// (``openStep``, ``restoreHistory(_:)``). Another process's changes keep it
/// (``takeOutsideChanges(to:origins:otherwise:)``): a step whose item changed is refused.
///
/// With `groupsByEvent` (the default) all edits between two calls of ``endEvent()`` form one
/// undo step, like all the changes one keystroke makes in an app. ``beginGroup(named:)`` and
/// ``endGroup()`` make one step out of several events.
///
/// Every method checks its preconditions and throws ``EditingSessionError`` instead of letting
/// the undo manager reach one of its programmer-error traps.
///
/// ```swift
/// let session = EditingSession()
/// try session.add("Buy milk")
/// session.endEvent()                      // one event = one undo step
/// try session.undo()                      // "Undo Add \"Buy milk\""
/// session.list.isEmpty                    // true
/// try session.redo()                      // "Redo Add \"Buy milk\""
/// ```
///
/// `EditingSession` is not `Sendable`: like `UndoManager`, it belongs to the isolation domain
/// that created it.
public final class EditingSession {
    /// The undo manager that records every edit.
    ///
    /// Read its state freely (`canUndo`, `undoMenuItemTitle`, …). Calling its grouping, undo or
    /// redo methods directly bypasses the session's checks and bookkeeping.
    public let undoManager: UndoManager

    /// The list as it is now.
    public internal(set) var list: TODOList

    /// Counts every change of ``list``, by edits, undo and redo alike; a caller that remembers
    /// the value at its last save knows whether it must save again.
    ///
    /// ```swift
    /// let before = session.changeCount
    /// try session.undo()
    /// let mustSave = session.changeCount != before
    /// ```
    public internal(set) var changeCount = 0

    /// The changes applied to ``list`` since the last ``takeChanges()``, in order; see there.
    var appliedChanges: [TODOList.IdentifiedChange] = []

    /// The explicit groups begun with ``beginGroup(named:)`` and not yet ended, outermost first.
    var openGroups: [OpenGroup] = []

    /// Whether ``applyAll(_:)`` is running its edits: the explicit groups wait for the end of
    /// the event then.
    var isInsideAtomicEdits = false

    /// Explicit groups ended by ``endGroup()`` in this event and still open on the manager
    /// until the event ends; see `closeEndedGroups()`.
    var endedGroupCount = 0

    /// While an undo step is open: the commands performed in it so far; see ``openStep``.
    var commandsInOpenStep: [TODOCommand] = []

    /// What other processes did to each item, as ``takeOutsideChanges(to:origins:otherwise:)``
    /// saw it: what a refused undo says.
    var outsideChanges: [TODOItem.ID: (what: String, title: String, origin: String)] = [:]

    /// Part of the coalescing key of title edits; see ``takeOutsideChanges(to:origins:otherwise:)``.
    var coalescingEpoch = 0

    /// Tells each edit when it is made; tests set a fixed clock.
    public var clock: () -> Date = { Date() }

    /// Whether repeated title edits of one item within ``coalescingInterval`` make one undo
    /// step (UndoKit's coalescing); `true` by default.
    ///
    /// A session restored from a saved history never merges into a restored step: the window
    /// ends with the session that made the step.
    public var coalescesEdits = true

    /// How soon after an edit of an item's title the next edit of it merges into the same
    /// step: a minute, time to notice a typo and fix it.
    public var coalescingInterval: Duration {
        get { undoManager.coalescingInterval }
        set { undoManager.coalescingInterval = newValue }
    }

    /// Creates a session editing `list`, with an empty undo history.
    ///
    /// ```swift
    /// let session = EditingSession(list: try store.load())
    /// let manual = EditingSession(groupsByEvent: false)   // a step per edit, or per begin/end group
    /// ```
    ///
    /// - Parameters:
    ///   - list: The starting list; loading it is not an undoable step.
    ///   - groupsByEvent: The undo manager's `groupsByEvent`. When `false`, each edit outside
    ///     ``beginGroup(named:)``/``endGroup()`` is an undo step of its own. Don't change it on
    ///     ``undoManager`` afterwards: the session relies on it to know which groups are open.
    public init(list: TODOList = TODOList(), groupsByEvent: Bool = true) {
        self.list = list
        undoManager = UndoManager()
        undoManager.groupsByEvent = groupsByEvent
        // A change made after undo keeps the undone steps as a branch of the history tree.
        undoManager.keepsRedoBranches = true
        // The tree's dates follow the session's clock, which tests fix.
        undoManager.historyTreeClock = { [weak self] in self?.clock() ?? Date() }
        undoManager.coalescingInterval = .seconds(60)
        // A step whose item was changed elsewhere since is not undone over that change.
        undoManager.staleStepPolicy = .refuse
    }

    /// The run loop whose ``endEvent()`` ticks close the automatic undo group.
    public var runLoop: SimulatedRunLoop { undoManager.runLoop }
}

extension EditingSession {
    /// An explicit group as the user sees it. It is opened on the undo manager only when an
    /// edit needs it (or an event with edits ends while it is open), so `begin` followed by
    /// `end` with nothing in between leaves no empty undo step behind: the manager keeps empty
    /// groups, and closing one clears redo.
    struct OpenGroup {
        var name: String?
        var isOpenOnManager = false
    }
}
