import Foundation

// # A list in PostgreSQL
//
// The same tables as in SQLite (version 4 of TODODatabase+Schema.swift), column for column,
// in PostgreSQL's types: what SQLite calls INTEGER is BIGINT where it counts (revisions,
// positions, step numbers, seconds), REAL is DOUBLE PRECISION, and a step's number comes from
// an identity column, which never gives a number twice (SQLite's AUTOINCREMENT). Every
// statement the store runs is the same on both; what differs is in `SQLDialect`.
//
// PostgreSQL has no `application_id` nor `user_version`: the table `todo_schema` holds both,
// and tells a TODO list from another program's tables. A database may hold other programs'
// tables beside the list's; one that holds a table of the list's names without `todo_schema`
// is refused, untouched. Making the tables takes a transaction-scoped advisory lock, so that
// two `todo`s starting on a new database at once make them once.

extension TODODatabase {
    /// The schema of a new list in PostgreSQL: version 4, as the SQLite migrations build it.
    static let postgresSchema = """
        CREATE TABLE todo_schema (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            application TEXT NOT NULL,        -- what made these tables: 'UndoKit TODO'
            version INTEGER NOT NULL          -- the schema version (SQLite's user_version)
        );
        CREATE TABLE list_state (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            revision BIGINT NOT NULL,         -- how many changes made the list
            imported_from TEXT                -- unused in PostgreSQL: nothing is imported
        );
        INSERT INTO list_state (singleton, revision) VALUES (1, 0);
        CREATE TABLE item (
            id TEXT PRIMARY KEY,              -- the item's UUID, which undo brings back
            position BIGINT NOT NULL,         -- 0, 1, 2, … in the order list shows
            title TEXT NOT NULL,
            detail TEXT NOT NULL,
            is_done INTEGER NOT NULL CHECK (is_done IN (0, 1)),
            priority TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high')),
            changed_in BIGINT NOT NULL DEFAULT 0,   -- the revision that last changed it
            changed_by TEXT                         -- the origin that made that change
        );
        CREATE INDEX item_by_position ON item (position);
        CREATE TABLE origin (                 -- every todo process that changed the list
            id TEXT PRIMARY KEY,              -- a UUID drawn when it starts
            pid BIGINT NOT NULL,
            started DOUBLE PRECISION NOT NULL,   -- seconds since 1970
            person TEXT                       -- who the process worked for
        );
        CREATE TABLE step (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,   -- the step's number: never used again
            kind TEXT NOT NULL CHECK (kind IN ('edit', 'undo', 'redo', 'goto')),
            target BIGINT,                    -- undo, redo: the edit step; goto: the step gone to (0: the start)
            name TEXT NOT NULL,               -- the edit's name, as undo shows it
            person TEXT NOT NULL,             -- who made it
            origin TEXT NOT NULL,             -- the process that made it
            made_at BIGINT NOT NULL,          -- seconds since 1970, of its newest change
            revision BIGINT NOT NULL,         -- the list's revision after its newest change
            dropped INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1))
        );
        CREATE TABLE step_change (
            revision BIGINT NOT NULL,         -- the revision of the list it made
            number INTEGER NOT NULL,          -- its place among that revision's changes
            step BIGINT NOT NULL,             -- the step it belongs to
            op TEXT NOT NULL CHECK (op IN ('insert', 'remove', 'replace', 'move')),
            item TEXT NOT NULL,               -- the item's UUID
            position BIGINT NOT NULL,         -- where the item was (insert: where it went)
            destination BIGINT,               -- move: where it went
            title TEXT,                       -- insert, replace: the item after
            detail TEXT,
            is_done INTEGER,
            priority TEXT,
            old_title TEXT,                   -- remove, replace: the item before
            old_detail TEXT,
            old_is_done INTEGER,
            old_priority TEXT,
            PRIMARY KEY (step, revision, number)
        );
        """

    /// What `todo_schema.application` says of a TODO list's tables.
    static let postgresApplication = "UndoKit TODO"

    /// The tables of a list, by the names a database must not hold for another purpose.
    static let postgresTables = ["todo_schema", "list_state", "item", "origin", "step", "step_change"]

    /// The channel every change notifies, in its transaction, with the origin of the process
    /// that made it; every session listens on it.
    static let notificationChannel = "todo_list"

