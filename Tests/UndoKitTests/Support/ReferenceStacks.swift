import Testing
import UndoKit

/// One person's undo and redo stacks as plain arrays, with the rules of spec K2–K3 written
/// down directly: parts, noted changes, stale steps and the policy for them, and the
/// coalescing and clean-mark rules where they meet those. The independent reference the
/// randomized editing-together suites hold an ``UndoManager`` to after every operation; it
/// shares no code with the manager (no step ids, no change log, no metadata objects).
///
/// Times come from the suite's own clock, which it advances once per operation: only their
/// order matters. `Payload` is what the suite needs to replay a step on its own model.
struct ReferenceStacks<Payload> {
    struct Step {
        /// Unique within a run: the clean mark names steps by it.
        let serial: Int
        var name: String
        /// The parts the step declared; `nil`: none, which counts as every part.
        var parts: Set<UndoPart>?
        /// When it was last closed, undone or redone.
        var doneAt: UInt64
        /// What it was stale by when its history was saved; it stays stale until it runs.
        var restoredChanges: [UndoChange] = []
        var coalescingKey: String?
        var payload: Payload
    }

    enum CleanMark: Equatable {
        case start, step(serial: Int), unreachable
    }

    /// What an undo or redo did: the names of the stale steps it dropped, newest first, and
    /// the step it ran, as it was before running.
    struct Outcome {
        var dropped: [String] = []
        var ran: Step?
    }

    var policy: StaleStepPolicy
    private(set) var undoSteps: [Step] = []
    private(set) var redoSteps: [Step] = []
    private(set) var cleanMark = CleanMark.start
    /// The newest change noted to each part, and who made it.
    private var lastChange: [UndoPart: (time: UInt64, origin: String?)] = [:]
    /// The newest change noted to every part at once.
    private var lastChangeToAllParts: (time: UInt64, origin: String?)?
    /// The newest change of either kind: any of them touches a step that declared nothing.
    private var lastChangeTime: UInt64 = 0
    /// Whether a new step with the same coalescing key may merge into the newest one:
    /// only if nothing was undone, redone or dropped from the undo stack since it closed.
    private var newestStepMayCoalesce = false

    init(policy: StaleStepPolicy) {
        self.policy = policy
    }

    // MARK: Noted changes and staleness

    /// A change to `parts` made outside this person's manager. No parts, no change.
    mutating func note(_ parts: Set<UndoPart>, origin: String?, at time: UInt64) {
        guard !parts.isEmpty else { return }
        for part in parts {
            lastChange[part] = (time, origin)
        }
        lastChangeTime = time
    }

    /// A change to every part (what a step that declared nothing changed, as a coordinator
    /// notes it).
    mutating func noteAllParts(origin: String?, at time: UInt64) {
        lastChangeToAllParts = (time, origin)
        lastChangeTime = time
    }

    /// Stale: a change touched the step since it was done (a step that declared nothing is
    /// touched by every change), or it was stale when saved.
    func isStale(_ step: Step) -> Bool {
        guard step.restoredChanges.isEmpty else { return true }
        guard let parts = step.parts else { return lastChangeTime > step.doneAt }
        if let change = lastChangeToAllParts, change.time > step.doneAt {
            return true
        }
        return parts.contains { (lastChange[$0]?.time ?? 0) > step.doneAt }
    }

    /// The changes since `step` was done that touched its parts: the saved ones first, then
    /// per part (in part order) the newest, then a change to every part.
    func changes(since step: Step) -> [UndoChange] {
        var changes = step.restoredChanges
        let touched = step.parts.map { $0.sorted() } ?? lastChange.keys.sorted()
        for part in touched {
            if let change = lastChange[part], change.time > step.doneAt {
                changes.append(UndoChange(part: part, origin: change.origin))
            }
        }
        if let change = lastChangeToAllParts, change.time > step.doneAt {
            changes.append(UndoChange(part: nil, origin: change.origin))
        }
        return changes
    }

    func staleStep(_ step: Step?) -> StaleStep? {
        guard let step, isStale(step) else { return nil }
        return StaleStep(actionName: step.name, parts: step.parts, changes: changes(since: step))
    }

    var staleUndoStep: StaleStep? { staleStep(undoSteps.last) }
    var staleRedoStep: StaleStep? { staleStep(redoSteps.last) }

