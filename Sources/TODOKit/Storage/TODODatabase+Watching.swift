/// What a session waiting for input watches, so that another process's change shows within a
/// second instead of at the next line.
///
/// A waiting session polls ``changeDescriptor`` (when there is one) together with its input,
/// or wakes every ``changePollInterval``, and asks ``hasChangedElsewhere()``; when that says
/// yes, it calls ``refresh()`` and shows what changed. Neither call takes a lock or reads the
/// list.
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
    /// ``changePollInterval``. SQLite has none.
    public var changeDescriptor: Int32? {
        nil
    }

    /// How often a waiting session asks ``hasChangedElsewhere()`` when there is no
    /// ``changeDescriptor``: a quarter of a second keeps a change's line within a second.
    public var changePollInterval: Duration {
        .milliseconds(250)
    }

    /// Whether another process committed since this one last read or wrote, by one
    /// `PRAGMA data_version` (SQLite). Does not consume the change: it says yes until
    /// ``refresh()`` reads it. Never blocks; takes no lock.
    public func hasChangedElsewhere() throws(TODOStoreError) -> Bool {
        guard let connection = try openedIfItExists() else { return false }
        let version = try run { () throws(SQLiteError) in try connection.integer("PRAGMA data_version") }
        return dataVersion == nil || version != dataVersion
    }
}
