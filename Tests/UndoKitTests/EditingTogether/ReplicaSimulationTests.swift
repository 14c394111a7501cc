// Proves, with 2–3 replicas of a small replicated document in one process, each with one
// person's UndoManager whose steps are Codable commands, and a seeded network that delays,
// reorders and duplicates messages: that under .refuse and .skip a person's undo or redo only
// ever overwrites that person's own writes (a remote write noted since makes the step stale,
// and the policy then refuses or drops it, naming the other person); that every replica
// converges and no later write is lost; that .run, the control, does overwrite others' writes;
// and that a replica's history saved with undoHistory(of:), encoded, decoded and restored
// keeps each step's parts and staleness and goes on as before.

import Foundation
import Testing
import UndoKit

@Suite struct ReplicaSimulationTests {
    static let seeds: [UInt64] = Array(1...6)

    @Test("refuse and skip: undo reverts only one's own writes, replicas converge, a saved history stays stale",
          arguments: [StaleStepPolicy.refuse, .skip], seeds)
    func protectingPolicies(policy: StaleStepPolicy, seed: UInt64) throws {
        let simulation = ReplicaSimulation(policy: policy, seed: seed)
        try simulation.run(operations: 200)
        #expect(simulation.overwrites == 0)
        // The policy was exercised: some undo or redo met a step made stale by a remote write,
        // .skip dropped some, and the history saved midway held a stale step.
        #expect(simulation.staleStepsMet > 0)
        if policy == .skip {
            #expect(simulation.droppedSteps > 0)
        }
        #expect(simulation.savedHistories == 1 && simulation.savedStaleSteps > 0)
    }

    @Test("control: under .run some undo does overwrite another replica's write, so the check above can fail")
    func runPolicyOverwrites() throws {
        var overwrites = 0
        for seed in Self.seeds {
            let simulation = ReplicaSimulation(policy: .run, seed: seed)
            try simulation.run(operations: 200)
            overwrites += simulation.overwrites
        }
        #expect(overwrites > 0)
    }

    @Test("a saved and restored history keeps a step stale by a remote write, and the restored manager goes on")
    func savedHistoryKeepsStaleness() throws {
        let alice = Replica(number: 0, name: "Alice", replicaCount: 2, policy: .refuse)
        let bob = Replica(number: 1, name: "Bob", replicaCount: 2, policy: .refuse)
        func deliver(from sender: Replica, to receiver: Replica) {
            for record in sender.outbox {
                receiver.receive(record)
            }
            sender.outbox.removeAll()
        }
        alice.perform([SetRegister(key: 1, value: "a1")], named: "Set 1")
        alice.perform([SetRegister(key: 2, value: "a2")], named: "Set 2")
        deliver(from: alice, to: bob)
        bob.perform([SetRegister(key: 2, value: "b2")], named: "Bob's 2")
        deliver(from: bob, to: alice)
        let stale = StaleStep(actionName: "Set 2", parts: [UndoPart("key", 2)],
                              changes: [UndoChange(part: UndoPart("key", 2), origin: "Bob")])
        #expect(alice.manager.staleUndoStep?.withoutID == stale && !alice.manager.canUndo)

        let history = try alice.manager.undoHistory(of: SetRegister.self)
        #expect(history.undoSteps.map(\.parts) == [[UndoPart("key", 1)], [UndoPart("key", 2)]])
        #expect(history.undoSteps.map(\.staleChanges) == [[], stale.changes])
        let decoded = try JSONDecoder().decode(UndoHistory<SetRegister>.self, from: JSONEncoder().encode(history))
        #expect(decoded == history)
        try alice.restore(decoded)
        #expect(alice.manager.staleUndoStep?.withoutID == stale && !alice.manager.canUndo)
        #expect(alice.manager.undoActionParts == [UndoPart("key", 2)])

        // Still refused, nothing sent; dropping it reaches "Set 1", which nobody touched.
        alice.manager.undo()
        #expect(alice.outbox.isEmpty && alice.value(2) == "b2")
        alice.manager.removeNextUndoStep()
        #expect(alice.manager.canUndo && alice.manager.undoActionName == "Set 1")
        // A remote write noted after the restore makes the older step stale too.
        bob.perform([SetRegister(key: 1, value: "b1")], named: "Bob's 1")
        deliver(from: bob, to: alice)
        #expect(alice.manager.staleUndoStep?.origins == ["Bob"] && !alice.manager.canUndo)
        #expect(alice.registers == bob.registers)
    }
}

