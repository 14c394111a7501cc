// Proves, on random sessions of 2–4 people who each have an UndoManager over one shared
// document, that the .refuse and .skip policies never let an undo or redo overwrite a field
// someone else changed after the step was done, whether the app notes the changes itself or
// an UndoCoordinator(mode: .perMember) does; that every query, event, notification and
// Observation callback agrees with an independent reference (ReferenceStacks) after every
// operation; that .run, the control, does overwrite (so the check can fail); and that undos
// of steps on disjoint fields commute.

import Foundation
import Observation
import Synchronization
import Testing
import UndoKit

@Suite struct SharedModelRandomTests {
    /// How the people's managers hear of one another's changes.
    enum Noting: String, CaseIterable, CustomTestStringConvertible {
        /// Independent managers: after every operation the test, as an app would, notes the
        /// fields that changed on everyone else's manager (`noteChanges(to:origin:)`).
        case byTheApp
        /// An `UndoCoordinator(mode: .perMember)` notes the parts each step declared.
        case byCoordinator

        var testDescription: String { rawValue }
    }

    static let seeds: [UInt64] = Array(1...6)
    /// Each protecting policy with each seed (Swift Testing combines at most two collections).
    static let protectingRuns: [(policy: StaleStepPolicy, seed: UInt64)] =
        [StaleStepPolicy.refuse, .skip].flatMap { policy in seeds.map { (policy, $0) } }

    @Test("refuse and skip never overwrite another person's later change; everything agrees with the reference",
          arguments: Noting.allCases, protectingRuns)
    func protectingPolicies(noting: Noting, run: (policy: StaleStepPolicy, seed: UInt64)) {
        let (policy, seed) = run
        let session = SharedSession(noting: noting, policy: policy, seed: seed)
        session.run(operations: 160)
        #expect(session.overwrites == 0)
        // The session met stale steps, so the policy was exercised, not just the happy path.
        #expect(session.staleStepsMet > 0)
        #expect(session.noOpSteps > 0 && session.notesInOpenSteps > 0)
        if policy == .skip {
            #expect(session.droppedSteps > 0)
        }
    }

    @Test("control: .run does overwrite later changes (on steps it reported stale), so the check above can fail",
          arguments: Noting.allCases)
    func runPolicyOverwrites(noting: Noting) {
        var overwrites = 0
        for seed in Self.seeds {
            let session = SharedSession(noting: noting, policy: .run, seed: seed)
            session.run(operations: 120)
            overwrites += session.overwrites
        }
        #expect(overwrites > 0)
    }

    @Test("undoing steps on disjoint fields commutes: any interleaving of two people's undos ends in the same document",
          arguments: 1...8 as ClosedRange<UInt64>)
    func disjointUndosCommute(seed: UInt64) {
        // The same session three times, then the same undos in three interleavings: all of
        // A's first, shuffled, all of B's first.
        var undoOrders: [[Int]] = []
        var generator = SplitMix64(seed: seed ^ 0xD15_0175)
        let undos = [Int.random(in: 1...6, using: &generator), Int.random(in: 1...6, using: &generator)]
        var first = Array(repeating: 0, count: undos[0]) + Array(repeating: 1, count: undos[1])
        undoOrders.append(first)
        first.shuffle(using: &generator)
        undoOrders.append(first)
        undoOrders.append(Array(repeating: 1, count: undos[1]) + Array(repeating: 0, count: undos[0]))

        var endings: [[String: String]] = []
        for order in undoOrders {
            let (document, people, coordinator) = Self.disjointSession(seed: seed)
            for person in order {
                // Nothing the other person did touched these fields: the undo is never refused.
                #expect(people[person].canUndo || people[person].undoCount == 0)
                people[person].undo()
            }
            endings.append(document.fields)
            withExtendedLifetime(coordinator) {}
        }
        #expect(endings.allSatisfy { $0 == endings[0] }, "\(undoOrders) → \(endings)")
    }

