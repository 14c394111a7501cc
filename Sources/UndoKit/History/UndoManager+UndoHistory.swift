import Foundation

extension UndoManager {
    /// The manager's undo and redo stacks as a value of `Command`s that can be encoded and
    /// restored in a later process.
    ///
    /// Every step must have been recorded by ``perform(_:on:)`` with a `Command`.
    ///
    /// ```swift
    /// manager.perform(AddItem(title: "Milk"), on: list)
    /// manager.endEventGroup()                            // close the event's group first
    /// let history = try manager.undoHistory(of: AddItem.self)
    /// history.undoSteps.count                            // 1
    /// try history.encoded().write(to: historyURL)
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/groupOpen(groupingLevel:)`` while a group is open, and
    ///   ``UndoHistoryError/notACommand(stack:stepIndex:)`` if a step holds anything else (a
    ///   closure, another command type, or a command performed while undoing). Nothing changes.
    public func undoHistory<Command: UndoableCommand & Codable>(
        of _: Command.Type
    ) throws(UndoHistoryError) -> UndoHistory<Command> where Command.Model: AnyObject {
        try undoHistory(reading: .synchronous)
    }

    /// ``undoHistory(of:)`` for the commands `kind` reads.
    func undoHistory<Command: Codable>(reading kind: HistoryCommandKind<Command>) throws(UndoHistoryError) -> UndoHistory<Command> {
        let level = undoStack.nesting + redoStack.nesting
        guard level == 0 else { throw .groupOpen(groupingLevel: level) }
        let tree = recordingHistoryTree()
        let undoSteps = try historyReader(kind, stack: .undo, tree: tree).steps(of: undoStack.closedStepsWithEntries())
        let redoSteps = try historyReader(kind, stack: .redo, tree: tree).steps(of: redoStack.closedStepsWithEntries())
        var branches: [UndoHistory<Command>.BranchStep] = []
        let branchReader = historyReader(kind, stack: .branch, tree: tree)
        for id in tree.branches.keys.sorted() {
            let step = tree.branches[id]!
            guard let group = try branchReader.steps(of: [(id, step.entries)]).first else { continue }
            branches.append(UndoHistory.BranchStep(parent: step.parent, step: group))
        }
        return UndoHistory(undoSteps: undoSteps, redoSteps: redoSteps, branches: branches, cleanMark: savedCleanMark())
    }

    /// One step of the history, as ``undoHistory(of:)`` would hold it: the group of node `id`
    /// of ``historyTree``, with its id and date; `nil` for an id the tree does not have.
    ///
    /// For saving a history step by step instead of whole; O(steps) to find the node. Unlike
    /// ``undoHistory(of:)`` it works while a group is open, which is no node.
    ///
    /// ```swift
    /// let tree = manager.historyTree
    /// if let current = tree.current {
    ///     let step = try manager.undoHistoryStep(current, of: AddItem.self)   // the newest step
    /// }
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/notACommand(stack:stepIndex:)`` if the step holds
    ///   anything but `Command`s.
    public func undoHistoryStep<Command: UndoableCommand & Codable>(
        _ id: UndoTree.NodeID, of _: Command.Type
    ) throws(UndoHistoryError) -> UndoHistory<Command>.Group? where Command.Model: AnyObject {
        try undoHistoryStep(id, reading: .synchronous)
    }

    /// ``undoHistoryStep(_:of:)`` for the commands `kind` reads.
    func undoHistoryStep<Command: Codable>(
        _ id: UndoTree.NodeID, reading kind: HistoryCommandKind<Command>
    ) throws(UndoHistoryError) -> UndoHistory<Command>.Group? {
        guard let tree = state.historyTree else { return nil }
        let found = tree.branches[id].map { (HistoryStack.branch, $0.entries) }
            ?? undoStack.closedTopLevelGroupEntries(of: id).map { (HistoryStack.undo, $0) }
            ?? redoStack.closedTopLevelGroupEntries(of: id).map { (HistoryStack.redo, $0) }
        guard let (stack, entries) = found else { return nil }
        return try historyReader(kind, stack: stack, tree: tree).steps(of: [(id, entries)]).first
    }

    private func historyReader<Command: Codable>(
        _ kind: HistoryCommandKind<Command>, stack: HistoryStack, tree: HistoryTreeState
    ) -> HistoryReader<Command> {
        let log = state.partLog
        return HistoryReader(kind: kind, stack: stack, tree: tree) { id, metadata in
            log?.changes(since: id, touching: metadata?.parts) ?? []
        }
    }

