@testable import UndoKit

// Issue 26: the reference model of `UndoCoordinator`, written from CoordinatingUndoManagers.md,
// the doc comments of `UndoCoordinator` and its members, and the coordinator's lines in
// CoalescingSteps.md, NavigatingTheHistory.md and GroupingAndTheEventLoop.md, not from
// UndoKit's sources.
//
// The members are ordinary reference models (`Reference`); the coordinator keeps its own two
// lists of (member, step), a step named by the node its group carries (every closed top-level
// group has one, and it travels with the group through undo and redo). It hears what its
// attached members do as they do it (`CoordinationEvent`: a new step closed, a step undone or
// redone, a new edit), which is all an order needs; steps that leave a member's stacks any other
// way (removal, trimming, clearing) simply leave the order, which a pass after every operation
// checks against the members' stacks.

extension ModelBased {
    /// A step in the coordinated order: its member's slot and its node there.
    struct OrderedStep: Equatable, CustomStringConvertible {
        var member: Int
        var node: UInt64

        var description: String { "m\(member)#\(node)" }
    }

    /// The reference coordinator over the members of a coordinated script.
    final class CoordinatorReference {
        /// Every member slot's model, attached or not. A slot's model is replaced when its
        /// manager goes away (`release(_:with:)`).
        private(set) var members: [Reference]
        /// The attached slots, in the order they were attached (`UndoCoordinator.managers`).
        private(set) var attached: [Int] = []
        /// Undoable steps, oldest first: the last is what `undo()` reverts.
        private(set) var undoOrder: [OrderedStep] = []
        /// Undone steps in the order they were undone: the last is what `redo()` performs.
        private(set) var redoOrder: [OrderedStep] = []
        /// The shared run loop's arming order (`Reference.armingClock`).
        private var armClock = 0
        /// When each member first armed since the last tick (for the coverage of a tick
        /// closing a group opened again in the pass).
        private var firstArmedInPass: [Int: Int] = [:]
        var coverage: [String: Int] = [:]

        init(members: [Reference]) {
            self.members = members
            for slot in members.indices {
                members[slot].armingClock = { [unowned self] in self.nextArm(slot) }
            }
        }

        private func nextArm(_ slot: Int) -> Int {
            armClock += 1
            if firstArmedInPass[slot] == nil {
                firstArmedInPass[slot] = armClock
            }
            return armClock
        }

        func cover(_ situation: String) {
            coverage[situation, default: 0] += 1
        }

        // MARK: Membership

        /// `attach(_:)`: a manager that already has steps brings them in as older than every
        /// step the coordinator orders, its undo steps below all others and its redo steps
        /// performed after all others; attaching twice does nothing.
        func attach(_ slot: Int) {
            guard !attached.contains(slot) else {
                cover("attached twice: nothing happened")
                return
            }
            attached.append(slot)
            let member = members[slot]
            member.coordination = { [unowned self] event in self.hear(event, from: slot) }
            let undoSteps = member.undoStack.closedTopLevelInfosNewestFirst.reversed().map {
                OrderedStep(member: slot, node: $0.node!)
            }
            // The redo steps from the one performed last to the next one.
            let redoSteps = member.redoStack.closedTopLevelInfosNewestFirst.reversed().map {
                OrderedStep(member: slot, node: $0.node!)
            }
            if !undoSteps.isEmpty || !redoSteps.isEmpty {
                cover("attached a manager with a history")
            }
            if !redoSteps.isEmpty {
                cover("attached a manager with redo steps")
            }
            undoOrder = undoSteps + undoOrder
            redoOrder = redoSteps + redoOrder
        }

        /// `detach(_:)`: the manager takes its steps with it and keeps its stacks.
        func detach(_ slot: Int) {
            guard let index = attached.firstIndex(of: slot) else {
                cover("detached a manager not attached: nothing happened")
                return
            }
            cover("detached a manager")
            attached.remove(at: index)
            members[slot].coordination = nil
            undoOrder.removeAll { $0.member == slot }
            redoOrder.removeAll { $0.member == slot }
        }