    /// Two people under one per-member coordinator (refusing stale steps), each editing only
    /// their own fields, at random, with some undos and redos in between.
    private static func disjointSession(seed: UInt64) -> (SharedDocument, [UndoManager], UndoCoordinator) {
        var generator = SplitMix64(seed: seed)
        let document = SharedDocument()
        let coordinator = UndoCoordinator(mode: .perMember)
        let people = ["A", "B"].map { name in
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.staleStepPolicy = .refuse
            coordinator.attach(manager, origin: name)
            return manager
        }
        for edit in 0..<24 {
            let person = Int.random(in: 0...1, using: &generator)
            let manager = people[person]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: manager.undo()
            case 1: manager.redo()
            default:
                manager.beginUndoGrouping()
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    let field = "\(person == 0 ? "a" : "b")\(Int.random(in: 0..<3, using: &generator))"
                    document.write(field, to: "\(person) \(edit)", by: manager)
                }
                manager.setActionName("Edit \(edit)")
                manager.endUndoGrouping()
            }
        }
        return (document, people, coordinator)
    }
}

/// One value a field is set to: what a step's action writes (`nil` removes the field).
private struct FieldWrite {
    var field: String
    var value: String?
}

/// The events one manager posted during an operation: through its event observer, and
/// through its notification center (whose observer block must be `Sendable`).
private final class PostedEvents {
    /// The names in the drop notifications: written from a `Sendable` observer block.
    final class DropNotifications: Sendable {
        let names = Mutex<[String]>([])
    }

    var events: [UndoManager.Event] = []
    let dropNotifications = DropNotifications()

    var droppedNotified: [String] {
        dropNotifications.names.withLock { $0 }
    }

    var dropped: [String] {
        events.compactMap { if case .didDropStaleStep(let step) = $0 { step.actionName } else { nil } }
    }

    func count(_ event: UndoManager.Event) -> Int {
        events.filter { $0 == event }.count
    }

    func clear() {
        events.removeAll()
        dropNotifications.names.withLock { $0.removeAll() }
    }
}

/// Whether an Observation tracking fired.
private final class ObservationFlag: Sendable {
    let fired = Mutex(false)
}

/// What a person's Undo menu and conflict banner show: compared before and after each
/// operation to know whether an Observation tracking must have fired.
private struct ObservedState: Equatable {
    var canUndo, canRedo, isClean: Bool
    var undoActionName, redoActionName: String
    var staleUndoStep, staleRedoStep: StaleStep?

    init(_ manager: UndoManager) {
        canUndo = manager.canUndo
        canRedo = manager.canRedo
        isClean = manager.isClean
        undoActionName = manager.undoActionName
        redoActionName = manager.redoActionName
        staleUndoStep = manager.staleUndoStep
        staleRedoStep = manager.staleRedoStep
    }
}

/// A random session: people editing one ``SharedDocument``, checked after every operation.
private final class SharedSession {
    final class Person {
        let name: String
        let manager: UndoManager
        var reference: ReferenceStacks<[FieldWrite]>
        let posted = PostedEvents()
        /// The event and notification observations, kept for the session.
        var observations: [AnyObject] = []

        init(name: String, manager: UndoManager, policy: StaleStepPolicy) {
            self.name = name
            self.manager = manager
            reference = ReferenceStacks(policy: policy)
        }
    }

    private enum Declaring {
        /// Each write declares its field (parts add up).
        case eachWrite
        /// One `addActionParts` call with every field, after the writes.
        case onceForAll
        /// Nothing declared: the step counts as touching every field.
        case nothing
        /// `addActionParts` with an empty selection: declares nothing either.
        case emptySelection
    }

    private enum Form: CaseIterable {
        case group, nestedGroup, scope, failingScope
    }

    private struct Rollback: Error {}

