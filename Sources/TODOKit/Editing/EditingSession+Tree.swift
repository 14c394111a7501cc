import Foundation
import UndoKit

/// The history tree: the session's undo manager keeps redo branches
/// (`UndoManager.keepsRedoBranches`), so a change made after `undo` never loses the steps
/// undone; `history` draws the tree and `goto` moves anywhere in it.
extension EditingSession {
    /// One step of the history tree, in the order `history` lists them, numbered for
    /// ``go(toStep:)``.
    ///
    /// ```swift
    /// for step in session.historySteps {
    ///     print(step.number, String(repeating: "  ", count: step.depth), step.name)
    /// }
    /// ```
    public struct HistoryStep: Hashable, Sendable {
        /// The step's number: its place in the list, from 1 (0 is the start).
        public var number: Int
        /// How many steps lead to it: 0 for a step made on the starting list.
        public var depth: Int
        /// The step's name, as undo would show it.
        public var name: String
        /// When the step was made, from the undo manager's history tree; `nil` for a step
        /// saved by a version of `todo` from before the tree.
        public var date: Date?
        /// Whether the list is in the state this step left it.
        public var isCurrent: Bool
        /// Whether the step is on the path redo follows from the current step.
        public var isOnRedoPath: Bool
        /// Whether the step is on a branch: neither undo nor redo reaches it, `goto` does.
        public var isOnBranch: Bool
    }

    /// Every step of the history tree, parents before children, siblings oldest first.
    public var historySteps: [HistoryStep] {
        let tree = undoManager.historyTree
        let path = Set(tree.path(to: tree.current).map(\.id))
        let redoPath = Set(tree.redoPath)
        return tree.nodes.enumerated().map { offset, node in
            HistoryStep(
                number: offset + 1, depth: tree.depth(of: node), name: node.actionName, date: node.date,
                isCurrent: node.id == tree.current,
                isOnRedoPath: redoPath.contains(node.id),
                isOnBranch: !path.contains(node.id) && !redoPath.contains(node.id)
            )
        }
    }

    /// Moves the list to the state after step `number` of ``historySteps`` (0: before the
    /// first step), undoing and redoing as many steps as that takes. Returns the number of
    /// steps undone and redone, or `nil` when the list is already there.
    ///
    /// ```swift
    /// let moved = try session.go(toStep: 3)   // (undone: 2, redone: 1)
    /// ```
    ///
    /// - Throws: ``EditingSessionError/groupOpen`` while a group is open,
    ///   ``EditingSessionError/noSuchStep(number:count:)`` for a number `history` does not
    ///   show.
    @discardableResult
    public func go(toStep number: Int) throws(EditingSessionError) -> (undone: Int, redone: Int)? {
        guard openGroups.isEmpty else { throw .groupOpen }
        closeEndedGroups()
        let allowedLevel = undoManager.groupsByEvent ? 1 : 0
        guard undoManager.groupingLevel <= allowedLevel else { throw .groupOpen }
        let tree = undoManager.historyTree
        guard (0...tree.nodes.count).contains(number) else {
            throw .noSuchStep(number: number, count: tree.nodes.count)
        }
        let target = number == 0 ? nil : tree.nodes[number - 1]
        guard target?.id != tree.current || undoManager.groupingLevel > 0 else { return nil }
        var undone = 0
        var redone = 0
        let observation = undoManager.addEventObserver { event in
            switch event {
            case .didUndoChange: undone += 1
            case .didRedoChange: redone += 1
            default: break
            }
        }
        if let target {
            undoManager.go(to: target)
        } else {
            undoManager.goToStart()
        }
        observation.cancel()
        return (undone, redone)
    }
}
