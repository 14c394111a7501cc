@testable import UndoKit

// An independent reference model of Apple's UndoManager, written from
// /work/shared/spec/undomanager-semantics.md (sections B, C, D, E) and not from UndoKit's
// sources. It is deliberately naive: flat entry arrays, linear walks, a tree rebuilt for
// removal. Clarity beats speed here; the stacks in a script stay small.
//
// The only UndoKit type it uses is `UndoManager.Event`, as the vocabulary for the
// notification sequences it predicts.

extension ModelBased {
    /// A begin mark's metadata (spec B): what `setActionName`, `setActionIsDiscardable` and
    /// `setActionUserInfoValue` write, and what travels with a group through undo and redo.
    struct GroupInfo: Equatable {
        var name: String?
        var isDiscardable = false
        var userInfo: [Int: Int] = [:]
        /// Issue 10: `setActionCoalescingKey(_:)`, and when the group closed as a new step
        /// with a key (model clock, milliseconds).
        var coalescingKey: String?
        var closedAt: Int?
        /// Issue 20: the history-tree node of a closed top-level step, and when its group
        /// closed (model clock, milliseconds). Both travel with the group through undo and
        /// redo, as the rest of the metadata does (spec R19.6, R21.5).
        var node: UInt64?
        var date: Int?
        /// Issue 26: the bytes `setActionCost(_:)` added to the group (LimitingUndoMemory.md).
        /// It travels with the group through undo and redo, as the rest of the metadata does.
        var cost = 0
    }

    /// One entry of a stack (spec B): groups are begin/end marks around their contents.
    enum Entry {
        case begin(GroupInfo)
        case end
        case action(Action)
    }

    /// A stack as spec B describes it: newest entry last.
    struct Stack {
        private(set) var entries: [Entry] = []
        /// Open groups: begin marks without their end mark.
        private(set) var nesting = 0
        /// Top-level groups, an open top-level group included (spec B's `count`).
        private(set) var count = 0
        /// `levelsOfUndo`; only ever non-zero on the undo stack (spec R28).
        var limit = 0
        /// Issue 26: `actionCostLimit`; only ever non-zero on the undo stack ("redo steps are
        /// never dropped").
        var costLimit = 0
        /// Issue 26: how many top-level groups the cost limit dropped (coverage only).
        var costDrops = 0
        /// Issue 10: for each top-level group trimmed, how many closed top-level groups were
        /// newer than it; the reference takes them to check its clean mark.
        var droppedDepths: [Int] = []
        /// Issue 26: for each of `droppedDepths`, whether the cost limit dropped it.
        var droppedByCost: [Bool] = []

        /// Top-level groups that are closed.
        var closedCount: Int { nesting > 0 ? count - 1 : count }

        var isEmpty: Bool { entries.isEmpty }

        var newestIsEnd: Bool {
            if case .end? = entries.last { true } else { false }
        }

        var newestIsBegin: Bool {
            if case .begin? = entries.last { true } else { false }
        }

        mutating func clear() {
            entries = []
            nesting = 0
            count = 0
        }

        mutating func pushBegin() {
            if nesting == 0 {
                count += 1
            }
            entries.append(.begin(GroupInfo()))
            nesting += 1
        }

        /// Spec R10 step 7: closing a top-level group over the limit drops the oldest one,
        /// once.
        mutating func pushEnd() {
            precondition(nesting > 0, "model: end mark with no open group")
            entries.append(.end)
            nesting -= 1
            if nesting == 0 && limit > 0 && count > limit {
                dropOldestTopLevelGroup()
            }
            // Issue 26: after a top-level group closes, the oldest steps go while the total
            // is over the budget, never the step just closed. Both limits apply together.
            if nesting == 0 {
                trimToCostLimit()
            }
        }

        /// Issue 26: the sum of the costs of the top-level groups, an open one included
        /// (`totalActionCost` on the undo stack).
        var totalCost: Int {
            var depth = 0
            var total = 0
            for entry in entries {
                switch entry {
                case let .begin(info):
                    if depth == 0 { total += info.cost }
                    depth += 1
                case .end: depth -= 1
                case .action: break
                }
            }
            return total
        }

        /// Issue 26: drops the oldest closed top-level groups while the total is over
        /// `costLimit`, keeping at least the newest closed one (LimitingUndoMemory.md).
        mutating func trimToCostLimit() {
            while costLimit > 0 && totalCost > costLimit && closedCount > 1 {
                dropOldestTopLevelGroup(byCost: true)
                costDrops += 1
            }
        }

        /// Spec R7: appending at the end puts the action in the innermost open group.
        mutating func append(_ action: Action) {
            precondition(nesting > 0, "model: action with no open group")
            entries.append(.action(action))
        }

        init() {}

        /// Issue 20: a stack holding one closed top-level group (a branch step's), so that
        /// removal prunes a branch step exactly as it prunes a stack.
        init(closedGroup entries: [Entry]) {
            self.entries = entries
            count = 1
        }

        /// Issue 20: the closed top-level groups, oldest first, each from its begin mark to
        /// its end mark. Only for a stack with no open group (the redo stack outside undo).
        var closedTopLevelGroups: [[Entry]] {
            precondition(nesting == 0, "model: splitting a stack with an open group")
            var groups: [[Entry]] = []
            var start = 0
            while start < entries.count {
                let end = endIndex(ofGroupStartingAt: start)!
                groups.append(Array(entries[start..<end]))
                start = end
            }
            return groups
        }

        /// Issue 20: makes a stack with no open group hold these closed groups, oldest first.
        mutating func setClosedTopLevelGroups(_ groups: [[Entry]]) {
            precondition(nesting == 0, "model: replacing a stack with an open group")
            entries = groups.flatMap { $0 }
            count = groups.count
        }

        /// Spec R19 step 8: the redo group built by an undo is discarded if it stayed empty.
        mutating func closeDiscardingIfEmpty() {
            if newestIsBegin {
                entries.removeLast()
                nesting -= 1
                if nesting == 0 {
                    count -= 1
                }
            } else {
                pushEnd()
            }
        }

        /// Spec R28 setter: drop oldest groups until the count (open group included) fits.
        mutating func trimToLimit() {
            guard limit > 0 else { return }
            while count > limit {
                dropOldestTopLevelGroup()
            }
        }

        mutating func dropOldestTopLevelGroup(byCost: Bool = false) {
            droppedDepths.append(closedCount - 1)
            droppedByCost.append(byCost)
            let end = endIndex(ofGroupStartingAt: 0)
            precondition(end != nil, "model: the oldest top-level group is open")
            entries.removeSubrange(0..<end!)
            count -= 1
        }