    let noting: SharedModelRandomTests.Noting
    let policy: StaleStepPolicy
    let seed: UInt64
    private var generator: SplitMix64
    /// The draws for no-op steps and outside notes, apart, so that the sessions' other
    /// choices stay what they were before these were added.
    private var extraGenerator: SplitMix64
    private let document = SharedDocument()
    private var people: [Person] = []
    /// The coordinator, kept by the session on even seeds; on odd seeds nobody keeps it but
    /// its managers (spec K4: their protection must not depend on the caller keeping it).
    private let keptCoordinator: UndoCoordinator?
    private weak var droppedCoordinator: UndoCoordinator?
    private var coordinator: UndoCoordinator? { keptCoordinator ?? droppedCoordinator }
    /// Fields the outside changed during the operation (a note while a step was open): their
    /// last change is the outside's, not the actor's.
    private var outsideChangedFields: Set<String> = []
    /// Steps that wrote their fields' current values and said they changed nothing.
    private(set) var noOpSteps = 0
    /// Notes made while a step was open, after its first action.
    private(set) var notesInOpenSteps = 0
    /// Fields everyone edits, and each person's own, which only its owner writes (most
    /// edits): a person's stack then mixes stale steps with fresh ones, which is where .skip
    /// has something to skip to.
    private let sharedFieldNames = (0..<4).map { "shared\($0)" }
    private var fieldNames: [String] { sharedFieldNames + people.map { "own\($0.name)" } }
    /// What the document should hold: the reference replays every step on it.
    private var expectedFields: [String: String] = [:]
    /// Ground truth, from the document itself: who last changed each field, and when.
    private var lastChange: [String: (person: Int, time: UInt64)] = [:]
    /// The session's clock: one tick per operation.
    private var clock: UInt64 = 0
    private var edits = 0
    private var operation = 0
    /// Undos and redos that changed a field another person had changed after the step.
    private(set) var overwrites = 0
    /// Undo or redo requests whose next step was stale.
    private(set) var staleStepsMet = 0
    private(set) var droppedSteps = 0
    /// Whether every operation also compares each manager's history tree (odd seeds: reading
    /// the tree makes a manager record it, which the other seeds leave off) or checks that
    /// Observation hears each change (even seeds: observing costs every later operation a
    /// comparison of what was read; both checks on every seed would double the run time).
    private let checksHistoryTree: Bool

    init(noting: SharedModelRandomTests.Noting, policy: StaleStepPolicy, seed: UInt64) {
        self.noting = noting
        self.policy = policy
        self.seed = seed
        generator = SplitMix64(seed: seed)
        extraGenerator = SplitMix64(seed: seed ^ 0x0B5E_55ED)
        checksHistoryTree = seed % 2 == 1
        let coordinator = noting == .byCoordinator ? UndoCoordinator(mode: .perMember) : nil
        keptCoordinator = seed % 2 == 0 ? coordinator : nil
        let count = 2 + Int(seed % 3)
        let instant = ContinuousClock.now
        for index in 0..<count {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.staleStepPolicy = policy
            // A fixed clock: consecutive groups with one key always fall within the interval.
            manager.coalescingClock = { instant }
            let person = Person(name: "P\(index)", manager: manager, policy: policy)
            let posted = person.posted, dropNotifications = posted.dropNotifications
            person.observations.append(manager.addEventObserver { posted.events.append($0) })
            let center = NotificationCenter()
            manager.notificationCenter = center
            person.observations.append(center.addObserver(forName: .UndoKitDidDropStaleStep, object: manager, queue: nil) { note in
                let name = note.userInfo?[UndoKitStaleStepActionNameKey] as? String ?? "?"
                dropNotifications.names.withLock { $0.append(name) }
            })
            coordinator?.attach(manager, origin: person.name)
            people.append(person)
        }
        droppedCoordinator = coordinator
    }

    private var context: String {
        "noting \(noting.rawValue), policy \(policy), seed \(seed), operation \(operation)"
    }

    /// Runs `operations` random operations, stopping at the first that disagrees with the
    /// reference: what follows a divergence only repeats it.
    func run(operations: Int) {
        for index in 0..<operations {
            operation = index
            let issuesBefore = issues
            perform(Int.random(in: 0..<people.count, using: &generator))
            if issues > issuesBefore {
                Issue.record("The operations up to the divergence:\n\(trace.suffix(12).joined(separator: "\n"))")
                return
            }
        }
    }

    /// What each operation did, for the report of a divergence.
    private var trace: [String] = []

    /// The expectations that failed so far.
    private var issues = 0

