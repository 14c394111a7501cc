extension TODOStore {
    /// How long to wait for another process's change, and how many undo steps to keep.
    public struct Options: Hashable, Sendable {
        /// How long a change waits for another process's change to finish (SQLite's busy
        /// timeout, PostgreSQL's `lock_timeout`) before it fails with
        /// ``TODOStoreError/locked(path:timeout:)``; 5 seconds by default. Reading never waits.
        public var lockTimeout: Duration

        /// How many undo steps the database keeps, the newest (every step of the history tree,
        /// branches included); 100 by default. A session keeps as many in memory. Zero saves
        /// no history at all: undo then lasts as long as the process.
        public var historyLimit: Int

        /// Creates options; the defaults suit interactive use.
        public init(lockTimeout: Duration = .seconds(5), historyLimit: Int = 100) {
            self.lockTimeout = lockTimeout
            self.historyLimit = historyLimit
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, as SQLite's busy timeout takes it.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
