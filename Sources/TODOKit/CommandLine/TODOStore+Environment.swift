import Foundation

extension TODOStore {
    /// The data file to use when none is given on the command line.
    ///
    /// In order: `$TODO_FILE`; `$XDG_DATA_HOME/undokit-todo/todo.db`; and
    /// `~/.local/share/undokit-todo/todo.db`, the XDG Base Directory default. Empty variables
    /// count as unset, and a relative `XDG_DATA_HOME` is ignored, as the XDG specification
    /// requires.
    ///
    /// ```swift
    /// let url = TODOStore.defaultFileURL(environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Parameter environment: The process environment; a parameter so that tests need not
    ///   change the real one.
    public static func defaultFileURL(environment: [String: String]) -> URL {
        if let file = environment["TODO_FILE"], !file.isEmpty { return URL(fileURLWithPath: file) }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share", isDirectory: true)
        }
        return
            dataHome
            .appendingPathComponent("undokit-todo", isDirectory: true)
            .appendingPathComponent("todo.db")
    }
}

extension TODOStore.Options {
    /// The environment variable that sets ``lockTimeout``, in seconds.
    public static let lockTimeoutVariable = "TODO_LOCK_TIMEOUT"

    /// The environment variable that sets ``historyLimit``.
    public static let historyLimitVariable = "TODO_HISTORY_LIMIT"

    /// The defaults, changed by ``lockTimeoutVariable`` and ``historyLimitVariable`` where
    /// they are set and not empty: the settings of the `todo` program.
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
        if let text = environment[Self.historyLimitVariable], !text.isEmpty {
            guard let limit = Int(text), (0...1_000_000).contains(limit) else {
                throw InvalidSetting(
                    variable: Self.historyLimitVariable, value: text, expected: "a whole number from 0 to 1000000")
            }
            historyLimit = limit
        }
    }

    /// An environment variable with a value that cannot be used.
    public struct InvalidSetting: Error, Hashable, Sendable, CustomStringConvertible {
        /// The variable's name.
        public var variable: String
        /// The value it had.
        public var value: String
        /// What it should have been.
        public var expected: String

        /// Creates the error.
        public init(variable: String, value: String, expected: String) {
            self.variable = variable
            self.value = value
            self.expected = expected
        }

        /// One line naming the variable, what it must be and what it was.
        public var description: String {
            "\(variable) must be \(expected), not \"\(value)\""
        }
    }
}
