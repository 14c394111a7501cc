import Foundation
import UndoKit

/// The undo history saved beside the list, in `todo.json.history`, and the revision of the list
/// it belongs to.
///
/// The file is two lines: a header naming this format's version and the list's revision, then
/// the history as UndoKit encodes it (`UndoHistory.encoded()`, which carries UndoKit's own
/// format version), each step's commands with their changes, names and dates:
///
/// ```
/// {"formatVersion":1,"revision":42}
/// {"formatVersion":1,"redo":[],"undo":[{"items":[{"command":{"change":{…},"date":1795442707,"inverse":{…},"name":"Add \"Buy milk\""}}],"name":"Add \"Buy milk\""}]}
/// ```
///
/// ``REPL`` writes it after every commit, under the store's lock, with
/// ``TODOStore/saveHistory(_:holding:)`` (a temporary file, flushed and renamed into place):
/// so the file always holds a whole history, and its revision names exactly the list it
/// belongs to. A crash between the journal append and this write leaves a history one
/// revision behind the list, which the reader drops (``SavedHistoryError/revisionMismatch(history:list:)``).
///
/// ```swift
/// let saved = SavedHistory(revision: replica.revision, history: session.savableHistory()!)
/// try store.saveHistory(saved, holding: lock)
/// let again = try SavedHistory(decoding: try saved.encoded())   // the same
/// ```
public struct SavedHistory: Equatable, Sendable {
    /// The version of the header this version writes, and the newest it reads.
    ///
    /// ```swift
    /// SavedHistory.formatVersion   // 2
    /// ```
    ///
    /// Version 2 appends the history's changes after the base (see `SavedHistory+Log.swift`);
    /// version 1 files, a header and a whole history, still read.
    public static let formatVersion = 2

    /// The file's suffix beside the data file: `todo.json.history`.
    ///
    /// ```swift
    /// store.companionURL(suffix: SavedHistory.suffix).lastPathComponent   // "todo.json.history"
    /// ```
    public static let suffix = "history"

    /// The revision of the list the history belongs to.
    ///
    /// ```swift
    /// saved.revision == replica.revision   // else the history is dropped
    /// ```
    public var revision: UInt64

    /// The steps.
    ///
    /// ```swift
    /// saved.history.undoSteps.count
    /// ```
    public var history: UndoHistory<TODOCommand>

    /// How many changes follow the base in the file this was read from (0 for a history
    /// written whole): the REPL writes the base again when they add up.
    ///
    /// ```swift
    /// saved.changeCount   // 0 right after a compaction
    /// ```
    public var changeCount = 0

    /// The bytes of the file's base (header and history) and of the changes after it, as
    /// read: the REPL writes the base again once the changes outweigh it.
    ///
    /// ```swift
    /// saved.changeByteCount > saved.baseByteCount   // time to write it whole
    /// ```
    public var baseByteCount = 0
    public var changeByteCount = 0

    /// Equal when the revision and the history are: the counts describe the file a history
    /// was read from, not the history.
    public static func == (lhs: SavedHistory, rhs: SavedHistory) -> Bool {
        lhs.revision == rhs.revision && lhs.history == rhs.history
    }

    /// Where every step is, when every step has an id (always, for files this version
    /// writes): what a change appended after this history is computed against. `nil` for a
    /// version 1 file.
    ///
    /// ```swift
    /// saved.layout?.current   // the step the list is at
    /// ```
    public var layout: Layout?

    /// Pairs a history with the revision of the list it belongs to.
    ///
    /// ```swift
    /// let saved = SavedHistory(revision: 3, history: UndoHistory())
    /// ```
    public init(revision: UInt64, history: UndoHistory<TODOCommand>) {
        self.revision = revision
        self.history = history
        layout = Tree(history)?.layout
    }