    /// Rebuilds the undo and redo stacks from a history taken by ``undoHistory(of:)``, with
    /// `model` as every step's model.
    ///
    /// Call it on a manager with nothing to undo or redo, with `model` in the state the
    /// history was taken in. Afterwards the counts, action names, menu titles, ``undo()``,
    /// ``redo()``, ``historyTree``'s ids and dates and ``isClean`` are as when the history was
    /// taken (version 1 histories are clean where restored). Branches come back only on a
    /// manager with ``keepsRedoBranches``. Restoring runs no command and posts no
    /// notification. ``levelsOfUndo`` applies, keeping the newest undo steps.
    ///
    /// ```swift
    /// let history = try UndoHistory<AddItem>(encoded: savedData)
    /// try manager.restoreUndoHistory(history, on: list)
    /// manager.undoActionName   // "Add “Milk”"
    /// manager.undo()           // runs the saved command's undo(on:) on list
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/managerNotEmpty(undoCount:redoCount:)``,
    ///   ``UndoHistoryError/groupOpen(groupingLevel:)``, or
    ///   ``UndoHistoryError/corrupt(reason:)`` for a tree that does not hold together (an id
    ///   used twice, a branch below a missing step); the manager is untouched.
    public func restoreUndoHistory<Command: UndoableCommand & Codable>(
        _ history: UndoHistory<Command>, on model: Command.Model
    ) throws(UndoHistoryError) where Command.Model: AnyObject {
        try restoreUndoHistory(history, on: model, making: .synchronous)
    }

    /// ``restoreUndoHistory(_:on:)`` with the entries `kind` makes.
    func restoreUndoHistory<Command: Codable>(
        _ history: UndoHistory<Command>, on model: AnyObject, making kind: HistoryCommandKind<Command>
    ) throws(UndoHistoryError) {
        let level = undoStack.nesting + redoStack.nesting
        guard level == 0 else { throw .groupOpen(groupingLevel: level) }
        guard undoStack.isEmpty && redoStack.isEmpty else {
            throw .managerNotEmpty(undoCount: undoStack.topLevelCount, redoCount: redoStack.topLevelCount)
        }
        try Self.checkTree(of: history)
        let steps = stepsWithIDs(of: history)
        for step in steps.redo {
            push(step, id: step.id, onto: &redoStack, model: modelReference(for: model), runsExecute: true, kind: kind)
        }
        for step in steps.undo {
            push(step, id: step.id, onto: &undoStack, model: modelReference(for: model), runsExecute: false, kind: kind)
        }
        let hasTree = state.historyTree != nil || !history.branches.isEmpty
            || (history.undoSteps + history.redoSteps).contains { $0.id != nil }
        if hasTree {
            restoreTree(of: history, steps: steps, model: model, kind: kind)
        }
        ledger.endRestoring()
        ledger.cleanMarkKeeper.restore(restoredCleanMark(history.cleanMark), current: undoStack.steps.last, stepExists: stepExists)
        if hasTree {
            trimHistoryTree()
        }
        settle()
        // After settling, which takes every restored step as done now.
        restoreStaleness(of: history)
        publishObservableChanges()
    }

    /// Makes the restored steps that were stale when saved stale again, by the same changes.
    private func restoreStaleness<Command: Codable>(of history: UndoHistory<Command>) {
        let staleSteps = (history.undoSteps + history.redoSteps + history.branches.map(\.step)).filter { !$0.staleChanges.isEmpty }
        guard !staleSteps.isEmpty else { return }
        startPartLog()
        for step in staleSteps {
            guard let id = step.id, stepExists(id) else { continue }
            state.partLog?.restore(id, staleBy: step.staleChanges)
        }
    }

    /// Every id once, every branch below a step the history has, the clean mark at one.
    private static func checkTree<Command: Codable>(of history: UndoHistory<Command>) throws(UndoHistoryError) {
        var ids: Set<UndoTree.NodeID> = []
        for id in (history.undoSteps + history.redoSteps + history.branches.map(\.step)).compactMap(\.id) {
            guard ids.insert(id).inserted else { throw .corrupt(reason: "step id \(id) is used twice") }
        }
        for branch in history.branches {
            guard branch.step.id != nil else { throw .corrupt(reason: "a branch step has no id") }
            if let parent = branch.parent, !ids.contains(parent) {
                throw .corrupt(reason: "branch step \(branch.step.id!) hangs below \(parent), which the history does not have")
            }
        }
        // No cycles: from every branch step, parents lead to the path or the start.
        let parentOf = Dictionary(uniqueKeysWithValues: history.branches.map { ($0.step.id!, $0.parent) })
        for branch in history.branches {
            var seen: Set<UndoTree.NodeID> = []
            var cursor = branch.step.id
            while let id = cursor, let parent = parentOf[id] {
                guard seen.insert(id).inserted else { throw .corrupt(reason: "branch steps form a cycle at \(id)") }
                cursor = parent
            }
        }
        if case .step(let id) = history.cleanMark, !ids.contains(id) {
            throw .corrupt(reason: "the clean mark is at step \(id), which the history does not have")
        }
    }

