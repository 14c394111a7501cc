import Foundation

/// The lines typed at the prompt, kept beside the list (`todo.db.lines`) so that ↑ recalls
/// them in the next session too: the newest ``limit`` lines, one per line, written whole
/// (temporary file and rename) after each line.
///
/// A line with a control character (an escape sequence, a bell, U+009B…) is not kept: such a
/// line is refused as a command anyway, and nothing raw should wait in a file for the next
/// session. A file that can't be read starts an empty recall; one that can't be written is
/// reported once and recall goes on in memory: the list is never affected.
///
/// ```swift
/// let file = LineHistoryFile(url: URL(fileURLWithPath: "/tmp/todo.db.lines"))
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
    public init(url: URL, limit: Int = 500) {
        self.url = url
        self.limit = limit
    }

    /// The lines saved, oldest first; none if the file is missing or unreadable.
    public func load() -> [String] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Array(lines.suffix(limit))
    }

    /// Saves the newest `limit` of `lines` that hold no control character, replacing the file
    /// in one rename.
    public func save(_ lines: [String]) throws {
        let kept = lines.filter { TerminalText.firstControlCharacter(in: $0) == nil }.suffix(limit)
        let data = Data((kept.joined(separator: "\n") + (kept.isEmpty ? "" : "\n")).utf8)
        try data.write(to: url, options: .atomic)
    }
}
