import Foundation

// The file format (a new one needs a new `formatVersion`, and the old one must still read):
//
//     {"formatVersion":2,
//      "undo":[{"id":1,"date":817171507.5,"name":"Add","items":[{"command":{…}},{"group":{"items":[…]}}]}],
//      "redo":[], "branches":[{"parent":1,"step":{"id":2,…}}], "clean":{"step":1}}
//
// "date" is seconds since Foundation's reference date, which round-trips a `Date` exactly.
// Version 1 had no ids, dates, branches or "clean".

extension UndoHistory {
    /// The format version this version writes, and the newest it reads.
    ///
    /// ```swift
    /// UndoHistory<AddItem>.formatVersion   // 2
    /// ```
    public static var formatVersion: Int { 2 }

    /// The history as JSON, with its format version.
    ///
    /// ```swift
    /// try manager.undoHistory(of: TodoCommand.self).encoded().write(to: historyURL)
    /// ```
    ///
    /// - Throws: The error a command's own `encode(to:)` throws.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a history written by ``encoded()`` (or any JSON encoding of ``UndoHistory``).
    ///
    /// Data that is not such a history, including data cut short by a crash, throws
    /// ``UndoHistoryError/corrupt(reason:)``; a history from a newer version throws
    /// ``UndoHistoryError/unsupportedVersion(found:supported:)``.
    ///
    /// ```swift
    /// let history = try UndoHistory<TodoCommand>(encoded: Data(contentsOf: historyURL))
    /// ```
    public init(encoded data: Data) throws(UndoHistoryError) {
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(VersionProbe.self, from: data).formatVersion
        } catch {
            throw .corrupt(reason: Self.describe(error))
        }
        guard version <= Self.formatVersion else {
            throw .unsupportedVersion(found: version, supported: Self.formatVersion)
        }
        guard version >= 1 else {
            throw .corrupt(reason: "format version \(version) was never written")
        }
        do {
            self = try decoder.decode(Self.self, from: data)
        } catch {
            throw .corrupt(reason: Self.describe(error))
        }
    }

    /// Decodes only the version, so a newer format is reported as such.
    private struct VersionProbe: Decodable {
        var formatVersion: Int
    }

    /// A decoding error as a short phrase naming the offending field.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func location(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "the top level" }
            return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "invalid value at \(location(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(location(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at \(location(context.codingPath))"
        @unknown default:
            return "unreadable contents"
        }
    }
}

extension UndoHistory: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, undo, redo, branches, clean
    }

    /// Writes the format version and both stacks, oldest group first.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(history)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(undoSteps, forKey: .undo)
        try container.encode(redoSteps, forKey: .redo)
        if !branches.isEmpty {
            try container.encode(branches, forKey: .branches)
        }
        try container.encode(cleanMark, forKey: .clean)
    }

    /// Reads both stacks; the version must be one this version reads.
    ///
    /// ```swift
    /// let history = try JSONDecoder().decode(UndoHistory<TodoCommand>.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .formatVersion)
        guard (1...Self.formatVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container,
                debugDescription: "format version \(version); this version reads 1...\(Self.formatVersion)"
            )
        }
        undoSteps = try container.decode([Group].self, forKey: .undo)
        redoSteps = try container.decode([Group].self, forKey: .redo)
        branches = try container.decodeIfPresent([BranchStep].self, forKey: .branches) ?? []
        cleanMark = try container.decodeIfPresent(CleanMark.self, forKey: .clean) ?? .current
    }
}

extension UndoHistory.CleanMark: Codable {
    private enum CodingKeys: String, CodingKey {
        case current, start, step, unreachable
    }

    /// Writes `{"current":true}`, `{"start":true}`, `{"step":id}` or `{"unreachable":true}`.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(UndoHistory<AddItem>.CleanMark.start)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .current: try container.encode(true, forKey: .current)
        case .start: try container.encode(true, forKey: .start)
        case .step(let id): try container.encode(id, forKey: .step)
        case .unreachable: try container.encode(true, forKey: .unreachable)
        }
    }

    /// Reads a mark written by ``encode(to:)``: exactly one key.
    ///
    /// ```swift
    /// let mark = try JSONDecoder().decode(UndoHistory<AddItem>.CleanMark.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "a clean mark holds exactly one of \"current\", \"start\", \"step\" and \"unreachable\""
            ))
        }
        switch key {
        case .current: self = .current
        case .start: self = .start
        case .step: self = .step(try container.decode(UndoTree.NodeID.self, forKey: .step))
        case .unreachable: self = .unreachable
        }
    }
}

extension UndoHistory.Group: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, discardable, items, id, date, parts, stale
    }

    /// Writes the name if one was set, the flag if it is true, and the items.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(step)   // {"items":[…],"name":"Add"}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(actionName, forKey: .name)
        if isDiscardable {
            try container.encode(true, forKey: .discardable)
        }
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(date?.timeIntervalSinceReferenceDate, forKey: .date)
        // Sorted, so that one history always encodes to the same bytes.
        try container.encodeIfPresent(parts?.sorted(), forKey: .parts)
        if !staleChanges.isEmpty {
            try container.encode(staleChanges, forKey: .stale)
        }
    }

    /// Reads a group written by ``encode(to:)``.
    ///
    /// ```swift
    /// let step = try JSONDecoder().decode(UndoHistory<AddItem>.Group.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        actionName = try container.decodeIfPresent(String.self, forKey: .name)
        isDiscardable = try container.decodeIfPresent(Bool.self, forKey: .discardable) ?? false
        items = try container.decode([UndoHistory.Item].self, forKey: .items)
        id = try container.decodeIfPresent(UndoTree.NodeID.self, forKey: .id)
        date = try container.decodeIfPresent(Double.self, forKey: .date).map(Date.init(timeIntervalSinceReferenceDate:))
        parts = try container.decodeIfPresent([UndoPart].self, forKey: .parts).map(Set.init)
        staleChanges = try container.decodeIfPresent([UndoChange].self, forKey: .stale) ?? []
    }
}

extension UndoHistory.Item: Codable {
    private enum CodingKeys: String, CodingKey {
        case command, group
    }

    /// Writes `{"command": …}` or `{"group": …}`.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(UndoHistory<AddItem>.Item.command(add))
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .command(let command): try container.encode(command, forKey: .command)
        case .group(let group): try container.encode(group, forKey: .group)
        }
    }

    /// Reads an item: exactly one of `command` and `group`.
    ///
    /// ```swift
    /// let item = try JSONDecoder().decode(UndoHistory<AddItem>.Item.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.command), container.contains(.group)) {
        case (true, false):
            self = .command(try container.decode(Command.self, forKey: .command))
        case (false, true):
            self = .group(try container.decode(UndoHistory.Group.self, forKey: .group))
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "an item holds exactly one of \"command\" and \"group\""
            ))
        }
    }
}