    /// The history's undo and redo steps, each with its id: the saved one, or for a step saved
    /// without one (version 1), a new id in recording order (the undo steps oldest first,
    /// then the redo steps from the next redo). The id travels with its step from here on.
    private func stepsWithIDs<Command: Codable>(
        of history: UndoHistory<Command>
    ) -> (undo: [UndoHistory<Command>.Group], redo: [UndoHistory<Command>.Group]) {
        let saved = (history.undoSteps + history.redoSteps + history.branches.map(\.step)).compactMap(\.id)
        ledger.reserveIDs(through: saved.max())
        var undo = history.undoSteps
        for index in undo.indices where undo[index].id == nil {
            undo[index].id = ledger.newStepID()
        }
        var redo = history.redoSteps
        for index in redo.indices.reversed() where redo[index].id == nil {
            redo[index].id = ledger.newStepID()
        }
        return (undo, redo)
    }

    private func restoreTree<Command: Codable>(
        of history: UndoHistory<Command>, steps: (undo: [UndoHistory<Command>.Group], redo: [UndoHistory<Command>.Group]),
        model: AnyObject, kind: HistoryCommandKind<Command>
    ) {
        let tree = recordingHistoryTree()
        // Recording order; a step ``levelsOfUndo`` trimmed as it was pushed is not there.
        for step in steps.undo + steps.redo.reversed() {
            guard let id = step.id else { preconditionFailure("UndoManager: a restored step without an id") }
            guard undoStack.steps.contains(id) || redoStack.steps.contains(id) else { continue }
            tree.records[id] = HistoryTreeState.NodeRecord(date: step.date)
            tree.visit(id)
        }
        if tree.keepsBranches {
            for branch in history.branches {
                // Built on the redo stack, which holds a branch step's form, and taken off.
                let id = branch.step.id!
                push(branch.step, id: id, onto: &redoStack, model: modelReference(for: model), runsExecute: true, kind: kind)
                let (entries, _) = redoStack.popNewestTopLevelGroupEntries()
                ledger.stepBranched(id)
                tree.records[id] = HistoryTreeState.NodeRecord(date: branch.step.date)
                tree.addBranch(
                    HistoryTreeState.BranchStep(parent: branch.parent, entries: entries),
                    id: id)
            }
        }
    }

    /// The saved mark in the ledger's form; `nil` for ``UndoHistory/CleanMark/current``.
    private func restoredCleanMark<Command: Codable>(_ saved: UndoHistory<Command>.CleanMark) -> CleanMark? {
        switch saved {
        case .current: nil
        case .start: .start
        case .unreachable: .unreachable
        case .step(let id): .step(id)
        }
    }

    private func savedCleanMark<Command: Codable>() -> UndoHistory<Command>.CleanMark {
        if isAtCleanMark {
            return .current
        }
        switch ledger.cleanMark {
        case .start: return .start
        case .step(let id): return .step(id)
        case .openGroup, .unreachable: return .unreachable
        }
    }

    /// Pushes `group` onto `stack` as a closed group: step `id` (which its close gives it, as
    /// the id the next new step gets), or, with no id, nested in the one pushed.
    private func push<Command: Codable>(
        _ group: UndoHistory<Command>.Group, id: StepID?, onto stack: inout UndoStack,
        model reference: ModelReference, runsExecute: Bool, kind: HistoryCommandKind<Command>
    ) {
        if let id {
            ledger.closeNextStep(as: id)
        }
        stack.pushBegin()
        if id != nil && (group.actionName != nil || group.isDiscardable || group.parts != nil) {
            let metadata = stack.openTopMetadata()
            metadata.name = group.actionName
            metadata.isDiscardable = group.isDiscardable
            metadata.parts = group.parts
        }
        for item in group.items {
            switch item {
            case .command(let command):
                stack.pushCommand(kind.entry(command, reference, runsExecute))
            case .group(let nested):
                push(nested, id: nil, onto: &stack, model: reference, runsExecute: runsExecute, kind: kind)
            }
        }
        stack.closeGroup(discardIfEmpty: false)
    }
}

