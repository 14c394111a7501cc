import Foundation

/// An undo manager's undo and redo stacks, made of commands, as a value you can save and
/// restore: undo that survives the process.
///
/// Closures cannot be saved, but ``UndoableCommand``s that are `Codable` can (and
/// ``AsyncUndoableCommand``s: see ``UndoManager/undoHistory(ofAsync:)`` and, for a history of
/// both kinds, ``SyncOrAsyncCommand``). Record your steps
/// with ``UndoManager/perform(_:on:)``, take the history with
/// ``UndoManager/undoHistory(of:)``, encode it with ``encoded()``, and in the next process
/// decode it with ``init(encoded:)`` and hand it to ``UndoManager/restoreUndoHistory(_:on:)``:
///
/// ```swift
/// // Before quitting:
/// let history = try manager.undoHistory(of: TodoCommand.self)
/// try history.encoded().write(to: historyURL)
///
/// // In the next process, with the list loaded in the state it was saved in:
/// let saved = try UndoHistory<TodoCommand>(encoded: Data(contentsOf: historyURL))
/// try manager.restoreUndoHistory(saved, on: list)
/// manager.undoMenuItemTitle   // "Undo Add “Buy milk”", as before
/// manager.undo()              // runs the saved command's undo(on:)
/// ```
///
/// A history holds every closed top-level group of both stacks, with its nesting, action name
/// and discardable flag, each command as its last run left it, and the history tree (ids,
/// dates, branches, the clean mark; <doc:NavigatingTheHistory>). Restored, ``UndoManager/undo()``
/// and ``UndoManager/redo()`` do what they would have done. User info values are not part of
/// it: they are `Any`.
///
/// See <doc:PersistingUndoHistory> for when to save, and the snapshot/journal trade-off.
public struct UndoHistory<Command: Codable> {
    /// One group: the commands and nested groups recorded in it, oldest first, and the
    /// metadata that only a top-level group's reads show.
    ///
    /// ```swift
    /// let step = history.undoSteps.last!   // what undo() would revert
    /// step.actionName                      // "Add “Buy milk”"
    /// ```
    public struct Group {
        /// The group's action name; `nil` when none was ever set (which reads as `""`).
        public var actionName: String?
        /// Whether the group was marked discardable.
        public var isDiscardable: Bool
        /// What the group holds, in the order it was recorded.
        public var items: [Item]
        /// A top-level step's node in the history tree (``UndoTree/Node/id``); `nil` in a
        /// nested group, or in a history written before version 2.
        public var id: UndoTree.NodeID?
        /// When a top-level step's group closed (``UndoTree/Node/date``), if known.
        public var date: Date?
        /// The parts of the model a top-level step declared
        /// (``UndoManager/addActionParts(_:)-(UndoPart...)``); `nil` if none, which counts as
        /// touching every part.
        public var parts: Set<UndoPart>?
        /// What a top-level step was stale by when it was saved: the changes noted since it
        /// was done that touched its parts (see ``UndoManager/staleUndoStep``). Restored, so
        /// the step stays stale until it runs.
        public var staleChanges: [UndoChange]

        /// Creates a group.
        ///
        /// ```swift
        /// let step = UndoHistory<AddItem>.Group(actionName: "Add", items: [.command(AddItem(title: "Milk"))])
        /// ```
        public init(
            actionName: String? = nil, isDiscardable: Bool = false, items: [Item] = [],
            id: UndoTree.NodeID? = nil, date: Date? = nil, parts: Set<UndoPart>? = nil, staleChanges: [UndoChange] = []
        ) {
            self.actionName = actionName
            self.isDiscardable = isDiscardable
            self.items = items
            self.id = id
            self.date = date
            self.parts = parts
            self.staleChanges = staleChanges
        }

        /// The commands in the group and its nested groups, oldest first.
        ///
        /// ```swift
        /// history.undoSteps.last?.commands.last   // the newest command of the newest step
        /// ```
        public var commands: [Command] {
            items.flatMap { item -> [Command] in
                switch item {
                case .command(let command): [command]
                case .group(let group): group.commands
                }
            }
        }
    }