    /// The file's bytes.
    ///
    /// ```swift
    /// let bytes = try saved.encoded()
    /// ```
    ///
    /// - Throws: What `JSONEncoder` throws; TODO commands hold nothing it refuses.
    public func encoded() throws -> [UInt8] {
        var writer = JSONWriter()
        writer.append("{")
        writer.appendKey("formatVersion")
        writer.appendInteger(Self.formatVersion)
        writer.append(",")
        writer.appendKey("revision")
        writer.appendInteger(revision)
        writer.append("}\n")
        guard UndoHistory<TODOCommand>.formatVersion == 2 else {
            // A newer UndoKit format: let UndoKit write it.
            return writer.bytes + Array(try history.encoded()) + [0x0A]
        }
        // Version 2 of UndoKit's format, written directly, keys sorted as `JSONEncoder` sorts
        // them: the history is written after every commit, and `JSONEncoder` took
        // milliseconds for 100 steps, ten times the rest of a commit. The bytes decode with
        // `UndoHistory(encoded:)` like its own (tested).
        writer.append("{")
        if !history.branches.isEmpty {
            writer.appendKey("branches")
            writer.append("[")
            for (index, branch) in history.branches.enumerated() {
                if index > 0 { writer.append(",") }
                writer.append("{")
                if let parent = branch.parent {
                    writer.appendKey("parent")
                    writer.appendInteger(parent.rawValue)
                    writer.append(",")
                }
                writer.appendKey("step")
                Self.write(branch.step, to: &writer)
                writer.append("}")
            }
            writer.append("],")
        }
        writer.appendKey("clean")
        writer.append("{")
        switch history.cleanMark {
        case .current:
            writer.appendKey("current")
            writer.appendBool(true)
        case .start:
            writer.appendKey("start")
            writer.appendBool(true)
        case .step(let id):
            writer.appendKey("step")
            writer.appendInteger(id.rawValue)
        case .unreachable:
            writer.appendKey("unreachable")
            writer.appendBool(true)
        }
        writer.append("},")
        writer.appendKey("formatVersion")
        writer.appendInteger(2)
        writer.append(",")
        writer.appendKey("redo")
        Self.write(history.redoSteps, to: &writer)
        writer.append(",")
        writer.appendKey("undo")
        Self.write(history.undoSteps, to: &writer)
        writer.append("}\n")
        return writer.bytes
    }

    private static func write(_ groups: [UndoHistory<TODOCommand>.Group], to writer: inout JSONWriter) {
        writer.append("[")
        for (index, group) in groups.enumerated() {
            if index > 0 { writer.append(",") }
            write(group, to: &writer)
        }
        writer.append("]")
    }

    /// `{"discardable":true,"items":[…],"name":"…"}`, as UndoKit's `Codable` conformance writes
    /// a group: the flag only when set, the name only when there is one.
    static func write(_ group: UndoHistory<TODOCommand>.Group, to writer: inout JSONWriter) {
        writer.append("{")
        if let date = group.date {
            writer.appendKey("date")
            // The shortest text that reads back as the same Double: the date round-trips.
            writer.appendDouble(date.timeIntervalSinceReferenceDate)
            writer.append(",")
        }
        if group.isDiscardable {
            writer.appendKey("discardable")
            writer.appendBool(true)
            writer.append(",")
        }
        if let id = group.id {
            writer.appendKey("id")
            writer.appendInteger(id.rawValue)
            writer.append(",")
        }
        writer.appendKey("items")
        writer.append("[")
        for (index, item) in group.items.enumerated() {
            if index > 0 { writer.append(",") }
            switch item {
            case .command(let command):
                writer.append("{")
                writer.appendKey("command")
                write(command, to: &writer)
                writer.append("}")
            case .group(let nested):
                writer.append("{")
                writer.appendKey("group")
                write(nested, to: &writer)
                writer.append("}")
            }
        }
        writer.append("]")
        if let name = group.actionName {
            writer.append(",")
            writer.appendKey("name")
            writer.appendString(name)
        }
        writer.append("}")
    }

    /// A command as its `encode(to:)` writes it, keys sorted.
    private static func write(_ command: TODOCommand, to writer: inout JSONWriter) {
        writer.append("{")
        writer.appendKey("change")
        write(command.change, to: &writer)
        writer.append(",")
        writer.appendKey("date")
        writer.appendInteger(Int64(command.date.timeIntervalSince1970))
        writer.append(",")
        writer.appendKey("inverse")
        write(command.inverse, to: &writer)
        writer.append(",")
        writer.appendKey("name")
        writer.appendString(command.name)
        writer.append("}")
    }