        /// A manager went away: it leaves the order; `fresh` takes its slot, unattached.
        func release(_ slot: Int, with fresh: Reference) {
            if attached.contains(slot) {
                cover("an attached manager went away")
            }
            attached.removeAll { $0 == slot }
            undoOrder.removeAll { $0.member == slot }
            redoOrder.removeAll { $0.member == slot }
            members[slot].coordination = nil
            fresh.armingClock = { [unowned self] in self.nextArm(slot) }
            firstArmedInPass[slot] = nil
            members[slot] = fresh
        }

        // MARK: What the members do

        private func hear(_ event: CoordinationEvent, from slot: Int) {
            let step = { (node: UInt64) in OrderedStep(member: slot, node: node) }
            switch event {
            case let .closedStep(node):
                undoOrder.append(step(node))
            case let .undidStep(node, madeRedoStep):
                // "A manager undone or redone directly moves its step, as if the coordinator
                // had done it: the undone step becomes the most recently undone."
                undoOrder.removeAll { $0 == step(node) }
                if madeRedoStep {
                    redoOrder.append(step(node))
                } else {
                    cover("an undo left no redo step: the step left the order")
                }
            case let .nestedUndoMadeRedoStep(node):
                // A new redo step of this member, undone just now.
                cover("a nested undo made a redo step")
                redoOrder.append(step(node))
            case let .redidStep(node, keptAsUndoStep):
                redoOrder.removeAll { $0 == step(node) }
                if keptAsUndoStep {
                    undoOrder.append(step(node))
                } else {
                    cover("a redo kept no undo step: the step left the order")
                }
            case .newEdit:
                // "A new edit in any manager ends redo for all of them": the coordinator clears
                // the other members' redo stacks (its own manager clears its own).
                for other in attached where other != slot && members[other].redoStack.count > 0 {
                    cover("a new edit cleared another member's redo steps")
                    members[other].reportingCleanChange {
                        members[other].endRedoPath(
                            clearing: "another member's new edit cleared the redos it needed",
                            branching: "another member's new edit")
                    }
                }
                redoOrder.removeAll { $0.member != slot }
            }
        }

        /// Steps that left a member's stacks by removal, trimming or clearing leave the order.
        func prune() {
            for slot in attached {
                let member = members[slot]
                let undoNodes = Set(member.undoStack.closedTopLevelInfosNewestFirst.map(\.node))
                let redoNodes = Set(member.redoStack.closedTopLevelInfosNewestFirst.map(\.node))
                let before = undoOrder.count + redoOrder.count
                undoOrder.removeAll { $0.member == slot && !undoNodes.contains($0.node) }
                redoOrder.removeAll { $0.member == slot && !redoNodes.contains($0.node) }
                if undoOrder.count + redoOrder.count < before {
                    cover("steps a member dropped left the order")
                }
            }
        }

        // MARK: Undo and redo

        /// The attached members whose automatic group `endEventGroup()` would close, oldest
        /// group first.
        var closableMembers: [Int] {
            attached.filter { members[$0].canEndEventGroup }.sorted { members[$0].armedAt < members[$1].armedAt }
        }

        /// What `undo()` and `redo()` would find after ending the current event in every
        /// attached member: the step `undo()` would revert and its name (an open event group
        /// closes as the newest step unless it merges into its member's previous step, which
        /// then takes its name), and whether closing an empty group, a new edit, ends redo.
        private var lookAhead: (undo: (member: Int, name: String)?, endsRedo: Bool) {
            var newest: (member: Int, name: String)?
            var mergedNames: [Int: String] = [:]
            var endsRedo = false
            for slot in closableMembers {
                let member = members[slot]
                let name = member.undoStack.topInfo?.name ?? ""
                if member.undoStack.newestIsBegin {
                    endsRedo = true
                }
                if member.openGroupWouldCoalesce {
                    mergedNames[slot] = name
                } else {
                    newest = (slot, name)
                }
            }
            if let newest {
                return (newest, endsRedo)
            }
            guard let last = undoOrder.last else { return (nil, endsRedo) }
            return ((last.member, mergedNames[last.member] ?? name(of: last, redo: false)), endsRedo)
        }

