import Foundation

extension TODOStore {
    /// Reads the list from the data file, or returns an empty list if the file does not exist.
    ///
    /// Loading never writes: a file that cannot be read is reported and left byte-for-byte as it
    /// was, so nothing is lost when a newer version of the program wrote it.
    ///
    /// ```swift
    /// do {
    ///     let list = try store.load()
    ///     print(list.lines.joined(separator: "\n"))
    /// } catch {
    ///     print("todo: \(error)")   // names the file and the problem
    /// }
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unreadable(path:reason:)``, ``TODOStoreError/corrupt(path:reason:)``
    ///   or ``TODOStoreError/unsupportedVersion(path:found:supported:)``.
    public func load() throws(TODOStoreError) -> TODOList {
        let path = fileURL.path
        let bytes: [UInt8]
        do {
            switch try POSIX.readFile(atPath: path) {
            case .missing:
                return TODOList()
            case .contents(let contents):
                bytes = contents
            }
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        return try Self.decode(Data(bytes), path: path)
    }

    static func decode(_ data: Data, path: String) throws(TODOStoreError) -> TODOList {
        let decoder = JSONDecoder()
        let version: Int?
        do {
            version = try decoder.decode(VersionProbe.self, from: data).formatVersion
        } catch {
            throw .corrupt(path: path, reason: describe(error))
        }
        guard let version else {
            throw .corrupt(path: path, reason: "no \"formatVersion\" field")
        }
        guard version == formatVersion else {
            throw .unsupportedVersion(path: path, found: version, supported: formatVersion)
        }
        do {
            return TODOList(items: try decoder.decode(Contents.self, from: data).items)
        } catch {
            throw .corrupt(path: path, reason: describe(error))
        }
    }

    /// Turns a decoding error into a short phrase that points at the offending field;
    /// `DecodingError`'s own description is a multi-line dump of its context.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func location(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "the top level" }
            return path.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
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