        /// The index just past the end mark that closes the group beginning at `start`, or
        /// nil if that group is still open.
        private func endIndex(ofGroupStartingAt start: Int) -> Int? {
            var depth = 0
            for index in start..<entries.count {
                switch entries[index] {
                case .begin: depth += 1
                case .end:
                    depth -= 1
                    if depth == 0 {
                        return index + 1
                    }
                case .action: break
                }
            }
            return nil
        }

        /// Spec B's `TM`: the begin mark of the outermost open group, else of the newest
        /// closed top-level group.
        private var topMarkIndex: Int? {
            var counter = nesting
            for index in entries.indices.reversed() {
                switch entries[index] {
                case .end: counter += 1
                case .begin:
                    counter -= 1
                    if counter == 0 {
                        return index
                    }
                case .action: break
                }
            }
            return nil
        }

        var topInfo: GroupInfo? {
            guard let index = topMarkIndex, case let .begin(info) = entries[index] else { return nil }
            return info
        }

        mutating func updateTopInfo(_ update: (inout GroupInfo) -> Void) {
            guard let index = topMarkIndex, case var .begin(info) = entries[index] else {
                preconditionFailure("model: no top-level mark to update")
            }
            update(&info)
            entries[index] = .begin(info)
        }

        /// Spec R26, Apple's walk: from the newest entry to the oldest, an end mark seen at
        /// relative depth 0 counts; every end mark deepens the walk and every begin mark raises
        /// it, so below an open group's begin mark the walk runs at negative depth and counts
        /// again once end marks bring it back to 0.
        var closedGroupCount: Int {
            var depth = 0
            var closed = 0
            for entry in entries.reversed() {
                switch entry {
                case .end:
                    if depth == 0 {
                        closed += 1
                    }
                    depth += 1
                case .begin:
                    depth -= 1
                case .action: break
                }
            }
            return closed
        }

        /// The index of the begin mark of the closed group whose end mark is at `end`: walking
        /// back, every end mark deepens and every begin mark raises, and the walk stops where
        /// it is level again. (`end` itself, if it holds no end mark.)
        func beginIndex(ofGroupEndingAt end: Int) -> Int {
            var depth = 0
            for index in stride(from: end, through: 0, by: -1) {
                switch entries[index] {
                case .end: depth += 1
                case .begin: depth -= 1
                case .action: break
                }
                if depth == 0 {
                    return index
                }
            }
            return end
        }

        /// Spec R19 step 7 / R21 step 6: removes the newest closed group (top-level or
        /// nested in an open one) and returns its contents, oldest first.
        mutating func popNewestClosedGroup() -> [Entry] {
            precondition(newestIsEnd, "model: newest entry is not an end mark")
            let start = beginIndex(ofGroupEndingAt: entries.count - 1)
            let contents = Array(entries[(start + 1)..<(entries.count - 1)])
            entries.removeSubrange(start...)
            // With a group open the newest closed group sits inside it, so it is not
            // top-level.
            if nesting == 0 {
                count -= 1
            }
            return contents
        }

        /// Spec R33: removes the target's actions everywhere; a closed group that had
        /// contents and lost them all goes too (recursively outward), but groups that were
        /// already empty, and open groups, stay.
        /// Returns what happened, for the coverage counters.
        @discardableResult
        mutating func removeActions(targetID: Int) -> Set<String> {
            var happened: Set<String> = []
            var pruned: [Node] = []
            // Issue 10: each root pruned on its own, to tell which closed roots went.
            var closedSeen = 0
            var newestRemovedClosed: Int?
            for root in Self.tree(of: entries) {
                let kept = Self.prune([root], targetID: targetID, depth: 0, happened: &happened)
                if case .group(_, _, isClosed: true) = root {
                    if kept.isEmpty { newestRemovedClosed = closedSeen }
                    closedSeen += 1
                }
                pruned += kept
            }
            lastRemovalDepth = newestRemovedClosed.map { closedSeen - 1 - $0 }
            entries = Self.flatten(pruned)
            count = pruned.count
            return happened
        }

        /// Issue 10: set by `removeActions(targetID:)`: how many closed top-level groups were
        /// newer than the newest closed top-level group it removed; nil if none went.
        private(set) var lastRemovalDepth: Int?

        /// Whether any action of `targetID` is on the stack.
        func contains(targetID: Int) -> Bool {
            entries.contains { if case let .action(action) = $0 { action.targetID == targetID } else { false } }
        }

        /// Issue 10: the infos of the closed top-level groups, newest first.
        var closedTopLevelInfosNewestFirst: [GroupInfo] {
            var infos: [GroupInfo] = []
            var depth = 0
            var current: GroupInfo?
            for entry in entries {
                switch entry {
                case let .begin(info):
                    if depth == 0 { current = info }
                    depth += 1
                case .end:
                    depth -= 1
                    if depth == 0, let info = current { infos.append(info) }
                case .action: break
                }
            }
            return infos.reversed()
        }

        /// Issue 10: the info of the closed top-level group right below the open top-level
        /// group, if there is one.
        var infoBelowOpenGroup: GroupInfo? {
            guard nesting == 1, let open = topMarkIndex, open > 0 else { return nil }
            return closedTopLevelInfosNewestFirst.first
        }

        /// Issue 10: closes the one open group by making its contents part of the closed
        /// top-level group below it, with merged info.
        mutating func mergeOpenIntoPrevious() {
            precondition(nesting == 1, "model: merging needs one open group")
            guard let open = topMarkIndex, case let .begin(newer) = entries[open] else {
                preconditionFailure("model: no open group")
            }
            // The previous group's begin: walk back from its end mark.
            let start = beginIndex(ofGroupEndingAt: open - 1)
            guard case var .begin(older) = entries[start] else { preconditionFailure("model: no previous group") }
            older.name = newer.name
            older.coalescingKey = newer.coalescingKey
            older.closedAt = newer.closedAt
            // Issue 20: the merged step keeps the older node and takes the newer close time
            // ("takes the newer group's name, key and close time", CoalescingSteps.md).
            older.date = newer.date
            older.isDiscardable = older.isDiscardable && newer.isDiscardable
            // Issue 26: "its cost is the sum of both" (CoalescingSteps.md).
            older.cost += newer.cost
            older.userInfo.merge(newer.userInfo) { _, newerValue in newerValue }
            entries[start] = .begin(older)
            entries.removeSubrange((open - 1)...open)
            entries.append(.end)
            nesting = 0
            count -= 1
        }