    private func expect(_ condition: Bool, _ comment: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        issues += 1
        Issue.record("\(comment()) — \(context)", sourceLocation: sourceLocation)
    }

    // MARK: One operation

    private func perform(_ actor: Int) {
        clock += 1
        let fieldsBefore = document.fields
        let flags = checksHistoryTree ? [] : people.map { person -> (ObservationFlag, ObservedState) in
            let flag = ObservationFlag()
            var state: ObservedState?
            withObservationTracking {
                state = ObservedState(person.manager)
            } onChange: {
                flag.fired.withLock { $0 = true }
            }
            return (flag, state!)
        }
        for person in people {
            person.posted.clear()
        }

        let person = people[actor]
        // What the coordinator notes on the others: the parts of the step that closed or ran
        // (`.some(nil)`: every part), `.none` if none did.
        var changedParts: Set<UndoPart>?? = .none
        var outcome: ReferenceStacks<[FieldWrite]>.Outcome?
        var isUndo = false
        var runsAnyway = false
        var roll = Int.random(in: 0..<100, using: &generator)
        if policy != .refuse && (85..<95).contains(roll) {
            // Removing the stale step in the way is how a person gets past a refusal; under
            // the other policies an undo meets the stale steps instead.
            roll = 50
        }
        switch roll {
        case 0..<45:
            changedParts = edit(by: person)
            trace[trace.count - 1] += changedParts == nil ? " (rolled back)" : ""
        case 45..<70 where Int.random(in: 0..<6, using: &extraGenerator) != 0:
            isUndo = true
            if person.reference.staleUndoStep != nil { staleStepsMet += 1 }
            person.manager.undo()
            outcome = person.reference.undo(at: clock) { self.replay(&$0) }
        case 45..<70:
            // "Undo anyway": the next step runs even if stale, the policy stays.
            isUndo = true
            runsAnyway = true
            person.manager.undoStaleStep()
            let policy = person.reference.policy
            person.reference.policy = .run
            outcome = person.reference.undo(at: clock) { self.replay(&$0) }
            person.reference.policy = policy
        case 70..<85:
            if person.reference.staleRedoStep != nil { staleStepsMet += 1 }
            person.manager.redo()
            outcome = person.reference.redo(at: clock) { self.replay(&$0) }
        case 85..<95:
            // Keeping someone else's change past a refusal: drop the stale step in the way,
            // as a conflict banner's "Keep theirs" would.
            trace.append("\(operation) \(person.name) removes the next stale step")
            if person.reference.staleUndoStep != nil {
                person.manager.removeNextUndoStep()
                person.reference.dropNewestUndoStep()
            } else if person.reference.staleRedoStep != nil {
                person.manager.removeNextRedoStep()
                person.reference.dropNewestRedoStep()
            }
        default:
            trace.append("\(operation) \(person.name) marks clean")
            person.manager.markClean()
            person.reference.markClean()
        }
        if let outcome {
            trace.append("\(operation) \(person.name) \(isUndo ? "undo" : "redo"): dropped \(outcome.dropped), ran \(outcome.ran?.name ?? "nothing")")
            droppedSteps += outcome.dropped.count
            if let ran = outcome.ran {
                changedParts = .some(ran.parts)
            }
            checkEvents(of: person, outcome: outcome, isUndo: isUndo)
        }
        for other in people where other !== person {
            expect(other.posted.events.allSatisfy { $0 == .checkpoint }, "\(other.name) posted \(other.posted.events)")
        }

        let changedFields = Set(fieldNames.filter { document.fields[$0] != fieldsBefore[$0] }).subtracting(outsideChangedFields)
        outsideChangedFields.removeAll()
        checkGroundTruth(actor: actor, ran: outcome?.ran, changedFields: changedFields, runsAnyway: runsAnyway)
        noteChanges(by: actor, changedFields: changedFields, changedParts: changedParts)

        expect(document.fields == expectedFields, "document")
        for person in people {
            if !person.reference.expectAgreement(of: person.manager, "\(person.name), \(context)") {
                issues += 1
            }
            if checksHistoryTree && !person.reference.expectHistoryTreeAgreement(of: person.manager, "\(person.name), \(context)") {
                issues += 1
            }
        }
        for (person, (flag, stateBefore)) in zip(people, flags) where ObservedState(person.manager) != stateBefore {
            expect(flag.fired.withLock { $0 }, "\(person.name): Observation missed a change")
        }
        if let coordinator {
            expect(coordinator.isClean == people.allSatisfy(\.reference.isClean), "coordinator isClean")
        }
    }