    /// A command, or a group nested in another.
    ///
    /// ```swift
    /// if case .command(let command) = step.items.first { print(command.actionName) }
    /// ```
    public indirect enum Item {
        /// A command, in the state its last execute or undo left it.
        case command(Command)
        /// A nested group.
        case group(Group)
    }

    /// The closed top-level groups of the undo stack, oldest first: the last is what
    /// ``UndoManager/undo()`` reverts.
    ///
    /// ```swift
    /// history.undoSteps.map { $0.actionName ?? "" }   // ["Add “Milk”", "Add “Eggs”"]
    /// ```
    public var undoSteps: [Group]

    /// The closed top-level groups of the redo stack, oldest first: the last is what
    /// ``UndoManager/redo()`` performs.
    ///
    /// ```swift
    /// history.redoSteps.isEmpty   // nothing undone since the last edit
    /// ```
    public var redoSteps: [Group]

    /// A step on a branch of the history tree, off the undo and redo path, in the form redo
    /// performs it.
    ///
    /// ```swift
    /// history.branches.map { $0.step.actionName ?? "" }   // the steps a new edit kept
    /// ```
    ///
    /// Saved as `{"parent":1,"step":{…}}`, without "parent" for a step at the start.
    public struct BranchStep: Codable {
        /// The node the step was recorded in the state of; `nil` for the start.
        public var parent: UndoTree.NodeID?
        /// The step, with its ``Group/id``.
        public var step: Group

        /// Pairs a step with its parent.
        ///
        /// ```swift
        /// let branch = UndoHistory<AddItem>.BranchStep(parent: nil, step: group)
        /// ```
        public init(parent: UndoTree.NodeID?, step: Group) {
            self.parent = parent
            self.step = step
        }
    }

    /// Where the clean mark (``UndoManager/isClean``) was when the history was taken.
    ///
    /// ```swift
    /// history.cleanMark   // .current: the history was taken right after saving
    /// ```
    public enum CleanMark: Hashable, Sendable {
        /// At the position the history was taken in: restored, the manager is clean.
        case current
        /// Before the first step.
        case start
        /// After this step (on the path or on a branch).
        case step(UndoTree.NodeID)
        /// Nowhere the history can reach.
        case unreachable
    }

    /// The steps off the current path, each below its parent; empty without
    /// ``UndoManager/keepsRedoBranches``.
    ///
    /// ```swift
    /// history.branches.count   // steps a new edit after undoing kept
    /// ```
    public var branches: [BranchStep]

    /// Where the clean mark is; ``CleanMark/current`` in version 1 histories and by default.
    ///
    /// ```swift
    /// history.cleanMark == .current
    /// ```
    public var cleanMark: CleanMark

    /// Creates a history from its groups.
    ///
    /// ```swift
    /// let empty = UndoHistory<AddItem>()
    /// ```
    public init(undoSteps: [Group] = [], redoSteps: [Group] = [], branches: [BranchStep] = [], cleanMark: CleanMark = .current) {
        self.undoSteps = undoSteps
        self.redoSteps = redoSteps
        self.branches = branches
        self.cleanMark = cleanMark
    }

