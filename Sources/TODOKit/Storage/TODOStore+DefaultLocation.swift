import Foundation

extension TODOStore {
    /// The data file to use when none is given on the command line.
    ///
    /// In order: `$TODO_FILE`; `$XDG_DATA_HOME/undokit-todo/todo.json`; and
    /// `~/.local/share/undokit-todo/todo.json`, the XDG Base Directory default. Empty variables
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
        if let file = environment["TODO_FILE"], !file.isEmpty {
            return URL(fileURLWithPath: file)
        }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome
            .appendingPathComponent("undokit-todo", isDirectory: true)
            .appendingPathComponent("todo.json")
    }
}
