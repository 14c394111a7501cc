/// A value whose every change is an undoable step that restores a snapshot.
///
/// All changes go through ``modify(actionName:_:)``, which applies a closure to a copy of
/// the value, keeps the result, and registers an undo that puts back the value as it was
/// before. Undo and redo restore exact snapshots; nothing is re-applied:
///
/// ```swift
/// struct Todo: Equatable { var title: String; var done = false }
///
/// let manager = UndoManager()
/// let todos = UndoableValue([Todo](), undoManager: manager)
/// todos.modify(actionName: "Add") { $0.append(Todo(title: "Buy milk")) }
/// manager.runLoop.tick()                      // end of the event: one undo step
/// todos.modify(actionName: "Complete") { $0[0].done = true }
/// manager.runLoop.tick()
/// manager.undo()                              // todos.value[0].done == false
/// manager.redo()                              // todos.value[0].done == true
/// ```
///
/// Each step keeps the whole previous value alive while it is on a stack: one item changed in
/// a flat array of 10,000 keeps a copy of all 10,000 (see <doc:UndoableValues>).
///
/// The manager holds the value weakly, as its steps' target; the value holds its manager
/// strongly, and removes its steps when freed. Like ``UndoManager``, it is not `Sendable`.
public final class UndoableValue<Value> {
    /// The current value. Change it with ``modify(actionName:_:)``.
    ///
    /// ```swift
    /// let counter = UndoableValue(0, undoManager: manager)
    /// counter.modify { $0 += 1 }
    /// counter.value   // 1
    /// ```
    public private(set) var value: Value

    /// The manager that records this value's changes.
    ///
    /// ```swift
    /// let text = UndoableValue("", undoManager: manager)
    /// text.undoManager === manager   // true
    /// ```
    public let undoManager: UndoManager

    /// Called after every change of ``value``: a modification, an undo or a redo.
    ///
    /// Not called when a ``modify(actionName:_:)`` body throws. If the callback captures the
    /// `UndoableValue`, capture it weakly, or it is never freed.
    ///
    /// ```swift
    /// todos.onChange = { [weak view] change in
    ///     view?.show(change.newValue)
    ///     if change.kind == .undo { view?.flash() }
    /// }
    /// ```
    ///
    /// Don't call ``modify(actionName:_:)`` from the callback: during an undo that would
    /// record a new change in the redo group being built.
    public var onChange: ((Change) -> Void)?

    /// Reports the size in bytes of each snapshot this value's undo steps keep, as the step's
    /// cost (``UndoManager/setActionCost(_:)``), so that ``UndoManager/actionCostLimit`` can
    /// bound the memory the history holds. `nil`, the default, reports nothing.
    ///
    /// Called with the old value each time a change is recorded (undo and redo keep the
    /// step's cost). Estimate what the snapshot does not share with the current value.
    ///
    /// ```swift
    /// let pixels = UndoableValue([UInt8](repeating: 0, count: 1 << 20), undoManager: manager)
    /// pixels.snapshotCost = { $0.count }
    /// manager.actionCostLimit = 64 << 20   // at most 64 snapshots of 1 MiB
    /// ```
    public var snapshotCost: ((Value) -> Int)?

    /// Catches a nested modify, whose change the outer one would overwrite.
    private var isModifying = false
    /// ``modify(actionName:_:)`` calls ``onChange`` itself, once the step is named.
    private var isPerformingModify = false

    /// Creates an undoable value whose changes `undoManager` records.
    ///
    /// Creating it records nothing: the initial value is where undo stops.
    ///
    /// ```swift
    /// let manager = UndoManager()
    /// let draft = UndoableValue("", undoManager: manager)
    /// manager.canUndo   // false
    /// ```
    public init(_ value: Value, undoManager: UndoManager) {
        self.value = value
        self.undoManager = undoManager
    }

    deinit {
        // Its steps would do nothing, yet keep their snapshots and menu items alive.
        undoManager.removeAllActions(withTarget: self)
    }

    /// Changes the value through `body` and records the change as an undoable step.
    ///
    /// `body` works on a copy. If it returns, the copy becomes ``value``, an undo restoring the
    /// previous value is registered (by the manager's usual rules), `actionName` names the
    /// group, and ``onChange`` is called; a step is recorded even if nothing changed. If it
    /// throws, nothing happens and the error propagates.
    ///
    /// ```swift
    /// let removed = todos.modify(actionName: "Delete") { $0.remove(at: 2) }
    ///
    /// try todos.modify(actionName: "Rename") { todos in
    ///     guard !newTitle.isEmpty else { throw RenameError.emptyTitle }   // nothing recorded
    ///     todos[0].title = newTitle
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - actionName: The name for menu titles such as "Undo Delete"; `nil` leaves the
    ///     group's name as it is, and `""` removes it.
    ///   - body: The change, applied to a copy of the value.
    /// - Returns: What `body` returns.
    /// - Precondition: No `modify` of this value is running, as it would when `body` calls
    ///   `modify` on the same value; make the change in the outer body instead.
    @discardableResult
    public func modify<R>(actionName: String? = nil, _ body: (inout Value) throws -> R) rethrows -> R {
        if isModifying {
            fatalError(  // not precondition: release builds keep the message
                "UndoableValue.modify(actionName:_:) called from inside the body of a modify of the same value; "
                    + "the outer modify would overwrite the inner change\n"
                    + "Fix: make the change through the outer body's inout value, or modify again after the outer "
                    + "modify returns"
            )
        }
        // A copy leaves `value` untouched if `body` throws; copy-on-write makes it free.
        var newValue = value
        let result: R
        do {
            isModifying = true
            defer { isModifying = false }
            result = try body(&newValue)
        }
        let oldValue = value
        // A command, so the step can be saved when `Value` is `Codable`. Performing it
        // installs the new value; the stacks hold the snapshot, never this object.
        isPerformingModify = true
        undoManager.perform(Snapshot(otherValue: newValue), on: self)
        isPerformingModify = false
        // Only for a new change: an undo or redo step keeps the cost it was recorded with.
        if let snapshotCost {
            undoManager.setActionCost(snapshotCost(oldValue))
        }
        if let actionName {
            undoManager.setActionName(actionName)
        }
        // Last, so that the callback sees the step fully recorded, name included.
        onChange?(Change(oldValue: oldValue, newValue: value, kind: .modify))
        return result
    }

