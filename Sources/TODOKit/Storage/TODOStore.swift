import Foundation

/// Reads and writes a ``TODOList`` as a snapshot file and a journal of changes beside it, safely
/// shared by any number of `todo` processes.
///
/// Three files live side by side (named after ``fileURL``, here `todo.json`), and a fourth
/// that ``REPL`` keeps with them, the undo history `todo.json.history` (see ``SavedHistory``):
///
/// - `todo.json`, the **snapshot**: the whole list at one revision, pretty-printed JSON with
///   sorted keys so diffs stay readable:
///
///   ```json
///   {
///     "formatVersion" : 2,
///     "items" : [
///       {
///         "detail" : "",
///         "id" : "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10",
///         "isDone" : false,
///         "priority" : "medium",
///         "title" : "Buy milk"
///       }
///     ],
///     "revision" : 41
///   }
///   ```
///
/// - `todo.json.journal`, the **journal**: one line per commit since the snapshot, each line
///   `<CRC-32 in hex> <JSON>`. The first line names the format version and the snapshot
///   revision the journal continues; each further line holds the changes of one commit and the
///   revision it created:
///
///   ```
///   5c2b1a0e {"baseRevision":41,"formatVersion":2}
///   9f0e43d1 {"changes":[{"at":1,"item":{…},"op":"insert"}],"revision":42}
///   ```
///
/// - `todo.json.lock`, the **lock file**: processes take an advisory `flock` on it around each
///   load–modify–save, and the holder writes its process id and name into it.
///
/// A commit appends one line and flushes it to the disk, so its cost does not depend on the
/// length of the list. When the journal holds more records than the snapshot holds items, and
/// more than ``Options/compactionMinimum``, the next commit compacts:
/// it writes a new snapshot atomically (temporary file, `fsync`, rename) and then replaces the
/// journal the same way. Every commit increments the list's **revision**, recorded in the
/// snapshot and in every journal line, so a crash between the two steps of a compaction never
/// applies a change twice or loses one; a line torn by a crash during an append is ignored (it
/// was never reported as saved) and cut off by the next commit.
///
/// Loading never writes, and needs no lock: a file this version cannot read is reported and
/// left exactly as it was. A version 1 file (one JSON document, no journal, no revision) is
/// read as revision 0 and migrated by the first commit.
///
/// ```swift
/// let store = TODOStore(fileURL: URL(fileURLWithPath: "/tmp/todo.json"))
/// let contents = try store.load()        // empty at revision 0 if the file does not exist yet
/// var list = contents.list
/// list.items.append(TODOItem(title: "Buy milk"))
/// let revision = try store.save(list)    // replaces the whole list; 1
/// ```
///
/// To change a list in place, a change at a time, use a ``TODOReplica``.
public struct TODOStore: Sendable {
    /// The format version this store writes; it reads this one and every earlier one.
    ///
    /// ```swift
    /// TODOStore.formatVersion   // 2
    /// ```
    public static let formatVersion = 2

    /// The snapshot file, which names the list; the journal and the lock file are named after
    /// it.
    ///
    /// ```swift
    /// print("Using \(store.fileURL.path)")
    /// ```
    public let fileURL: URL

    /// How long to wait for the lock, and when to compact.
    ///
    /// ```swift
    /// var store = TODOStore(fileURL: url)
    /// store.options.lockTimeout = .milliseconds(200)
    /// ```
    public var options: Options

    /// Called at each step of a save; a thrown error aborts the save at that point. Only tests
    /// set it, to prove what an interruption at each point leaves on disk.
    let faultInjector: @Sendable (SaveStep) throws -> Void

    /// Creates a store for the list named by `fileURL`; nothing is read or written until
    /// ``load()``, ``save(_:)`` or a ``TODOReplica`` does.
    ///
    /// ```swift
    /// let store = TODOStore(fileURL: URL(fileURLWithPath: "todo.json"))
    /// let patient = TODOStore(fileURL: url, options: TODOStore.Options(lockTimeout: .seconds(30)))
    /// ```
    public init(fileURL: URL, options: Options = Options()) {
        self.init(fileURL: fileURL, options: options, faultInjector: { _ in })
    }

    init(fileURL: URL, options: Options = Options(), faultInjector: @escaping @Sendable (SaveStep) throws -> Void) {
        self.fileURL = fileURL
        self.options = options
        self.faultInjector = faultInjector
    }

    /// The journal: `<fileURL>.journal`.
    ///
    /// ```swift
    /// store.journalURL.lastPathComponent   // "todo.json.journal"
    /// ```
    public var journalURL: URL { companionURL(suffix: "journal") }

    /// The lock file: `<fileURL>.lock`.
    ///
    /// ```swift
    /// store.lockURL.lastPathComponent   // "todo.json.lock"
    /// ```
    public var lockURL: URL { companionURL(suffix: "lock") }

    /// A file beside the data file that belongs to the list, `<fileURL>.<suffix>`: the journal,
    /// the lock, or data of a caller's own (such as an undo history) that it writes with
    /// ``writeCompanion(_:suffix:holding:)`` under the same lock.
    ///
    /// ```swift
    /// store.companionURL(suffix: "history").lastPathComponent   // "todo.json.history"
    /// ```
    public func companionURL(suffix: String) -> URL {
        URL(fileURLWithPath: fileURL.path + "." + suffix)
    }
}

extension TODOStore {
    /// The list as loaded, and the revision it is at.
    ///
    /// ```swift
    /// let contents = try store.load()
    /// print("\(contents.list.count) items at revision \(contents.revision)")
    /// ```
    public struct Contents: Hashable, Sendable {
        /// The items.
        ///
        /// ```swift
        /// try store.load().list.lines.forEach { print($0) }
        /// ```
        public var list: TODOList
        /// The number of commits that made the list (0 for a missing or version 1 file); it
        /// only ever grows.
        ///
        /// ```swift
        /// try store.load().revision   // 0 before the first save
        /// ```
        public var revision: UInt64

        /// Creates contents; the store builds them, tests compare against them.
        ///
        /// ```swift
        /// let empty = TODOStore.Contents(list: TODOList(), revision: 0)
        /// ```
        public init(list: TODOList, revision: UInt64) {
            self.list = list
            self.revision = revision
        }
    }

    /// The points of a save at which a test can interrupt it.
    enum SaveStep: Hashable, Sendable {
        /// A replacement file (snapshot, journal or companion) is written and flushed under a
        /// temporary name and has not yet replaced the file it is for.
        case wroteTemporaryFile(URL)
        /// A compaction has put its new snapshot in place and not yet replaced the journal:
        /// the point a crash would leave a new snapshot beside the old journal.
        case replacedSnapshot
        /// A change of the undo history is about to be appended to the history file.
        case appendingHistoryChange
    }
}
