import Foundation

/// The lines typed at the prompt, kept beside the list (`todo.json.lines`) so that ↑ recalls
/// them in the next session too: the newest ``limit`` lines, one per line, written whole
/// (temporary file and rename) after each line.
///
/// A file that can't be read starts an empty recall; one that can't be written is reported
/// once and recall goes on in memory: the list is never affected.
///
/// ```swift
/// let file = LineHistoryFile(url: URL(fileURLWithPath: "/tmp/todo.json.lines"))
/// var lines = file.load()
/// lines.append("add Buy milk")
/// try? file.save(lines)
/// ```
public struct LineHistoryFile: Sendable {
    /// Where the lines are kept.
    public let url: URL
    /// How many lines are kept, the newest.
    public let limit: Int

    /// A file at `url` keeping the newest `limit` lines.
    ///
    /// ```swift
    /// let file = LineHistoryFile(url: store.fileURL.appendingPathExtension("lines"))
    /// ```
    public init(url: URL, limit: Int = 500) {
        self.url = url
        self.limit = limit
    }

    /// The lines saved, oldest first; none if the file is missing or unreadable.
    ///
    /// ```swift
    /// let recalled = file.load()
    /// ```
    public func load() -> [String] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Array(lines.suffix(limit))
    }

    /// Saves the newest `limit` of `lines`, replacing the file in one rename.
    ///
    /// ```swift
    /// try file.save(["list", "add Bread"])
    /// ```
    public func save(_ lines: [String]) throws {
        let kept = lines.suffix(limit).filter { !$0.contains("\n") }
        let data = Data((kept.joined(separator: "\n") + (kept.isEmpty ? "" : "\n")).utf8)
        try data.write(to: url, options: .atomic)
    }
}

extension TODOStore {
    /// Where an interactive session keeps the lines typed at its prompt, beside the data file.
    ///
    /// ```swift
    /// store.linesURL.lastPathComponent   // "todo.json.lines"
    /// ```
    public var linesURL: URL { companionURL(suffix: "lines") }
}