    private static func write(_ change: TODOList.Change, to writer: inout JSONWriter) {
        func position(_ key: StaticString, _ value: Int) {
            writer.appendKey(key)
            writer.appendInteger(value)
        }
        func operation(_ name: StaticString) {
            writer.appendKey("op")
            writer.append("\"")
            writer.append(name)
            writer.append("\"")
        }
        writer.append("{")
        switch change {
        case .insert(let item, let at), .replace(let at, let item):
            position("at", at)
            writer.append(",")
            writer.appendKey("item")
            item.write(to: &writer)
            writer.append(",")
            if case .insert = change { operation("insert") } else { operation("replace") }
        case .remove(let at):
            position("at", at)
            writer.append(",")
            operation("remove")
        case .move(let source, let destination):
            position("from", source)
            writer.append(",")
            operation("move")
            writer.append(",")
            position("to", destination)
        }
        writer.append("}")
    }

    /// Reads a file written by ``encoded()``.
    ///
    /// ```swift
    /// let saved = try SavedHistory(decoding: Array(try Data(contentsOf: url)))
    /// ```
    ///
    /// - Throws: ``SavedHistoryError/corrupt(reason:)`` for anything that is not such a file
    ///   (cut short, damaged, hand-edited into another shape);
    ///   ``SavedHistoryError/unsupportedVersion(found:supported:)`` for a newer header or a
    ///   newer UndoKit history format.
    public init(decoding bytes: [UInt8]) throws(SavedHistoryError) {
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            throw .corrupt(reason: "no header line")
        }
        let decoder = JSONDecoder()
        let header = Data(bytes[..<newline])
        let version: Int
        do {
            version = try decoder.decode(VersionProbe.self, from: header).formatVersion
        } catch {
            throw .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")
        }
        guard version <= Self.formatVersion else {
            throw .unsupportedVersion(found: version, supported: Self.formatVersion)
        }
        guard version >= 1, let baseRevision = try? decoder.decode(Header.self, from: header).revision else {
            throw .corrupt(reason: "the header is not {\"formatVersion\":…,\"revision\":…}")
        }
        let body = bytes[(newline + 1)...]
        // Version 2: the base is the first line of the body, its changes follow.
        let baseEnd = version >= 2 ? (body.firstIndex(of: 0x0A) ?? body.endIndex) : body.endIndex
        do {
            history = try UndoHistory(encoded: Data(body[..<baseEnd]))
        } catch {
            switch error {
            case .unsupportedVersion(let found, let supported):
                throw .unsupportedVersion(found: found, supported: supported)
            default:
                throw .corrupt(reason: error.description)
            }
        }
        var revision = baseRevision
        var tree = Tree(history)
        var changes = 0
        var lineStart = baseEnd == body.endIndex ? body.endIndex : baseEnd + 1
        while lineStart < body.endIndex {
            let lineEnd = body[lineStart...].firstIndex(of: 0x0A)
            guard let payload = lineEnd.flatMap({ TODOStore.verifiedPayload(body[lineStart..<$0]) }) else {
                // A change cut short by a crash, or lost with the data after it in a power cut:
                // the history stops there (behind the list, which the reader then drops). Any
                // complete line after it means damage instead.
                if let lineEnd, body[(lineEnd + 1)...].contains(0x0A) {
                    throw .corrupt(reason: "change \(changes + 1) after the base is damaged")
                }
                break
            }
            guard var current = tree else {
                throw .corrupt(reason: "changes follow a base whose steps have no ids")
            }
            let change: Change
            do {
                change = try JSONDecoder().decode(Change.self, from: Data(payload))
            } catch {
                throw .corrupt(reason: "change \(changes + 1) after the base is not a history change")
            }
            guard change.revision > revision else {
                throw .corrupt(reason: "change \(changes + 1) is for revision \(change.revision), not after \(revision)")
            }
            try current.apply(change)
            tree = current
            revision = change.revision
            changes += 1
            lineStart = lineEnd! + 1
        }
        if changes > 0, let tree {
            history = tree.history
        }
        changeCount = changes
        baseByteCount = (baseEnd == body.endIndex ? bytes.count : baseEnd + 1)
        changeByteCount = max(0, min(lineStart, bytes.count) - baseByteCount)
        layout = tree?.layout
        self.revision = revision
    }

    private struct VersionProbe: Decodable {
        var formatVersion: Int
    }

    private struct Header: Decodable {
        var revision: UInt64
    }
}

