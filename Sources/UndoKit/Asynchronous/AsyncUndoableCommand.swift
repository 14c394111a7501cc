/// An operation on a model whose change and revert are asynchronous and may fail: the
/// command pattern for a model kept in a database, on a server or in an actor.
///
/// The asynchronous counterpart of ``UndoableCommand``: hand it to
/// ``UndoManager/performAsync(_:on:)``, which awaits ``execute(on:)`` and records the step;
/// ``UndoManager/undoAsync()`` awaits ``undo(on:)`` and ``UndoManager/redoAsync()`` awaits
/// `execute` again. A command type is either synchronous (``UndoableCommand``) or
/// asynchronous (this protocol); one manager holds steps of both kinds.
///
/// ```swift
/// actor Store { var titles: [String] = [] ; func append(_ t: String) { titles.append(t) } ; func removeLast() { titles.removeLast() } }
/// final class Document { let store = Store() }
///
/// struct AddTitle: AsyncUndoableCommand {
///     let title: String
///     var actionName: String { "Add \(title)" }
///
///     func execute(on document: Document) async throws { await document.store.append(title) }
///     func undo(on document: Document) async throws { await document.store.removeLast() }
/// }
///
/// try await manager.performAsync(AddTitle(title: "Milk"), on: document)
/// manager.runLoop.tick()
/// try await manager.undoAsync()   // the store is empty again
/// ```
///
/// Both requirements run on the isolation of the call that runs them (the caller of
/// `performAsync`, `undoAsync` or `redoAsync`), so a command may use a model that is not
/// `Sendable` from the actor that owns the manager. A throw (or a `CancellationError`)
/// from `undo` or `execute` makes the undo or redo fail as a whole: see
/// ``UndoManager/undoAsync()``.
public protocol AsyncUndoableCommand<Model> {
    /// What the command operates on, passed to every call rather than stored.
    associatedtype Model

    /// Makes the change, recording in `self` whatever ``undo(on:)`` needs to revert it; a
    /// throw means nothing changed.
    ///
    /// ```swift
    /// mutating func execute(on document: Document) async throws {
    ///     removed = try await document.store.remove(at: index)
    /// }
    /// ```
    nonisolated(nonsending) mutating func execute(on model: Model) async throws

    /// Reverts what the most recent ``execute(on:)`` did; a throw means nothing changed.
    ///
    /// ```swift
    /// mutating func undo(on document: Document) async throws {
    ///     if let removed { try await document.store.insert(removed, at: index) }
    /// }
    /// ```
    nonisolated(nonsending) mutating func undo(on model: Model) async throws

    /// The name of the step in menu titles; `""`, the default, leaves the group's name.
    ///
    /// ```swift
    /// var actionName: String { "Delete" }
    /// ```
    var actionName: String { get }

    /// The parts of the model the command changes (see ``UndoableCommand/undoParts``);
    /// `[]`, the default, counts as touching every part.
    ///
    /// ```swift
    /// var undoParts: [UndoPart] { [UndoPart("item", id)] }
    /// ```
    var undoParts: [UndoPart] { get }
}

extension AsyncUndoableCommand {
    /// No name: performing the command leaves the undo group's name as it is.
    ///
    /// ```swift
    /// AddTitle(title: "Milk").actionName   // "Add Milk" if it says so, else ""
    /// ```
    public var actionName: String { "" }

    /// No parts declared: the step counts as touching every part.
    ///
    /// ```swift
    /// AddTitle(title: "Milk").undoParts   // []
    /// ```
    public var undoParts: [UndoPart] { [] }
}
