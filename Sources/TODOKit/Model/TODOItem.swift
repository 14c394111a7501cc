import Foundation

/// One entry of a TODO list.
///
/// `TODOItem` is a value type: an edit produces a new value, so an undo action can keep the
/// previous value and put it back exactly, identity included.
///
/// ```swift
/// var item = TODOItem(title: "Buy milk")
/// item.priority = .high
/// item.isDone = true
/// ```
public struct TODOItem: Hashable, Codable, Sendable, Identifiable {
    /// The stable identity of the item; it never changes, and undo restores it.
    public var id: UUID
    /// The one-line title shown by `list`.
    public var title: String
    /// Free-form notes; empty when the item has none.
    public var detail: String
    /// Whether the item has been done.
    public var isDone: Bool
    /// How urgent the item is; ``Priority-swift.enum/medium`` unless set.
    public var priority: Priority

    /// Creates an item; a fresh identity is drawn unless one is given.
    public init(
        id: UUID = UUID(),
        title: String,
        detail: String = "",
        isDone: Bool = false,
        priority: Priority = .medium
    ) {
        self.id = id
        self.title = title
        self.detail = detail
        self.isDone = isDone
        self.priority = priority
    }
}
