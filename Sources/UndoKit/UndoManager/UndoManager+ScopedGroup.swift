/// Scoped groups that roll back (spec J2).
extension UndoManager {
    /// Runs `body` inside an undo group that is closed however `body` exits, and rolled back
    /// if it throws: a compound edit applies completely or not at all.
    ///
    /// The group is opened with ``beginUndoGrouping()`` and closed with ``endUndoGrouping()``,
    /// so it nests like any group and cannot be left open. When `body` returns, its
    /// registrations form one step (or join the enclosing group), named `name` if you give
    /// one.
    ///
    /// When `body` throws, what it registered in the group is undone: the group is closed
    /// with ``endUndoGrouping()`` and reverted with ``undoNestedGroup()``, whose actions run
    /// newest first as an undo would, so a model that registers inverses ends exactly where
    /// it was. Then the rollback removes every trace: the redo group the actions built is
    /// dropped, the redo stack is put back as it was before the call (registrations had
    /// cleared it), the clean mark and the step count are as before, and an event group that
    /// the scope itself opened is removed if it stayed empty. Observers see the close and the
    /// undo: checkpoint, will-close, did-close, then checkpoint, will-undo, …, did-undo. The
    /// error is rethrown.
    ///
    /// ```swift
    /// enum EditError: Error { case outOfRange }
    /// final class Cells { var values = [0, 0, 0] }
    ///
    /// func set(_ index: Int, to value: Int, in cells: Cells, using manager: UndoManager) throws {
    ///     guard cells.values.indices.contains(index) else { throw EditError.outOfRange }
    ///     let old = cells.values[index]
    ///     cells.values[index] = value
    ///     manager.registerUndo(withTarget: cells) { [unowned manager] cells in
    ///         try? set(index, to: old, in: cells, using: manager)
    ///     }
    /// }
    ///
    /// let manager = UndoManager(), cells = Cells()
    /// do {
    ///     try manager.withUndoGroup(named: "Fill") {
    ///         try set(0, to: 1, in: cells, using: manager)
    ///         try set(7, to: 1, in: cells, using: manager)   // throws
    ///     }
    /// } catch {
    ///     // cells.values == [0, 0, 0]; manager.canUndo == false
    /// }
    /// ```
    ///
    /// Nested scopes are savepoints: an inner scope that throws rolls back only its own part,
    /// and the enclosing scope goes on if it catches the error. Subclasses see the usual
    /// calls to their overrides; commands performed with ``perform(_:on:)``, coalescing keys
    /// and costs roll back with the rest.
    ///
    /// There is no `async` variant: while an `async` body is suspended, other code on the
    /// same actor may register into the open group, and a rollback cannot tell those
    /// registrations from the body's. Do the asynchronous work first, then apply its result
    /// in a synchronous scope. See <doc:GroupingAndTheEventLoop>.
    ///
    /// While registration is disabled no group is recorded, so there is nothing to roll
    /// back: `body` simply runs.
    ///
    /// - Parameters:
    ///   - name: The step's action name (see ``setActionName(_:)``), set before `body` runs;
    ///     `body` may set another. `nil` leaves the name alone.
    ///   - body: The edit. It must leave the groups as it found them: every group it begins,
    ///     it ends.
    /// - Returns: What `body` returns.
    /// - Precondition: No undo or redo is in progress (an undo action registers its inverse
    ///   directly), and `body` leaves ``groupingLevel`` as it found it.
    public func withUndoGroup<Result>(named name: String? = nil, _ body: () throws -> Result) rethrows -> Result {
        guard !isBusy else {
            programmerError(
                in: PublicCall("withUndoGroup(named:_:)"), "withUndoGroup may not be called while undoing or redoing",
                fix: "an undo or redo action registers its inverse directly; open scopes outside undo() and redo()"
            )
        }
        guard registrationIsEnabled else { return try body() }
        let levelBefore = undoStack.nesting
        // Names, costs and flags set in the scope go to the outermost open group (spec R34);
        // if that group was open before the scope, its metadata is restored on rollback.
        let outerMetadata = levelBefore > 0 ? undoStack.topMetadata : nil
        storage.pointee.undoScopes.append(UndoScope(
            cleanDistance: undoStack.cleanDistance,
            cleanMarkIncludesOpenGroup: undoStack.cleanMarkIncludesOpenGroup,
            totalCost: undoStack.totalCost,
            outerMetadata: outerMetadata.map { ($0, $0.copy()) },
            outerGroupHadNoMetadata: levelBefore > 0 && outerMetadata == nil,
            coordinatorRedoOrder: storage.pointee.isCoordinated ? coordinator?.redoSteps.map(\.token) : nil
        ))
        beginUndoGrouping()
        let level = undoStack.nesting
        storage.pointee.undoScopes[storage.pointee.undoScopes.count - 1].level = level
        storage.pointee.undoScopes[storage.pointee.undoScopes.count - 1].openedAutomaticGroup = level - levelBefore == 2
        if let name {
            setActionName(name)
        }
        do {
            let result = try body()
            checkScopeIsBalanced(at: level)
            endUndoGrouping()
            endScope()
            return result
        } catch {
            checkScopeIsBalanced(at: level)
            rollBackScope()
            throw error
        }
    }

    /// Spec R4 and R10.6 inside a scope: the redo stack is about to be cleared. The innermost
    /// scope keeps its entries (the first time only: later clearings inside the same scope
    /// clear steps the scope itself made) so that a rollback can put them back.
    func parkRedoStackForScope() {
        let index = storage.pointee.undoScopes.count - 1
        guard storage.pointee.undoScopes[index].parkedRedo == nil else { return }
        storage.pointee.undoScopes[index].parkedRedo = ParkedRedoStack(
            entries: redoStack.entries.elements,
            topLevelCount: redoStack.topLevelCount,
            totalCost: redoStack.totalCost
        )
    }

