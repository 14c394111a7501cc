import Foundation

/// What a group carries besides its actions: the action name, the discardable flag and the
/// user info (spec B, "begin mark"), and UndoKit's own per-step state (coalescing key
/// and close time, cost).
///
/// Allocated only when something is set, so that the common unnamed group costs no more than
/// its marks; none of UndoKit's features allocates one for a manager that does not use it.
final class GroupMetadata {
    /// `nil` means never set; reads as `""`.
    var name: String?
    var isDiscardable = false
    var userInfo: [UndoManager.UserInfoKey: Any] = [:]
    /// Set by ``UndoManager/setActionCoalescingKey(_:)``: a group closing with the same key
    /// soon after this one closed merges into it.
    var coalescingKey: String?
    /// When the group closed as a top-level group outside undo and redo, if it has a
    /// coalescing key (the only case in which it is read).
    var closedAt: ContinuousClock.Instant?
    /// The bytes reported with ``UndoManager/setActionCost(_:)``; counted in the stack's
    /// `totalCost` while the group is a top-level group of that stack.
    var cost = 0
    /// The parts of the model the step touched (``UndoManager/addActionParts(_:)-(UndoPart...)``);
    /// `nil` if it declared none, which counts as touching every part.
    var parts: Set<UndoPart>?
    init() {}

    /// Takes every field of `other` (a copy this group's fields were saved in).
    func restore(from other: GroupMetadata) {
        name = other.name
        isDiscardable = other.isDiscardable
        userInfo = other.userInfo
        coalescingKey = other.coalescingKey
        closedAt = other.closedAt
        cost = other.cost
        parts = other.parts
    }

    func copy() -> GroupMetadata {
        let copy = GroupMetadata()
        copy.restore(from: self)
        return copy
    }
}