// MARK: - The replicated document

/// A write's timestamp: a Lamport clock, ties broken by the replica's number, so that every
/// replica orders any two writes the same way.
private struct Stamp: Comparable, Hashable {
    var time: UInt64
    var replica: Int

    /// Older than every write: a register nobody wrote.
    static let never = Stamp(time: 0, replica: -1)

    static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.time, lhs.replica) < (rhs.time, rhs.replica)
    }
}

/// A last-writer-wins register: the value of the write with the greatest stamp.
private struct Register: Equatable {
    var value: String?
    var stamp: Stamp
}

/// One write, as a replica broadcasts it.
private struct ChangeRecord {
    let key: Int
    let value: String?
    /// Unique per write: what tells a duplicate delivery.
    let stamp: Stamp
    let sender: String
    /// How many writes of each replica the writer had seen (its own included): a vector
    /// clock, kept to judge "no later write lost", never used to merge.
    let seen: [Int]
}

/// A replica: a document of registers keyed by number, and the undo manager of the one
/// person who edits it. Its steps are data (``SetRegister``); an undo or redo runs them, which
/// writes, and so broadcasts, like any local edit.
private final class Replica {
    let number: Int
    let name: String
    let policy: StaleStepPolicy
    private(set) var registers: [Int: Register] = [:]
    private(set) var manager: UndoManager
    /// Records written here and not yet handed to the network.
    var outbox: [ChangeRecord] = []
    /// The names of the stale steps the manager dropped (``StaleStepPolicy/skip``).
    var droppedSteps: [String] = []
    private var clock: UInt64 = 0
    private var seen: [Int]
    private var received: Set<Stamp> = []
    private var eventObservation: UndoManager.EventObservation?

    init(number: Int, name: String, replicaCount: Int, policy: StaleStepPolicy) {
        self.number = number
        self.name = name
        self.policy = policy
        seen = Array(repeating: 0, count: replicaCount)
        manager = UndoManager()
        setUp(manager)
    }

    private func setUp(_ manager: UndoManager) {
        manager.groupsByEvent = false
        manager.staleStepPolicy = policy
        eventObservation = manager.addEventObserver { [unowned self] event in
            if case .didDropStaleStep(let step) = event { droppedSteps.append(step.actionName) }
        }
    }

    func value(_ key: Int) -> String? {
        registers[key]?.value
    }

    func stamp(of key: Int) -> Stamp {
        registers[key]?.stamp ?? .never
    }

    /// A local write: a new stamp, newer than every write seen here, so it wins here.
    func write(_ key: Int, _ value: String?) {
        clock += 1
        seen[number] += 1
        let record = ChangeRecord(key: key, value: value, stamp: Stamp(time: clock, replica: number), sender: name, seen: seen)
        registers[key] = Register(value: value, stamp: record.stamp)
        outbox.append(record)
    }

    enum Reception: Equatable {
        /// Delivered before: ignored altogether.
        case duplicate
        /// Older than the register's write: last writer wins, nothing changes.
        case lost
        /// Newer: the register takes it, and the manager hears of the change.
        case applied
    }

    /// A remote write arrives.
    @discardableResult
    func receive(_ record: ChangeRecord) -> Reception {
        guard received.insert(record.stamp).inserted else { return .duplicate }
        clock = max(clock, record.stamp.time)
        seen = zip(seen, record.seen).map { max($0, $1) }
        guard record.stamp > stamp(of: record.key) else { return .lost }
        registers[record.key] = Register(value: record.value, stamp: record.stamp)
        manager.noteChanges(to: [UndoPart("key", record.key)], origin: record.sender)
        return .applied
    }