    /// Swaps ``value`` with a step's snapshot: both execute and undo.
    fileprivate func exchange(_ snapshot: inout Value) {
        let oldValue = value
        swap(&value, &snapshot)
        guard !isPerformingModify else { return }
        onChange?(Change(oldValue: oldValue, newValue: value, kind: undoManager.isUndoing ? .undo : .redo))
    }
}

extension UndoableValue {
    /// The step ``UndoableValue/modify(actionName:_:)`` records: the value on the other side
    /// of the change (the older value while the step can be undone, the newer while it can
    /// be redone). Undo and redo swap it with ``UndoableValue/value``.
    ///
    /// When `Value` is `Codable`, so is the snapshot, and the history can be saved:
    ///
    /// ```swift
    /// let history = try manager.undoHistory(of: UndoableValue<[Todo]>.Snapshot.self)
    /// let data = try history.encoded()
    /// // Later, with a value holding what `todos.value` held when the history was taken:
    /// try restoredManager.restoreUndoHistory(UndoHistory<UndoableValue<[Todo]>.Snapshot>(encoded: data), on: restoredTodos)
    /// ```
    public struct Snapshot: UndoableCommand {
        /// The value this step puts back.
        ///
        /// ```swift
        /// history.undoSteps.last?.commands.last?.otherValue   // what undo would restore
        /// ```
        public var otherValue: Value

        /// Creates a step that puts back `otherValue`.
        ///
        /// ```swift
        /// let step = UndoableValue<Int>.Snapshot(otherValue: 1)
        /// ```
        public init(otherValue: Value) {
            self.otherValue = otherValue
        }

        /// Swaps the snapshot in: performs a change, or redoes it.
        ///
        /// ```swift
        /// manager.redo()   // runs execute(on:) of the step on the redo stack
        /// ```
        public mutating func execute(on model: UndoableValue<Value>) {
            model.exchange(&otherValue)
        }

        /// Swaps the snapshot in: undoes the change.
        ///
        /// ```swift
        /// manager.undo()   // runs undo(on:) of the step on the undo stack
        /// ```
        public mutating func undo(on model: UndoableValue<Value>) {
            model.exchange(&otherValue)
        }
    }
}

extension UndoableValue.Snapshot: Codable where Value: Codable {}
extension UndoableValue.Snapshot: Equatable where Value: Equatable {}
extension UndoableValue.Snapshot: Sendable where Value: Sendable {}

extension UndoableValue {
    /// One change of an ``UndoableValue``, as ``UndoableValue/onChange`` reports it.
    ///
    /// ```swift
    /// counter.onChange = { change in
    ///     print("\(change.kind): \(change.oldValue) → \(change.newValue)")
    /// }
    /// counter.modify { $0 += 1 }   // prints "modify: 0 → 1"
    /// manager.undo()               // prints "undo: 1 → 0"
    /// ```
    public struct Change {
        /// What made the value change.
        ///
        /// ```swift
        /// if change.kind == .modify { document.markEdited() }
        /// ```
        public enum Kind: Hashable, Sendable {
            /// A ``UndoableValue/modify(actionName:_:)`` whose body returned.
            ///
            /// ```swift
            /// counter.modify { $0 += 1 }   // onChange receives kind .modify
            /// ```
            case modify
            /// An undo restored an older snapshot.
            ///
            /// ```swift
            /// manager.undo()   // onChange receives kind .undo
            /// ```
            case undo
            /// A redo restored a newer snapshot.
            ///
            /// ```swift
            /// manager.redo()   // onChange receives kind .redo
            /// ```
            case redo
        }

        /// The value before the change.
        ///
        /// ```swift
        /// let delta = change.newValue - change.oldValue
        /// ```
        public let oldValue: Value

        /// The value after the change, equal to ``UndoableValue/value`` when the callback runs.
        ///
        /// ```swift
        /// label.text = "\(change.newValue)"
        /// ```
        public let newValue: Value

        /// What made the value change.
        ///
        /// ```swift
        /// change.kind   // .undo while the manager undoes
        /// ```
        public let kind: Kind
    }
}

extension UndoableValue.Change: Sendable where Value: Sendable {}

extension UndoableValue.Change: Equatable where Value: Equatable {}
