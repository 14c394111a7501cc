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

extension TODOStore {
    /// The environment variable that names a PostgreSQL database to keep the list in.
    public static let databaseURLVariable = "TODO_DATABASE_URL"

    /// The list the command line names: `--database URL` (PostgreSQL), else `--file PATH`
    /// (SQLite), else `$TODO_DATABASE_URL`, else the SQLite file of
    /// ``defaultFileURL(environment:)``. A list in PostgreSQL keeps the lines typed at its
    /// prompt on this machine, in the directory of the default file.
    ///
    /// ```swift
    /// let store = try TODOStore(
    ///     file: nil, database: "postgres://alice@db.example/todo", environment: [:], options: .init())
    /// print(store.location)   // postgres://alice@db.example/todo
    /// ```
    ///
    /// - Throws: ``TODOCommandLine/Invocation/Failure`` for a URL that is not a PostgreSQL one,
    ///   saying why and without its password.
    init(
        file: String?, database: String?, environment: [String: String], options: Options
    ) throws(TODOCommandLine.Invocation.Failure) {
        let example = "such as postgres://alice@db.example/todo"
        var text = database
        var source = "--database takes a PostgreSQL URL \(example)"
        if text == nil, file == nil, let variable = environment[Self.databaseURLVariable], !variable.isEmpty {
            text = variable
            source = "\(Self.databaseURLVariable) must be a PostgreSQL URL \(example)"
        }
        guard let text else {
            let fileURL = file.map { URL(fileURLWithPath: $0) } ?? Self.defaultFileURL(environment: environment)
            self.init(fileURL: fileURL, options: options)
            return
        }
        let url: PostgresURL
        do {
            url = try PostgresURL(text)
        } catch {
            throw .init(message: "\(source): \(error.reason) (an SQLite file is --file PATH)")
        }
        var withoutFile = environment
        withoutFile["TODO_FILE"] = nil
        let directory = Self.defaultFileURL(environment: withoutFile).deletingLastPathComponent()
        self.init(databaseURL: url, linesDirectory: directory, options: options)
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
