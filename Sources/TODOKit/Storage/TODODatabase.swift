import Foundation

/// A connection to a list's database, SQLite or PostgreSQL, and what this process last read of
/// it: the revision, and a number that tells in one call whether another process committed
/// (SQLite's `data_version`; PostgreSQL's list revision).
///
/// A change is one transaction (``write(_:)``): it takes the write lock (SQLite's, or on
/// PostgreSQL an `EXCLUSIVE` lock of `list_state`; see ``SQLDialect`` for why), catches up
/// with what other processes committed (``refresh()``), writes the list's changes and the undo
/// history's, and commits, so that a crash keeps both or neither. On PostgreSQL the same
/// transaction sends a notification naming this process, which the others hear
/// (``changeDescriptor``). Reading takes no lock, and a missing database (or, on PostgreSQL, a
/// database without the list's tables) reads as an empty list: nothing is created until a
/// change is saved.
///
/// ```swift
/// let database = TODODatabase(store: store)
/// try database.write {
///     guard case .loaded(let list) = try database.refresh() else { return }
///     try database.commit([.init(change: .insert(TODOItem(title: "Buy milk"), at: list.count), itemID: nil)])
/// }
/// ```
///
/// Not `Sendable`: like ``EditingSession``, it belongs to the isolation domain that made it.
public final class TODODatabase {
    /// The file and the options.
    public let store: TODOStore
    /// This process's name in the database: the `changed_by` and `origin` of what it writes,
    /// which tells its changes from other processes'.
    public let origin = UUID().uuidString
    /// The person this process works for (`todo --as NAME`, by default the login name): who
    /// the list's history says made each step, and whose steps a session undoes.
    public var person = TODODatabase.defaultPerson(environment: ProcessInfo.processInfo.environment)
    /// The list's revision as this process last read or wrote it: how many changes made it.
    public private(set) var revision = 0
    /// What opening the database had to say: an import of old files, an upgrade.
    public internal(set) var notices: [String] = []
    /// The items other processes changed, as the last ``refresh()`` that found a change read
    /// them, and who changed each: `bob`, or `you (alice) in another todo`. A removed item is
    /// named by the history's step that removed it, if the history is kept.
    public private(set) var changedElsewhere: [TODOItem.ID: String] = [:]

    /// The connection to the list's tables, once they exist.
    var connection: (any SQLConnection)?
    /// On PostgreSQL, the connection to the server, made before the list's tables may exist
    /// (it listens for other processes' changes from the start).
    var serverConnection: PostgresConnection?
    var isWriting = false
    private var isLoaded = false
    /// The connection's ``SQLConnection/dataVersion()`` as this process last read it: another
    /// connection's commit changes it.
    private(set) var dataVersion: Int64?
    /// On PostgreSQL: another process's notification was heard since the last ``refresh()``.
    var heardChangeElsewhere = false
    /// On PostgreSQL: the server connection's reconnections the last ``refresh()`` knew of
    /// (a notification sent while the connection was away was never heard).
    var reconnectionsSeen = 0
    /// On PostgreSQL: ``hasChangedElsewhere()`` said yes once for a broken connection, and
    /// says no until it works again.
    var connectionLossReported = false
    private var originIsRecorded = false
    /// A change failed for want of the server: the next ``refresh()`` reads the list even if
    /// its revision is the one this process last saw.
    private var mustReread = false
    /// Inside ``write(_:)``, after ``commit(_:)``: the revision to go back to if the
    /// transaction is rolled back.
    private var revisionBeforeCommit: Int?

    /// A connection to `store`'s database, opened at the first ``refresh()`` or ``write(_:)``.
    public init(store: TODOStore) {
        self.store = store
    }

    /// The list's place in messages: the file's path, or the server's URL without password.
    var path: String { store.location }

    /// What ``refresh()`` found.
    public enum Refresh: Equatable {
        /// The first read: the list as it is.
        case loaded(TODOList)
        /// Nothing changed since the last refresh or commit.
        case unchanged
        /// Another process changed the list: here it is now.
        case changed(TODOList)
    }

