extension TODOItem {
    /// How urgent an item is.
    ///
    /// Stored in the data file by its raw value, so renaming a case would break existing files.
    ///
    /// ```swift
    /// TODOItem.Priority(rawValue: "high")   // .high
    /// TODOItem.Priority.low < .high         // true
    /// ```
    public enum Priority: String, Codable, Sendable, CaseIterable, Comparable {
        /// Can wait.
        ///
        /// ```swift
        /// let item = TODOItem(title: "Sort photos", priority: .low)
        /// ```
        case low
        /// The default for new items.
        ///
        /// ```swift
        /// TODOItem(title: "Buy milk").priority == .medium   // true
        /// ```
        case medium
        /// Needs attention first.
        ///
        /// ```swift
        /// let item = TODOItem(title: "Pay rent", priority: .high)
        /// ```
        case high

        /// Orders priorities from least to most urgent.
        ///
        /// ```swift
        /// TODOItem.Priority.allCases.sorted()   // [.low, .medium, .high]
        /// ```
        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.rank < rhs.rank
        }

        // Declaration order is the urgency order; keeping it explicit means reordering the cases
        // for readability can't silently change sorting.
        private var rank: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .high: 2
            }
        }
    }
}
