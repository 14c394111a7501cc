/// Coalescing: several quick groups with the same key make one undo step.
///
/// See <doc:CoalescingSteps> for when to use it and its pitfalls.
extension UndoManager {
    /// Marks the undo step being recorded with a coalescing key; `nil` removes it.
    ///
    /// When a top-level group closes with key `K` less than ``coalescingInterval`` after the
    /// newest closed undo group, also with key `K`, with nothing undone, redone or removed in
    /// between, the two become one step: undoing it reverts both, newer actions first, and its
    /// name is the newer group's. A run of keystrokes, each its own event, becomes one step:
    ///
    /// ```swift
    /// func type(_ character: Character) {
    ///     text.append(character)
    ///     manager.registerUndo(withTarget: text) { $0.removeLast() }
    ///     manager.setActionName("Typing")
    ///     manager.setActionCoalescingKey("typing")
    /// }
    /// type("h"); manager.runLoop.tick()
    /// type("i"); manager.runLoop.tick()
    /// manager.undoCount   // 1
    /// manager.undo()      // removes "i", then "h"
    /// ```
    ///
    /// Like ``setActionName(_:)``, it targets the outermost open group, opening the event's
    /// automatic group if needed, and does nothing while registration is disabled. A group is
    /// not merged into the step the clean mark points at; <doc:CoalescingSteps> has the rest.
    ///
    /// - Precondition: A group is open, or ``groupsByEvent`` is on.
    public func setActionCoalescingKey(_ key: String?) {
        guard let metadata = metadataOfOpenTopGroup(
            in: "setActionCoalescingKey(_:)", "must begin a group before setting an undo coalescing key"
        ) else { return }
        metadata.coalescingKey = key
        if key != nil {
            state.usesCoalescing = true
        }
        publishObservableChanges()
    }

    /// Whether a group may merge into the step at the clean mark (``markClean()``). `false` by
    /// default, so the saved state stays reachable by undo. An app that saves after every step
    /// (the `todo` sample) sets it, so repeated edits still make one step; a merge into the
    /// marked step makes the manager unclean until the next ``markClean()``.
    ///
    /// ```swift
    /// manager.coalescesIntoCleanStep = true
    /// ```
    public var coalescesIntoCleanStep: Bool {
        get { state.coalescesIntoCleanStep }
        set { state.coalescesIntoCleanStep = newValue }
    }

    /// How soon after the previous group with the same coalescing key a group must close to
    /// merge into it. The default is one second.
    ///
    /// Measured between closes: a steady run of keystrokes keeps merging however long it
    /// lasts; a longer pause starts a new step.
    ///
    /// ```swift
    /// manager.coalescingInterval = .milliseconds(500)
    /// ```
    public var coalescingInterval: Duration {
        get { state.coalescingInterval }
        set { state.coalescingInterval = newValue }
    }

    /// The time source coalescing reads when a group with a key closes; the default reads
    /// `ContinuousClock.now`.
    ///
    /// Replace it in tests to make the interval deterministic:
    ///
    /// ```swift
    /// var now = ContinuousClock.now
    /// manager.coalescingClock = { now }
    /// type("h"); manager.runLoop.tick()
    /// now += .seconds(2)              // a pause: the next keystroke starts a new step
    /// type("i"); manager.runLoop.tick()
    /// manager.undoCount               // 2
    /// ```
    public var coalescingClock: () -> ContinuousClock.Instant {
        get { state.coalescingClock ?? { ContinuousClock.now } }
        set { state.coalescingClock = newValue }
    }

    /// Closes the open top-level group as a new step, merging it into the step below if the
    /// coalescing rule says so (once a key was ever set). Returns whether it was empty.
    func closeNewStepCoalescing() -> Bool {
        guard let outermost = undoStack.openBegins.first,
              case .begin(let closing?) = undoStack.entries[outermost],
              let key = closing.coalescingKey
        else {
            state.newestGroupMayCoalesce = false
            return closeNewStep()
        }
        let now = coalescingClock()
        closing.closedAt = now
        let wasEmpty = undoStack.entries.count == outermost + 1
        if openGroupMerges(withKey: key, closingAt: now) {
            let merged = undoStack.steps.last
            undoStack.closeOpenTopLevelGroupMergingIntoPrevious()
            // The merged step is done again, with the parts of both: the part log and a
            // per-member coordinator hear of it with the other edits, when the close settles.
            if let merged {
                ledger.stepMerged(merged, parts: closing.changedPartsOfRun ?? closing.parts)
            }
            if let merged {
                ledger.cleanMarkKeeper.openGroupMerged(into: merged)
            }
            // The budget may be exceeded now.
            undoStack.trimToCostLimit()
        } else {
            _ = closeNewStep()
        }
        state.newestGroupMayCoalesce = true
        return wasEmpty
    }

    /// Whether the open top-level group, closing at `now` with `key`, merges into the step
    /// below.
    private func openGroupMerges(withKey key: String, closingAt now: ContinuousClock.Instant) -> Bool {
        guard state.newestGroupMayCoalesce,
              let previous = undoStack.metadataBelowOpenTopLevelGroup,
              previous.coalescingKey == key,
              let previousClose = previous.closedAt, now - previousClose < state.coalescingInterval
        else { return false }
        // Never into a stale step: its changes may already be overwritten by someone else's.
        if let below = undoStack.steps.last, isStale(below, metadata: previous) {
            return false
        }
        // Not into the marked step: the saved state must stay reachable by undo, unless the
        // app saves after every step anyway.
        return ledger.cleanMark == .openGroup || !isAtCleanMark || coalescesIntoCleanStep
    }

    /// Whether ending the event now would merge its open group into the step below (an
    /// ``UndoCoordinator`` names the step it would undo from that).
    var openGroupWouldMerge: Bool {
        guard state.usesCoalescing, undoStack.nesting == 1, let outermost = undoStack.openBegins.first,
              case .begin(let closing?) = undoStack.entries[outermost], let key = closing.coalescingKey
        else { return false }
        return openGroupMerges(withKey: key, closingAt: coalescingClock())
    }

    /// Something other than a new step changed the undo stack's newest step.
    @inline(__always)
    func stopCoalescing() {
        state.newestGroupMayCoalesce = false
    }
}