    /// A coordinated manager made a new edit inside a scope: the coordinator hears of it when
    /// the outermost scope succeeds, so that a rollback leaves the other managers' redo steps
    /// untouched.
    func deferNewEditForScope() {
        storage.pointee.undoScopes[storage.pointee.undoScopes.count - 1].madeNewEdit = true
    }

    private func checkScopeIsBalanced(at level: Int) {
        let nesting = undoStack.nesting
        guard nesting == level && !isBusy else {
            programmerError(
                in: PublicCall("withUndoGroup(named:_:)"),
                "the body of withUndoGroup left groupingLevel \(nesting) where its group is at level \(level)",
                fix: "end every group the body begins, and do not end the scope's group or remove all actions inside it"
            )
        }
    }

    /// The scope's group closed normally: what the scope kept passes to the enclosing one.
    private func endScope() {
        let scope = storage.pointee.undoScopes.removeLast()
        if let outer = storage.pointee.undoScopes.indices.last {
            if storage.pointee.undoScopes[outer].parkedRedo == nil {
                storage.pointee.undoScopes[outer].parkedRedo = scope.parkedRedo
            }
            if scope.madeNewEdit {
                storage.pointee.undoScopes[outer].madeNewEdit = true
            }
        } else if scope.madeNewEdit {
            newEditEndsRedo()
        }
        publishObservableChanges()
    }

    /// The body threw: closes the scope's group, undoes it, and puts back what it changed.
    private func rollBackScope() {
        // The close must neither merge the group into the previous step (an undo would then
        // revert that step too) nor trim an old step to make room for it.
        if undoStack.nesting == 1 {
            undoStack.topMetadata?.coalescingKey = nil
        }
        let (limit, costLimit) = (undoStack.limit, undoStack.costLimit)
        undoStack.limit = 0
        undoStack.costLimit = 0
        endUndoGrouping()
        undoNestedGroup()
        undoStack.limit = limit
        undoStack.costLimit = costLimit
        // Removed only now: closing an empty group clears the redo stack (spec R10.6), which
        // must park it in this scope.
        let scope = storage.pointee.undoScopes.removeLast()

        // The redo stack holds the rollback's redo group, or nothing: the registrations that
        // made the rolled-back steps cleared (and parked) what was there.
        redoStack.removeAll()
        if let parked = scope.parkedRedo {
            redoStack.entries.append(contentsOf: parked.entries)
            redoStack.topLevelCount = parked.topLevelCount
            redoStack.totalCost = parked.totalCost
        }
        if scope.openedAutomaticGroup && undoStack.removeEmptyOpenTopLevelGroup() {
            automaticGroupIsPending = false
        }
        if let (metadata, saved) = scope.outerMetadata {
            metadata.restore(from: saved)
        } else if scope.outerGroupHadNoMetadata && undoStack.topMetadata != nil {
            undoStack.replaceOpenTopMetadata(with: nil)
        }
        undoStack.totalCost = scope.totalCost
        releaseDroppedEntries()
        let wasClean = undoStack.cleanDistance == 0
        undoStack.cleanDistance = scope.cleanDistance
        undoStack.cleanMarkIncludesOpenGroup = scope.cleanMarkIncludesOpenGroup
        checkInvariantsInDebugBuilds()
        if let order = scope.coordinatorRedoOrder, let coordinator {
            coordinator.memberRolledBack(self, restoringRedoOrder: order)
        }
        notifyIfCleanStateChanged(wasClean: wasClean)
        publishObservableChanges()
    }
}

/// What a ``UndoManager/withUndoGroup(named:_:)`` call in progress must restore if its body
/// throws.
struct UndoScope {
    /// The nesting of the undo stack once the scope's group is open.
    var level = 0
    /// Whether opening the scope's group opened the event's automatic group around it.
    var openedAutomaticGroup = false
    /// The redo stack as it was before a registration in the scope cleared it.
    var parkedRedo: ParkedRedoStack?
    /// The clean mark before the scope (the stacks are as before after a rollback, so the
    /// distance is too).
    let cleanDistance: Int
    let cleanMarkIncludesOpenGroup: Bool
    /// The undo stack's total cost before the scope.
    let totalCost: Int
    /// The outermost open group's metadata, if a group was open before the scope, and a copy
    /// of its fields then.
    let outerMetadata: (GroupMetadata, GroupMetadata)?
    /// Whether a group was open before the scope and had no metadata yet.
    let outerGroupHadNoMetadata: Bool
    /// The coordinator's redo order before the scope, if the manager is coordinated.
    let coordinatorRedoOrder: [UInt64]?
    /// Whether a registration in the scope ended redo (for the coordinator).
    var madeNewEdit = false

    init(
        cleanDistance: Int, cleanMarkIncludesOpenGroup: Bool, totalCost: Int,
        outerMetadata: (GroupMetadata, GroupMetadata)?, outerGroupHadNoMetadata: Bool,
        coordinatorRedoOrder: [UInt64]?
    ) {
        self.outerGroupHadNoMetadata = outerGroupHadNoMetadata
        self.cleanDistance = cleanDistance
        self.cleanMarkIncludesOpenGroup = cleanMarkIncludesOpenGroup
        self.totalCost = totalCost
        self.outerMetadata = outerMetadata
        self.coordinatorRedoOrder = coordinatorRedoOrder
    }
}

/// A redo stack's entries and counters, kept aside by a scope.
struct ParkedRedoStack {
    let entries: [UndoStack.Entry]
    let topLevelCount: Int
    let totalCost: Int
}
