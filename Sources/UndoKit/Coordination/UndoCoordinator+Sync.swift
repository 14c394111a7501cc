/// Keeping the coordinator's order true to its managers' stacks.
///
/// Invariant, between calls: every closed top-level group of every attached manager carries a
/// token, and the steps of a member in ``UndoCoordinator/undoSteps`` (``redoSteps``) are
/// exactly the tokens of its undo (redo) stack, in stack order. Open groups carry no token.
///
/// Events keep it: a close tags the new group, an undo or redo moves one step between the
/// orders; each is handled as it happens, because the order of moves across managers is
/// exactly what the stacks cannot tell afterwards. Removals and trims post no events, but
/// only lower a stack's count of closed top-level groups, which nothing else lowers between
/// events, so comparing counts (``UndoCoordinator/synchronizeIfNeeded()``) finds them and a
/// full comparison (``UndoCoordinator/synchronize(_:_:)``) drops the missing tokens.
///
/// The event handlers take an O(1) path when the stacks look exactly as expected (the common
/// case: one group closed, undone or redone, nothing removed meanwhile) and fall back to the
/// full comparison otherwise.
extension UndoCoordinator {
    func handle(_ event: UndoManager.Event, from member: Member) {
        guard let manager = member.manager else { return }
        switch event {
        case .didOpenUndoGroup:
            if manager.undoStack.nesting == 1 {
                nextGroupOpenSerial += 1
                member.groupOpenSerial = nextGroupOpenSerial
            }
        case .didCloseUndoGroup:
            if manager.undoStack.nesting == 0 {
                topLevelGroupDidClose(in: member, manager)
            }
        case .didUndoChange:
            groupWasUndone(in: member, manager)
        case .didRedoChange:
            groupWasRedone(in: member, manager)
        case .checkpoint, .willCloseUndoGroup, .willUndoChange, .willRedoChange:
            break
        }
    }

    /// A new top-level group closed outside undo and redo: it becomes the newest step. Its
    /// registrations may have cleared the redo stack.
    private func topLevelGroupDidClose(in member: Member, _ manager: UndoManager) {
        let undoCount = manager.undoStack.closedTopLevelGroupCount
        let redoCount = manager.redoStack.closedTopLevelGroupCount
        let stackTokens = manager.undoStack.newestClosedTopLevelTokens(2)
        let known = newestUndoSteps(of: member, count: 1)
        guard manager.undoStack.nesting == 0,
              undoCount == member.syncedUndoCount + 1,
              redoCount == member.syncedRedoCount || redoCount == 0,
              let newest = stackTokens.last, newest == nil,
              stackTokens.dropLast().elementsEqual(known.map(\.token))
        else {
            synchronize(member, manager)
            return
        }
        if redoCount == 0 && member.syncedRedoCount > 0 {
            redoSteps.removeAll { $0.member === member }
        }
        let token = makeToken()
        manager.undoStack.tagNewestClosedTopLevelGroup(with: token)
        undoSteps.append(Step(token: token, member: member))
        member.recordSync(of: manager)
        manager.checkInvariantsInDebugBuilds()
    }

