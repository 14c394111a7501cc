/// The queries a person's Undo menu, history list and conflict banner read under a stale-step
/// policy (spec K3): every one gives the answer ``UndoManager/undo()`` and
/// ``UndoManager/redo()`` act on. Nothing here runs for a manager that never noted a change
/// or keeps the ``StaleStepPolicy/run`` policy: the listing getters test
/// `state.checksStaleSteps` first.
extension UndoManager {
    /// The stale steps on the undo stack, the next undo first: every step a change noted
    /// since it was done touched, not only the next one. Empty if changes were never noted.
    /// Whatever the policy; its count is how many steps someone else's work blocks.
    /// O(steps).
    ///
    /// ```swift
    /// let blocked = manager.staleUndoSteps
    /// banner.text = "\(blocked.count) of your steps were changed by others"
    /// ```
    public var staleUndoSteps: [StaleStep] {
        trackRead(.staleUndoSteps, \.staleUndoSteps)
        return staleSteps(onUndoStack: true)
    }

    /// The stale steps on the redo stack, the next redo first; see ``staleUndoSteps``.
    ///
    /// ```swift
    /// manager.staleRedoSteps.map(\.actionName)   // ["Set title"]
    /// ```
    public var staleRedoSteps: [StaleStep] {
        trackRead(.staleRedoSteps, \.staleRedoSteps)
        return staleSteps(onUndoStack: false)
    }

    /// The title for an Undo menu item that says why the next undo step is held back: the
    /// step's title from ``undoMenuTitle(forUndoActionName:)`` followed by who changed its
    /// parts, such as "Undo Edit title (changed by Bob)". `nil` when the next undo step is
    /// not stale; ``undoMenuItemTitle`` stays the title of what ``undo()`` would do.
    ///
    /// ```swift
    /// manager.staleStepPolicy = .refuse
    /// undoItem.title = manager.staleUndoMenuItemTitle ?? manager.undoMenuItemTitle
    /// undoItem.isEnabled = manager.canUndo
    /// ```
    public var staleUndoMenuItemTitle: String? {
        trackRead(.staleUndoStep, \.staleUndoStep)
        return staleStep(onUndoStack: true).map { staleMenuItemTitle(for: $0, title: undoMenuTitle(forUndoActionName:)) }
    }

    /// The title for a Redo menu item that says why the next redo step is held back, such as
    /// "Redo Edit title (changed by Bob)"; see ``staleUndoMenuItemTitle``.
    ///
    /// ```swift
    /// redoItem.title = manager.staleRedoMenuItemTitle ?? manager.redoMenuItemTitle
    /// ```
    public var staleRedoMenuItemTitle: String? {
        trackRead(.staleRedoStep, \.staleRedoStep)
        return staleStep(onUndoStack: false).map { staleMenuItemTitle(for: $0, title: redoMenuTitle(forUndoActionName:)) }
    }

    // MARK: Internals

    /// A menu title for `stale`: its action's title, and who changed it since ("someone
    /// else" when no change named an origin).
    private func staleMenuItemTitle(for stale: StaleStep, title: (String) -> String) -> String {
        let origins = stale.origins
        let changedBy = origins.isEmpty ? "someone else" : origins.joined(separator: ", ")
        return "\(title(stale.actionName)) (changed by \(changedBy))"
    }

    /// The stale steps of one stack, the next first.
    func staleSteps(onUndoStack: Bool) -> [StaleStep] {
        guard let log = state.partLog, undoStack.nesting == 0 else { return [] }
        var steps: [StaleStep] = []
        let collect = { (id: StepID, metadata: GroupMetadata?) -> Bool in
            let changes = log.changes(since: id, touching: metadata?.parts)
            if !changes.isEmpty {
                steps.append(StaleStep(id: id, metadata: metadata, changes: changes))
            }
            // Walks every step.
            return false
        }
        _ = onUndoStack ? undoStack.newestStepMetadata(where: collect) : redoStack.newestStepMetadata(where: collect)
        return steps
    }

    /// The names of the steps successive undos (`onUndoStack`) or redos would run under the
    /// policy, the next first: under ``StaleStepPolicy/skip`` the steps that are not stale,
    /// under ``StaleStepPolicy/refuse`` the steps above the newest stale one (none if the next
    /// is stale). Only asked while `state.checksStaleSteps` is set; Apple's list otherwise.
    func runnableStepNames(onUndoStack: Bool) -> [String] {
        var names: [String] = []
        let skips = state.staleStepPolicy == .skip
        let collect = { (id: StepID, metadata: GroupMetadata?) -> Bool in
            if !self.isStale(id, metadata: metadata) {
                names.append(metadata?.name ?? "")
                return false
            }
            // A stale step: skipped over, or where a refusing undo stops.
            return !skips
        }
        _ = onUndoStack ? undoStack.newestStepMetadata(where: collect) : redoStack.newestStepMetadata(where: collect)
        return names
    }

    /// Whether `names` is what the names list of one stack reads now (Observation).
    func stepNamesAreUnchanged(_ names: [String], onUndoStack: Bool) -> Bool {
        guard state.checksStaleSteps else {
            return onUndoStack ? undoStack.closedTopLevelNamesNewestFirst(equal: names) : redoStack.closedTopLevelNamesNewestFirst(equal: names)
        }
        return runnableStepNames(onUndoStack: onUndoStack) == names
    }

    /// The names list of one stack under the policy.
    func stepNames(onUndoStack: Bool) -> [String] {
        guard state.checksStaleSteps else {
            return onUndoStack ? undoStack.closedTopLevelNamesNewestFirst() : redoStack.closedTopLevelNamesNewestFirst()
        }
        return runnableStepNames(onUndoStack: onUndoStack)
    }
}

extension StaleStep {
    /// A stale step as the manager reports it: with its id.
    init(id: StepID, metadata: GroupMetadata?, changes: [UndoChange]) {
        self.init(actionName: metadata?.name ?? "", parts: metadata?.parts, changes: changes)
        self.id = id
    }
}
