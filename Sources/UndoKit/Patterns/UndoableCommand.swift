/// An operation on a model that knows how to revert itself: the command pattern for undo.
///
/// A command does its work in ``execute(on:)`` and reverts it in ``undo(on:)``. Hand it to
/// ``UndoManager/perform(_:on:)`` and the manager runs it, records its undo, and records
/// `execute` again as the redo, for as many undo and redo cycles as the user makes:
///
/// ```swift
/// final class TodoList { var items: [String] = [] }
///
/// struct AddItem: UndoableCommand {
///     let title: String
///     var actionName: String { "Add \(title)" }
///
///     func execute(on list: TodoList) { list.items.append(title) }
///     func undo(on list: TodoList) { list.items.removeLast() }
/// }
///
/// manager.perform(AddItem(title: "Buy milk"), on: list)
/// manager.undo()   // list.items == []
/// manager.redo()   // list.items == ["Buy milk"]
/// ```
///
/// ### Commands that remember
///
/// Both requirements are `mutating`, so a command can record in itself what it needs to
/// revert, such as the item a removal took out. The manager keeps the command as each step
/// left it: the undo sees what `execute` recorded, the redo what `undo` recorded. Each step
/// holds its own copy of a value-type command, so performing one value twice records two
/// steps that share nothing:
///
/// ```swift
/// struct RemoveItem: UndoableCommand {
///     let index: Int
///     private var removed: String?   // recorded by execute, read by undo
///
///     init(at index: Int) { self.index = index }
///     var actionName: String { "Delete" }
///
///     mutating func execute(on list: TodoList) { removed = list.items.remove(at: index) }
///     mutating func undo(on list: TodoList) {
///         guard let removed else { return }
///         list.items.insert(removed, at: index)
///     }
/// }
/// ```
///
/// A class can conform too, with plain `func` implementations, but then every recorded step
/// shares the one instance: perform each instance once.
///
/// Don't store the model in the command: the manager holds the command strongly, which would
/// keep the model alive; ``UndoManager/perform(_:on:)`` passes it to every call instead. See
/// <doc:UsingCommands>.
public protocol UndoableCommand<Model> {
    /// What the command operates on, passed to every call rather than stored.
    ///
    /// ```swift
    /// struct Rename: UndoableCommand {
    ///     typealias Model = Document   // usually inferred from execute(on:)
    ///     // ...
    /// }
    /// ```
    associatedtype Model

    /// Makes the change, recording in `self` whatever ``undo(on:)`` needs to revert it.
    ///
    /// Runs when the command is performed and on every redo, after the preceding
    /// ``undo(on:)``: it must record afresh.
    ///
    /// ```swift
    /// mutating func execute(on list: TodoList) {
    ///     removed = list.items.remove(at: index)
    /// }
    /// ```
    mutating func execute(on model: Model)

    /// Reverts what the most recent ``execute(on:)`` did.
    ///
    /// ```swift
    /// mutating func undo(on list: TodoList) {
    ///     if let removed { list.items.insert(removed, at: index) }
    /// }
    /// ```
    mutating func undo(on model: Model)

    /// The name of the step in menu titles, such as "Delete" in "Undo Delete"; `""`, the
    /// default, leaves the undo group's name as it is.
    ///
    /// ```swift
    /// var actionName: String { "Delete \"\(title)\"" }
    /// ```
    var actionName: String { get }

    /// The parts of the model the command changes, declared for its step as
    /// ``UndoManager/addActionParts(_:)-(UndoPart...)`` does: changes noted to them
    /// elsewhere make the step stale (see ``StaleStepPolicy``). `[]`, the default, declares
    /// none: the step counts as touching every part.
    ///
    /// ```swift
    /// var undoParts: [UndoPart] { [UndoPart("item", itemID)] }
    /// ```
    var undoParts: [UndoPart] { get }

    /// The parts this run of ``execute(on:)`` actually changed, read right after it (when
    /// performed and on each redo): `nil`, the default, for every part in ``undoParts``; `[]`
    /// when the run changed nothing (the item was already gone, the value already set). Read
    /// again after each ``undo(on:)``, which reverts what the last `execute` changed: the
    /// same parts. A per-member ``UndoCoordinator`` notes only these on the other members, so
    /// a run that changed nothing makes nobody's step stale; without one, undo and redo never
    /// read it. The step keeps its ``undoParts``.
    ///
    /// ```swift
    /// struct Rename: UndoableCommand {
    ///     var id: Int, title: String, old: String?
    ///     mutating func execute(on list: List) {
    ///         old = list[id]?.title
    ///         if old != title { list[id]?.title = title }
    ///     }
    ///     func undo(on list: List) { list[id]?.title = old }
    ///     var undoParts: [UndoPart] { [UndoPart("item", id)] }
    ///     var changedParts: [UndoPart]? { old == title ? [] : nil }
    /// }
    /// ```
    var changedParts: [UndoPart]? { get }
}

extension UndoableCommand {
    /// No name: performing the command leaves the undo group's name as it is.
    ///
    /// ```swift
    /// struct Touch: UndoableCommand {
    ///     func execute(on doc: Document) { doc.touch() }
    ///     func undo(on doc: Document) { doc.untouch() }
    /// }
    /// Touch().actionName   // ""
    /// ```
    public var actionName: String { "" }

    /// No parts declared: the step counts as touching every part.
    ///
    /// ```swift
    /// Touch().undoParts   // []
    /// ```
    @inlinable
    public var undoParts: [UndoPart] { [] }

    /// Every declared part changed: the step's ``undoParts``.
    ///
    /// ```swift
    /// Touch().changedParts   // nil
    /// ```
    @inlinable
    public var changedParts: [UndoPart]? { nil }
}