        private func name(of step: OrderedStep, redo: Bool) -> String {
            let stack = redo ? members[step.member].redoStack : members[step.member].undoStack
            guard let info = stack.closedTopLevelInfosNewestFirst.first(where: { $0.node == step.node }) else {
                preconditionFailure("model: \(step) is in the order but not on its member's stack")
            }
            return info.name ?? ""
        }

        var canUndo: Bool { lookAhead.undo != nil }
        var canRedo: Bool {
            guard !redoOrder.isEmpty else { return false }
            if lookAhead.endsRedo {
                cover("coordinator cannot redo: ending an empty event group would end redo")
                return false
            }
            return true
        }
        var undoActionName: String { lookAhead.undo?.name ?? "" }
        var redoActionName: String { canRedo ? name(of: redoOrder.last!, redo: true) : "" }
        var undoMenuItemTitle: String { undoActionName.isEmpty ? "Undo" : "Undo \(undoActionName)" }
        var redoMenuItemTitle: String { redoActionName.isEmpty ? "Redo" : "Redo \(redoActionName)" }
        var undoActionNames: [String] { undoOrder.reversed().map { name(of: $0, redo: false) } }
        var redoActionNames: [String] { redoOrder.reversed().map { name(of: $0, redo: true) } }
        var isClean: Bool { attached.allSatisfy { members[$0].isClean } }
        /// The member `undo()` would call, once the events are ended.
        var undoMember: Int? { lookAhead.undo?.member }

        /// Whether the event group that opened last would merge into its member's previous
        /// step when `undo()` ends the event (the coordinator then names an older step).
        var newestOpenGroupWouldCoalesce: Bool {
            closableMembers.last.map { members[$0].openGroupWouldCoalesce } ?? false
        }

        /// Whether `undo()` would stop the program: the member whose step it would revert has a
        /// group open that ending the event does not close (`UndoCoordinator.undo()`'s
        /// precondition). "The step undo() would revert" is then undefined, and so are
        /// `undoActionName` and `undoMenuItemTitle`.
        var undoWouldTrap: Bool {
            guard let slot = undoMember else { return false }
            return !closableMembers.contains(slot) && members[slot].undoStack.nesting > 0
        }

        /// `undo()` and `redo()` first end the current event for every attached member whose
        /// automatic group can be closed, oldest group first.
        private func endEvents() {
            let closable = closableMembers
            if closable.count > 1 {
                cover("ended several members' events, oldest first")
            }
            for slot in closable {
                cover("coordinator ended a member's event")
                members[slot].endEventGroup()
            }
            prune()
        }

        /// `undo()`: through the owning member's `undo()`.
        func undo() {
            endEvents()
            guard let last = undoOrder.last else {
                cover("coordinator undo with nothing to undo")
                return
            }
            cover("coordinator undo")
            members[last.member].undo()
            prune()
        }

        /// `redo()`: through the owning member's `redo()`.
        func redo() {
            endEvents()
            guard let last = redoOrder.last else {
                cover("coordinator redo with nothing to redo")
                return
            }
            cover("coordinator redo")
            if members[last.member].undoStack.nesting > 0 {
                cover("coordinator redo nested in a member's open group")
            }
            members[last.member].redo()
            prune()
        }

        /// `markClean()`: marks every attached member.
        func markClean() {
            for slot in attached {
                members[slot].markClean()
            }
        }

        /// The shared run loop's tick: every member with an automatic group waiting closes it,
        /// in the order the groups opened.
        func tick() {
            let pending = members.indices.filter { members[$0].autoPending }.sorted {
                members[$0].armedAt < members[$1].armedAt
            }
            let closing = pending.filter { attached.contains($0) && members[$0].undoStack.nesting > 0 }
            if closing.count > 1 {
                cover("one tick closed several members' groups")
                // A member that armed again in the pass closes behind a group opened after its
                // first arming.
                let closesBehindANewerGroup = closing.contains { slot in
                    guard let first = firstArmedInPass[slot] else { return false }
                    return closing.contains { other in
                        (first..<members[slot].armedAt).contains(members[other].armedAt)
                    }
                }
                if closesBehindANewerGroup {
                    cover("one tick closed a group opened again in the pass behind a newer one")
                }
            }
            firstArmedInPass = [:]
            for slot in pending {
                members[slot].tick(.standard)
            }
            prune()
        }
    }
}