        private indirect enum Node {
            case group(GroupInfo, [Node], isClosed: Bool)
            case action(Action)
        }

        private static func tree(of entries: [Entry]) -> [Node] {
            var roots: [Node] = []
            var frames: [(info: GroupInfo, children: [Node])] = []
            func add(_ node: Node) {
                if frames.isEmpty {
                    roots.append(node)
                } else {
                    frames[frames.count - 1].children.append(node)
                }
            }
            for entry in entries {
                switch entry {
                case let .begin(info):
                    frames.append((info, []))
                case .end:
                    let frame = frames.removeLast()
                    add(.group(frame.info, frame.children, isClosed: true))
                case let .action(action):
                    add(.action(action))
                }
            }
            // Open groups are each the newest child of their parent, so folding the
            // remaining frames innermost-first rebuilds them in place.
            while let frame = frames.popLast() {
                add(.group(frame.info, frame.children, isClosed: false))
            }
            return roots
        }

        private static func flatten(_ nodes: [Node]) -> [Entry] {
            var entries: [Entry] = []
            for node in nodes {
                switch node {
                case let .action(action):
                    entries.append(.action(action))
                case let .group(info, children, isClosed):
                    entries.append(.begin(info))
                    entries += flatten(children)
                    if isClosed {
                        entries.append(.end)
                    }
                }
            }
            return entries
        }

        private static func prune(_ nodes: [Node], targetID: Int, depth: Int, happened: inout Set<String>) -> [Node] {
            nodes.compactMap { node in
                switch node {
                case let .action(action):
                    return action.targetID == targetID ? nil : node
                case let .group(info, children, isClosed):
                    let kept = prune(children, targetID: targetID, depth: depth + 1, happened: &happened)
                    if isClosed && !children.isEmpty && kept.isEmpty {
                        happened.insert(
                            depth == 0 ? "removal dropped a top-level group" : "removal dropped a nested group")
                        return nil
                    }
                    if children.isEmpty {
                        happened.insert("removal kept a pre-existing empty group")
                    } else if kept.isEmpty {
                        happened.insert("removal emptied an open group and kept it")
                    }
                    return .group(info, kept, isClosed: isClosed)
                }
            }
        }
    }

    /// One change of a target: the value it was set to and `groupingLevel` at that moment
    /// (spec R13: inside an undo action that is the redo stack's level).
    struct LogEntry: Equatable, CustomStringConvertible {
        var value: Int
        var groupingLevel: Int

        var description: String { "\(value)@\(groupingLevel)" }
    }

    /// The observable state of one target object.
    struct TargetState: Equatable, CustomStringConvertible {
        var value = 0
        /// Every change, in order: makes invocation order observable.
        var log: [LogEntry] = []

        var description: String { "\(value) \(log)" }
    }

    /// What a reacting observer reads in the middle of an operation.
    struct Seen: Equatable, CustomStringConvertible {
        var canUndo: Bool
        var canRedo: Bool
        var undoCount: Int
        var redoCount: Int
        var undoActionName: String
        var redoActionName: String

        var description: String {
            "{canUndo \(canUndo) canRedo \(canRedo) counts \(undoCount)/\(redoCount) "
                + "names \"\(undoActionName)\"/\"\(redoActionName)\"}"
        }
    }

    /// A notification with what an observer sees when it arrives: `groupingLevel` (the
    /// bracketed levels of spec D), `isUndoing`/`isRedoing` (spec R27), and more if the
    /// observer reacts to this kind.
    struct EventRecord: Equatable, CustomStringConvertible {
        var event: UndoManager.Event
        var groupingLevel: Int
        var isUndoing: Bool
        var isRedoing: Bool
        var seen: Seen?

        var description: String {
            let name =
                switch event {
                case .checkpoint: "CP"
                case .didOpenUndoGroup: "DO"
                case .willCloseUndoGroup: "WC"
                case let .didCloseUndoGroup(isDiscardable): isDiscardable ? "DC{disc}" : "DC"
                case .willUndoChange: "WU"
                case let .didUndoChange(isDiscardable): isDiscardable ? "DU{disc}" : "DU"
                case .willRedoChange: "WR"
                case let .didRedoChange(isDiscardable): isDiscardable ? "DR{disc}" : "DR"
                case let .didDropStaleStep(step): "DS{\(step.actionName)}"
                case let .didFailAsyncStep(failure): "FA{\(failure.wasUndo ? "undo" : "redo")}"
                }
            return "\(name)[\(groupingLevel)\(isUndoing ? ",undoing" : "")\(isRedoing ? ",redoing" : "")]"
                + (seen.map { "\($0)" } ?? "")
        }
    }

    /// Why a generated step is not run.
    struct SkipReason: Hashable, CustomStringConvertible {
        /// The spec E row and C rule.
        var rule: String
        /// Apple's detail text of the trap; nil for a step skipped because the spec leaves
        /// its outcome open.
        var detail: String?
        /// Which of the routes to this trap the state took.
        var situation: String

        var description: String {
            "\(rule): \(detail ?? "unsettled") [\(situation)]"
        }
    }

    /// The reference manager: spec B's state plus the spec C rules, one method per public
    /// call. Methods assume the call does not trap; `skipReason(for:)` is asked first.
    final class Reference {
        var undoStack = Stack()
        var redoStack = Stack()
        var isUndoing = false
        var isRedoing = false
        var autoPending = false
        var groupsByEvent = true
        var disableCount = 0
        var runLoopModes: [Mode] = [.standard]

        /// Notifications posted so far (the harness takes them after each step).
        var events: [EventRecord] = []
        /// The kinds on which the test's observer reads state and `canRedo`.
        var reactions: Set<EventKind> = []
        /// Living targets by identity; a released target's actions find nothing here and are
        /// skipped (spec H3).
        var targets: [Int: TargetState] = [:]
        /// How often interesting situations arose, to check the generator reaches them.
        var coverage: [String: Int] = [:]

        // Issue 10: coalescing and the clean mark.

        /// The injected clock, in milliseconds.
        var clock = 0
        /// `coalescingInterval`, in milliseconds.
        let coalescingInterval = 1000
        /// Whether the newest closed step may take the next group with its key.
        var mayCoalesce = false
        /// How many undos (negative: redos) lead back to the clean mark; nil when it cannot be
        /// reached any more.
        var cleanDistance: Int? = 0
        /// The mark was set while a top-level group was open: it lies after that group.
        var cleanIncludesOpenGroup = false
        /// The values a clean-state observer was called with (the harness takes them).
        var cleanChanges: [Bool] = []