    /// One step of the person: `commands` in one group named `name`.
    func perform(_ commands: [SetRegister], named name: String) {
        manager.beginUndoGrouping()
        for command in commands {
            manager.perform(command, on: self)
        }
        manager.setActionName(name)
        manager.endUndoGrouping()
    }

    /// Replaces the manager with a new one restored from `history`, as a relaunch would.
    func restore(_ history: UndoHistory<SetRegister>) throws {
        let restored = UndoManager()
        setUp(restored)
        try restored.restoreUndoHistory(history, on: self)
        manager = restored
    }
}

/// Sets a register; its undo puts back what the register held when it ran. Codable, so a
/// replica's history can be saved.
private struct SetRegister: UndoableCommand, Codable, Equatable {
    var key: Int
    var value: String?
    var previous: String?

    init(key: Int, value: String?) {
        self.key = key
        self.value = value
    }

    mutating func execute(on replica: Replica) {
        previous = replica.value(key)
        replica.write(key, value)
    }

    func undo(on replica: Replica) {
        replica.write(key, previous)
    }

    var actionName: String { "Set \(key)" }
    var undoParts: [UndoPart] { [UndoPart("key", key)] }
}

// MARK: - The simulation

/// Replicas, a network between them, and a random sequence of edits, undos, redos and
/// deliveries, checked after every operation against a ``ReferenceStacks`` per replica.
private final class ReplicaSimulation {
    /// A record on its way to one replica.
    struct Delivery {
        var record: ChangeRecord
        var to: Int
        /// The tick from which it may arrive.
        var due: Int
    }

    let policy: StaleStepPolicy
    let seed: UInt64
    private var generator: SplitMix64
    private var replicas: [Replica] = []
    private var references: [ReferenceStacks<Void>] = []
    private var inFlight: [Delivery] = []
    /// Every write ever made, by anyone: the convergence check's ground truth.
    private var writes: [ChangeRecord] = []
    /// Key n is replica n's own; these are everyone's.
    private var sharedKeys: Range<Int> { replicas.count..<(replicas.count + 2) }
    private var tick = 0
    private var time: UInt64 = 0
    private var edits = 0
    private var operation = 0
    private var isSaved = false
    private var operationCount = 0
    /// Undos and redos that overwrote a write another replica made.
    private(set) var overwrites = 0
    /// Undo or redo requests whose next step was stale.
    private(set) var staleStepsMet = 0
    private(set) var droppedSteps = 0
    private(set) var savedHistories = 0
    /// The stale steps in the saved history.
    private(set) var savedStaleSteps = 0

    init(policy: StaleStepPolicy, seed: UInt64) {
        self.policy = policy
        self.seed = seed
        generator = SplitMix64(seed: seed)
        let count = 2 + Int(seed % 2)
        for number in 0..<count {
            replicas.append(Replica(number: number, name: "R\(number)", replicaCount: count, policy: policy))
            references.append(ReferenceStacks(policy: policy))
        }
    }

    private var context: String {
        "policy \(policy), seed \(seed), operation \(operation)"
    }

    /// Runs `operations` random operations, then drains the network and checks convergence.
    /// Stops at the first disagreement with the reference: what follows only repeats it.
    func run(operations: Int) throws {
        operationCount = operations
        for index in 0..<operations {
            operation = index
            try perform()
            guard checkAgreement() else { return }
        }
        // Drain: every record still on its way arrives, duplicates included, in random order.
        while !inFlight.isEmpty {
            operation += 1
            deliver(inFlight.remove(at: Int.random(in: inFlight.indices, using: &generator)))
            guard checkAgreement() else { return }
        }
        checkConvergence()
    }

