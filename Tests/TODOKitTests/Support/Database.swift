import Foundation
import UndoKit
@testable import TODOKit

/// What tests look at in a database, as another process would, and the damage they do to it,
/// as another program would.
extension TODOStore {
    /// The list's history, read by a new connection: each step as `history` names it
    /// (`Undo Add "Buy milk"`), oldest first.
    func savedStepTitles() throws -> [String] {
        let database = TODODatabase(store: self)
        _ = try database.refresh()
        return try database.readSteps().map(\.title)
    }

    /// The list's history, read by a new connection: every step, oldest first.
    func savedSteps() throws -> [TODODatabase.HistoryStep] {
        let database = TODODatabase(store: self)
        _ = try database.refresh()
        return try database.readSteps()
    }

    /// Runs `sql` on the database with a connection of its own, outside `todo`'s checks: the
    /// SQLite file, or the PostgreSQL database.
    func execute(_ sql: String) throws {
        try sqlConnection().executeScript(sql)
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        try sqlConnection().firstRow(sql) { $0.text(0) }
    }

    /// A connection of its own to the database, SQLite's or PostgreSQL's.
    func sqlConnection() throws -> any SQLConnection {
        if let databaseURL {
            return try PostgresConnection(url: databaseURL)
        }
        return try SQLiteConnection(path: fileURL.path, creating: false)
    }
}