/// Where a history's groups are read from: its raw value names it in
/// ``UndoHistoryError/notACommand(stack:stepIndex:)``.
private enum HistoryStack: String {
    case undo
    case redo
    case branch
}

/// Reads closed groups into history groups, oldest first.
private struct HistoryReader<Command: Codable> {
    /// Which commands the history holds.
    let kind: HistoryCommandKind<Command>
    /// Where the groups are, for errors and for the direction of their commands.
    let stack: HistoryStack
    /// Where the steps' dates are.
    let tree: HistoryTreeState
    /// What a top-level step, with its metadata, is stale by (see ``PartChangeLog``).
    let staleness: (StepID, GroupMetadata?) -> [UndoChange]
    /// The direction every command step must have: a redo or branch step's commands execute.
    var runsExecute: Bool { stack != .undo }

    /// `groups` are closed top-level groups, oldest first, each with its step's id.
    func steps(of groups: [(id: StepID, entries: [UndoStack.Entry])]) throws(UndoHistoryError) -> [UndoHistory<Command>.Group] {
        var steps: [UndoHistory<Command>.Group] = []
        steps.reserveCapacity(groups.count)
        for group in groups {
            steps.append(try step(group.id, of: group.entries, index: steps.count))
        }
        return steps
    }

    /// Step `id`, whose closed top-level group is `entries`; `index` is its place among the
    /// steps read (for errors).
    private func step(_ id: StepID, of entries: [UndoStack.Entry], index: Int) throws(UndoHistoryError) -> UndoHistory<Command>.Group {
        // Open groups, outermost first.
        var open: [UndoHistory<Command>.Group] = []
        var closed: UndoHistory<Command>.Group?
        func finish(_ group: UndoHistory<Command>.Group) {
            guard open.isEmpty else {
                open[open.count - 1].items.append(.group(group))
                return
            }
            closed = group
        }
        for entry in entries {
            switch entry {
            case .begin(let metadata):
                var group = UndoHistory<Command>.Group()
                if open.isEmpty {
                    group.actionName = metadata?.name
                    group.isDiscardable = metadata?.isDiscardable ?? false
                    group.parts = metadata?.parts
                    group.staleChanges = staleness(id, metadata)
                }
                open.append(group)
            case .end:
                finish(open.removeLast())
            case .action(_, let owner, let handler):
                open[open.count - 1].items.append(.command(try command(in: owner, handler, step: index)))
            case .singleton(_, let owner, let handler):
                finish(UndoHistory<Command>.Group(
                    items: [.command(try command(in: owner, handler, step: index))],
                    staleChanges: open.isEmpty ? staleness(id, nil) : []))
            }
        }
        guard var step = closed else { preconditionFailure("UndoManager: step \(id) holds no closed group") }
        step.id = id
        step.date = tree.records[id]?.date
        return step
    }

    private func command(in owner: UndoStepOwner, _ handler: ErasedHandler, step: Int) throws(UndoHistoryError) -> Command {
        guard owner.isCommand else { throw .notACommand(stack: stack.rawValue, stepIndex: step) }
        let entry = unsafeDowncast(owner, to: CommandEntry.self)
        // A step that keeps its command runs as its stack says; an entry knows its own way.
        guard entry.keepsCommandInStep || entry.runsExecute == runsExecute,
              let command = kind.command(entry.command(bits: handler.inlineBits)) else {
            throw .notACommand(stack: stack.rawValue, stepIndex: step)
        }
        return command
    }
}

/// Which commands a history holds: how the command of a step's entry becomes one, and how a
/// restored one becomes an entry. One per kind of history (synchronous commands, asynchronous
/// ones, both), so the reading and restoring code is the same for all.
struct HistoryCommandKind<Command: Codable> {
    /// The history's form of an entry's command; `nil` if it is not one of the history's.
    let command: (Any) -> Command?
    /// A new entry for a restored command on a model, running `execute` next if the flag says so.
    let entry: (Command, ModelReference, Bool) -> CommandEntry
}

extension HistoryCommandKind where Command: UndoableCommand & Codable, Command.Model: AnyObject {
    /// Synchronous commands of one type (``UndoManager/perform(_:on:)``).
    static var synchronous: Self {
        Self(
            command: { $0 as? Command },
            entry: { command, model, runsExecute in CommandEntry.make(command, on: model, runsExecute: runsExecute) }
        )
    }
}
