import Foundation

/// Reads and writes a ``TODOList`` as a JSON file.
///
/// The file holds a format version and the items, pretty-printed with sorted keys so that diffs
/// of the file stay readable:
///
/// ```json
/// {
///   "formatVersion" : 1,
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
///
/// Saving is atomic (see ``save(_:)``); loading never modifies the file, so a file this version
/// cannot read is left exactly as it was.
///
/// ```swift
/// let store = TODOStore(fileURL: URL(fileURLWithPath: "/tmp/todo.json"))
/// var list = try store.load()          // empty if the file does not exist yet
/// list.items.append(TODOItem(title: "Buy milk"))
/// try store.save(list)
/// ```
public struct TODOStore: Sendable {
    /// The format version this store writes and the only one it reads.
    ///
    /// ```swift
    /// TODOStore.formatVersion   // 1
    /// ```
    public static let formatVersion = 1

    /// The data file.
    ///
    /// ```swift
    /// print("Using \(store.fileURL.path)")
    /// ```
    public let fileURL: URL

    /// Called at each step of a save; a thrown error aborts the save at that point. Only tests
    /// set it, to prove that an interruption before the rename leaves the old file intact.
    let faultInjector: @Sendable (SaveStep) throws -> Void

    /// Creates a store for the file at `fileURL`; nothing is read or written until
    /// ``load()`` or ``save(_:)``.
    ///
    /// ```swift
    /// let store = TODOStore(fileURL: URL(fileURLWithPath: "todo.json"))
    /// ```
    public init(fileURL: URL) {
        self.init(fileURL: fileURL, faultInjector: { _ in })
    }

    init(fileURL: URL, faultInjector: @escaping @Sendable (SaveStep) throws -> Void) {
        self.fileURL = fileURL
        self.faultInjector = faultInjector
    }
}

extension TODOStore {
    /// The points of a save at which a test can interrupt it.
    enum SaveStep: Hashable, Sendable {
        /// The new contents are written and flushed to the temporary file, which has not yet
        /// replaced the data file.
        case wroteTemporaryFile(URL)
    }

    /// The on-disk shape. Field names are part of the file format.
    struct Contents: Codable {
        var formatVersion: Int
        var items: [TODOItem]
    }

    /// Decodes only the version, so an unknown version is reported as such rather than as
    /// whatever decoding error a future format would cause.
    struct VersionProbe: Decodable {
        var formatVersion: Int?
    }
}
