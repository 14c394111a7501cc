@testable import UndoKit

// Issue 26: the reference model's costs, commands and `endEventGroup()`, written from
// LimitingUndoMemory.md, UsingCommands.md, GroupingAndTheEventLoop.md and the doc comments of
// `setActionCost(_:)`, `totalActionCost`, `actionCostLimit`, `perform(_:on:)`,
// `UndoableCommand` and `endEventGroup()`, not from UndoKit's sources.
//
// A group's cost is part of its metadata (`GroupInfo.cost`), so it travels through undo and
// redo, merges and removals as the name does; the stacks trim by it where they trim by count.

extension ModelBased {
    /// What a coordinator model hears of a member (ReferenceModel+Coordinator.swift).
    enum CoordinationEvent {
        /// A top-level group closed outside undo and redo as a new step (not merged).
        case closedStep(UInt64)
        /// A top-level undo took this step off the undo stack; it is a redo step now if the
        /// undo recorded one.
        case undidStep(UInt64, madeRedoStep: Bool)
        /// An undo nested in an open group built this new redo step.
        case nestedUndoMadeRedoStep(UInt64)
        /// A redo took this step off the redo stack; it is an undo step again if the redo was
        /// recorded at the top level.
        case redidStep(UInt64, keptAsUndoStep: Bool)
        /// A registration, or an empty group closed, outside undo and redo.
        case newEdit
    }
}

extension ModelBased.Reference {
    /// `totalActionCost`: the steps on the undo stack, the open one included.
    var totalActionCost: Int { undoStack.totalCost }

    /// `setActionCost(_:)`: adds to the outermost open group of the undo stack, opening the
    /// event's automatic group if needed; ignored while undoing or redoing (the step keeps the
    /// cost it was recorded with) and while registration is disabled.
    func setActionCost(_ bytes: Int) {
        precondition(bytes >= 0, "model: a negative cost would trap")
        guard isEnabled else {
            cover("cost ignored: registration disabled")
            return
        }
        guard !isBusy else {
            cover("cost ignored: undoing or redoing")
            return
        }
        if groupsByEvent && !autoPending && undoStack.nesting == 0 {
            cover("cost setter opened the automatic group")
        }
        prepareEventGroup()
        precondition(undoStack.nesting > 0, "model: setActionCost would trap")
        if undoStack.nesting > 1 {
            cover("cost set inside a nested group")
        }
        undoStack.updateTopInfo { $0.cost += bytes }
    }

    /// `actionCostLimit = bytes` (negative taken as 0): trims at once, keeping at least the
    /// newest closed step; like the `levelsOfUndo` setter, a trim ends the coalescing run.
    /// With branches the whole tree is held to it, least recently visited leaves first.
    func setActionCostLimit(_ bytes: Int) {
        actionCostLimit = max(0, bytes)
        reportingCleanChange {
            if keepsRedoBranches {
                let trimmed = trimTree()
                if trimmed > 0 {
                    cover("actionCostLimit setter trimmed the tree")
                    mayCoalesce = false
                }
            } else {
                undoStack.costLimit = actionCostLimit
                let before = undoStack.count
                undoStack.trimToCostLimit()
                if undoStack.count < before {
                    cover(undoStack.nesting > 0 ? "actionCostLimit setter trimmed, group open" : "actionCostLimit setter trimmed")
                    mayCoalesce = false
                }
            }
            checkTrimmedGroups()
        }
    }

    /// `perform(command, on: target)`: executes now (before recording, so it sees the level
    /// outside the automatic group it may open), records a step that runs `undo(on:)`, and
    /// names the group after a command with a non-empty name. While registration is
    /// disabled it executes and records nothing.
    func perform(_ spec: ModelBased.CommandSpec, targetID: Int) {
        guard var target = targets[targetID] else { preconditionFailure("model: performing on a released target") }
        var command = ModelBased.CommandState(spec: spec, previous: nil, runsUndo: true)
        command.execute(on: &target.value)
        target.log.append(ModelBased.LogEntry(value: target.value, groupingLevel: currentNesting))
        targets[targetID] = target
        if !isEnabled {
            cover("command performed while disabled")
        } else if undoStack.nesting > 1 || (undoStack.nesting == 1 && !automaticGroupIsOpen) {
            cover("command performed inside an explicit group")
        }
        cover("command performed")
        register(ModelBased.Action(targetID: targetID, setTo: 0, remaining: nil, innerName: nil, innerDiscardable: nil, command: command))
        if !spec.actionName.isEmpty {
            if isEnabled { cover("command named its group") }
            setActionName(spec.actionName)
        } else if case .assign = spec, isEnabled {
            cover("command with an empty name left the group's name")
        }
    }

    /// Whether `endEventGroup()` would close the automatic group: it is open at level 1 (not
    /// closed by hand, no explicit group inside it), registration is enabled, and no undo or
    /// redo runs. `groupsByEvent` and the run loop's modes do not matter.
    var canEndEventGroup: Bool {
        autoPending && automaticGroupIsOpen && undoStack.nesting == 1 && isEnabled && !isBusy
    }

    /// `endEventGroup()`: closes the automatic group as the end of the event would (with its
    /// notifications; an empty one stays and clears redo), and disarms the pending close.
    @discardableResult
    func endEventGroup() -> Bool {
        guard canEndEventGroup else {
            if autoPending && undoStack.nesting > 0 {
                cover("endEventGroup refused: the open group is not the automatic one alone")
            }
            if autoPending && !automaticGroupIsOpen && undoStack.nesting == 1 && isEnabled && !isBusy {
                cover("endEventGroup refused: an explicit group begun after the automatic one was closed by hand")
            }
            return false
        }
        cover("endEventGroup closed the automatic group")
        autoPending = false
        endUndoGrouping()
        return true
    }

    /// Whether closing the open top-level group now would merge it into the step below
    /// (CoalescingSteps.md), as `closeNewStep()` decides.
    var openGroupWouldCoalesce: Bool {
        guard undoStack.nesting == 1, let info = undoStack.topInfo, let key = info.coalescingKey, mayCoalesce,
            let previous = undoStack.infoBelowOpenGroup, previous.coalescingKey == key,
            let previousClose = previous.closedAt, clock - previousClose < coalescingInterval
        else { return false }
        return cleanIncludesOpenGroup || cleanDistance != 0
    }
}