        // Issue 20: the history tree (ReferenceModel+HistoryTree.swift).

        /// Whether the script records the tree (its setup's `recordsTree`).
        var recordsTree = true
        /// `keepsRedoBranches`.
        var keepsRedoBranches = false
        /// `levelsOfUndo`. Without branches it is the undo stack's limit (spec R28); with
        /// them the stack has none and the whole tree is trimmed instead.
        var levelsOfUndo = 0
        /// The steps off the path (neither on the undo nor on the redo stack), by node.
        var branchSteps: [UInt64: BranchStep] = [:]
        /// The next node id. The harness reads the tree before the first step, so every
        /// step is numbered as it closes, from 1.
        var nextNodeID: UInt64 = 1
        /// When each node was last current (or recorded), for trimming the least recently
        /// visited leaf first.
        var lastVisit: [UInt64: Int] = [:]
        var visitClock = 0
        /// The clean mark while it lies on a branch: the marked node (`cleanDistance` is
        /// then nil). It counts along the stacks again once `go(to:)` brings the node back
        /// onto the redo path.
        var cleanBranchNode: UInt64?

        // Issue 26: costs, ending the event by hand, and what a coordinator hears
        // (ReferenceModel+Costs.swift, ReferenceModel+Coordinator.swift).

        /// `actionCostLimit`. Without branches it is the undo stack's budget; with them the
        /// whole tree is held to it instead.
        var actionCostLimit = 0
        /// Whether the open top-level group of the undo stack is the event's automatic group
        /// (opened by R5), not an explicit group begun after the automatic one was closed by
        /// hand: `endEventGroup()` closes only the former.
        var automaticGroupIsOpen = false
        /// What a coordinator model hears of this manager while attached: set by the
        /// coordinator model, nil otherwise.
        var coordination: ((CoordinationEvent) -> Void)?
        /// When `autoPending` was last set, by `armingClock` (a shared run loop's order of
        /// arming, which its tick follows).
        var armedAt = 0
        var armingClock: (() -> Int)?

        var isClean: Bool { cleanDistance == 0 }

        /// Runs `body`, then reports a change of `isClean` as the observer would see it.
        func reportingCleanChange(_ body: () -> Void) {
            let wasClean = isClean
            body()
            if wasClean != isClean {
                cleanChanges.append(isClean)
                cover(isClean ? "clean again" : "became unclean")
            }
        }

        /// The mark counted along the stacks becomes unreachable (a mark on a branch has
        /// `loseBranchMark(_:)`).
        func loseCleanMark(_ why: String) {
            if cleanDistance != nil {
                cover("clean mark lost: \(why)")
            }
            cleanDistance = nil
        }

        /// Checks the groups trimmed from the undo stack since the last call against the mark.
        func checkTrimmedGroups() {
            for (depth, byCost) in zip(undoStack.droppedDepths, undoStack.droppedByCost) {
                if !cleanIncludesOpenGroup, let distance = cleanDistance, distance >= depth {
                    if byCost {
                        cover("clean mark lost: trimmed by the cost limit")
                    }
                    loseCleanMark("trimmed")
                }
            }
            undoStack.droppedDepths = []
            undoStack.droppedByCost = []
        }

        var isBusy: Bool { isUndoing || isRedoing }
        var isEnabled: Bool { disableCount == 0 }

        /// Spec B: registrations go to the redo stack while undoing; spec R13:
        /// `groupingLevel` is this.
        var currentNesting: Int {
            isUndoing ? redoStack.nesting : undoStack.nesting
        }

        private func withCurrentStack<Result>(_ body: (inout Stack) -> Result) -> Result {
            isUndoing ? body(&redoStack) : body(&undoStack)
        }

        private func post(_ event: UndoManager.Event) {
            let reacts = reactions.contains(EventKind(event))
            events.append(
                EventRecord(
                    event: event, groupingLevel: currentNesting, isUndoing: isUndoing, isRedoing: isRedoing,
                    seen: reacts ? seen : nil))
            // The observer's canRedo posts a checkpoint of its own, except inside a
            // checkpoint (spec R43); that nested checkpoint's own canRedo is then dropped.
            if reacts && event != .checkpoint {
                post(.checkpoint)
            }
            if reacts && isBusy {
                cover("observer read state while undoing or redoing")
            }
            switch event {
            case .didUndoChange(true), .didRedoChange(true): cover("discardable group undone or redone")
            default: break
            }
        }

        func cover(_ situation: String) {
            coverage[situation, default: 0] += 1
        }

        // MARK: Traps (spec E)

        /// Whether R5 would open a group, or one is open already: otherwise registration and
        /// the three metadata setters trap (E6–E9).
        private var canReachOpenGroup: Bool {
            undoStack.nesting > 0 || (groupsByEvent && !autoPending)
        }

        /// Why nothing is open for E6–E9, to tell the two routes there apart.
        private var noGroupSituation: String {
            groupsByEvent ? "automatic group closed by hand" : "groupsByEvent off"
        }

