import Foundation
import UndoKit
@testable import TODOKit

/// What tests look at in a database, as another process would, and the damage they do to it,
/// as another program would.
extension TODOStore {
    /// The saved undo history, read by a new connection.
    struct UnusableHistory: Error, CustomStringConvertible {
        var description: String
    }

    func savedHistory() throws -> UndoHistory<TODOCommand> {
        let database = TODODatabase(store: self)
        _ = try database.refresh()
        switch try database.readHistory() {
        case .usable(let history, _): return history
        case .unusable(let reason): throw UnusableHistory(description: reason)
        }
    }

    /// The names of the saved undo steps, oldest first, and of the redo steps, next first.
    func savedStepNames() throws -> (undo: [String], redo: [String]) {
        let history = try savedHistory()
        return (history.undoSteps.map { $0.actionName ?? "" }, history.redoSteps.reversed().map { $0.actionName ?? "" })
    }

    /// Runs `sql` on the database with a connection of its own, outside `todo`'s checks.
    func execute(_ sql: String) throws {
        try SQLiteConnection(path: fileURL.path, creating: false).executeScript(sql)
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        try SQLiteConnection(path: fileURL.path, creating: false).firstRow(sql) { $0.text(0) }
    }
}
