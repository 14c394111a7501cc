/// What a session waiting for input watches, so that another process's change shows within a
/// second instead of at the next line.
///
/// A waiting session polls ``changeDescriptor`` (when there is one) together with its input,
/// or wakes every ``changePollInterval``, and asks ``hasChangedElsewhere()``; when that says
/// yes, it calls ``refresh()`` and shows what changed. Neither call takes a lock or reads the
/// list. Ask ``hasChangedElsewhere()`` once before waiting, too: on PostgreSQL a notification
/// that arrived with the answer to a query waits in libpq, not on the socket.
///
/// ```swift
/// let database = TODODatabase(store: store)
/// _ = try database.refresh()
/// // … later, while waiting at the prompt:
/// if try database.hasChangedElsewhere(), case .changed(let list) = try database.refresh() {
///     print("the list now has \(list.count) items")
/// }
/// ```
extension TODODatabase {
    /// A file descriptor that becomes readable when another process may have changed the list,
    /// or `nil` when there is none to wait on and the session polls every
    /// ``changePollInterval``. SQLite has none; on PostgreSQL it is the connection's socket,
    /// on which the session `LISTEN`s for the notification every change sends (`nil` until the
    /// first ``refresh()`` connects, and while the connection is broken). Read it anew before
    /// each wait: a connection made again has another socket.
    public var changeDescriptor: Int32? {
        serverConnection?.socket
    }

    /// How often a waiting session asks ``hasChangedElsewhere()`` when there is no
    /// ``changeDescriptor``: a quarter of a second keeps a change's line within a second.
    public var changePollInterval: Duration {
        .milliseconds(250)
    }

    /// Whether another process committed since this one last read or wrote: by one
    /// `PRAGMA data_version` (SQLite), or by the notifications that arrived on the connection
    /// (PostgreSQL: read without waiting, `PQconsumeInput` and `PQnotifies`; this process's own
    /// are ignored by the origin they name). Does not consume the change: it says yes until
    /// ``refresh()`` reads it. Never blocks; takes no lock. On PostgreSQL a broken connection
    /// says yes once, so that the session's ``refresh()`` connects again or says why not.
    public func hasChangedElsewhere() throws(TODOStoreError) -> Bool {
        if store.databaseURL != nil {
            return try listenForChanges()
        }
        guard let connection = try openedIfItExists() else { return false }
        let version = try run { () throws(SQLError) in try connection.dataVersion() }
        return dataVersion == nil || version != dataVersion
    }
}
