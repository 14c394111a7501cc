/// An ordered list of ``TODOItem`` values.
///
/// A value type, so the editing session can hand out snapshots and tests can compare whole
/// lists. Positions are zero-based here; the command line shows them one-based.
///
/// ```swift
/// var list: TODOList = [TODOItem(title: "Buy milk")]
/// list.items.append(TODOItem(title: "Buy eggs"))
/// list.count   // 2
/// ```
public struct TODOList: Hashable, Sendable {
    /// The items, in display order.
    public var items: [TODOItem]

    /// Creates a list holding `items` in the given order.
    public init(items: [TODOItem] = []) {
        self.items = items
    }

    /// The number of items.
    public var count: Int { items.count }

    /// Whether the list has no items.
    public var isEmpty: Bool { items.isEmpty }

    /// Whether `position` names an existing item.
    public func contains(position: Int) -> Bool {
        items.indices.contains(position)
    }

    /// The position of the item with the given identity, if it is in the list.
    public func position(of id: TODOItem.ID) -> Int? {
        items.firstIndex { $0.id == id }
    }
}

extension TODOList: ExpressibleByArrayLiteral {
    /// Creates a list from an array literal of items.
    public init(arrayLiteral items: TODOItem...) {
        self.init(items: items)
    }
}