    /// Brings this process up to date: `.loaded` the first time, `.changed` when another
    /// process committed since. Costs one `PRAGMA data_version` (SQLite) or one read of the
    /// revision (PostgreSQL) when nothing changed; the list is read only when it did.
    public func refresh() throws(TODOStoreError) -> Refresh {
        // What was heard until now is read below; what is heard from now on is news.
        try forgetNotifications()
        guard let connection = try openedIfItExists() else {
            defer { isLoaded = true }
            return isLoaded ? .unchanged : .loaded(TODOList())
        }
        let version = try run { () throws(SQLError) in try connection.dataVersion() }
        if isLoaded && version == dataVersion && !mustReread { return .unchanged }
        let read = try reading {
            () throws(TODOStoreError) -> (list: TODOList, revision: Int, elsewhere: [UUID: String])? in
            let revision = try readRevision()
            return isLoaded && revision == self.revision && !mustReread
                ? nil : (try readList(), revision, isLoaded ? try readChanges() : [:])
        }
        dataVersion = version
        mustReread = false
        defer { isLoaded = true }
        guard let read else { return .unchanged }
        revision = read.revision
        changedElsewhere = read.elsewhere
        return isLoaded ? .changed(read.list) : .loaded(read.list)
    }

    /// Runs `body` as one transaction holding the write lock: committed when it returns, all
    /// rolled back when it throws. Creates the database, and its directory, if there is none.
    /// `body` should begin with ``refresh()``: only under the lock is what it reads what the
    /// change builds on.
    ///
    /// - Throws: ``TODOStoreError/locked(path:timeout:)`` after waiting the lock timeout for
    ///   other processes, ``TODOStoreError/unwritable(path:reason:)``, or what `body` throws.
    public func write(_ body: () throws(TODOStoreError) -> Void) throws(TODOStoreError) {
        let connection = try opened(creating: true)
        try run(writing: true) { () throws(SQLError) in
            for statement in connection.dialect.beginWrite {
                do throws(SQLError) {
                    try connection.execute(statement)
                } catch {
                    // A BEGIN that ran leaves a transaction to end (the lock was refused); a
                    // connection that broke left none.
                    if error.kind != .connectionLost && error.kind != .cannotConnect {
                        _ = try? connection.execute("ROLLBACK")
                    }
                    throw error
                }
            }
        }
        isWriting = true
        defer {
            isWriting = false
            revisionBeforeCommit = nil
        }
        do throws(TODOStoreError) {
            try body()
            do {
                try store.beforeCommit()
            } catch {
                throw TODOStoreError.unwritable(path: path, reason: "\(error)")
            }
            try run(writing: true) { () throws(SQLError) in
                if connection.dialect.notifies && revisionBeforeCommit != nil {
                    // Delivered at the commit, and only if it commits: the payload names this
                    // process, so that it can tell its own change from others'.
                    try connection.execute("SELECT pg_notify(?, ?)", [.text(Self.notificationChannel), .text(origin)])
                }
                try connection.execute("COMMIT")
            }
            if connection.dialect.dataVersionIsRevision && revisionBeforeCommit != nil {
                // The revision just committed, under the lock: the next refresh reads the list
                // only if another process commits after it.
                dataVersion = Int64(revision)
            }
        } catch {
            if error.isConnectionProblem {
                // The server rolled the transaction back. Whoever ran the change could not read
                // the list back either: the next refresh reads it, changed or not, so that
                // they see what the server kept.
                mustReread = true
            } else {
                _ = try? connection.execute("ROLLBACK")
            }
            revision = revisionBeforeCommit ?? revision
            originIsRecorded = false
            throw error
        }
    }

