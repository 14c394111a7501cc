/// What a group carries besides its actions: the action name, the discardable flag and the
/// user info (spec B, "begin mark").
///
/// Allocated only when something is set, so that the common unnamed group costs no more than
/// its marks.
final class GroupMetadata {
    /// `nil` means never set; reads as `""`.
    var name: String?
    var isDiscardable = false
    var userInfo: [UndoManager.UserInfoKey: Any] = [:]
    /// Identity attached by an ``UndoCoordinator``; travels with the group through undo and
    /// redo like the rest of the metadata.
    var coordinatorToken: UInt64?

    init() {}

    func copy() -> GroupMetadata {
        let copy = GroupMetadata()
        copy.name = name
        copy.isDiscardable = isDiscardable
        copy.userInfo = userInfo
        copy.coordinatorToken = coordinatorToken
        return copy
    }
}
