extension TODOStore {
    /// Tuning of a store: how long to wait for another process's lock, and when to compact.
    ///
    /// ```swift
    /// let options = TODOStore.Options(lockTimeout: .seconds(1), compactionMinimum: 100)
    /// let store = TODOStore(fileURL: url, options: options)
    /// ```
    public struct Options: Hashable, Sendable {
        /// How long ``TODOStore/lock()`` waits for another process to release the lock before
        /// it fails with ``TODOStoreError/locked(path:pid:program:)``; 5 seconds by default.
        /// Zero tries once.
        ///
        /// ```swift
        /// options.lockTimeout = .milliseconds(500)
        /// ```
        public var lockTimeout: Duration

        /// The journal is compacted into the snapshot once it holds more records than this or
        /// than the snapshot holds items, whichever is more; 1,000 by default. Growing with the
        /// list keeps the cost of compaction, amortized over the commits between two of them,
        /// constant per commit; the minimum keeps small lists from compacting all the time.
        ///
        /// ```swift
        /// options.compactionMinimum = 10   // compact often, to exercise it
        /// ```
        public var compactionMinimum: Int

        /// How many undo steps the undo history saved beside the list keeps (`todo.json.history`),
        /// the newest; 100 by default. A session keeps the same number in memory. Zero saves
        /// none: undo then lasts only as long as the process.
        ///
        /// ```swift
        /// options.historyLimit = 1000
        /// ```
        public var historyLimit: Int

        /// The environment variable that sets ``lockTimeout``, in seconds.
        ///
        /// ```swift
        /// // TODO_LOCK_TIMEOUT=0.5 todo add Buy milk
        /// TODOStore.Options.lockTimeoutVariable   // "TODO_LOCK_TIMEOUT"
        /// ```
        public static let lockTimeoutVariable = "TODO_LOCK_TIMEOUT"

        /// The environment variable that sets ``compactionMinimum``.
        ///
        /// ```swift
        /// TODOStore.Options.compactionMinimumVariable   // "TODO_COMPACTION_MINIMUM"
        /// ```
        public static let compactionMinimumVariable = "TODO_COMPACTION_MINIMUM"

        /// The environment variable that sets ``historyLimit``.
        ///
        /// ```swift
        /// // TODO_HISTORY_LIMIT=1000 todo
        /// TODOStore.Options.historyLimitVariable   // "TODO_HISTORY_LIMIT"
        /// ```
        public static let historyLimitVariable = "TODO_HISTORY_LIMIT"

        /// Creates options; the defaults suit interactive use.
        ///
        /// ```swift
        /// let defaults = TODOStore.Options()
        /// ```
        public init(lockTimeout: Duration = .seconds(5), compactionMinimum: Int = 1000, historyLimit: Int = 100) {
            self.lockTimeout = lockTimeout
            self.compactionMinimum = compactionMinimum
            self.historyLimit = historyLimit
        }

        /// The defaults, changed by ``lockTimeoutVariable``, ``compactionMinimumVariable`` and
        /// ``historyLimitVariable`` where they are set and not empty.
        ///
        /// ```swift
        /// let options = try TODOStore.Options(environment: ["TODO_LOCK_TIMEOUT": "0.2"])
        /// options.lockTimeout   // .milliseconds(200)
        /// ```
        ///
        /// - Throws: ``InvalidSetting`` for a value that is not a number of the right kind.
        public init(environment: [String: String]) throws(InvalidSetting) {
            self.init()
            if let text = environment[Self.lockTimeoutVariable], !text.isEmpty {
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                    throw InvalidSetting(variable: Self.lockTimeoutVariable, value: text, expected: "a number of seconds")
                }
                lockTimeout = .nanoseconds(Int64(seconds * 1e9))
            }
            if let text = environment[Self.compactionMinimumVariable], !text.isEmpty {
                guard let minimum = Int(text), minimum >= 1 else {
                    throw InvalidSetting(variable: Self.compactionMinimumVariable, value: text, expected: "a whole number of at least 1")
                }
                compactionMinimum = minimum
            }
            if let text = environment[Self.historyLimitVariable], !text.isEmpty {
                guard let limit = Int(text), (0...1_000_000).contains(limit) else {
                    throw InvalidSetting(variable: Self.historyLimitVariable, value: text, expected: "a whole number from 0 to 1000000")
                }
                historyLimit = limit
            }
        }

        /// An environment variable with a value that cannot be used.
        ///
        /// ```swift
        /// InvalidSetting(variable: "TODO_LOCK_TIMEOUT", value: "soon", expected: "a number of seconds").description
        /// // "TODO_LOCK_TIMEOUT must be a number of seconds, not \"soon\""
        /// ```
        public struct InvalidSetting: Error, Hashable, Sendable, CustomStringConvertible {
            /// The variable's name.
            ///
            /// ```swift
            /// error.variable   // "TODO_LOCK_TIMEOUT"
            /// ```
            public var variable: String
            /// The value it had.
            ///
            /// ```swift
            /// error.value   // "soon"
            /// ```
            public var value: String
            /// What it should have been.
            ///
            /// ```swift
            /// error.expected   // "a number of seconds"
            /// ```
            public var expected: String

            /// Creates the error.
            ///
            /// ```swift
            /// let error = InvalidSetting(variable: "X", value: "y", expected: "a number")
            /// ```
            public init(variable: String, value: String, expected: String) {
                self.variable = variable
                self.value = value
                self.expected = expected
            }

            /// One line naming the variable, what it must be and what it was.
            ///
            /// ```swift
            /// print("todo: \(error.description)")
            /// ```
            public var description: String {
                "\(variable) must be \(expected), not \"\(value)\""
            }
        }
    }
}
