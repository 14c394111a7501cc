extension TODOStore {
    /// Reads the list and its revision: the snapshot plus the journal's records after it; an
    /// empty list at revision 0 if there are no files yet.
    ///
    /// Loading never writes and takes no lock, so it works on a list this process cannot
    /// write, and it always sees a state some commit left (see ``TODOReplica/refresh()``). A file
    /// that cannot be read is reported and left byte-for-byte as it was, so nothing is lost
    /// when a newer version of the program wrote it. A torn last journal line, left by a crash
    /// during an append, is ignored.
    ///
    /// ```swift
    /// do {
    ///     let contents = try store.load()
    ///     print(contents.list.lines.joined(separator: "\n"))
    /// } catch {
    ///     print("todo: \(error)")   // names the file and the problem
    /// }
    /// ```
    ///
    /// - Throws: ``TODOStoreError/unreadable(path:reason:)``, ``TODOStoreError/corrupt(path:reason:)``
    ///   or ``TODOStoreError/unsupportedVersion(path:found:supported:)``.
    public func load() throws(TODOStoreError) -> Contents {
        let replica = TODOReplica(store: self)
        try replica.refresh()
        return Contents(list: replica.list, revision: replica.revision)
    }
}