    /// The step the policy lets run next from `steps` (the top is the last).
    private func runnable(_ steps: [Step]) -> Step? {
        guard let next = steps.last else { return nil }
        switch policy {
        case .run: return next
        case .refuse: return isStale(next) ? nil : next
        case .skip: return steps.last { !isStale($0) }
        }
    }

    /// The names successive undos (or redos) of `steps` would run under the policy, the
    /// next first: every step under .run, the fresh ones under .skip, those above the newest
    /// stale one under .refuse.
    func runnableNames(_ steps: [Step]) -> [String] {
        var names: [String] = []
        for step in steps.reversed() {
            if policy == .run || !isStale(step) {
                names.append(step.name)
            } else if policy == .refuse {
                break
            }
        }
        return names
    }

    var canUndo: Bool { runnable(undoSteps) != nil }
    var canRedo: Bool { runnable(redoSteps) != nil }
    var undoActionName: String { runnable(undoSteps)?.name ?? "" }
    var redoActionName: String { runnable(redoSteps)?.name ?? "" }

    var isClean: Bool {
        switch cleanMark {
        case .start: undoSteps.isEmpty
        case .step(let serial): undoSteps.last?.serial == serial
        case .unreachable: false
        }
    }

    // MARK: Operations

    /// A top-level group closes as a new step, or merges into the newest one (coalescing:
    /// same key, nothing undone, redone or dropped since, the newest not stale and not at
    /// the clean mark). Returns whether it merged.
    @discardableResult
    mutating func close(_ step: Step, merging merge: (inout Payload, Payload) -> Void) -> Bool {
        // Its registrations ended redo; a clean mark on a redo step is out of reach now.
        if case .step(let serial) = cleanMark, redoSteps.contains(where: { $0.serial == serial }) {
            cleanMark = .unreachable
        }
        redoSteps.removeAll()
        defer { newestStepMayCoalesce = step.coalescingKey != nil }
        if let key = step.coalescingKey, newestStepMayCoalesce, var newest = undoSteps.last,
           newest.coalescingKey == key, !isStale(newest), cleanMark != .step(serial: newest.serial) {
            merge(&newest.payload, step.payload)
            newest.name = step.name
            newest.parts = newest.parts.flatMap { older in step.parts.map { older.union($0) } }
            newest.doneAt = step.doneAt
            undoSteps[undoSteps.count - 1] = newest
            return true
        }
        undoSteps.append(step)
        return false
    }

    /// `undo()` under the policy; `run` replays the step on the suite's model.
    mutating func undo(at time: UInt64, running run: (inout Payload) -> Void) -> Outcome {
        var outcome = Outcome()
        // With nothing the policy lets run, nothing is dropped either (as redo(), and canUndo).
        guard runnable(undoSteps) != nil else { return outcome }
        while let next = undoSteps.last, isStale(next), policy == .skip {
            outcome.dropped.append(next.name)
            dropNewestUndoStep()
        }
        var step = undoSteps.removeLast()
        outcome.ran = step
        newestStepMayCoalesce = false
        run(&step.payload)
        step.doneAt = time
        step.restoredChanges = []
        redoSteps.append(step)
        return outcome
    }

    /// `redo()` under the policy.
    mutating func redo(at time: UInt64, running run: (inout Payload) -> Void) -> Outcome {
        var outcome = Outcome()
        guard runnable(redoSteps) != nil else { return outcome }
        while let next = redoSteps.last, isStale(next), policy == .skip {
            outcome.dropped.append(next.name)
            dropNewestRedoStep()
        }
        var step = redoSteps.removeLast()
        outcome.ran = step
        newestStepMayCoalesce = false
        run(&step.payload)
        step.doneAt = time
        step.restoredChanges = []
        undoSteps.append(step)
        return outcome
    }

    /// `removeNextUndoStep()`: the step's changes stay in the model, with no step to undo them.
    mutating func dropNewestUndoStep() {
        guard let dropped = undoSteps.popLast() else { return }
        newestStepMayCoalesce = false
        switch cleanMark {
        case .start:
            // The model no longer is what it was at the start, and no undo gets there.
            cleanMark = .unreachable
        case .step(dropped.serial):
            // The model is as it was at the mark: the position below is that state now.
            cleanMark = undoSteps.last.map { .step(serial: $0.serial) } ?? .start
        case .step(let serial) where undoSteps.contains(where: { $0.serial == serial }):
            // Undoing back there would keep the dropped step's changes.
            cleanMark = .unreachable
        case .step, .unreachable:
            break
        }
    }

