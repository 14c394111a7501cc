import Foundation

extension TODODatabase {
    /// The schema, as the migrations that build it, oldest first: a new database runs them all,
    /// an older one those it lacks, in one transaction; `PRAGMA user_version` counts those run.
    /// A change of the schema is a new migration at the end, never an edit of one here. Checks
    /// use OR, not IN: SQLite checks an IN of three values through a temporary table, every row.
    static let migrations = [
        // 1: the list.
        """
        CREATE TABLE list_state (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            revision INTEGER NOT NULL,        -- how many changes made the list
            imported_from TEXT                -- the todo.json of an earlier version it came from
        );
        INSERT INTO list_state (singleton, revision) VALUES (1, 0);
        CREATE TABLE item (
            id TEXT PRIMARY KEY,              -- the item's UUID, which undo brings back
            position INTEGER NOT NULL,        -- 0, 1, 2, … in the order list shows
            title TEXT NOT NULL,
            detail TEXT NOT NULL,
            is_done INTEGER NOT NULL CHECK (is_done IN (0, 1)),
            priority TEXT NOT NULL CHECK (priority = 'low' OR priority = 'medium' OR priority = 'high')
        );
        CREATE INDEX item_by_position ON item (position);
        """,
        // 2: the undo history, step by step, and which todo made each change.
        """
        ALTER TABLE list_state ADD COLUMN history_revision INTEGER;   -- the revision the steps belong to
        ALTER TABLE list_state ADD COLUMN current_step INTEGER;       -- the step the list is at; NULL: the start
        UPDATE list_state SET history_revision = revision;
        ALTER TABLE item ADD COLUMN changed_in INTEGER NOT NULL DEFAULT 0;   -- the revision that last changed it
        ALTER TABLE item ADD COLUMN changed_by TEXT;                         -- the origin that made that change
        CREATE TABLE step (
            id INTEGER PRIMARY KEY,           -- the step's node in UndoKit's history tree
            parent INTEGER,                   -- the step it was made after; NULL: the start
            place TEXT NOT NULL CHECK (place = 'undo' OR place = 'redo' OR place = 'branch'),
            name TEXT NOT NULL,               -- as undo shows it
            made_by TEXT NOT NULL,            -- the origin that made it
            saved_in INTEGER NOT NULL,        -- the revision that last wrote it
            body TEXT NOT NULL                -- the step as UndoKit encodes it (JSON): its commands
        );
        CREATE INDEX step_by_parent ON step (parent);                          -- so that saving a step
        CREATE INDEX step_off_path ON step (id) WHERE place != 'undo';         -- reads no other steps
        CREATE TABLE origin (                 -- every todo process that changed the list
            id TEXT PRIMARY KEY,              -- a UUID drawn when it starts
            pid INTEGER NOT NULL,
            started REAL NOT NULL             -- seconds since 1970
        );
        """,
        // 3: the history as one timeline of steps, each change in columns (see
        // TODODatabase+History.swift), and who made each. The tree of version 2, whose steps
        // were JSON, cannot become a timeline (it does not say in which order its steps were
        // made, nor who made them): it is dropped, and opening says so once.
        """
        DROP TABLE step;
        ALTER TABLE list_state DROP COLUMN history_revision;
        ALTER TABLE list_state DROP COLUMN current_step;
        ALTER TABLE origin ADD COLUMN person TEXT;     -- who the process worked for
        CREATE TABLE step (
            id INTEGER PRIMARY KEY AUTOINCREMENT,      -- the step's number: never used again
            kind TEXT NOT NULL CHECK (kind = 'edit' OR kind = 'undo' OR kind = 'redo' OR kind = 'goto'),
            target INTEGER,                   -- undo, redo: the edit step; goto: the step gone to (0: the start)
            name TEXT NOT NULL,               -- the edit's name, as undo shows it
            person TEXT NOT NULL,             -- who made it
            origin TEXT NOT NULL,             -- the process that made it
            made_at INTEGER NOT NULL,         -- seconds since 1970, of its newest change
            revision INTEGER NOT NULL         -- the list's revision after its newest change
        );
        CREATE TABLE step_change (
            revision INTEGER NOT NULL,        -- the revision of the list it made
            number INTEGER NOT NULL,          -- its place among that revision's changes
            step INTEGER NOT NULL,            -- the step it belongs to
            op TEXT NOT NULL CHECK (op = 'insert' OR op = 'remove' OR op = 'replace' OR op = 'move'),
            item TEXT NOT NULL,               -- the item's UUID
            position INTEGER NOT NULL,        -- where the item was (insert: where it went)
            destination INTEGER,              -- move: where it went
            title TEXT,                       -- insert, replace: the item after
            detail TEXT,
            is_done INTEGER,
            priority TEXT,
            old_title TEXT,                   -- remove, replace: the item before
            old_detail TEXT,
            old_is_done INTEGER,
            old_priority TEXT,
            -- A step's changes together: trimming a big step deletes one range, and no index.
            PRIMARY KEY (step, revision, number)
        ) WITHOUT ROWID;
        """,
        // 4: the steps their person dropped (`drop`, `drop redo`), which their next session
        // must not offer again. Every step of version 3 is kept, none dropped.
        """
        ALTER TABLE step ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0 CHECK (dropped = 0 OR dropped = 1);
        """,
    ]

