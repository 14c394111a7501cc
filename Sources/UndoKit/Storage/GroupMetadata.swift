import Foundation

/// What a group carries besides its actions (spec B, "begin mark", and UndoKit's additions);
/// allocated only when something is set, so the common unnamed group costs only its marks.
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
    /// The parts the run in progress or just made actually changed
    /// (``UndoManager/setActionChangedParts(_:)``), until the coordinator hears of the run;
    /// `nil`: the declared `parts`.
    var changedPartsOfRun: Set<UndoPart>?
    init() {}

    func copy() -> GroupMetadata {
        let copy = GroupMetadata()
        copy.name = name
        copy.isDiscardable = isDiscardable
        copy.userInfo = userInfo
        copy.coalescingKey = coalescingKey
        copy.closedAt = closedAt
        copy.cost = cost
        copy.parts = parts
        return copy
    }
}
