/// What an ``UndoManager`` does when the step its next undo or redo would run is stale: a
/// part the step touched changed since, outside this manager (see
/// ``UndoManager/noteChanges(to:origin:)``).
///
/// ```swift
/// manager.staleStepPolicy = .refuse
/// manager.noteChanges(to: [UndoPart("item", 4)], origin: "Bob")
/// if !manager.canUndo, let stale = manager.staleUndoStep {
///     print("\(stale.actionName) would overwrite changes by \(stale.origins)")
/// }
/// ```
public enum StaleStepPolicy: Hashable, Sendable {
    /// Run the step anyway, over whatever changed since: what an undo manager has always
    /// done, and the default, so code written for Apple's `UndoManager` is unchanged.
    case run
    /// Run nothing: ``UndoManager/canUndo`` (or ``UndoManager/canRedo``) is `false` while the
    /// next step is stale, ``UndoManager/undo()`` does nothing, and
    /// ``UndoManager/staleUndoStep`` says why. ``UndoManager/removeNextUndoStep()`` drops that
    /// step to reach the older ones; ``UndoManager/undoStaleStep()`` runs it once anyway.
    case refuse
    /// Drop stale steps and run the newest step that is not stale: each dropped step is
    /// announced with ``UndoManager/Event/didDropStaleStep(_:)``. If every step is
    /// stale, nothing may run (``UndoManager/canUndo`` is `false`) and nothing is dropped.
    case skip
}

/// A step that is stale: the changes noted since it was done (or last undone or redone)
/// touched a part it touched.
///
/// ```swift
/// if let stale = manager.staleUndoStep {
///     print("Undo \(stale.actionName) is blocked: \(stale.changes.count) changes since")
/// }
/// ```
public struct StaleStep: Hashable, Sendable {
    /// The step's identity, as in ``UndoManager/historyTree`` (unique, where action names
    /// are not); `nil` for a value made with ``init(actionName:parts:changes:)``.
    ///
    /// ```swift
    /// manager.historyTree[manager.staleUndoStep!.id!].actionName
    /// ```
    public var id: UndoTree.NodeID?
    /// The step's action name (`""` if it has none).
    public var actionName: String
    /// The parts the step declared; `nil` if it declared none, which counts as touching
    /// every part.
    public var parts: Set<UndoPart>?
    /// The changes since the step that touched its parts, one per part (the newest), parts
    /// in order; a change to parts nobody named has a `nil` part and comes last.
    public var changes: [UndoChange]

    /// A stale step's description.
    ///
    /// ```swift
    /// let stale = StaleStep(actionName: "Rename", parts: ["title"],
    ///                       changes: [UndoChange(part: "title", origin: "Bob")])
    /// ```
    public init(actionName: String, parts: Set<UndoPart>?, changes: [UndoChange]) {
        self.actionName = actionName
        self.parts = parts
        self.changes = changes
    }

    /// The origins of the changes, each once, in the order of ``changes``; changes with no
    /// origin are left out.
    ///
    /// ```swift
    /// stale.origins   // ["Bob", "server"]
    /// ```
    public var origins: [String] {
        var seen = Set<String>()
        return changes.compactMap(\.origin).filter { seen.insert($0).inserted }
    }
}