    /// A new edit by `person` in one of the forms an app uses. Returns the parts it declared
    /// (`nil`: none), or `.none` if it rolled back and changed nothing.
    private func edit(by person: Person) -> Set<UndoPart>?? {
        edits += 1
        let name = "\(person.name) edit \(edits)"
        let fields = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            Int.random(in: 0..<5, using: &generator) < 3 ? "own\(person.name)" : sharedFieldNames.randomElement(using: &generator)!
        }
        // Now and then a step that writes what its fields already hold and says so: it
        // changes nothing, and notes nothing on the others.
        let changesNothing = Int.random(in: 0..<8, using: &extraGenerator) == 0
        let writes = fields.map { FieldWrite(field: $0, value: changesNothing ? expectedFields[$0] : "\(name) \($0)") }
        // Now and then the outside (a server) changes a field this step does not write while
        // the step is open, after its first action (spec K2).
        let outsideField: String? = Int.random(in: 0..<5, using: &extraGenerator) == 0
            ? fieldNames.filter { !fields.contains($0) }.randomElement(using: &extraGenerator) : nil
        // Mostly declared: a step that declares nothing goes stale at anyone's change.
        let declaring: Declaring = switch Int.random(in: 0..<20, using: &generator) {
        case 0..<9: .eachWrite
        case 9..<18: .onceForAll
        case 18: .nothing
        default: .emptySelection
        }
        let form = Form.allCases.randomElement(using: &generator)!
        let key: String? = Int.random(in: 0..<3, using: &generator) == 0 ? "typing" : nil
        let manager = person.manager
        trace.append("\(operation) \(name): \(fields) declaring \(declaring), \(form), key \(key ?? "none")"
            + (changesNothing ? ", changes nothing" : "") + (outsideField.map { ", outside changes \($0)" } ?? ""))
        var notedInOpenStep = false

        func record() {
            for (index, write) in writes.enumerated() {
                let nests = form == .nestedGroup && index == writes.count - 1
                if nests { manager.beginUndoGrouping() }
                document.write(write.field, to: write.value, by: manager, declaring: declaring == .eachWrite)
                if nests { manager.endUndoGrouping() }
                if index == 0, let outsideField, form != .failingScope {
                    changeFromOutside(outsideField)
                    notedInOpenStep = true
                }
            }
            if changesNothing { manager.setActionChangedParts([]) }
            switch declaring {
            case .onceForAll: manager.addActionParts(fields.map { UndoPart("field", $0) })
            case .emptySelection: manager.addActionParts([UndoPart]())
            case .eachWrite, .nothing: break
            }
            if let key { manager.setActionCoalescingKey(key) }
        }
        switch form {
        case .group, .nestedGroup:
            manager.beginUndoGrouping()
            record()
            manager.setActionName(name)
            manager.endUndoGrouping()
        case .scope:
            manager.withUndoGroup(named: name, record)
        case .failingScope:
            do {
                try manager.withUndoGroup(named: name) {
                    record()
                    throw Rollback()
                }
            } catch {}
            // Rolled back: the document, the stacks and the others' managers as before.
            return .none
        }