    private func perform() throws {
        tick += 1
        time += 1
        let actor = Int.random(in: replicas.indices, using: &generator)
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<30: edit(by: actor)
        case 30..<50: undoOrRedo(by: actor, undoing: true)
        case 50..<60: undoOrRedo(by: actor, undoing: false)
        case 60..<65 where policy == .refuse && references[actor].staleUndoStep != nil:
            // Past a refusal: keep the other person's write.
            replicas[actor].manager.removeNextUndoStep()
            references[actor].dropNewestUndoStep()
        default:
            // The network's turn: whatever is due arrives, in random order.
            var due = inFlight.filter { $0.due <= tick }
            inFlight.removeAll { $0.due <= tick }
            due.shuffle(using: &generator)
            for delivery in due {
                deliver(delivery)
            }
        }
        broadcast(from: actor)
        // Once past the middle, replica 0 saves its history and restarts from it, at the
        // first chance to save a stale step (or at the last operation).
        let steps = references[0].undoSteps + references[0].redoSteps
        if !isSaved && (operation >= operationCount / 2 && steps.contains(where: references[0].isStale) || operation == operationCount - 1) {
            try saveAndRestore(replicas[0])
        }
    }

    private func edit(by actor: Int) {
        edits += 1
        let replica = replicas[actor]
        let name = "\(replica.name) edit \(edits)"
        // Half the time the replica's own key, which only its person writes; else a shared
        // one: a stack then mixes steps that others' writes made stale with fresh ones.
        let shared = sharedKeys.randomElement(using: &generator)!
        let first = Bool.random(using: &generator) ? actor : shared
        let chosen = Int.random(in: 0..<3, using: &generator) == 0 && first != shared ? [first, shared] : [first]
        replica.perform(chosen.map { SetRegister(key: $0, value: "\(name)") }, named: name)
        references[actor].close(ReferenceStacks<Void>.Step(
            serial: edits, name: name, parts: Set(chosen.map { UndoPart("key", $0) }), doneAt: time, payload: ())
        ) { _, _ in }
    }

    private func undoOrRedo(by actor: Int, undoing: Bool) {
        let replica = replicas[actor]
        let reference = references[actor]
        let wasStale = undoing ? reference.staleUndoStep : reference.staleRedoStep
        let registersBefore = replica.registers
        replica.droppedSteps.removeAll()
        if undoing {
            replica.manager.undo()
        } else {
            replica.manager.redo()
        }
        let outcome = undoing
            ? references[actor].undo(at: time) { _ in }
            : references[actor].redo(at: time) { _ in }
        #expect(replica.droppedSteps == outcome.dropped, "dropped steps — \(context)")
        droppedSteps += outcome.dropped.count
        // Judged from the replica alone: an undo or redo may write over the person's own
        // writes only. Another replica's write in a register here arrived after the step was
        // done (the step's own write, stamped after all it had seen, replaced anything older).
        let overwritten = replica.outbox.map(\.key).filter { key in
            let before = registersBefore[key]?.stamp ?? .never
            return before != .never && before.replica != actor
        }
        if !overwritten.isEmpty {
            overwrites += 1
            #expect(policy == .run, "\(outcome.ran?.name ?? "?") overwrote others' writes to keys \(overwritten) — \(context)")
        }
        if let stale = wasStale {
            staleStepsMet += 1
            // The banner names someone else: staleness comes only from remote writes.
            #expect(!stale.origins.isEmpty && !stale.origins.contains(replica.name), "\(stale) — \(context)")
            if policy == .refuse {
                #expect(outcome.ran == nil && replica.outbox.isEmpty && replica.registers == registersBefore,
                        "a refused step ran — \(context)")
            }
        }
        // An undo or redo writes only the parts its step declared.
        let written = Set(replica.outbox.map { UndoPart("key", $0.key) })
        #expect(written.isSubset(of: outcome.ran?.parts ?? []), "wrote \(written) — \(context)")
    }

    /// Hands a replica's new records to the network: to each other replica after a random
    /// delay, some twice.
    private func broadcast(from sender: Int) {
        for record in replicas[sender].outbox {
            writes.append(record)
            for receiver in replicas.indices where receiver != sender {
                inFlight.append(Delivery(record: record, to: receiver, due: tick + Int.random(in: 1...6, using: &generator)))
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    inFlight.append(Delivery(record: record, to: receiver, due: tick + Int.random(in: 1...12, using: &generator)))
                }
            }
        }
        replicas[sender].outbox.removeAll()
    }

    private func deliver(_ delivery: Delivery) {
        time += 1
        let replica = replicas[delivery.to]
        let registersBefore = replica.registers
        let staleBefore = (replica.manager.staleUndoStep, replica.manager.staleRedoStep)
        switch replica.receive(delivery.record) {
        case .applied:
            references[delivery.to].note([UndoPart("key", delivery.record.key)], origin: delivery.record.sender, at: time)
        case .duplicate, .lost:
            // Idempotent: nothing changes, and the manager hears of nothing.
            #expect(replica.registers == registersBefore, "a duplicate or lost write changed \(replica.name) — \(context)")
            #expect(replica.manager.staleUndoStep == staleBefore.0 && replica.manager.staleRedoStep == staleBefore.1,
                    "a duplicate or lost write was noted — \(context)")
        }
    }

    private func saveAndRestore(_ replica: Replica) throws {
        isSaved = true
        savedHistories += 1
        let reference = references[replica.number]
        let before = (replica.manager.staleUndoStep, replica.manager.staleRedoStep, replica.manager.canUndo, replica.manager.canRedo)
        let history = try replica.manager.undoHistory(of: SetRegister.self)
        savedStaleSteps = (history.undoSteps + history.redoSteps).filter { !$0.staleChanges.isEmpty }.count
        #expect(history.undoSteps.map(\.parts) == reference.undoSteps.map(\.parts), "saved parts — \(context)")
        #expect(history.redoSteps.map(\.parts) == reference.redoSteps.map(\.parts), "saved parts — \(context)")
        #expect(history.undoSteps.map(\.staleChanges) == reference.undoSteps.map(reference.changes(since:)), "saved staleness — \(context)")
        #expect(history.redoSteps.map(\.staleChanges) == reference.redoSteps.map(reference.changes(since:)), "saved staleness — \(context)")
        let decoded = try JSONDecoder().decode(UndoHistory<SetRegister>.self, from: JSONEncoder().encode(history))
        #expect(decoded == history)
        try replica.restore(decoded)
        references[replica.number].restoreSavedHistory(at: time)
        let after = (replica.manager.staleUndoStep, replica.manager.staleRedoStep, replica.manager.canUndo, replica.manager.canRedo)
        #expect(after == before, "restored staleness — \(context)")
    }

    /// Whether every replica's manager agrees with its reference (recording an issue where not).
    private func checkAgreement() -> Bool {
        zip(replicas, references).allSatisfy { replica, reference in
            reference.expectAgreement(of: replica.manager, "\(replica.name), \(context)")
        }
    }

    /// After the network drained: every replica holds the same registers, and no later write
    /// is lost. "Later" is causal: write W is later than write V if W's replica had seen V
    /// when it wrote W (W.seen counts V). Lost: V survives where W, later, wrote the same key.
    /// So for each key the surviving write is one no other write to that key had seen; and
    /// since the registers are last-writer-wins by Lamport stamps, it is the write with the
    /// greatest stamp of all writes ever made to the key.
    private func checkConvergence() {
        for replica in replicas.dropFirst() {
            #expect(replica.registers == replicas[0].registers, "\(replica.name) did not converge — seed \(seed)")
        }
        let registers = replicas[0].registers
        #expect(Set(registers.keys) == Set(writes.map(\.key)))
        for (key, register) in registers {
            let writesToKey = writes.filter { $0.key == key }
            guard let survivor = writesToKey.first(where: { $0.stamp == register.stamp }) else {
                Issue.record("key \(key) holds a write nobody made — seed \(seed)")
                continue
            }
            let later = writesToKey.filter {
                $0.stamp != survivor.stamp && $0.seen[survivor.stamp.replica] >= survivor.seen[survivor.stamp.replica]
            }
            #expect(later.isEmpty, "key \(key): \(survivor.value ?? "nil") survived later writes \(later.map(\.value)) — seed \(seed)")
            #expect(survivor.stamp == writesToKey.map(\.stamp).max(), "key \(key) — seed \(seed)")
        }
    }
}