        /// The reason the script must skip `step` from the current state (top level, not
        /// busy): the spec E trap it would hit, or an unsettled point of the spec; nil if the
        /// step is safe.
        func skipReason(for step: Step) -> SkipReason? {
            func trap(_ rule: String, _ detail: String, _ situation: String) -> SkipReason {
                SkipReason(rule: rule, detail: detail, situation: situation)
            }
            let mustBegin = "must begin a group before registering undo"
            switch step {
            case .edit:
                return isEnabled && !canReachOpenGroup ? trap("E6 (R6)", mustBegin, noGroupSituation) : nil
            case .setName:
                return isEnabled && !canReachOpenGroup ? trap("E7 (R34)", mustBegin, noGroupSituation) : nil
            case .setCoalescingKey:
                return isEnabled && !canReachOpenGroup
                    ? trap("E7 (setActionCoalescingKey)", "must begin a group before setting an undo coalescing key", noGroupSituation)
                    : nil
            case .advanceClock, .markClean:
                return nil
            case .setDiscardable:
                return isEnabled && !canReachOpenGroup
                    ? trap("E8 (R40)", "must begin a group before setting undo action discardability", noGroupSituation)
                    : nil
            case .setUserInfo:
                return isEnabled && !canReachOpenGroup
                    ? trap("E9 (R41)", "must begin a group before setting undo action user info", noGroupSituation)
                    : nil
            case .end:
                return isEnabled && undoStack.nesting == 0
                    ? trap("E1 (R10)", "endUndoGrouping called with no matching begin", "nothing open") : nil
            case let .tick(mode):
                let closes = runLoopModes.contains(mode) && groupsByEvent && autoPending
                return closes && isEnabled && undoStack.nesting == 0
                    ? trap(
                        "E1 (R15, R17)", "endUndoGrouping called with no matching begin",
                        "tick after the automatic group was closed by hand") : nil
            case .undo:
                // R18 step 2 closes a level-1 automatic group, unless disabled (a no-op close).
                let closesAutomaticGroup = autoPending && undoStack.nesting == 1 && isEnabled
                let remaining = closesAutomaticGroup ? 0 : undoStack.nesting
                guard remaining != 0 else { return nil }
                let situation =
                    remaining >= 2
                    ? "two or more levels open"
                    : autoPending ? "automatic group not closed: registration disabled" : "explicit group open"
                return trap("E3 (R18)", "undo was called with too many nested undo groups", situation)
            case .undoNested:
                if !undoStack.isEmpty && !undoStack.newestIsEnd {
                    return trap("E4 (R19)", "call endUndoGrouping before calling this method", "open group on top")
                }
                return nil
            case .enable:
                return disableCount == 0
                    ? trap(
                        "E2 (R29)",
                        "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration",
                        "not disabled") : nil
            case .setRunLoopModes:
                // Not a trap: while a close is pending, Apple keeps the modes it was scheduled
                // with (R46) while UndoKit's tick reads the current ones (issue 2's tick
                // definition). Steering clear keeps the test on settled ground.
                return autoPending
                    ? SkipReason(rule: "R46", detail: nil, situation: "runLoopModes changed while a close is pending")
                    : nil
            case .begin, .redo, .setLevels, .disable, .removeAll, .removeAllWithTarget, .setGroupsByEvent,
                .replaceTarget:
                return nil
            case .scope:
                // Not busy at the top level, and a scope's steps never trap (the generator
                // makes sure): its begin opens the group they need.
                return nil
            case .setKeepsRedoBranches:
                return nil
            case .goTo:
                // A jump to the start is goToStart(), which names itself in the trap.
                let call = historyTarget(for: step) == nil ? "goToStart()" : "go(to:)"
                if let trap = walkTrap("go(to:)", naming: call) { return trap }
                return unsettledJump(to: historyTarget(for: step))
            case .goToRemoved:
                let call = historyTarget(for: step) == nil ? "goToStart()" : "go(to:)"
                if let trap = walkTrap("go(to:)", naming: call) { return trap }
                guard historyTarget(for: step) != nil else {
                    return SkipReason(rule: "J.3 go(to:) a removed node", detail: nil, situation: "no node has left the tree")
                }
                return trap("J.3 go(to:) a removed node", "go(to:)", "the node left the tree")
            case .goToEarlierState:
                return walkTrap("goToEarlierState()")
            case .goToLaterState:
                return walkTrap("goToLaterState()")
            case .perform:
                // Issue 26: a registration like any other (UndoManager.perform(_:on:)'s
                // precondition).
                return isEnabled && !canReachOpenGroup ? trap("E6 (perform)", mustBegin, noGroupSituation) : nil
            case let .setCost(bytes):
                // AvoidingMisuse.md: a negative cost traps whatever the state; the missing
                // group only where the setter is not ignored.
                if bytes < 0 {
                    return trap("setActionCost negative", "needs a cost of 0 or more", "negative cost")
                }
                return isEnabled && !canReachOpenGroup
                    ? trap("E7 (setActionCost)", "must begin a group before setting an undo action cost", noGroupSituation)
                    : nil
            case .setCostLimit, .endEventGroup:
                return nil
            }
        }

        /// Issue 20: `go(to:)` and the chronological steps stop the program, naming the call,
        /// when a group is open after they closed the event's automatic group (as `undo()`
        /// closes it: not while registration is disabled).
        private func walkTrap(_ call: String, naming calledName: String? = nil) -> SkipReason? {
            let closesAutomaticGroup = autoPending && undoStack.nesting == 1 && isEnabled
            let remaining = closesAutomaticGroup ? 0 : undoStack.nesting
            guard remaining != 0 else { return nil }
            let situation =
                remaining >= 2
                ? "two or more levels open"
                : autoPending ? "automatic group not closed: registration disabled" : "explicit group open"
            return SkipReason(rule: "J.3 \(call) with a group open", detail: calledName ?? call, situation: situation)
        }

        /// Issue 20: the node a `go(to:)` step names, picked from the tree as it is now; nil
        /// for the start (or, for a stale jump, when no node has left the tree).
        func historyTarget(for step: Step) -> UInt64? {
            switch step {
            case let .goTo(rank):
                let ids = tree.parent.keys.sorted()
                let index = rank % (ids.count + 1)
                return index < ids.count ? ids[index] : nil
            case let .goToRemoved(rank):
                let removed = removedNodeIDs
                return removed.isEmpty ? nil : removed[rank % removed.count]
            default:
                return nil
            }
        }

        /// Issue 20: `go(to:)` first closes the event's automatic group; when that close drops
        /// steps (trimming to `levelsOfUndo`, or an empty group clearing the redo steps the
        /// target is on), the node the caller took from the tree may be gone before the walk
        /// starts. The docs leave that open, so the script steers clear.
        private func unsettledJump(to target: UInt64?) -> SkipReason? {
            guard autoPending && undoStack.nesting == 1 && isEnabled else { return nil }
            let total = keepsRedoBranches ? tree.parent.count + 1 : undoStack.count
            if levelsOfUndo > 0 && total > levelsOfUndo {
                return SkipReason(
                    rule: "J.3 go(to:)", detail: nil, situation: "closing the automatic group trims the tree")
            }
            // Issue 26: so may the byte budget, over it while the group is open.
            let cost = keepsRedoBranches
                ? undoStack.totalCost + redoStack.totalCost + branchSteps.values.reduce(0) { $0 + $1.info.cost }
                : undoStack.totalCost
            if actionCostLimit > 0 && cost > actionCostLimit {
                return SkipReason(
                    rule: "J.3 go(to:)", detail: nil, situation: "closing the automatic group trims by cost")
            }
            if undoStack.newestIsBegin && !keepsRedoBranches, let target, tree.redoPath.contains(target) {
                return SkipReason(
                    rule: "J.3 go(to:)", detail: nil, situation: "closing the empty automatic group clears the target")
            }
            return nil
        }

