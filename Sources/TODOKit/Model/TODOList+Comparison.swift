extension TODOList {
    /// What changed from this list to `other`, as `undo` and `redo` report it after the step's
    /// name: ` (item 2 is back)`, ` (item 3 is gone)`, ` (item 1 changed)`,
    /// ` (item 3 moved to 1)`, several joined with `; `, or `""` when nothing visible changed.
    /// Numbers are positions in `other`, except for items gone, numbered as they were here.
    ///
    /// ```swift
    /// let milk = TODOItem(title: "Buy milk"), bread = TODOItem(title: "Bread")
    /// let before: TODOList = [milk]
    /// let after: TODOList = [milk, bread]
    /// before.changes(to: after)   // " (item 2 is back)"
    /// ```
    public func changes(to other: TODOList) -> String {
        let positionsBefore = Dictionary(
            items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let positionsAfter = Dictionary(
            other.items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var back: [Int] = []
        var gone: [Int] = []
        var changed: [Int] = []
        var moved: (from: Int, to: Int)?
        for (position, item) in other.items.enumerated() {
            guard let old = positionsBefore[item.id] else {
                back.append(position + 1)
                continue
            }
            if items[old] != item { changed.append(position + 1) }
        }
        for (position, item) in items.enumerated() where positionsAfter[item.id] == nil { gone.append(position + 1) }
        if back.isEmpty && gone.isEmpty {
            // Without insertions or removals every position is comparable. A move shifts the
            // items between its ends by one; the moved item is the one that went furthest.
            var distance = 0
            for (position, item) in other.items.enumerated() {
                guard let old = positionsBefore[item.id], abs(old - position) > distance else { continue }
                distance = abs(old - position)
                moved = (old + 1, position + 1)
            }
        }
        var parts: [String] = []
        if !back.isEmpty { parts.append(Self.numbered(back) + (back.count == 1 ? " is back" : " are back")) }
        if !gone.isEmpty { parts.append(Self.numbered(gone) + (gone.count == 1 ? " is gone" : " are gone")) }
        if !changed.isEmpty { parts.append(Self.numbered(changed) + " changed") }
        if let moved { parts.append("item \(moved.from) moved to \(moved.to)") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    /// "item 2", "items 2 and 3", "items 1, 2 and 4".
    private static func numbered(_ numbers: [Int]) -> String {
        guard let last = numbers.last, numbers.count > 1 else { return "item \(numbers[0])" }
        return "items " + numbers.dropLast().map(String.init).joined(separator: ", ") + " and \(last)"
    }
}