    /// The connection to the server, made first if there is none; the list's tables made too
    /// with `creating`, and `nil` without it while there are none. Tables that are not a TODO
    /// list of a version this `todo` reads are refused, unchanged.
    func openedPostgres(_ url: PostgresURL, creating: Bool) throws(TODOStoreError) -> PostgresConnection? {
        let server: PostgresConnection
        if let serverConnection {
            server = serverConnection
        } else {
            server = try connectToServer(url)
            serverConnection = server
        }
        let tables = try run { () throws(SQLError) in try Self.listTables(on: server) }
        if !tables.contains("todo_schema") {
            if let other = tables.first {
                throw .foreign(
                    path: path,
                    reason: "it has a table named \(other) that todo did not make (a TODO list's tables come "
                        + "with a todo_schema table); use another database")
            }
            guard creating else {
                return nil
            }
            try createPostgresSchema(on: server)
        }
        let schema = try run { () throws(SQLError) in
            try server.firstRow("SELECT application, version FROM todo_schema") { ($0.text(0), $0.integer(1)) }
        }
        guard let schema, schema.0 == Self.postgresApplication else {
            throw .foreign(path: path, reason: "its todo_schema table was made by another program")
        }
        guard schema.1 <= Self.schemaVersion else {
            throw .unsupportedVersion(path: path, found: Int(schema.1), supported: Self.schemaVersion)
        }
        guard schema.1 == Self.schemaVersion else {
            throw .corrupt(path: path, reason: "its schema version \(schema.1) is not one todo ever wrote")
        }
        connection = server
        return server
    }

    /// Connects, with the session's settings: how long a change waits for another's lock, and
    /// listening for other processes' changes.
    private func connectToServer(_ url: PostgresURL) throws(TODOStoreError) -> PostgresConnection {
        try run { () throws(SQLError) in
            let server = try PostgresConnection(url: url)
            // Zero means "wait forever" to PostgreSQL; SQLite's busy timeout of zero fails at
            // once, which a millisecond is nearest to.
            let milliseconds = max(1, store.options.lockTimeout.wholeMilliseconds)
            try server.keep("SET lock_timeout = \(milliseconds)")
            try server.keep("LISTEN \(Self.notificationChannel)")
            // The lines typed at the prompt are kept on this machine; their folder may not
            // exist yet, where an SQLite list's is made with its file. Not a reason to fail.
            try? FileManager.default.createDirectory(
                at: store.linesURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            return server
        }
    }

    /// Which of the list's table names the database's current schema holds.
    private static func listTables(on server: PostgresConnection) throws(SQLError) -> Set<String> {
        var names: Set<String> = []
        let quoted = postgresTables.map { "'\($0)'" }.joined(separator: ", ")
        try server.forEachRow(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename IN (\(quoted))"
        ) { row in
            names.insert(row.text(0))
        }
        return names
    }

    /// Makes the list's tables in one transaction, unless another `todo` made them while this
    /// one waited for the lock.
    private func createPostgresSchema(on server: PostgresConnection) throws(TODOStoreError) {
        try run(writing: true) { () throws(SQLError) in
            try server.execute("BEGIN")
            do throws(SQLError) {
                // 0x544F444F, "TODO" in ASCII, as SQLite's application_id.
                try server.execute("SELECT pg_advisory_xact_lock(\(Self.applicationID))")
                if try Self.listTables(on: server).isEmpty {
                    try server.executeScript(Self.postgresSchema)
                    try server.execute(
                        "INSERT INTO todo_schema (singleton, application, version) VALUES (1, ?, ?)",
                        [.text(Self.postgresApplication), .int(Self.schemaVersion)])
                }
                try server.execute("COMMIT")
            } catch {
                _ = try? server.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Reads the notifications the server sent, without waiting: whether another process's
    /// change was among them, or the connection was made again since (which may have missed
    /// one). Remembered until ``refresh()``.
    func listenForChanges() throws(TODOStoreError) -> Bool {
        guard let server = serverConnection else {
            return false
        }
        let payloads: [String]
        do {
            payloads = try server.takeNotifications()
        } catch {
            // The server went away: say so once, so that the session refreshes, which
            // connects again or says what happened; then wait for the next line to try again.
            defer { connectionLossReported = true }
            return !connectionLossReported
        }
        connectionLossReported = false
        if payloads.contains(where: { $0 != origin }) || server.reconnections != reconnectionsSeen {
            heardChangeElsewhere = true
        }
        return heardChangeElsewhere
    }

    /// Before ``refresh()`` reads: what was heard is about to be read.
    func forgetNotifications() throws(TODOStoreError) {
        guard let server = serverConnection else {
            return
        }
        _ = try? server.takeNotifications()
        heardChangeElsewhere = false
        reconnectionsSeen = server.reconnections
    }
}
