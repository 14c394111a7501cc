/// Why a ``TODOStore`` could not load or save; every case names the file and the problem.
///
/// ```swift
/// do {
///     list = try store.load()
/// } catch let error as TODOStoreError {
///     print("todo: \(error)")   // "todo: /home/me/todo.json is not a valid TODO file: …"
/// }
/// ```
public enum TODOStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but could not be read (for example it is a directory).
    ///
    /// ```swift
    /// TODOStoreError.unreadable(path: "/tmp", reason: "Is a directory").description
    /// // "cannot read /tmp: Is a directory"
    /// ```
    case unreadable(path: String, reason: String)
    /// The file is not JSON, or not JSON of the expected shape.
    ///
    /// ```swift
    /// TODOStoreError.corrupt(path: "/tmp/todo.json", reason: "not valid JSON").description
    /// // "/tmp/todo.json is not a valid TODO file: not valid JSON"
    /// ```
    case corrupt(path: String, reason: String)
    /// The file declares a format version this program does not understand.
    ///
    /// ```swift
    /// TODOStoreError.unsupportedVersion(path: "/tmp/todo.json", found: 2, supported: 1).description
    /// // "/tmp/todo.json has format version 2; this todo reads only version 1"
    /// ```
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// The file or its directory could not be written.
    ///
    /// ```swift
    /// TODOStoreError.unwritable(path: "/todo.json", reason: "Permission denied").description
    /// // "cannot save /todo.json: Permission denied"
    /// ```
    case unwritable(path: String, reason: String)

    /// A one-line message naming the file and the problem.
    ///
    /// ```swift
    /// print("todo: \(error.description)")
    /// ```
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .corrupt(let path, let reason):
            "\(path) is not a valid TODO file: \(reason)"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path) has format version \(found); this todo reads only version \(supported)"
        case .unwritable(let path, let reason):
            "cannot save \(path): \(reason)"
        }
    }
}
