/// A part of the model that an edit changed: an item, a paragraph, a file, a cell.
///
/// A step declares the parts it touched (``UndoManager/addActionParts(_:)-(UndoPart...)``,
/// or ``UndoableCommand/undoParts`` for a command), and changes made elsewhere are noted by
/// part (``UndoManager/noteChanges(to:origin:)``): a step is *stale* once a part it touched
/// changed after it. A part is a kind and an identifier, compared as text, so that it hashes
/// cheaply, crosses threads, and is saved and restored with an ``UndoHistory``.
///
/// ```swift
/// manager.addActionParts(UndoPart("item", item.id))   // kind "item", the id's description
/// manager.addActionParts("title")                      // a part named by a string literal
/// ```
///
/// Two parts are the same when their kinds and identifiers are: an identifier whose
/// `description` tells its values apart (an integer, a string, a `UUID`, a `URL`) makes a
/// good part.
public struct UndoPart: Hashable, Sendable, Codable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// What kind of part this is, such as `"item"`; empty for a part made from a string
    /// literal.
    public var kind: String
    /// Which part of that kind.
    public var identifier: String

    /// A part of kind `kind` identified by `identifier`'s description.
    ///
    /// ```swift
    /// let part = UndoPart("paragraph", 42)    // paragraph:42
    /// ```
    public init(_ kind: String, _ identifier: some CustomStringConvertible) {
        self.kind = kind
        self.identifier = identifier.description
    }

    /// A part identified by `identifier`'s description, of the kind named by its type.
    ///
    /// ```swift
    /// let part = UndoPart(item.id)            // a UUID: kind "Foundation.UUID"
    /// ```
    public init<Identifier: Hashable & CustomStringConvertible>(_ identifier: Identifier) {
        self.init(String(reflecting: Identifier.self), identifier)
    }

    /// A part named by a string literal, of no kind.
    ///
    /// ```swift
    /// let part: UndoPart = "title"
    /// ```
    public init(stringLiteral value: String) {
        self.init("", value)
    }

    /// `kind:identifier`, or the identifier alone for a part of no kind.
    ///
    /// ```swift
    /// UndoPart("item", 7).description   // "item:7"
    /// ```
    public var description: String {
        kind.isEmpty ? identifier : "\(kind):\(identifier)"
    }

    /// Orders parts by kind, then identifier, so that listings are stable.
    ///
    /// ```swift
    /// [UndoPart("item", 2), UndoPart("item", 1)].sorted()   // item:1, item:2
    /// ```
    public static func < (lhs: UndoPart, rhs: UndoPart) -> Bool {
        (lhs.kind, lhs.identifier) < (rhs.kind, rhs.identifier)
    }
}

/// A change noted to an ``UndoManager`` after one of its steps: which part changed, and who
/// changed it, as far as the caller said.
///
/// ```swift
/// if let stale = manager.staleUndoStep {
///     for change in stale.changes {
///         print("\(change.part?.description ?? "everything") changed by \(change.origin ?? "someone")")
///     }
/// }
/// ```
public struct UndoChange: Hashable, Sendable, Codable {
    /// The part that changed; `nil` for a change to parts nobody named (noted with
    /// ``UndoManager/noteChangesToAllParts(origin:)``).
    public var part: UndoPart?
    /// Who or what made the change, as passed to ``UndoManager/noteChanges(to:origin:)``:
    /// a person's name, a process, a server.
    public var origin: String?

    /// A change to `part` by `origin`.
    ///
    /// ```swift
    /// let change = UndoChange(part: "title", origin: "Bob")
    /// ```
    public init(part: UndoPart?, origin: String?) {
        self.part = part
        self.origin = origin
    }
}
