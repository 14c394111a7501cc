import Foundation

/// The list as a JSON text file, for people who want one: what `export` writes and `import`
/// reads, with Foundation's coders.
///
/// The shape is the `todo.json` of earlier versions without its revision, so `import` reads
/// those files too:
///
/// ```json
/// {
///   "formatVersion" : 2,
///   "items" : [
///     {
///       "detail" : "",
///       "id" : "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10",
///       "isDone" : false,
///       "priority" : "medium",
///       "title" : "Buy milk"
///     }
///   ]
/// }
/// ```
public struct TODOListFile: Codable, Hashable, Sendable {
    /// The format version `export` writes, and the newest `import` reads.
    public static let currentVersion = 2

    /// The file's format version.
    public var formatVersion: Int
    /// The items, in list order.
    public var items: [TODOItem]

    /// The file for `list`.
    public init(list: TODOList) {
        formatVersion = Self.currentVersion
        items = list.items
    }

    /// The file's bytes: pretty-printed with sorted keys, so that two exports diff well.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // A `TODOItem` holds strings, a UUID, a Bool and an enum: nothing JSONEncoder refuses.
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// Reads a file that ``encoded()`` or an earlier `todo` wrote.
    ///
    /// ```swift
    /// let items = try TODOListFile(decoding: Data(contentsOf: url)).items
    /// ```
    ///
    /// - Throws: ``ReadError``, saying what is wrong.
    public init(decoding data: Data) throws(ReadError) {
        struct Version: Decodable { var formatVersion: Int }
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: data).formatVersion else {
            throw ReadError(reason: "it is not a TODO list file (JSON with a \"formatVersion\")")
        }
        guard (1...Self.currentVersion).contains(version) else {
            throw ReadError(
                reason: "it has format version \(version); this todo reads versions 1 to \(Self.currentVersion)")
        }
        do {
            self = try decoder.decode(Self.self, from: data)
        } catch { throw ReadError(reason: "its items cannot be read (\(Self.describe(error)))") }
    }

    /// Why a file could not be read as a list.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the file.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// Where decoding failed, as a path such as `items[3].priority`.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let path: [any CodingKey] =
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                .valueNotFound(_, let context):
                context.codingPath
            @unknown default: []
            }
        var place = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        if case .keyNotFound(let key, _) = error { place += ".\(key.stringValue)" }
        return place.isEmpty ? "at the top level" : "at " + place.drop { $0 == "." }
    }
}