    /// The member undid a group. The redo group got the undone group's metadata, token
    /// included, unless it stayed empty or registration was disabled (then the step is gone).
    private func groupWasUndone(in member: Member, _ manager: UndoManager) {
        let undoCount = manager.undoStack.closedTopLevelGroupCount
        let redoCount = manager.redoStack.closedTopLevelGroupCount
        let knownUndo = newestUndoSteps(of: member, count: 2)
        let knownRedo = newestRedoSteps(of: member, count: 1)
        let undoTokens = manager.undoStack.newestClosedTopLevelTokens(1)
        let redoTokens = manager.redoStack.newestClosedTopLevelTokens(2)
        let redoBelowNewestMatches = redoTokens.dropLast().elementsEqual(knownRedo.map(\.token))
        if manager.undoStack.nesting == 0 && manager.redoStack.nesting == 0,
           undoCount == member.syncedUndoCount - 1,
           let undone = knownUndo.last,
           undoTokens.elementsEqual(knownUndo.dropLast().map(\.token)) {
            if redoCount == member.syncedRedoCount + 1, redoBelowNewestMatches, redoTokens.last == undone.token {
                undoSteps.remove(at: undone.index)
                redoSteps.append(Step(token: undone.token, member: member))
            } else if redoCount == member.syncedRedoCount, redoTokens.suffix(1).elementsEqual(knownRedo.map(\.token)) {
                undoSteps.remove(at: undone.index)
            } else {
                synchronize(member, manager)
                return
            }
        } else if manager.undoStack.nesting > 0 && manager.redoStack.nesting == 0,
                  undoCount == member.syncedUndoCount,
                  redoCount == member.syncedRedoCount + 1, redoBelowNewestMatches,
                  let newest = redoTokens.last, newest == nil {
            // undoNestedGroup() reverted a group nested in the open one: its inverse is a
            // new step on the redo stack.
            let token = makeToken()
            manager.redoStack.tagNewestClosedTopLevelGroup(with: token)
            redoSteps.append(Step(token: token, member: member))
        } else {
            synchronize(member, manager)
            return
        }
        member.recordSync(of: manager)
        manager.checkInvariantsInDebugBuilds()
    }

    /// The member redid a group. The new undo group got the redone group's metadata, token
    /// included, unless registration was disabled; a group redone inside an open group gave
    /// its metadata to that open group instead, and is part of it from now on.
    private func groupWasRedone(in member: Member, _ manager: UndoManager) {
        // The open group is not a step (yet): it gets a token of its own when it closes, and
        // undoing a group nested in it must not copy the redone group's token again.
        manager.undoStack.clearOpenTopLevelToken()
        let undoCount = manager.undoStack.closedTopLevelGroupCount
        let redoCount = manager.redoStack.closedTopLevelGroupCount
        let knownRedo = newestRedoSteps(of: member, count: 2)
        let knownUndo = newestUndoSteps(of: member, count: 1)
        let redoTokens = manager.redoStack.newestClosedTopLevelTokens(1)
        let undoTokens = manager.undoStack.newestClosedTopLevelTokens(2)
        guard manager.redoStack.nesting == 0,
              redoCount == member.syncedRedoCount - 1,
              let redone = knownRedo.last,
              redoTokens.elementsEqual(knownRedo.dropLast().map(\.token))
        else {
            synchronize(member, manager)
            return
        }
        if manager.undoStack.nesting == 0,
           undoCount == member.syncedUndoCount + 1,
           undoTokens.last == redone.token,
           undoTokens.dropLast().elementsEqual(knownUndo.map(\.token)) {
            redoSteps.remove(at: redone.index)
            undoSteps.append(Step(token: redone.token, member: member))
        } else if undoCount == member.syncedUndoCount, undoTokens.suffix(1).elementsEqual(knownUndo.map(\.token)) {
            redoSteps.remove(at: redone.index)
        } else {
            synchronize(member, manager)
            return
        }
        member.recordSync(of: manager)
        manager.checkInvariantsInDebugBuilds()
    }

    /// Compares every member's counts with what the orders hold and repairs the members whose
    /// groups were removed; drops members that went away.
    func synchronizeIfNeeded() {
        var someMemberIsGone = false
        for member in members {
            guard let manager = member.manager else {
                someMemberIsGone = true
                continue
            }
            if manager.undoStack.closedTopLevelGroupCount != member.syncedUndoCount
                || manager.redoStack.closedTopLevelGroupCount != member.syncedRedoCount {
                synchronize(member, manager)
            }
        }
        if someMemberIsGone {
            members.removeAll { $0.manager == nil }
            undoSteps.removeAll { $0.member.manager == nil }
            redoSteps.removeAll { $0.member.manager == nil }
        }
    }