/// Why a saved undo history was dropped; the list itself is never affected.
///
/// ```swift
/// SavedHistoryError.revisionMismatch(history: 4, list: 5).description
/// // "belongs to revision 4 of the list, which is at revision 5"
/// ```
public enum SavedHistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    ///
    /// ```swift
    /// SavedHistoryError.unreadable(reason: "Permission denied")
    /// ```
    case unreadable(reason: String)
    /// The file is not a saved history: cut short, damaged, or of another shape.
    ///
    /// ```swift
    /// SavedHistoryError.corrupt(reason: "no header line")
    /// ```
    case corrupt(reason: String)
    /// The file was written by a newer version.
    ///
    /// ```swift
    /// SavedHistoryError.unsupportedVersion(found: 2, supported: 1)
    /// ```
    case unsupportedVersion(found: Int, supported: Int)
    /// The history belongs to another revision of the list: a crash came between saving the
    /// list and saving its history, or an older `todo` changed the list without one.
    ///
    /// ```swift
    /// SavedHistoryError.revisionMismatch(history: 4, list: 5)
    /// ```
    case revisionMismatch(history: UInt64, list: UInt64)
    /// The steps do not apply to the list as they were recorded.
    ///
    /// ```swift
    /// try session.restoreHistory(foreign)   // throws .doesNotFit
    /// ```
    case doesNotFit
    /// The session already had history (a programming error of the caller).
    ///
    /// ```swift
    /// SavedHistoryError.notRestorable(reason: "the manager is not empty")
    /// ```
    case notRestorable(reason: String)

    /// What is wrong, as the end of "the undo history in <path> …".
    ///
    /// ```swift
    /// print("todo: undo history dropped: \(path) \(error)")
    /// ```
    public var description: String {
        switch self {
        case .unreadable(let reason):
            "cannot be read: \(reason)"
        case .corrupt(let reason):
            "is damaged: \(reason)"
        case .unsupportedVersion(let found, let supported):
            "has format version \(found); this todo reads " + (supported == 1 ? "only version 1" : "versions 1 to \(supported)")
        case .revisionMismatch(let history, let list):
            "belongs to revision \(history) of the list, which is at revision \(list)"
        case .doesNotFit:
            "does not fit the list"
        case .notRestorable(let reason):
            "cannot be restored: \(reason)"
        }
    }
}

extension TODOStore {
    /// Replaces the undo history file with `saved`, under the lock the caller holds, right
    /// after the commit of the revision it names.
    ///
    /// Written as ``writeCompanion(_:suffix:holding:)`` writes (a temporary file, flushed and
    /// renamed into place, so a killed process leaves the old file or the new one), except that
    /// the directory is not flushed after the rename: that was a third `fsync` per commit, and
    /// on a busy disk each costs milliseconds. After a power cut the rename may be lost; the
    /// history is then one revision behind the list and is dropped with a warning. The list's
    /// own durability does not depend on it.
    ///
    /// ```swift
    /// let revision = try replica.commit(changes, holding: lock)
    /// try store.saveHistory(SavedHistory(revision: revision, history: history), holding: lock)
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unwritable(path:reason:)``, naming the history file.
    /// - Returns: The bytes written.
    @discardableResult
    public func saveHistory(_ saved: SavedHistory, holding lock: borrowing Lock) throws(TODOStoreError) -> Int {
        precondition(lock.path == lockURL.path, "TODOStore.saveHistory needs the lock of this store")
        let path = historyURL.path
        let bytes: [UInt8]
        do {
            bytes = try saved.encoded()
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        let permissions = POSIX.permissions(ofFileAtPath: fileURL.path) ?? 0o644
        do {
            _ = try replaceFile(atPath: path, with: bytes, permissions: permissions, synchronizesDirectory: false)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        return bytes.count
    }

    /// The undo history file: `<fileURL>.history`.
    ///
    /// ```swift
    /// store.historyURL.lastPathComponent   // "todo.json.history"
    /// ```
    public var historyURL: URL { companionURL(suffix: SavedHistory.suffix) }

    /// Reads the saved undo history; `nil` if there is none. Needs no lock: the file is only
    /// ever replaced whole.
    ///
    /// ```swift
    /// if let saved = try store.loadHistory(), saved.revision == replica.revision { … }
    /// ```
    ///
    /// - Throws: ``SavedHistoryError``, for a file that can't be read or decoded.
    public func loadHistory() throws(SavedHistoryError) -> SavedHistory? {
        let bytes: [UInt8]
        do {
            guard let file = try POSIX.OpenFile.open(atPath: historyURL.path, flags: O_RDONLY) else { return nil }
            try file.requireRegularFile()
            bytes = try file.read(from: 0)
        } catch {
            throw .unreadable(reason: error.reason)
        }
        return try SavedHistory(decoding: bytes)
    }
}
