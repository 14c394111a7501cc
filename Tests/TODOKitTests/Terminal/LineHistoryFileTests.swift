import Foundation
import Testing
@testable import TODOKit

@Suite struct LineHistoryFileTests {
    /// Each session appends to the file as it is now: an older session's append, after a
    /// newer one's, keeps the newer one's lines.
    @Test func appendsMergeWithWhatOtherSessionsSaved() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db.lines")
        let first = LineHistoryFile(url: url), second = LineHistoryFile(url: url)
        try first.append(["add a1"])
        try second.append(["add b1"])
        try first.append(["add a2", "add a2", " ", "add \u{202E}evil"])
        #expect(first.load() == ["add a1", "add b1", "add a2"])
        try second.append(["add a2"])                     // the same as the line before it
        #expect(second.load() == ["add a1", "add b1", "add a2"])
    }

    /// Many writers at once (each its own open file, as another process has) lose no line.
    @Test func concurrentAppendsLoseNothing() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db.lines")
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for line in 0..<30 {
                        try? LineHistoryFile(url: url).append(["add \(writer)-\(line)"])
                    }
                }
            }
        }
        let lines = LineHistoryFile(url: url).load()
        #expect(lines.count == 240)
        #expect(Set(lines).count == 240)
        for writer in 0..<8 {
            let own = lines.filter { $0.hasPrefix("add \(writer)-") }
            #expect(own == (0..<30).map { "add \(writer)-\($0)" }, "each writer's lines in its order")
        }
        let leftovers = try directory.contents().filter { $0 != "todo.db.lines" }
        #expect(leftovers.isEmpty, "no temporary file left behind")
    }

    /// The file keeps the newest lines, at most `limit` of them and `byteLimit` bytes.
    @Test func theFileStaysSmall() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db.lines")
        let file = LineHistoryFile(url: url, limit: 3)
        try file.append(["1", "2", "3", "4"])
        #expect(file.load() == ["2", "3", "4"])
        try file.append(["5"])
        #expect(file.load() == ["3", "4", "5"])

        let big = LineHistoryFile(url: directory.file("big.lines"))
        let long = String(repeating: "x", count: 100_000)
        try big.append(["first", "add \(long)a", "add \(long)b", "add \(long)c", "last"])
        #expect(big.load() == ["add \(long)b", "add \(long)c", "last"])
        let size = try FileManager.default.attributesOfItem(atPath: big.url.path)[.size] as? Int
        #expect((size ?? .max) <= LineHistoryFile.byteLimit)
    }

    /// Whatever another program left in the file, loading it never fails, and the next append
    /// writes it back clean: invalid UTF-8 as U+FFFD, CR LF endings as lines, lines with
    /// control characters (a NUL, an escape sequence) dropped.
    @Test func aCorruptFileIsReadAsWellAsItCanBeAndWrittenBackClean() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db.lines")
        var bytes = Array("list\r\nadd ok\n".utf8)
        bytes += [0xFF, 0xFE, 0x0A, 0x00, 0x01, 0x0A] + Array("add \u{1B}[2J\n\n\nundo".utf8)
        try Data(bytes).write(to: url)
        let file = LineHistoryFile(url: url)
        #expect(file.load() == ["list", "add ok", "\u{FFFD}\u{FFFD}", "\u{00}\u{01}", "add \u{1B}[2J", "undo"])
        try file.append(["redo"])
        #expect(file.load() == ["list", "add ok", "\u{FFFD}\u{FFFD}", "undo", "redo"])
    }

    /// What can't be written throws, for the caller to say once; what can't be read is empty.
    @Test func aFileThatCannotBeUsedThrowsOrIsEmptyAndNeverBlocks() throws {
        let directory = try TemporaryDirectory()
        let unwritable = LineHistoryFile(url: directory.file("missing/dir/todo.db.lines"))
        #expect(throws: LineHistoryFile.WriteError.self) { try unwritable.append(["x"]) }
        #expect(unwritable.load().isEmpty)

        let fifo = directory.file("fifo.lines")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(LineHistoryFile(url: fifo).load().isEmpty, "a FIFO is not read: that would block")
        #expect(throws: LineHistoryFile.WriteError.self) { try LineHistoryFile(url: fifo).append(["x"]) }

        let folder = directory.file("folder.lines")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(LineHistoryFile(url: folder).load().isEmpty)
        #expect(throws: (any Error).self) { try LineHistoryFile(url: folder).append(["x"]) }
    }

    /// Another session holding the lock too long makes an append give up, not wait forever.
    @Test func aLockHeldTooLongMakesAnAppendGiveUp() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("todo.db.lines")
        try LineHistoryFile(url: url).append(["kept"])
        let holder = open(url.path, O_RDONLY)
        #expect(flock(holder, LOCK_EX) == 0)
        let started = Date()
        #expect(throws: LineHistoryFile.WriteError.self) { try LineHistoryFile(url: url).append(["late"]) }
        #expect(Date().timeIntervalSince(started) < 10)
        close(holder)
        try LineHistoryFile(url: url).append(["late"])
        #expect(LineHistoryFile(url: url).load() == ["kept", "late"])
    }
}