    /// Makes the member's steps match its stacks: drops steps whose group is gone, appends
    /// groups the orders do not hold yet (a step moved by an undo or redo, a group that just
    /// closed), in stack order, and tags groups without a unique token first.
    ///
    /// It cannot tell in which order several moves happened, which is why events are handled
    /// as they come and this only ever has at most one move to find.
    func synchronize(_ member: Member, _ manager: UndoManager) {
        var seen: Set<UInt64> = []
        let isDuplicate = { (token: UInt64) in !seen.insert(token).inserted }
        let undoTokens = manager.undoStack.tagClosedTopLevelGroups(replacing: isDuplicate, makeToken)
        let redoTokens = manager.redoStack.tagClosedTopLevelGroups(replacing: isDuplicate, makeToken)
        let undoSet = Set(undoTokens)
        let redoSet = Set(redoTokens)
        var keptUndo: Set<UInt64> = []
        var keptRedo: Set<UInt64> = []
        undoSteps.removeAll { step in
            guard step.member === member else { return false }
            guard undoSet.contains(step.token) else { return true }
            keptUndo.insert(step.token)
            return false
        }
        redoSteps.removeAll { step in
            guard step.member === member else { return false }
            guard redoSet.contains(step.token) else { return true }
            keptRedo.insert(step.token)
            return false
        }
        for token in undoTokens where !keptUndo.contains(token) {
            undoSteps.append(Step(token: token, member: member))
        }
        for token in redoTokens where !keptRedo.contains(token) {
            redoSteps.append(Step(token: token, member: member))
        }
        member.recordSync(of: manager)
        manager.checkInvariantsInDebugBuilds()
    }

    /// The member's newest `count` undo steps, oldest first, with their indices.
    private func newestUndoSteps(of member: Member, count: Int) -> [(index: Int, token: UInt64)] {
        newestSteps(of: member, in: undoSteps, count: min(count, member.syncedUndoCount))
    }

    /// The member's newest `count` redo steps, oldest first, with their indices.
    private func newestRedoSteps(of member: Member, count: Int) -> [(index: Int, token: UInt64)] {
        newestSteps(of: member, in: redoSteps, count: min(count, member.syncedRedoCount))
    }

    /// The search behind the two above. Their callers cap `count` at the member's synced
    /// count, which is how many steps of the member the order holds, so a member with fewer
    /// steps than asked for does not cost a scan of the whole order.
    private func newestSteps(of member: Member, in steps: [Step], count: Int) -> [(index: Int, token: UInt64)] {
        var found: [(index: Int, token: UInt64)] = []
        var index = steps.count - 1
        while index >= 0 && found.count < count {
            if steps[index].member === member {
                found.append((index, steps[index].token))
            }
            index -= 1
        }
        return found.reversed()
    }

    /// Checks the invariant above after synchronizing, trapping on the first broken part.
    /// Linear in the size of the orders and stacks; for tests.
    func checkInvariants() {
        synchronizeIfNeeded()
        var allTokens: Set<UInt64> = []
        for step in undoSteps + redoSteps {
            precondition(members.contains { $0 === step.member }, "UndoCoordinator: a step of a detached member")
            precondition(allTokens.insert(step.token).inserted, "UndoCoordinator: token \(step.token) twice in the orders")
        }
        for member in members {
            guard let manager = member.manager else { continue }
            precondition(manager.coordinator === self, "UndoCoordinator: a member attached elsewhere")
            let undoTokens = manager.undoStack.closedTopLevelTokens()
            let redoTokens = manager.redoStack.closedTopLevelTokens()
            let orderedUndo = undoSteps.filter { $0.member === member }.map { Optional($0.token) }
            let orderedRedo = redoSteps.filter { $0.member === member }.map { Optional($0.token) }
            precondition(orderedUndo == undoTokens, "UndoCoordinator: undo order \(orderedUndo) but stack \(undoTokens)")
            precondition(orderedRedo == redoTokens, "UndoCoordinator: redo order \(orderedRedo) but stack \(redoTokens)")
            precondition(member.syncedUndoCount == undoTokens.count && member.syncedRedoCount == redoTokens.count,
                         "UndoCoordinator: synced counts out of date")
        }
    }
}