    /// Writes `changes`, made in order to the list on disk, as the next revision, inside
    /// ``write(_:)``. Each names the item it touches and must find it where it says; a
    /// database that says otherwise was changed behind todo's back, which is damage. Costs
    /// what the changes cost, whatever the length of the list.
    public func commit(_ changes: [TODOList.IdentifiedChange]) throws(TODOStoreError) {
        precondition(isWriting, "TODODatabase.commit(_:) runs inside write(_:)")
        guard !changes.isEmpty, let connection else { return }
        let next = revision + 1
        try run(writing: true) { () throws(SQLError) in
            if !originIsRecorded {
                // Who changed what, for people and for undo that tells sessions apart.
                try connection.execute(
                    "INSERT INTO origin (id, pid, started, person) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [.text(origin), .int(Int(getpid())), .real(Date().timeIntervalSince1970), .text(person)])
            }
            for change in changes {
                try write(change, revision: next, on: connection)
            }
            try connection.execute("UPDATE list_state SET revision = ?", [.int(next)])
        }
        originIsRecorded = true
        revisionBeforeCommit = revisionBeforeCommit ?? revision
        revision = next
    }

    /// One change as SQL, positions shifted by hand. Every statement that finds an item checks
    /// its identity too, and an insertion its position.
    private func write(
        _ identified: TODOList.IdentifiedChange, revision: Int, on connection: any SQLConnection
    ) throws(SQLError) {
        let id = identified.itemID?.uuidString ?? ""
        // The number of items, from the position index (positions run 0, 1, 2, …).
        func count() throws(SQLError) -> Int {
            Int(try connection.integer("SELECT coalesce(max(position), -1) + 1 FROM item") ?? 0)
        }
        func expectItem(_ changed: Int, at position: Int) throws(SQLError) {
            guard changed == 1 else {
                throw SQLError(kind: .corrupt, message: "item \(position + 1) is not the item this todo changed")
            }
        }
        let stamp: [SQLValue] = [.int(revision), .text(origin)]
        func fields(_ item: TODOItem) -> [SQLValue] {
            [.text(item.title), .text(item.detail), .int(item.isDone ? 1 : 0), .text(item.priority.rawValue)] + stamp
        }
        switch identified.change {
        case .insert(let item, let position):
            let count = try count()
            try expectItem(position >= 0 && position <= count ? 1 : 0, at: position)
            if position < count {
                try connection.execute("UPDATE item SET position = position + 1 WHERE position >= ?", [.int(position)])
            }
            try connection.execute(
                """
                INSERT INTO item (title, detail, is_done, priority, changed_in, changed_by, id, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, fields(item) + [.text(item.id.uuidString), .int(position)])
        case .remove(let position):
            try expectItem(
                try connection.execute("DELETE FROM item WHERE position = ? AND id = ?", [.int(position), .text(id)]),
                at: position)
            try connection.execute("UPDATE item SET position = position - 1 WHERE position > ?", [.int(position)])
        case .replace(let position, let item):
            guard item.id == identified.itemID else { return try expectItem(0, at: position) }
            try expectItem(
                try connection.execute(
                    """
                    UPDATE item SET title = ?, detail = ?, is_done = ?, priority = ?, changed_in = ?, changed_by = ? WHERE id = ? AND position = ?
                    """, fields(item) + [.text(item.id.uuidString), .int(position)]), at: position)
        case .move(let source, let destination):
            // Out of the way at -1, the items in between shift by one, then into its place.
            let count = try count()
            try expectItem(destination >= 0 && destination < count ? 1 : 0, at: destination)
            try expectItem(
                try connection.execute(
                    "UPDATE item SET position = -1, changed_in = ?, changed_by = ? WHERE position = ? AND id = ?",
                    stamp + [.int(source), .text(id)]), at: source)
            try connection.execute(
                source < destination
                    ? "UPDATE item SET position = position - 1 WHERE position > ? AND position <= ?"
                    : "UPDATE item SET position = position + 1 WHERE position < ? AND position >= ?",
                [.int(source), .int(destination)])
            try connection.execute("UPDATE item SET position = ? WHERE position = -1", [.int(destination)])
        }
    }

    func readRevision() throws(TODOStoreError) -> Int {
        let revision =
            try run { () throws(SQLError) in try connection?.integer("SELECT revision FROM list_state") } ?? nil
        guard let revision, revision >= 0, revision < Int64.max else {
            throw .corrupt(path: path, reason: "the list's revision is missing or out of range")
        }
        return Int(revision)
    }

    /// The items other processes changed after ``revision``, each with who changed it.
    private func readChanges() throws(TODOStoreError) -> [UUID: String] {
        var changed: [UUID: String] = [:]
        func who(_ person: String?) -> String {
            guard let person else {
                return "another todo"
            }
            if person == self.person {
                return "you (\(person)) in another todo"
            }
            return person
        }
        try run { () throws(SQLError) in
            try connection?.forEachRow(
                """
                SELECT item.id, origin.person FROM item LEFT JOIN origin ON origin.id = changed_by
                WHERE changed_in > ? AND (changed_by IS NULL OR changed_by != ?)
                """, [.int(revision), .text(origin)]
            ) { row in
                guard let id = UUID(parsingUTF8: row.bytes(0)) else {
                    return
                }
                changed[id] = who(row.isNull(1) ? nil : row.text(1))
            }
            // Removed items have no row left: the history's steps say who removed them.
            try connection?.forEachRow(
                """
                SELECT step_change.item, step.person FROM step JOIN step_change ON step_change.step = step.id
                WHERE step.revision > ? AND step.origin != ? AND step_change.revision > ? AND step_change.op = 'remove'
                """, [.int(revision), .text(origin), .int(revision)]
            ) { row in
                guard let id = UUID(parsingUTF8: row.bytes(0)) else {
                    return
                }
                changed[id] = who(row.text(1))
            }
        }
        return changed
    }

    /// The person `todo` works for when not told (`--as`): the login name.
    public static func defaultPerson(environment: [String: String]) -> String {
        for variable in ["USER", "LOGNAME"] {
            if let name = environment[variable], !name.isEmpty {
                return name
            }
        }
        return "someone"
    }

    /// Every item, in order; a row `todo` would never write is damage.
    func readList() throws(TODOStoreError) -> TODOList {
        guard let connection else { return TODOList() }
        var items: [TODOItem] = []
        var problem: String?
        try run { () throws(SQLError) in
            try connection.forEachRow(
                "SELECT position, id, title, detail, is_done, priority FROM item ORDER BY position"
            ) { row in
                let number = items.count + 1
                guard problem == nil else { return }
                if row.integer(0) != items.count {
                    problem = "the items' positions skip or repeat at item \(number)"
                } else if let id = UUID(parsingUTF8: row.bytes(1)) {
                    guard let priority = TODOItem.Priority(rawValue: row.text(5)), [0, 1].contains(row.integer(4))
                    else {
                        problem = "item \(number) has a priority or done state todo never writes"
                        return
                    }
                    items.append(
                        TODOItem(
                            id: id, title: row.text(2), detail: row.text(3), isDone: row.integer(4) == 1,
                            priority: priority))
                } else {
                    problem = "item \(number) has the id \"\(row.text(1))\", which is not a UUID"
                }
            }
        }
        if let problem { throw .corrupt(path: path, reason: problem) }
        return TODOList(items: items)
    }

    /// Runs `body` in a read transaction, so that what it reads is one state of the database;
    /// inside ``write(_:)``, in that transaction.
    func reading<Value>(_ body: () throws(TODOStoreError) -> Value) throws(TODOStoreError) -> Value {
        guard !isWriting, let connection else { return try body() }
        try run { () throws(SQLError) in try connection.execute(connection.dialect.beginRead) }
        defer { _ = try? connection.execute("COMMIT") }
        return try body()
    }

    /// Runs database calls, turning their errors into the store's, which name the file or the
    /// server.
    @discardableResult
    func run<Value>(writing: Bool = false, _ body: () throws(SQLError) -> Value) throws(TODOStoreError) -> Value {
        do {
            return try body()
        } catch {
            switch error.kind {
            case .busy: throw .locked(path: path, timeout: store.options.lockTimeout)
            case .notADatabase: throw .foreign(path: path, reason: error.message)
            case .corrupt: throw .corrupt(path: path, reason: error.message)
            case .cannotConnect: throw .unreachable(server: path, reason: error.message)
            case .connectionLost: throw .connectionLost(server: path, reason: error.message)
            case .failed:
                throw writing
                    ? .unwritable(path: path, reason: error.message) : .unreadable(path: path, reason: error.message)
            }
        }
    }
}