    /// `removeNextRedoStep()`: the step's changes are never made.
    mutating func dropNewestRedoStep() {
        guard let dropped = redoSteps.popLast() else { return }
        if case .step(let serial) = cleanMark,
           serial == dropped.serial || redoSteps.contains(where: { $0.serial == serial }) {
            cleanMark = .unreachable
        }
    }

    mutating func markClean() {
        cleanMark = undoSteps.last.map { .step(serial: $0.serial) } ?? .start
    }

    /// The history was saved and restored into a new manager at `time`: each step keeps what
    /// it was stale by, and nothing noted before matters any more.
    mutating func restoreSavedHistory(at time: UInt64) {
        func restored(_ step: Step) -> Step {
            var step = step
            step.restoredChanges = isStale(step) ? changes(since: step) : []
            step.doneAt = time
            return step
        }
        undoSteps = undoSteps.map(restored)
        redoSteps = redoSteps.map(restored)
        lastChange = [:]
        lastChangeToAllParts = nil
        lastChangeTime = 0
        newestStepMayCoalesce = false
    }
}

extension ReferenceStacks {
    /// Expects `manager` to show what this reference says, through every query a person's
    /// Undo menu, history list or conflict banner reads. Returns whether it did, so that a
    /// randomized run can stop at its first divergence rather than report every later one.
    @discardableResult
    func expectAgreement(of manager: UndoManager, _ context: @autoclosure () -> String,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var agrees = true
        func check<Value: Equatable>(_ actual: Value, _ expected: Value, _ what: String) {
            guard actual != expected else { return }
            agrees = false
            #expect(actual == expected, "\(what) — \(context())", sourceLocation: sourceLocation)
        }
        check(manager.undoCount, undoSteps.count, "undoCount")
        check(manager.redoCount, redoSteps.count, "redoCount")
        check(manager.undoActionNames, runnableNames(undoSteps), "undoActionNames")
        check(manager.redoActionNames, runnableNames(redoSteps), "redoActionNames")
        check(manager.staleUndoSteps.map(\.withoutID), undoSteps.reversed().compactMap(staleStep), "staleUndoSteps")
        check(manager.staleRedoSteps.map(\.withoutID), redoSteps.reversed().compactMap(staleStep), "staleRedoSteps")
        check(manager.canUndo, canUndo, "canUndo")
        check(manager.canRedo, canRedo, "canRedo")
        check(manager.undoActionName, undoActionName, "undoActionName")
        check(manager.redoActionName, redoActionName, "redoActionName")
        check(manager.staleUndoStep?.withoutID, staleUndoStep, "staleUndoStep")
        check(manager.staleRedoStep?.withoutID, staleRedoStep, "staleRedoStep")
        // One answer per question: the names list starts with what undo() would run.
        check(manager.undoActionNames.first ?? "", canUndo ? undoActionName : "", "undoActionNames[0]")
        check(manager.undoActionParts, undoSteps.last?.parts, "undoActionParts")
        check(manager.redoActionParts, redoSteps.last?.parts, "redoActionParts")
        check(manager.isClean, isClean, "isClean")
        return agrees
    }

    /// Expects `manager`'s history tree (no branches kept) to list the steps with this
    /// reference's staleness: the undo steps oldest first, then the redo steps next first.
    @discardableResult
    func expectHistoryTreeAgreement(of manager: UndoManager, _ context: @autoclosure () -> String,
                                    sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let path = undoSteps + redoSteps.reversed()
        let nodes = manager.historyTree.nodes
        let agrees = nodes.map(\.actionName) == path.map(\.name) && nodes.map(\.isStale) == path.map(isStale)
        #expect(agrees, "tree \(nodes.map { ($0.actionName, $0.isStale) }), expected \(path.map { ($0.name, isStale($0)) }) — \(context())",
                sourceLocation: sourceLocation)
        return agrees
    }
}
