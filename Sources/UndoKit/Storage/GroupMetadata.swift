import Foundation

/// What a group carries besides its actions: the action name, the discardable flag and the
/// user info (spec B, "begin mark"), and UndoKit's own per-step state (coordinator token,
/// coalescing key and close time, cost).
///
/// Allocated only when something is set, so that the common unnamed group costs no more than
/// its marks; none of UndoKit's features allocates one for a manager that does not use it.
final class GroupMetadata {
    /// `nil` means never set; reads as `""`.
    var name: String?
    var isDiscardable = false
    var userInfo: [UndoManager.UserInfoKey: Any] = [:]
    /// Identity attached by an ``UndoCoordinator``; travels with the group through undo and
    /// redo like the rest of the metadata.
    var coordinatorToken: UInt64?
    /// Set by ``UndoManager/setActionCoalescingKey(_:)``: a group closing with the same key
    /// soon after this one closed merges into it.
    var coalescingKey: String?
    /// When the group closed as a top-level group outside undo and redo, if it has a
    /// coalescing key (the only case in which it is read).
    var closedAt: ContinuousClock.Instant?
    /// The bytes reported with ``UndoManager/setActionCost(_:)``; counted in the stack's
    /// `totalCost` while the group is a top-level group of that stack.
    var cost = 0
    /// The step's node in the history tree: set when the group closes as a top-level step
    /// while the manager records its tree (see `UndoManager+HistoryTree.swift`), and carried
    /// with the group through undo and redo. One reference rather than its three fields, so
    /// that a manager that never records a tree pays one word per metadata object and one
    /// copy per undo and redo (callgrind, W1: the fields inline cost 4–5% per action).
    var node: HistoryNode?

    /// The node's id (``UndoTree/Node/id``); setting one makes the node.
    var nodeID: UInt64? {
        get { node?.id }
        set {
            if let newValue {
                if let node { node.id = newValue } else { node = HistoryNode(id: newValue) }
            } else {
                node = nil
            }
        }
    }

    /// When the step closed (``UndoTree/Node/date``); kept only once the group has a node.
    var date: Date? {
        get { node?.date }
        set { node?.date = newValue }
    }

    /// The history tree's clock when the step was last the current one.
    var lastVisit: UInt64 {
        get { node?.lastVisit ?? 0 }
        set { node?.lastVisit = newValue }
    }

    init() {}

    /// Takes every field of `other` (a copy this group's fields were saved in).
    func restore(from other: GroupMetadata) {
        name = other.name
        isDiscardable = other.isDiscardable
        userInfo = other.userInfo
        coordinatorToken = other.coordinatorToken
        coalescingKey = other.coalescingKey
        closedAt = other.closedAt
        cost = other.cost
        node = other.node
    }

    func copy() -> GroupMetadata {
        let copy = GroupMetadata()
        copy.restore(from: self)
        return copy
    }
}

/// A step's place in the history tree: its id, when it closed, and when it was last the
/// current step (trimming a tree drops the least recently visited leaves first). Shared by the
/// metadata copies undo and redo make of a group: they are the same step.
final class HistoryNode {
    var id: UInt64
    var date: Date?
    var lastVisit: UInt64 = 0

    init(id: UInt64) {
        self.id = id
    }
}