        // MARK: Registration and groups

        /// Spec R2–R7.
        func register(_ action: Action) {
            guard isEnabled else { return }
            if !isBusy {
                coordination?(.newEdit)
            }
            if !isBusy && redoStack.count > 0 {
                reportingCleanChange {
                    endRedoPath(clearing: "new edit cleared the redos it needed", branching: "new edit")
                }
            }
            prepareEventGroup()
            precondition(currentNesting > 0, "model: registration would trap (E6)")
            withCurrentStack { $0.append(action) }
        }

        /// Spec R5: `autoPending`, not merely "nothing open", decides.
        func prepareEventGroup() {
            if groupsByEvent && !autoPending && currentNesting == 0 {
                autoPending = true
                armedAt = armingClock?() ?? 0
                beginUndoGrouping(isAutomatic: true)
                automaticGroupIsOpen = !isUndoing && undoStack.nesting == 1
            }
        }

        /// Spec R9. `isAutomatic` only keeps R5's own call out of the coverage counter.
        func beginUndoGrouping(isAutomatic: Bool = false) {
            guard isEnabled else { return }
            if !isAutomatic && !isBusy && groupsByEvent && autoPending && currentNesting == 0 {
                cover("begin at level 0 with the close still pending")
            }
            if !isBusy {
                prepareEventGroup()
            }
            if !(groupsByEvent && currentNesting == 0) {
                post(.checkpoint)
            }
            withCurrentStack { $0.pushBegin() }
            if !isBusy {
                post(.didOpenUndoGroup)
            }
        }

        /// Spec R10.
        func endUndoGrouping() {
            guard isEnabled else { return }
            post(.checkpoint)
            precondition(currentNesting > 0, "model: end would trap (E1)")
            if !isBusy {
                post(.willCloseUndoGroup)
            }
            let isDiscardable = withCurrentStack { $0.topInfo?.isDiscardable ?? false }
            let closesEmptyGroup = withCurrentStack { $0.newestIsBegin }
            let wasClean = isClean
            if closesEmptyGroup && !isBusy {
                coordination?(.newEdit)
                if redoStack.count > 0 && !keepsRedoBranches {
                    cover("empty group close cleared redo")
                }
                endRedoPath(clearing: "empty group cleared the redos it needed", branching: "empty group close")
            }
            if !isBusy && currentNesting == 1 {
                closeNewStep()
            } else {
                withCurrentStack { $0.pushEnd() }
            }
            if undoStack.nesting == 0 {
                automaticGroupIsOpen = false
            }
            // Issue 20: with branches the tree, not the undo stack, is held to levelsOfUndo,
            // when a top-level group closes on the undo stack (spec R10 step 7).
            if keepsRedoBranches && !isUndoing && undoStack.nesting == 0 {
                trimTree()
            }
            if !undoStack.droppedDepths.isEmpty {
                cover("close trimmed undo stack")
            }
            checkTrimmedGroups()
            if !isBusy {
                if wasClean != isClean {
                    cleanChanges.append(isClean)
                }
                post(.didCloseUndoGroup(isDiscardable: isDiscardable))
            }
        }

        /// Issue 10: the close of the open top-level group outside undo and redo, merging it
        /// into the step below when the coalescing rule says so.
        private func closeNewStep() {
            // Issue 20: every top-level group closing outside undo and redo is recorded as a
            // new node, dated now; one that merges below gives its newer date to the older
            // node. Issue 26: a step's id is given when it closes as a step, so a group that
            // merges below spends none (the docs promise only that ids grow in recording
            // order; the model spends exactly what UndoKit does, so that ids compare exactly).
            let node = nextNodeID
            nextNodeID += 1
            undoStack.updateTopInfo {
                $0.node = node
                $0.date = clock
            }
            defer { visit(currentNode) }
            let info = undoStack.topInfo!
            if let key = info.coalescingKey {
                undoStack.updateTopInfo { $0.closedAt = clock }
                if mayCoalesce, let previous = undoStack.infoBelowOpenGroup, previous.coalescingKey == key,
                   let previousClose = previous.closedAt, clock - previousClose < coalescingInterval {
                    if cleanIncludesOpenGroup || cleanDistance != 0 {
                        undoStack.mergeOpenIntoPrevious()
                        nextNodeID -= 1
                        cover("groups coalesced")
                        if info.cost > 0 {
                            cover("coalesced step summed the costs")
                        }
                        // Issue 26: a merge is a close too: the budget drops older steps,
                        // never the merged one.
                        let drops = undoStack.costDrops
                        undoStack.trimToCostLimit()
                        if undoStack.costDrops > drops {
                            cover("cost limit trimmed after a merge")
                        }
                        if cleanIncludesOpenGroup {
                            cleanIncludesOpenGroup = false
                        } else if let distance = cleanDistance, distance < 0 {
                            loseCleanMark("new step")
                        }
                        return
                    }
                    cover("coalescing refused: the clean mark is on the step below")
                }
                mayCoalesce = true
            } else {
                mayCoalesce = false
            }
            // The mark moves before the close, whose trimming must see it where it will be.
            if cleanIncludesOpenGroup {
                cleanIncludesOpenGroup = false
            } else if let distance = cleanDistance {
                if distance >= 0 {
                    cleanDistance = distance + 1
                } else {
                    loseCleanMark("new step")
                }
            }
            let drops = undoStack.costDrops
            undoStack.pushEnd()
            if undoStack.costDrops > drops {
                cover("cost limit trimmed after a close")
                if undoStack.totalCost > undoStack.costLimit {
                    cover("a step over the budget stayed alone")
                }
            }
            coordination?(.closedStep(node))
        }

        /// Spec R15, for a tick in `mode`.
        func tick(_ mode: Mode) {
            if autoPending && runLoopModes.contains(mode) && !groupsByEvent {
                cover("tick ignored: groupsByEvent switched off while pending")
            }
            if autoPending && groupsByEvent && !runLoopModes.contains(mode) {
                cover("tick ignored: mode not listed")
            }
            guard runLoopModes.contains(mode), groupsByEvent, autoPending else { return }
            autoPending = false
            if !isEnabled {
                cover("tick while disabled")
            }
            endUndoGrouping()
        }

        // MARK: Undo and redo

        /// Spec R18.
        func undo() {
            post(.checkpoint)
            if autoPending && undoStack.nesting == 1 {
                endUndoGrouping()
                autoPending = false
            }
            precondition(undoStack.nesting == 0, "model: undo would trap (E3)")
            undoNestedGroup()
        }

