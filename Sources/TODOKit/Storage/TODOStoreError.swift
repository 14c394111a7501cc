/// Why a ``TODOStore`` could not load or save; every case names the file and the problem.
///
/// ```swift
/// do {
///     list = try store.load().list
/// } catch let error as TODOStoreError {
///     print("todo: \(error)")   // "todo: /home/me/todo.json is not a valid TODO file: …"
/// }
/// ```
public enum TODOStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but could not be read (for example it is a directory).
    ///
    /// ```swift
    /// TODOStoreError.unreadable(path: "/tmp", reason: "is a directory").description
    /// // "cannot read /tmp: is a directory"
    /// ```
    case unreadable(path: String, reason: String)
    /// The file is not of the expected shape: not JSON, a field missing, a damaged journal
    /// line with saved changes after it, or a journal that does not fit its snapshot.
    ///
    /// ```swift
    /// TODOStoreError.corrupt(path: "/tmp/todo.json", reason: "not valid JSON").description
    /// // "/tmp/todo.json is not a valid TODO file: not valid JSON"
    /// ```
    case corrupt(path: String, reason: String)
    /// The file declares a format version this program does not understand.
    ///
    /// ```swift
    /// TODOStoreError.unsupportedVersion(path: "/tmp/todo.json", found: 3, supported: 2).description
    /// // "/tmp/todo.json has format version 3; this todo reads versions 1 to 2"
    /// ```
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// The file or its directory could not be written.
    ///
    /// ```swift
    /// TODOStoreError.unwritable(path: "/todo.json", reason: "Permission denied").description
    /// // "cannot save /todo.json: Permission denied"
    /// ```
    case unwritable(path: String, reason: String)
    /// Another process held the lock for longer than ``TODOStore/Options/lockTimeout``. `pid`
    /// and `program` name the holder when it could be read from the lock file.
    ///
    /// ```swift
    /// TODOStoreError.locked(path: "/tmp/todo.json", pid: 12345, program: "todo").description
    /// // "/tmp/todo.json is locked by todo, pid 12345; try again"
    /// ```
    case locked(path: String, pid: Int32?, program: String?)
    /// A commit was refused because the files changed since the replica last loaded them, or
    /// the changes do not fit its list: writing would lose another process's change.
    ///
    /// ```swift
    /// TODOStoreError.conflict(path: "/tmp/todo.json").description
    /// // "cannot save /tmp/todo.json: it changed since it was loaded; load it again first"
    /// ```
    case conflict(path: String)

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
            "\(path) has format version \(found); this todo reads "
                + (supported == 1 ? "only version 1" : "versions 1 to \(supported)")
        case .unwritable(let path, let reason):
            "cannot save \(path): \(reason)"
        case .locked(let path, let pid?, let program):
            "\(path) is locked by \(program ?? "another process"), pid \(pid); try again"
        case .locked(let path, nil, _):
            "\(path) is locked by another process; try again"
        case .conflict(let path):
            "cannot save \(path): it changed since it was loaded; load it again first"
        }
    }
}
