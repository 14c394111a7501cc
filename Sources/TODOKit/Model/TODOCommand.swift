import Foundation
import UndoKit

/// One edit of the list as an undoable, saveable command: the change, its inverse, the step's
/// name, and when it was made.
///
/// Every edit of an ``EditingSession`` is performed as a `TODOCommand` with UndoKit's
/// `perform(_:on:)`, so the undo manager's stacks hold values, not closures, and
/// their steps can be saved with the list, one database row each, as UndoKit encodes them.
/// The model is the session: executing applies ``change`` to ``EditingSession/list``, and
/// undoing applies ``inverse``. Applying one always yields the other again (see
/// ``TODOList/apply(_:)``), so a command can be undone and redone any number of times.
///
/// A command changes one item, ``item``, which it declares as its step's part
/// (``undoParts``), and finds where that item is when it runs: another process may have added
/// or removed items before it since (see ``TODOList/locating(_:item:)``).
///
/// ```swift
/// let list: TODOList = [TODOItem(title: "Buy milk")]
/// let command = TODOCommand(applying: .remove(at: 0), to: list, named: "Remove \"Buy milk\"")
/// command.inverse   // .insert(<Buy milk>, at: 0)
/// session.undoManager.perform(command, on: session)
/// ```
public struct TODOCommand: UndoableCommand, Hashable, Sendable {
    /// What executing (and redoing) applies.
    public private(set) var change: TODOList.Change
    /// What undoing applies: the inverse of ``change`` on the list it was made on.
    public private(set) var inverse: TODOList.Change
    /// The undo step's name, such as `Add "Buy milk"`.
    public let name: String
    /// When the edit was made, to the second; redo keeps it.
    public let date: Date
    /// The item a move moves (saved as `"item"`): the other changes name it themselves.
    private var movedItem: TODOItem.ID?

    /// Creates the command that applies `change` to `list`, as it is now.
    ///
    /// `date` is cut to whole seconds, the precision it is saved with, so that a saved and
    /// reloaded command equals the original.
    ///
    /// ```swift
    /// let add = TODOCommand(applying: .insert(item, at: list.count), to: list, named: "Add \"Buy milk\"")
    /// ```
    ///
    /// - Precondition: `list.canApply(change)`.
    public init(applying change: TODOList.Change, to list: TODOList, named name: String, at date: Date = Date()) {
        let moved = if case .move(let source, _) = change { list.items[source].id } else { nil as TODOItem.ID? }
        self.init(change: change, inverse: list.inverse(of: change), name: name, date: date, movedItem: moved)
    }

    init(change: TODOList.Change, inverse: TODOList.Change, name: String, date: Date, movedItem: TODOItem.ID? = nil) {
        self.change = change
        self.inverse = inverse
        self.name = name
        self.date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        self.movedItem = movedItem
    }

    /// The item the command changes; `nil` only for a move saved by an earlier version.
    public var item: TODOItem.ID? {
        switch (change, inverse) {
        case (.insert(let item, _), _), (_, .insert(let item, _)), (.replace(_, let item), _): item.id
        default: movedItem
        }
    }

    /// Applies ``change`` to the session's list, on the item it changed wherever it is now.
    public mutating func execute(on session: EditingSession) {
        let redo = Self.onlyItsFields(change, against: inverse, in: session.list)
        if let applied = session.applyRecorded(redo, item: item) {
            inverse = applied
        }
    }

    /// Applies ``inverse`` to the session's list, on the item it changed wherever it is now.
    public mutating func undo(on session: EditingSession) {
        let undo = Self.onlyItsFields(inverse, against: change, in: session.list)
        if let applied = session.applyRecorded(undo, item: item) {
            change = applied
        }
    }