    /// Keeps only the newest `count` undo steps (and every redo step), as
    /// ``UndoManager/levelsOfUndo`` does. Branches below a dropped step (or at the start) go
    /// too, and a clean mark there becomes ``CleanMark/unreachable``.
    ///
    /// ```swift
    /// var history = try manager.undoHistory(of: TodoCommand.self)
    /// history.keepNewestUndoSteps(100)
    /// ```
    ///
    /// - Precondition: `count >= 0`.
    public mutating func keepNewestUndoSteps(_ count: Int) {
        if count < 0 {
            fatalError(  // not precondition: release builds keep the message
                "UndoHistory.keepNewestUndoSteps(_:) needs a count of 0 or more, not \(count)\n"
                    + "Fix: pass the number of undo steps to keep (0 keeps none); clamp a computed count with max(0, …)"
            )
        }
        guard undoSteps.count > count else { return }
        let dropped = undoSteps.prefix(undoSteps.count - count)
        undoSteps.removeFirst(undoSteps.count - count)
        var gone = Set(dropped.compactMap(\.id))
        var changed = true
        while changed {
            changed = false
            for branch in branches where branch.parent.map(gone.contains) ?? true {
                if let id = branch.step.id, gone.insert(id).inserted {
                    changed = true
                }
            }
        }
        branches.removeAll { $0.step.id.map(gone.contains) ?? true }
        // The manager's rules for a trim (CleanMarkKeeper), on the saved mark; `current` is
        // wherever the history stands, which dropping older steps does not move.
        let mark: UndoKit.CleanMark
        switch cleanMark {
        case .current:
            return
        case .start:
            mark = .start
        case .step(let id):
            mark = .step(id)
        case .unreachable:
            mark = .unreachable
        }
        var keeper = CleanMarkKeeper(mark: mark)
        keeper.oldestStepWillBeTrimmed(fromUndoStack: true)
        for id in gone {
            keeper.stepLeft(id)
        }
        switch keeper.mark {
        case .start:
            cleanMark = .start
        case .step(let id):
            cleanMark = .step(id)
        case .unreachable, .openGroup:
            // A saved history has no open group.
            cleanMark = .unreachable
        }
    }
}

extension UndoHistory.Group: Equatable where Command: Equatable {}
extension UndoHistory.Item: Equatable where Command: Equatable {}
extension UndoHistory.BranchStep: Equatable where Command: Equatable {}
extension UndoHistory: Equatable where Command: Equatable {}
extension UndoHistory.Group: Sendable where Command: Sendable {}
extension UndoHistory.Item: Sendable where Command: Sendable {}
extension UndoHistory.BranchStep: Sendable where Command: Sendable {}
extension UndoHistory: Sendable where Command: Sendable {}

/// Why an undo history could not be taken, read or restored; nothing changes when one is thrown.
///
/// ```swift
/// do {
///     let history = try UndoHistory<TodoCommand>(encoded: data)
///     try manager.restoreUndoHistory(history, on: list)
/// } catch {
///     print("undo history dropped: \(error)")   // the list itself is fine
/// }
/// ```
public enum UndoHistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data is not a history: not JSON, cut short, or missing or mistyped fields. The
    /// reason names the problem.
    case corrupt(reason: String)
    /// The data was written by a newer version, whose format this one cannot read.
    case unsupportedVersion(found: Int, supported: Int)
    /// The manager holds a step that is not a command of the requested type.
    case notACommand(stack: String, stepIndex: Int)
    /// A group is open: end the event (or close the group) first, so every step is whole.
    case groupOpen(groupingLevel: Int)
    /// Restoring needs a manager with nothing to undo or redo.
    case managerNotEmpty(undoCount: Int, redoCount: Int)

    /// A one-line explanation.
    ///
    /// ```swift
    /// UndoHistoryError.groupOpen(groupingLevel: 1).description
    /// // "a group is open (groupingLevel 1): end the event first"
    /// ```
    public var description: String {
        switch self {
        case .corrupt(let reason):
            "the undo history is corrupt: \(reason)"
        case .unsupportedVersion(let found, let supported):
            "the undo history has format version \(found); this version reads \(supported)"
        case .notACommand(let stack, let stepIndex):
            "\(stack) step \(stepIndex) holds an action that is not a saveable command"
        case .groupOpen(let groupingLevel):
            "a group is open (groupingLevel \(groupingLevel)): end the event first"
        case .managerNotEmpty(let undoCount, let redoCount):
            "the undo manager already has history (\(undoCount) undo, \(redoCount) redo steps)"
        }
    }
}
