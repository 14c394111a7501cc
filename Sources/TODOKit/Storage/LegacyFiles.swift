import Foundation
import UndoKit

/// The files earlier versions of `todo` kept a list in, read once to import it: `todo.json`
/// (the list at a revision), `.journal` (the changes since, one `<CRC-32> <JSON>` line each
/// after a header), `.history` (a header, the undo history as UndoKit encodes it, then one
/// framed line per change of it) and `.lines` (the lines typed at the prompt).
///
/// The list must read exactly or nothing is imported: damage, a journal that does not fit its
/// snapshot, or a newer format stops `todo` naming the file, which stays as it is. Only a torn
/// last line, left by a crash and never reported as saved, is skipped, as those versions did.
/// A history that is damaged, behind the list or does not fit it is left out with a note.
enum LegacyFiles {
    /// What the old files hold, and why the history was left out, if it was.
    struct Contents {
        var list: TODOList
        var revision: Int
        var history: UndoHistory<TODOCommand>?
        var problems: [String] = []
    }

    /// The newest format of the old files.
    static let formatVersion = 2

    /// Whether there is an old list at `url` (`todo.json`, or just its journal).
    static func exist(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
            || FileManager.default.fileExists(atPath: url.path + ".journal")
    }

    /// Reads the old list at `url` with its journal and history; `nil` if there is none.
    static func read(at url: URL) throws(TODOStoreError) -> Contents? {
        guard exist(at: url) else { return nil }
        func bytes(_ suffix: String) throws(TODOStoreError) -> Data? {
            guard FileManager.default.fileExists(atPath: url.path + suffix) else { return nil }
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: url.path + suffix)) else {
                throw .unreadable(path: url.path + suffix, reason: "it cannot be read")
            }
            return data
        }
        return try decode(
            snapshot: try bytes(""), journal: try bytes(".journal"), history: try? bytes(".history"), at: url)
    }

    /// The contents of the three files, any of which may be missing; `url` names them in
    /// messages. Pure: the fuzzer drives it with arbitrary bytes.
    static func decode(
        snapshot: Data?, journal: Data?, history historyBytes: Data?, at url: URL
    ) throws(TODOStoreError) -> Contents {
        var contents = Contents(list: TODOList(), revision: 0)
        if let snapshot {
            let decoder = JSONDecoder()
            guard let version = try? decoder.decode(Version.self, from: snapshot).formatVersion else {
                throw .corrupt(path: url.path, reason: "it is not a todo.json file (JSON with a \"formatVersion\")")
            }
            guard version <= formatVersion else {
                throw .unsupportedVersion(path: url.path, found: version, supported: formatVersion)
            }
            guard let read = try? decoder.decode(Snapshot.self, from: snapshot), (read.revision ?? 0) >= 0 else {
                throw .corrupt(path: url.path, reason: "its items or revision cannot be read")
            }
            contents.list.items = read.items
            contents.revision = version == 1 ? 0 : read.revision ?? 0
        }
        if let journal {
            try replay(journal, onto: &contents, path: url.path + ".journal", snapshotName: url.lastPathComponent)
        }
        if let historyBytes {
            do throws(Problem) {
                let (history, revision) = try history(historyBytes)
                guard revision == contents.revision else {
                    throw Problem(
                        reason:
                            "it belongs to revision \(revision) of the list, which is at revision \(contents.revision)")
                }
                // Restored, as a session will, the history fits the list, and every step has an id.
                let session = EditingSession(list: contents.list)
                do {
                    try session.restoreHistory(history)
                } catch {
                    throw Problem(reason: error.description)
                }
                contents.history = try? session.undoManager.undoHistory(of: TODOCommand.self)
            } catch {
                contents.problems.append("its undo history is not imported: \(error.reason)")
            }
        }
        return contents
    }

    /// Renames the imported files to `….imported`, keeping the lines typed at the prompt, less
    /// any with control characters, as the new database's (unless it has its own already).
    static func markImported(at url: URL, keepingLinesAt linesURL: URL) {
        let fileManager = FileManager.default
        let oldLines = URL(fileURLWithPath: url.path + ".lines")
        if !fileManager.fileExists(atPath: linesURL.path), fileManager.fileExists(atPath: oldLines.path) {
            try? LineHistoryFile(url: linesURL).save(LineHistoryFile(url: oldLines).load())
        }
        for suffix in ["", ".journal", ".history", ".lines"] where fileManager.fileExists(atPath: url.path + suffix) {
            try? fileManager.moveItem(atPath: url.path + suffix, toPath: url.path + suffix + ".imported")
        }
        // An empty file the old versions locked; it holds nothing.
        try? fileManager.removeItem(atPath: url.path + ".lock")
    }

    private struct Problem: Error { var reason: String }
    private struct Version: Decodable { var formatVersion: Int }
    private struct Snapshot: Decodable {
        var items: [TODOItem]
        var revision: Int?
    }
    private struct JournalHeader: Decodable {
        var formatVersion: Int
        var baseRevision: Int
    }
    private struct JournalRecord: Decodable {
        var revision: Int
        var changes: [RecordedChange]
    }

    /// A change as the journal records it: positions, the item for an insertion or a
    /// replacement, and the identity of the item it finds there.
    private struct RecordedChange: Decodable {
        var op: String
        var at, from, to: Int?
        var id: UUID?
        var item: TODOItem?

        /// The change, if it fits `list` and touches the item it names.
        func change(on list: TODOList) -> TODOList.Change? {
            let change: TODOList.Change
            switch (op, at, from, to, item) {
            case ("insert", let at?, _, _, let item?): change = .insert(item, at: at)
            case ("remove", let at?, _, _, _): change = .remove(at: at)
            case ("replace", let at?, _, _, let item?): change = .replace(at: at, with: item)
            case ("move", _, let from?, let to?, _): change = .move(from: from, to: to)
            default: return nil
            }
            guard list.canApply(change) else { return nil }
            if case .insert = change { return change }
            return list.items[at ?? from ?? 0].id == id ? change : nil
        }
    }

    /// Applies the journal's records newer than the snapshot, each at the revision after the
    /// last and fitting the list.
    private static func replay(
        _ journal: Data, onto contents: inout Contents, path: String, snapshotName: String
    ) throws(TODOStoreError) {
        let lines = framedLines(journal)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            guard let payload = line else {
                guard index == lines.count - 1 else {
                    throw .corrupt(
                        path: path,
                        reason: "line \(number) is damaged (its checksum does not match) and saved changes follow it")
                }
                return
            }
            if index == 0 {
                guard let header = try? JSONDecoder().decode(JournalHeader.self, from: payload) else {
                    throw .corrupt(path: path, reason: "line 1 is not a journal header")
                }
                guard header.formatVersion <= formatVersion else {
                    throw .unsupportedVersion(path: path, found: header.formatVersion, supported: formatVersion)
                }
                guard header.baseRevision <= contents.revision else {
                    throw .corrupt(
                        path: path,
                        reason:
                            "it continues revision \(header.baseRevision), but \(snapshotName) is at revision \(contents.revision)"
                    )
                }
                continue
            }
            guard let record = try? JSONDecoder().decode(JournalRecord.self, from: payload) else {
                throw .corrupt(path: path, reason: "line \(number) is not a journal record")
            }
            // Records the snapshot holds already: a crash between the two steps of a compaction.
            guard record.revision > contents.revision else { continue }
            guard record.revision == contents.revision + 1 else {
                throw .corrupt(
                    path: path,
                    reason: "line \(number): revision \(record.revision) does not follow revision \(contents.revision)")
            }
            for (changeIndex, recorded) in record.changes.enumerated() {
                guard let change = recorded.change(on: contents.list) else {
                    throw .corrupt(
                        path: path, reason: "line \(number): change \(changeIndex + 1) does not fit the list")
                }
                contents.list.apply(change)
            }
            contents.revision = record.revision
        }
    }

    /// The payload of each line framed as `<CRC-32 in 8 hex digits> <payload>`; `nil` for a
    /// line whose checksum fails or that has no newline (one cut short).
    private static func framedLines(_ bytes: Data) -> [Data?] {
        var lines: [Data?] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A)
            let line = bytes[start..<(end ?? bytes.endIndex)]
            let checksum = line.count > 9 ? UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16) : nil
            lines.append(
                end != nil && checksum != nil && checksum == crc32(line.dropFirst(9)) ? Data(line.dropFirst(9)) : nil)
            start = end.map { $0 + 1 } ?? bytes.endIndex
        }
        return lines
    }

    /// The CRC-32 of zlib and PNG, which framed each line.
    private static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private struct HistoryHeader: Decodable {
        var formatVersion: Int
        var revision: Int
    }

    /// A line after the base: steps made or moved, steps removed, the current step, and the
    /// path redo follows.
    private struct HistoryChange: Decodable {
        var revision: Int
        var steps: [UndoHistory<TODOCommand>.BranchStep]
        var removed: [UndoTree.NodeID]
        var current: UndoTree.NodeID?
        var redo: [UndoTree.NodeID]
    }

    /// The history file: the base, with every complete change after it applied to its tree.
    private static func history(_ bytes: Data) throws(Problem) -> (UndoHistory<TODOCommand>, Int) {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count >= 2, let header = try? JSONDecoder().decode(HistoryHeader.self, from: Data(lines[0])) else {
            throw Problem(reason: "it has no header")
        }
        guard header.formatVersion <= formatVersion else {
            throw Problem(reason: "it has format version \(header.formatVersion)")
        }
        // Version 1 is the header and the history; version 2 continues with changes.
        let base = header.formatVersion == 1 ? Data(lines[1...].joined(separator: [0x0A])) : Data(lines[1])
        var history: UndoHistory<TODOCommand>
        do {
            history = try UndoHistory(encoded: base)
        } catch {
            throw Problem(reason: error.description)
        }
        let changes = header.formatVersion == 1 ? [] : framedLines(Data(lines[2...].joined(separator: [0x0A])))
        guard !changes.isEmpty else { return (history, header.revision) }
        // The tree as steps by id, each with its parent, which the changes apply to: the path
        // to the current step, then the redo path on from its end, then the branches.
        var steps: [UndoTree.NodeID: UndoHistory<TODOCommand>.BranchStep] = [:]
        var current: UndoTree.NodeID?
        for step in history.undoSteps + history.redoSteps.reversed() {
            guard let id = step.id else { throw Problem(reason: "changes follow a base whose steps have no ids") }
            steps[id] = .init(parent: current, step: step)
            current = id
        }
        current = history.undoSteps.last?.id
        var redoPath = history.redoSteps.reversed().compactMap(\.id)
        for branch in history.branches { if let id = branch.step.id { steps[id] = branch } }
        var revision = header.revision
        for (index, payload) in changes.enumerated() {
            guard let payload else {
                guard index == changes.count - 1 else { throw Problem(reason: "change \(index + 1) is damaged") }
                break
            }
            guard let change = try? JSONDecoder().decode(HistoryChange.self, from: payload), change.revision > revision,
                change.steps.allSatisfy({ $0.step.id != nil })
            else {
                throw Problem(reason: "change \(index + 1) cannot be read")
            }
            change.removed.forEach { steps[$0] = nil }
            change.steps.forEach { steps[$0.step.id!] = $0 }
            current = change.current
            redoPath = change.redo
            revision = change.revision
            guard ([current].compactMap { $0 } + redoPath).allSatisfy({ steps[$0] != nil }) else {
                throw Problem(reason: "change \(index + 1) names a step the history does not have")
            }
        }
        // The path from the start to the current step, the redo path, the rest as branches.
        var undo: [UndoHistory<TODOCommand>.Group] = []
        var onPath = Set(redoPath)
        var cursor = current
        while let id = cursor, let step = steps[id], onPath.insert(id).inserted {
            undo.insert(step.step, at: 0)
            cursor = step.parent
        }
        let branches = steps.keys.sorted().filter { !onPath.contains($0) }.map { id in
            // A step whose parent was trimmed hangs at the start.
            UndoHistory<TODOCommand>.BranchStep(
                parent: steps[id]!.parent.flatMap { steps[$0] == nil ? nil : $0 }, step: steps[id]!.step)
        }
        return (
            UndoHistory(
                undoSteps: undo, redoSteps: redoPath.reversed().compactMap { steps[$0]?.step }, branches: branches),
            revision
        )
    }
}
