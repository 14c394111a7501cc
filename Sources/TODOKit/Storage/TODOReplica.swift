/// A process's copy of the list on disk: loads it, notices when another process changed it,
/// and commits changes to it, one journal line each.
///
/// A replica keeps the snapshot and the journal open between calls. Holding them open pins
/// their inode numbers, so comparing them with what the paths name now tells for certain
/// whether another process replaced a file; and it remembers how far it has read the journal,
/// so catching up with another process's commits reads only the new lines.
///
/// The protocol for a change, which ``REPL`` follows for each line of input:
///
/// ```swift
/// let replica = TODOReplica(store: store)
/// try replica.refresh()                         // load, without the lock, to show the list
/// // … later, for one change:
/// let lock = try store.lock()                   // 1. lock
/// if case .changed = try replica.refresh() {    // 2. catch up with other processes
///     // the list changed under us: start over from replica.list
/// }
/// var list = replica.list
/// let change = TODOList.Change.insert(TODOItem(title: "Buy milk"), at: list.count)
/// list.apply(change)                            // 3. change
/// let revision = try replica.commit([change], holding: lock)   // 4. append, fsync
/// // 5. anything else that belongs to this revision, e.g. store.writeCompanion(…, holding: lock)
/// lock.release()                                // 6. unlock
/// ```
///
/// **Extension point.** ``commit(_:holding:)`` returns the new ``revision``, and the lock is
/// still held when it returns: a caller that keeps data of its own about the list (an undo
/// history, say) writes it with ``TODOStore/writeCompanion(_:suffix:holding:)``, tagged with
/// that revision, before releasing the lock. No other process can commit in between, so the
/// tag names exactly the list the data belongs to; after a crash between the two writes the
/// tag is older than the list, which tells the reader to discard it. The journal itself
/// carries only list changes.
///
/// Not `Sendable`: like ``EditingSession``, it belongs to the isolation domain that made it.
public final class TODOReplica {
    /// The files this replica reads and writes.
    ///
    /// ```swift
    /// replica.store.fileURL.path
    /// ```
    public let store: TODOStore

    /// The list at ``revision``, as of the last ``refresh()`` or commit.
    ///
    /// ```swift
    /// replica.list.lines.forEach { print($0) }
    /// ```
    public internal(set) var list = TODOList()

    /// The revision of ``list``: the number of commits that made it. It only ever grows.
    ///
    /// ```swift
    /// let before = replica.revision
    /// try replica.commit(changes, holding: lock)
    /// replica.revision == before + 1   // true
    /// ```
    public internal(set) var revision: UInt64 = 0

    /// Whether the files have been read at least once.
    ///
    /// ```swift
    /// TODOReplica(store: store).isLoaded   // false until refresh()
    /// ```
    public internal(set) var isLoaded = false

    /// Set when ``list`` may not match what was recorded about the files (a journal read that
    /// failed halfway, a compaction whose file identity could not be taken): the next refresh
    /// reads everything again.
    var needsFullReload = false

    /// The snapshot as last read or written; `nil` if there is none.
    var snapshot: OpenSnapshot?
    /// The journal as last read or written; `nil` if there is none.
    var journal: OpenJournal?

    /// Creates a replica of the list in `store`; nothing is read until ``refresh()``.
    ///
    /// ```swift
    /// let replica = TODOReplica(store: TODOStore(fileURL: url))
    /// ```
    public init(store: TODOStore) {
        self.store = store
    }
}

extension TODOReplica {
    /// What ``TODOReplica/refresh()`` found.
    ///
    /// ```swift
    /// switch try replica.refresh() {
    /// case .loaded, .unchanged: break
    /// case .changed(let previous): print("another process saved since revision \(previous)")
    /// }
    /// ```
    public enum Refresh: Hashable, Sendable {
        /// The first load.
        ///
        /// ```swift
        /// try TODOReplica(store: store).refresh()   // .loaded
        /// ```
        case loaded
        /// Nothing changed since the last refresh or commit.
        ///
        /// ```swift
        /// try replica.refresh()   // .unchanged
        /// ```
        case unchanged
        /// Another process changed the list; ``TODOReplica/list`` and ``TODOReplica/revision``
        /// are the new ones, and `previousRevision` the one before.
        ///
        /// ```swift
        /// if case .changed(let previous) = try replica.refresh() { print(previous) }
        /// ```
        case changed(previousRevision: UInt64)
    }

    /// An open snapshot file and what was in it.
    struct OpenSnapshot {
        var file: POSIX.OpenFile
        /// Its identity when read or written; any difference means someone replaced or
        /// rewrote it.
        var identity: POSIX.Identity
        var formatVersion: Int
        /// The number of items it holds, for the compaction policy.
        var itemCount: Int
    }

    /// An open journal and how far it has been read.
    struct OpenJournal {
        var file: POSIX.OpenFile
        var identity: POSIX.Identity
        /// Opened for writing too, so this process can append.
        var isWritable: Bool
        /// Whether its header line was read; a journal without one is never appended to.
        var hasHeader: Bool
        /// The offset just past the last trusted line: where the next record goes.
        var validEnd: Int
        /// The revision of its last record, or its base revision if it has none.
        var lastRevision: UInt64
        /// Its records, for the compaction policy.
        var recordCount: Int
        /// Its trusted lines, header included, for the line numbers in messages.
        var lineCount: Int
    }
}