    /// The schema version this `todo` writes: the number of migrations.
    static var schemaVersion: Int { migrations.count }

    /// `PRAGMA application_id`, "TODO" in ASCII: what tells a TODO list from another
    /// program's SQLite database.
    static let applicationID: Int64 = 0x544F_444F

    /// The connection, opened if the database exists, or if there are old files to import
    /// into a new one; `nil` otherwise, creating nothing. On PostgreSQL: connected, and `nil`
    /// while the database has none of the list's tables.
    func openedIfItExists() throws(TODOStoreError) -> (any SQLConnection)? {
        if let connection { return connection }
        if let databaseURL = store.databaseURL {
            return try openedPostgres(databaseURL, creating: false)
        }
        guard FileManager.default.fileExists(atPath: path) || LegacyFiles.exist(at: store.legacyURL) else { return nil }
        return try opened(creating: true)
    }

    /// The connection, opening the database (and with `creating`, making it) first: a new
    /// or older schema is brought up to date, old files are imported into a new database, and
    /// anything that is not a TODO list of a version this `todo` reads is refused, unchanged.
    func opened(creating: Bool) throws(TODOStoreError) -> any SQLConnection {
        if let connection { return connection }
        if let databaseURL = store.databaseURL {
            guard let connection = try openedPostgres(databaseURL, creating: creating) else {
                throw .unreadable(path: path, reason: "the database holds no TODO list")
            }
            return connection
        }
        return try openedSQLite(creating: creating)
    }

