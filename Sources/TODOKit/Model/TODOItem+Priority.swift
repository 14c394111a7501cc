extension TODOItem {
    /// How urgent an item is.
    ///
    /// Stored in the data file by its raw value, so renaming a case would break existing files.
    public enum Priority: String, Codable, Sendable, CaseIterable, Comparable {
        /// Can wait.
        case low
        /// The default for new items.
        case medium
        /// Needs attention first.
        case high

        /// Orders priorities from least to most urgent.
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