    /// `replacement`, setting only the fields in which it differs from `other` (the fields
    /// the command changed) on the item as it is now: undoing a priority change brings back
    /// the priority, and keeps a title someone else edited since (`undo!`). Any other change
    /// as it is.
    static func onlyItsFields(
        _ replacement: TODOList.Change, against other: TODOList.Change, in list: TODOList
    ) -> TODOList.Change {
        guard case .replace(let at, let wanted) = replacement, case .replace(_, let was) = other else {
            return replacement
        }
        var position = at
        if !list.contains(position: at) || list.items[at].id != wanted.id {
            guard let found = list.position(of: wanted.id) else {
                return replacement
            }
            position = found
        }
        var item = list.items[position]
        if wanted.title != was.title {
            item.title = wanted.title
        }
        if wanted.detail != was.detail {
            item.detail = wanted.detail
        }
        if wanted.isDone != was.isDone {
            item.isDone = wanted.isDone
        }
        if wanted.priority != was.priority {
            item.priority = wanted.priority
        }
        return .replace(at: at, with: item)
    }

    /// The step's name: ``name``.
    public var actionName: String { name }

    /// The item the command changes, as the part of the list its step touched: a change noted
    /// to that item elsewhere makes the step stale (UndoKit's `noteChanges(to:origin:)`).
    public var undoParts: [UndoPart] { item.map { [UndoPart("item", $0)] } ?? [] }
}

extension TODOCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case change, inverse, name, date, item
    }

    /// Writes `{"change":…,"date":<seconds since 1970>,"inverse":…,"name":…}`, and a move's
    /// `"item"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ChangeCoding(change), forKey: .change)
        try container.encode(ChangeCoding(inverse), forKey: .inverse)
        try container.encode(name, forKey: .name)
        try container.encode(Int64(date.timeIntervalSince1970), forKey: .date)
        try container.encodeIfPresent(movedItem, forKey: .item)
    }

    /// Reads a command written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Int64.self, forKey: .date)
        // Years 1 to 9999: anything else is damage, and would not survive the trip through
        // `TimeInterval` back to whole seconds.
        guard (-62_135_596_800...253_402_300_799).contains(seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: container, debugDescription: "date \(seconds) is out of range")
        }
        self.init(
            change: try container.decode(ChangeCoding.self, forKey: .change).change,
            inverse: try container.decode(ChangeCoding.self, forKey: .inverse).change,
            name: try container.decode(String.self, forKey: .name),
            date: Date(timeIntervalSince1970: TimeInterval(seconds)),
            movedItem: try container.decodeIfPresent(UUID.self, forKey: .item)
        )
    }

    /// A change as `{"op":"insert","at":0,"item":{…}}`, `{"op":"remove","at":0}`,
    /// `{"op":"replace","at":0,"item":{…}}` or `{"op":"move","from":2,"to":0}`, as earlier versions'
    /// journal wrote them, which their history files hold too.
    private struct ChangeCoding: Codable {
        var change: TODOList.Change

        init(_ change: TODOList.Change) {
            self.change = change
        }

        private enum CodingKeys: String, CodingKey {
            case op, at, item, from, to
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch change {
            case .insert(let item, let position):
                try container.encode("insert", forKey: .op)
                try container.encode(position, forKey: .at)
                try container.encode(item, forKey: .item)
            case .remove(let position):
                try container.encode("remove", forKey: .op)
                try container.encode(position, forKey: .at)
            case .replace(let position, let item):
                try container.encode("replace", forKey: .op)
                try container.encode(position, forKey: .at)
                try container.encode(item, forKey: .item)
            case .move(let source, let destination):
                try container.encode("move", forKey: .op)
                try container.encode(source, forKey: .from)
                try container.encode(destination, forKey: .to)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .op) {
            case "insert":
                change = .insert(
                    try container.decode(TODOItem.self, forKey: .item), at: try container.decode(Int.self, forKey: .at))
            case "remove":
                change = .remove(at: try container.decode(Int.self, forKey: .at))
            case "replace":
                change = .replace(
                    at: try container.decode(Int.self, forKey: .at),
                    with: try container.decode(TODOItem.self, forKey: .item))
            case "move":
                change = .move(
                    from: try container.decode(Int.self, forKey: .from), to: try container.decode(Int.self, forKey: .to)
                )
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .op, in: container, debugDescription: "unknown change \"\(other)\"")
            }
        }
    }
}