    private func openedSQLite(creating: Bool) throws(TODOStoreError) -> SQLiteConnection {
        let exists = FileManager.default.fileExists(atPath: path)
        // Old files are read before anything is created: damaged ones leave no trace.
        var legacy = exists ? nil : try LegacyFiles.read(at: store.legacyURL)
        if !exists {
            guard creating || legacy != nil else { throw .unreadable(path: path, reason: "there is no such file") }
            try createDirectory()
        }
        let connection = try run(writing: !exists) { () throws(SQLError) in
            try SQLiteConnection(path: path, creating: !exists)
        }
        connection.setBusyTimeout(milliseconds: Int32(clamping: store.options.lockTimeout.wholeMilliseconds))
        let (application, version) = try run { () throws(SQLError) in
            // FULL: a reported line is on disk. Debian builds SQLite to overwrite every freed page
            // (trimmed steps) on disk; FAST clears them only in pages written anyway.
            try connection.executeScript("PRAGMA synchronous = FULL; PRAGMA secure_delete = FAST")
            let isEmpty = try connection.integer("SELECT count(*) FROM sqlite_schema") == 0
            let application = try connection.integer("PRAGMA application_id") ?? 0
            return (
                isEmpty && application == 0 ? Self.applicationID : application,
                try connection.integer("PRAGMA user_version") ?? 0
            )
        }
        guard application == Self.applicationID else {
            throw .foreign(path: path, reason: "it is the SQLite database of another program")
        }
        guard version <= Self.schemaVersion else {
            throw .unsupportedVersion(path: path, found: Int(version), supported: Self.schemaVersion)
        }
        self.connection = connection
        do {
            if version < Self.schemaVersion {
                if version == 0 && legacy == nil { legacy = try LegacyFiles.read(at: store.legacyURL) }
                // Until the file is in WAL mode, two processes making it at once can each hold
                // a lock the other needs; SQLite then fails one at once rather than waiting.
                let deadline = ContinuousClock.now + store.options.lockTimeout
                while true {
                    do {
                        try upgrade(connection, importing: legacy)
                        break
                    } catch  where error.isLocked && ContinuousClock.now < deadline {
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                }
            } else if LegacyFiles.exist(at: store.legacyURL),
                try run({ () throws(SQLError) in
                    try connection.firstRow("SELECT imported_from FROM list_state") { $0.text(0) }
                }) == store.legacyURL.path
            {
                // A crash after the import's commit and before the old files were renamed.
                LegacyFiles.markImported(at: store.legacyURL, keepingLinesAt: store.linesURL)
            }
        } catch {
            self.connection = nil
            throw error
        }
        return connection
    }

    /// Runs the migrations the database lacks, and the import of old files into a new one, in
    /// one transaction; then renames the old files.
    private func upgrade(_ connection: SQLiteConnection, importing legacy: LegacyFiles.Contents?) throws(TODOStoreError)
    {
        // WAL lets readers read while a writer writes; the mode is kept in the file, and
        // cannot be set inside a transaction.
        try run(writing: true) { () throws(SQLError) in try connection.executeScript("PRAGMA journal_mode = WAL") }
        var versionBefore = 0
        var droppedSteps = 0
        var imported = false
        try write { () throws(TODOStoreError) in
            // Read again under the lock: another process may have just done it.
            versionBefore = Int(
                try run { () throws(SQLError) in try connection.integer("PRAGMA user_version") } ?? 0)
            if versionBefore == 2 {
                droppedSteps = Int(
                    try run { () throws(SQLError) in try connection.integer("SELECT count(*) FROM step") } ?? 0)
            }
            try run(writing: true) { () throws(SQLError) in
                for script in Self.migrations[versionBefore...] {
                    try connection.executeScript(script)
                }
                try connection.executeScript(
                    "PRAGMA application_id = \(Self.applicationID); PRAGMA user_version = \(Self.schemaVersion)")
            }
            if versionBefore == 0, let legacy {
                try importLegacy(legacy)
                imported = true
            }
        }
        if imported, let legacy {
            LegacyFiles.markImported(at: store.legacyURL, keepingLinesAt: store.linesURL)
            let steps = legacy.history.map { $0.undoSteps.count + $0.redoSteps.count + $0.branches.count } ?? 0
            let items = legacy.list.count == 1 ? "1 item" : "\(legacy.list.count) items"
            var message = "imported \(store.legacyURL.path) (\(items)) into \(path); the old files end in .imported now"
            if steps > 0 {
                message += "; their \(steps == 1 ? "1 undo step was" : "\(steps) undo steps were") not imported"
            }
            notices.append(message)
            notices += legacy.problems.map { "\(store.legacyURL.path): \($0)" }
        } else if versionBefore > 0 && versionBefore < Self.schemaVersion {
            notices.append("upgraded \(path) from version \(versionBefore) to \(Self.schemaVersion)")
        }
        if droppedSteps > 0 {
            let steps =
                droppedSteps == 1
                ? "undo step from an earlier todo was" : "\(droppedSteps) undo steps from an earlier todo were"
            let they = droppedSteps == 1 ? "it was" : "they were"
            notices.append(
                "the list is kept; its \(steps) dropped: \(they) saved as a tree that does not say who made "
                    + "each step or when, which the history now shows")
        }
    }

    /// Puts the contents of old files in the new, empty database, at their revision.
    private func importLegacy(_ legacy: LegacyFiles.Contents) throws(TODOStoreError) {
        try commit(legacy.list.items.enumerated().map { .init(change: .insert($1, at: $0), itemID: nil) })
        try run(writing: true) { () throws(SQLError) in
            try connection?.execute(
                "UPDATE list_state SET revision = ?, imported_from = ?",
                [.int(legacy.revision), .text(store.legacyURL.path)])
        }
    }

    private func createDirectory() throws(TODOStoreError) {
        let directory = store.fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: path, reason: "cannot create the directory \(directory.path)")
        }
    }
}