        /// Spec R19.
        func undoNestedGroup() {
            post(.checkpoint)
            guard !undoStack.isEmpty else { return }
            precondition(undoStack.newestIsEnd, "model: undoNestedGroup would trap (E4)")
            if undoStack.nesting > 0 {
                cover("undo of a nested group inside an open group")
            }
            if !isEnabled {
                cover("undo while disabled")
            }
            if autoPending && undoStack.nesting == 0 {
                cover("undo after the automatic group was closed by hand")
            }
            mayCoalesce = false
            let wasClean = isClean
            let topLevel = undoStack.nesting == 0
            let redoBefore = redoStack.count
            let treeBefore = tree
            isUndoing = true
            post(.willUndoChange)
            // Step 6 and step 9 both read TM(U) before the pop: with an open parent that is
            // the parent's metadata, not the undone group's.
            let undone = undoStack.topInfo
            beginUndoGrouping()
            if isEnabled, let undone {
                redoStack.updateTopInfo { $0 = undone }
            }
            perform(undoStack.popNewestClosedGroup())
            if isEnabled {
                post(.checkpoint)
                if redoStack.newestIsBegin && (redoStack.topInfo?.cost ?? 0) > 0 {
                    cover("a discarded redo group took its cost with it")
                }
                redoStack.closeDiscardingIfEmpty()
            }
            // Issue 20: the redo step a nested undo builds copies the open parent's metadata
            // (the TM quirk of R19.6), which has no node of its own (or that of a step redone
            // into it, which may be copied again): it is a new redo step, recorded now.
            if !topLevel && redoStack.count > redoBefore {
                recordNestedUndoStep()
            }
            markAfterUndo(topLevel: topLevel, madeRedoStep: redoStack.count > redoBefore, treeBefore: treeBefore)
            // Issue 10.
            if let distance = cleanDistance {
                if topLevel {
                    if distance - 1 < 0 && redoStack.count == redoBefore {
                        loseCleanMark("undo left nothing to redo")
                    } else {
                        cleanDistance = distance - 1
                    }
                } else if distance < 0 {
                    loseCleanMark("nested undo")
                }
            }
            if wasClean != isClean {
                cleanChanges.append(isClean)
            }
            let madeRedoStep = redoStack.count > redoBefore
            if topLevel, let node = undone?.node {
                if (undone?.cost ?? 0) > 0 && madeRedoStep {
                    cover("cost travelled to the redo stack")
                }
                coordination?(.undidStep(node, madeRedoStep: madeRedoStep))
            } else if !topLevel && madeRedoStep, let node = redoStack.topInfo?.node {
                if (undone?.cost ?? 0) > 0 {
                    // Issue 26: the R19.6 copy of the open parent's metadata, cost included.
                    cover("nested undo copied the open group's cost to its redo step")
                }
                coordination?(.nestedUndoMadeRedoStep(node))
            }
            post(.didUndoChange(isDiscardable: undone?.isDiscardable ?? false))
            isUndoing = false
            if topLevel {
                visit(currentNode)
            }
            moveOrphansUp(treeBefore, leftBy: "undo")
        }

        /// Spec R21.
        func redo() {
            post(.checkpoint)  // the canRedo of step 1
            guard redoStack.count != 0 else { return }
            mayCoalesce = false
            let wasClean = isClean
            let topLevel = undoStack.nesting == 0
            let recorded = isEnabled
            let treeBefore = tree
            markBeforeRedo(topLevel: topLevel, recorded: recorded, treeBefore: treeBefore)
            isRedoing = true
            precondition(redoStack.newestIsEnd, "model: redo would trap (E5)")
            if undoStack.nesting > 0 {
                cover("redo nested inside an open group")
            }
            if !isEnabled {
                cover("redo while disabled")
            }
            post(.willRedoChange)
            let redone = redoStack.topInfo
            beginUndoGrouping()
            if isEnabled, let redone {
                // TM(U) is the outermost open group: the redo group itself, or the open
                // group it is nested in.
                if !topLevel, let open = undoStack.topInfo, open.cost != redone.cost {
                    // Issue 26: the docs do not say; the whole metadata is copied, as Apple
                    // copies name, flag and user info, so the open group takes the redone cost.
                    cover("nested redo replaced the open group's cost")
                }
                undoStack.updateTopInfo { $0 = redone }
            }
            perform(redoStack.popNewestClosedGroup())
            // Issue 10, before the close, whose trimming must see the mark where it will be.
            if let distance = cleanDistance {
                if topLevel && (recorded || distance < 0) {
                    cleanDistance = distance + 1
                } else if topLevel || distance < 0 {
                    loseCleanMark(topLevel ? "unrecorded redo" : "nested redo")
                }
            }
            post(.checkpoint)
            let drops = undoStack.costDrops
            endUndoGrouping()
            if undoStack.costDrops > drops {
                cover("cost limit trimmed after a redo")
            }
            if wasClean != isClean {
                cleanChanges.append(isClean)
            }
            if let node = redone?.node {
                if (redone?.cost ?? 0) > 0 && topLevel && recorded {
                    cover("cost travelled back to the undo stack")
                }
                coordination?(.redidStep(node, keptAsUndoStep: topLevel && recorded))
            }
            post(.didRedoChange(isDiscardable: redone?.isDiscardable ?? false))
            isRedoing = false
            if topLevel {
                visit(currentNode)
            }
            moveOrphansUp(treeBefore, leftBy: "redo")
        }

        /// Invokes a popped group's actions newest first (spec R20), nested groups included
        /// (spec R11).
        private func perform(_ contents: [Entry]) {
            for entry in contents.reversed() {
                if case let .action(action) = entry {
                    perform(action)
                }
            }
        }

