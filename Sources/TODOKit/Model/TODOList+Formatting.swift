extension TODOList {
    /// The display line of the item at `position`: `N. [ ] title` or `N. [x] title`, numbered
    /// from one, followed by the priority when it is not medium and by the detail when there is one,
    /// each after two spaces.
    ///
    /// ```swift
    /// let list: TODOList = [TODOItem(title: "Buy milk", priority: .high)]
    /// list.line(at: 0)   // "1. [ ] Buy milk  (high priority)"
    /// ```
    ///
    /// - Precondition: `contains(position: position)`.
    public func line(at position: Int) -> String {
        let item = items[position]
        var line = "\(position + 1). [\(item.isDone ? "x" : " ")] \(item.title)"
        if item.priority != .medium { line += "  (\(item.priority.rawValue) priority)" }
        if !item.detail.isEmpty { line += "  — \(item.detail)" }
        return line
    }

    /// Every display line in order, or the single line `(empty)` for an empty list.
    public var lines: [String] {
        isEmpty ? ["(empty)"] : items.indices.map(line(at:))
    }
}
