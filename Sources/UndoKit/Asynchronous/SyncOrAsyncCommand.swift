/// A command of a saved history whose steps are of both kinds: a synchronous
/// ``UndoableCommand`` or an ``AsyncUndoableCommand``, on one model.
///
/// ``UndoManager/undoHistory(of:async:)`` takes a history of a manager whose steps were
/// recorded by ``UndoManager/perform(_:on:)`` with `Command` and by
/// ``UndoManager/performAsync(_:on:)`` with `AsyncCommand`;
/// ``UndoManager/restoreUndoHistory(mixed:on:)`` puts it back. Use an enum of your commands
/// for several types of one kind, as for a history of one kind.
///
/// ```swift
/// let history = try manager.undoHistory(of: Rename.self, async: AddTitle.self)
/// for case .asynchronous(let add) in history.undoSteps.flatMap(\.commands) {
///     print(add.title)
/// }
/// try history.encoded().write(to: historyURL)
/// ```
///
/// Saved as `{"sync":{…}}` or `{"async":{…}}`, the command's own encoding inside.
public enum SyncOrAsyncCommand<Command: UndoableCommand & Codable, AsyncCommand: AsyncUndoableCommand & Codable>: Codable {
    /// A command that ``UndoManager/undo()`` and ``UndoManager/undoAsync()`` both run.
    case synchronous(Command)
    /// A command only ``UndoManager/undoAsync()`` and ``UndoManager/redoAsync()`` run.
    case asynchronous(AsyncCommand)

    private enum CodingKeys: String, CodingKey {
        case sync, async
    }

    /// Writes `{"sync": …}` or `{"async": …}`.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(SyncOrAsyncCommand<Rename, AddTitle>.asynchronous(add))
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .synchronous(let command): try container.encode(command, forKey: .sync)
        case .asynchronous(let command): try container.encode(command, forKey: .async)
        }
    }

    /// Reads a command written by ``encode(to:)``: exactly one of `sync` and `async`.
    ///
    /// ```swift
    /// let command = try JSONDecoder().decode(SyncOrAsyncCommand<Rename, AddTitle>.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.sync), container.contains(.async)) {
        case (true, false):
            self = .synchronous(try container.decode(Command.self, forKey: .sync))
        case (false, true):
            self = .asynchronous(try container.decode(AsyncCommand.self, forKey: .async))
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "a command of a mixed history holds exactly one of \"sync\" and \"async\""
            ))
        }
    }
}

extension SyncOrAsyncCommand: Equatable where Command: Equatable, AsyncCommand: Equatable {}
extension SyncOrAsyncCommand: Sendable where Command: Sendable, AsyncCommand: Sendable {}