        // The step's actions, in registration order: each puts back what its field held.
        var undoWrites: [FieldWrite] = []
        for write in writes {
            undoWrites.append(FieldWrite(field: write.field, value: expectedFields[write.field]))
            expectedFields[write.field] = write.value
        }
        let parts: Set<UndoPart>? = switch declaring {
        case .eachWrite, .onceForAll: Set(fields.map { UndoPart("field", $0) })
        case .nothing, .emptySelection: nil
        }
        // A note after the step's first action: the step was done just before it.
        let step = ReferenceStacks<[FieldWrite]>.Step(
            serial: edits, name: name, parts: parts, doneAt: notedInOpenStep ? clock - 1 : clock, coalescingKey: key,
            payload: undoWrites)
        person.reference.close(step) { older, newer in older += newer }
        if changesNothing {
            noOpSteps += 1
            return .some(.some([]))
        }
        return .some(parts)
    }

    /// A change made outside every person's manager while a step is open: the server writes
    /// `field`, and every manager (and its reference) is told at once.
    private func changeFromOutside(_ field: String) {
        notesInOpenSteps += 1
        let value = "server \(operation) \(field)"
        document.fields[field] = value
        expectedFields[field] = value
        lastChange[field] = (-1, clock)
        outsideChangedFields.insert(field)
        for person in people {
            person.manager.noteChanges(to: [UndoPart("field", field)], origin: "server")
            person.reference.note([UndoPart("field", field)], origin: "server", at: clock)
        }
    }

    /// Runs a step's actions on the expected document as the manager does: newest first,
    /// each recording the action that puts back what it replaced.
    private func replay(_ actions: inout [FieldWrite]) {
        var inverse: [FieldWrite] = []
        for action in actions.reversed() {
            inverse.append(FieldWrite(field: action.field, value: expectedFields[action.field]))
            expectedFields[action.field] = action.value
        }
        actions = inverse
    }

    /// The events of an undo or redo: the dropped steps, through both channels, and one
    /// did-undo (did-redo) exactly when a step ran.
    private func checkEvents(of person: Person, outcome: ReferenceStacks<[FieldWrite]>.Outcome, isUndo: Bool) {
        expect(person.posted.dropped == outcome.dropped, "dropped steps")
        expect(person.posted.droppedNotified == outcome.dropped, "drop notifications")
        let ran = outcome.ran == nil ? 0 : 1
        expect(person.posted.count(.didUndoChange(isDiscardable: false)) == (isUndo ? ran : 0), "did-undo")
        expect(person.posted.count(.didRedoChange(isDiscardable: false)) == (isUndo ? 0 : ran), "did-redo")
    }

    /// The safety property, judged from the document alone: an undo or redo may change a
    /// field only if nobody else changed it after the step was last done.
    private func checkGroundTruth(actor: Int, ran: ReferenceStacks<[FieldWrite]>.Step?, changedFields: Set<String>,
                                  runsAnyway: Bool) {
        // Undo anyway overwrites by request: the policy's protection is not asked for.
        if let ran, !runsAnyway {
            let overwritten = changedFields.filter { field in
                guard let last = lastChange[field] else { return false }
                return last.person != actor && last.time > ran.doneAt
            }
            if !overwritten.isEmpty {
                overwrites += 1
                expect(policy == .run, "\(ran.name) overwrote \(overwritten.sorted())")
                // Even under .run the overwrite was announced: the step was stale (as the
                // manager's staleUndoStep, compared with the reference, said before).
                expect(people[actor].reference.isStale(ran), "\(ran.name) overwrote without being stale")
            }
        }
        for field in changedFields {
            lastChange[field] = (actor, clock)
        }
    }

    /// Tells the others' managers (`.byTheApp`), or the reference of what the coordinator
    /// told them (`.byCoordinator`), what the operation changed.
    private func noteChanges(by actor: Int, changedFields: Set<String>, changedParts: Set<UndoPart>??) {
        let origin = people[actor].name
        for (index, other) in people.enumerated() where index != actor {
            switch noting {
            case .byTheApp:
                // After every operation, whether it changed anything or not, as an app's
                // "document changed" hook would.
                let parts = Set(changedFields.map { UndoPart("field", $0) })
                other.manager.noteChanges(to: parts, origin: origin)
                other.reference.note(parts, origin: origin, at: clock)
            case .byCoordinator:
                switch changedParts {
                case .some(.some(let parts)): other.reference.note(parts, origin: origin, at: clock)
                case .some(.none): other.reference.noteAllParts(origin: origin, at: clock)
                case .none: break
                }
            }
        }
    }
}
