/// The byte budget: a limit on the memory the undo steps hold, beside ``UndoManager/levelsOfUndo``'s
/// limit on their number.
///
/// See <doc:LimitingUndoMemory> for when to use it and its pitfalls.
extension UndoManager {
    /// Adds `bytes` to the cost of the undo step being recorded: what its actions keep alive
    /// (snapshots, captured buffers), as you estimate it.
    ///
    /// Targets the outermost open group, like ``setActionName(_:)``, opening the event's
    /// automatic group if needed; calls add up. The cost travels with the step through undo
    /// and redo, so calls made while undoing or redoing are ignored. Does nothing while
    /// registration is disabled.
    ///
    /// ```swift
    /// let old = image
    /// image.apply(filter)
    /// manager.registerUndo(withTarget: document) { $0.image = old }
    /// manager.setActionCost(old.byteCount)
    /// ```
    ///
    /// - Precondition: `bytes` is not negative; a group is open, or ``groupsByEvent`` is on.
    public func setActionCost(_ bytes: Int) {
        if bytes < 0 {
            // fatalError rather than precondition: release builds keep the message.
            fatalError("UndoManager.setActionCost(_:) needs a cost of 0 or more, got \(bytes)\nFix: pass the bytes the step keeps alive (0 for none)")
        }
        // Outside undo and redo the current stack is the undo stack.
        guard !isBusy, let metadata = metadataOfOpenTopGroup(
            in: "setActionCost(_:)", "must begin a group before setting an undo action cost"
        ) else { return }
        metadata.cost += bytes
        undoStack.totalCost += bytes
        publishObservableChanges()
    }

    /// The sum of the costs of the steps on the undo stack, the step being recorded
    /// included. O(1).
    ///
    /// ```swift
    /// manager.setActionCost(1_024)
    /// manager.runLoop.tick()
    /// manager.totalActionCost   // 1024
    /// ```
    public var totalActionCost: Int {
        trackRead(.totalActionCost, \.totalActionCost)
        return undoStack.totalCost
    }

    /// The most bytes the undo stack's steps may cost; 0, the default, means no limit.
    ///
    /// After a top-level group closes, the oldest undo groups are dropped until
    /// ``totalActionCost`` fits, never the group just closed: a step over the budget stays,
    /// alone, until the next closes. Trimming is as for ``levelsOfUndo`` (O(1) amortized per
    /// step, no notification, redo steps untouched); setting the limit trims at once, keeping
    /// the newest closed step. Negative values are taken as 0.
    ///
    /// ```swift
    /// manager.actionCostLimit = 64 << 20   // keep at most 64 MiB of snapshots
    /// ```
    public var actionCostLimit: Int {
        get { undoStack.costLimit }
        set {
            setCostLimit(newValue)
            publishObservableChanges()
        }
    }
}