        /// What the test's handler does: set the value, register the inverse, and maybe
        /// name or flag the group being built.
        private func perform(_ action: Action) {
            guard var target = targets[action.targetID] else {
                cover("dead target skipped")
                if action.command != nil {
                    cover("command on a released model skipped")
                }
                return
            }
            if var command = action.command {
                // Issue 26 (UsingCommands.md): an undo step runs `undo(on:)` and records the
                // redo, which runs `execute(on:)` again and records the undo; each holds the
                // command as the call left it. Neither renames the group: the name travels
                // with the step.
                cover(command.runsUndo ? "command undone" : "command redone")
                if command.runsUndo {
                    command.undo(on: &target.value)
                } else {
                    command.execute(on: &target.value)
                }
                command.runsUndo.toggle()
                target.log.append(LogEntry(value: target.value, groupingLevel: currentNesting))
                targets[action.targetID] = target
                var inverse = action
                inverse.command = command
                register(inverse)
                return
            }
            let oldValue = target.value
            target.value = action.setTo
            target.log.append(LogEntry(value: action.setTo, groupingLevel: currentNesting))
            targets[action.targetID] = target
            if let inverse = action.inverse(restoring: oldValue) {
                register(inverse)
            } else {
                cover("handler registered nothing")
            }
            if let name = action.innerName {
                cover(isUndoing ? "name set while undoing" : "name set while redoing")
                setActionName(name)
            }
            if let flag = action.innerDiscardable {
                setActionIsDiscardable(flag)
            }
            if let bytes = action.innerCost {
                setActionCost(bytes)
            }
        }

        // MARK: Limits, clearing, enabling

        /// Spec R28.
        func setLevelsOfUndo(_ levels: Int) {
            levelsOfUndo = levels
            guard !keepsRedoBranches else {
                // Issue 20: the setter trims the tree at once, as it trims the stack.
                reportingCleanChange {
                    let trimmed = trimTree()
                    let trimmedThePath = !undoStack.droppedDepths.isEmpty
                    if trimmed > 0 {
                        cover(trimmedThePath ? "levelsOfUndo setter trimmed the path" : "levelsOfUndo setter trimmed off the path")
                        // Trimmed steps are removed steps, on the path or off it: the run ends
                        // (CoalescingSteps.md).
                        mayCoalesce = false
                    }
                    checkTrimmedGroups()
                }
                return
            }
            reportingCleanChange {
                undoStack.limit = levels
                let before = undoStack.count
                undoStack.trimToLimit()
                if undoStack.count < before {
                    cover(undoStack.nesting > 0 ? "levelsOfUndo setter trimmed, group open" : "levelsOfUndo setter trimmed")
                    mayCoalesce = false
                }
                checkTrimmedGroups()
            }
        }

        /// Spec R31.
        func removeAllActions() {
            reportingCleanChange {
                // Issue 10: a clean manager stays clean, the mark is lost otherwise.
                cleanDistance = isClean ? 0 : nil
                cleanBranchNode = nil
                cleanIncludesOpenGroup = false
                mayCoalesce = false
            }
            undoStack.clear()
            redoStack.clear()
            // Issue 20: the branches go too.
            branchSteps = [:]
            disableCount = 0
            autoPending = false
            automaticGroupIsOpen = false
            isUndoing = false
            isRedoing = false
        }

        /// Spec R33.
        func removeAllActions(targetID: Int) {
            if undoStack.contains(targetID: targetID) || redoStack.contains(targetID: targetID) {
                mayCoalesce = false
            }
            let treeBefore = tree
            let happened = undoStack.removeActions(targetID: targetID)
                .union(redoStack.removeActions(targetID: targetID))
            for situation in happened {
                cover(situation)
            }
            // Issue 20: every branch is pruned too.
            reportingCleanChange {
                removeActionsFromBranches(targetID: targetID, treeBefore: treeBefore)
            }
            // Issue 10: a removed step on the path to the mark, or the marked step, loses it.
            reportingCleanChange {
                guard !cleanIncludesOpenGroup, let distance = cleanDistance else { return }
                if let depth = undoStack.lastRemovalDepth, distance >= 0 && depth <= distance {
                    loseCleanMark("removed")
                }
                if let depth = redoStack.lastRemovalDepth, distance < 0 && depth < -distance {
                    loseCleanMark("removed")
                }
            }
        }

        /// Issue 10: `markClean()`.
        func markClean() {
            reportingCleanChange {
                cleanBranchNode = nil
                cleanDistance = 0
                cleanIncludesOpenGroup = undoStack.nesting > 0
            }
        }

        /// Issue 10: `setActionCoalescingKey(_:)`.
        func setActionCoalescingKey(_ key: String?) {
            updateOutermostOpenGroup { $0.coalescingKey = key }
        }

        var undoActionNames: [String] { undoStack.closedTopLevelInfosNewestFirst.map { $0.name ?? "" } }
        var redoActionNames: [String] { redoStack.closedTopLevelInfosNewestFirst.map { $0.name ?? "" } }

        /// Spec R29.
        func disableUndoRegistration() {
            disableCount += 1
        }

        func enableUndoRegistration() {
            precondition(disableCount > 0, "model: enable would trap (E2)")
            disableCount -= 1
        }

        // MARK: Metadata (spec R34, R40, R41)

        private func updateOutermostOpenGroup(_ update: (inout GroupInfo) -> Void) {
            guard isEnabled else { return }
            if !isBusy && groupsByEvent && !autoPending && currentNesting == 0 {
                cover("metadata setter opened the automatic group")
            }
            prepareEventGroup()
            precondition(currentNesting > 0, "model: metadata setter would trap (E7-E9)")
            withCurrentStack { $0.updateTopInfo(update) }
        }

        func setActionName(_ name: String) {
            updateOutermostOpenGroup { $0.name = name }
        }

        func setActionIsDiscardable(_ flag: Bool) {
            updateOutermostOpenGroup { $0.isDiscardable = flag }
        }

        func setActionUserInfoValue(_ value: Int?, forKey key: Int) {
            updateOutermostOpenGroup { $0.userInfo[key] = value }
        }

        // MARK: Queries (spec R24–R26, R36, R38, R40)

        var canUndo: Bool { undoStack.count != 0 }

        /// What a reacting observer reads; `canRedo` here without its checkpoint, which
        /// `post` accounts for.
        private var seen: Seen {
            Seen(
                canUndo: canUndo, canRedo: redoStack.count != 0, undoCount: undoStack.closedGroupCount,
                redoCount: redoStack.closedGroupCount, undoActionName: undoActionName,
                redoActionName: redoActionName)
        }

        /// Posts a checkpoint (spec R25).
        func canRedo() -> Bool {
            post(.checkpoint)
            return redoStack.count != 0
        }

        var undoActionName: String { undoStack.topInfo?.name ?? "" }
        var redoActionName: String { redoStack.topInfo?.name ?? "" }

        var undoMenuItemTitle: String {
            canUndo && !undoActionName.isEmpty ? "Undo \(undoActionName)" : "Undo"
        }

        /// Posts a checkpoint, through `canRedo` (spec R38).
        func redoMenuItemTitle() -> String {
            canRedo() && !redoActionName.isEmpty ? "Redo \(redoActionName)" : "Redo"
        }
    }
}
