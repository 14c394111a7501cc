import Foundation
import Testing
@testable import UndoKit

/// Spec J2: `withUndoGroup(named:_:)` closes its group on every exit and, when the body
/// throws, leaves the manager and the model exactly as before the call.
@Suite("Scoped groups: withUndoGroup(named:_:)")
struct ScopedGroupTests {
    struct Failure: Error, Equatable {}

    /// Everything a rollback must put back: the observable state, the listing, the clean
    /// mark, the cost, and the model.
    struct Snapshot: Equatable {
        var state: ManagerState
        var undoNames: [String]
        var redoNames: [String]
        var isClean: Bool
        var cost: Int
        var values: [Int]

        init(_ manager: UndoManager, _ documents: [Document]) {
            state = ManagerState(manager)
            undoNames = manager.undoActionNames
            redoNames = manager.redoActionNames
            isClean = manager.isClean
            cost = manager.totalActionCost
            values = documents.map(\.value)
        }
    }

    /// A command that sets a document's value; its undo puts the old value back.
    struct SetValue: UndoableCommand {
        let value: Int
        var old = 0
        var actionName: String { "Set \(value)" }
        mutating func execute(on document: Document) {
            old = document.value
            document.value = value
        }
        func undo(on document: Document) {
            document.value = old
        }
    }

    @Test("A body that returns makes one named step, as begin/end would", arguments: [true, false])
    func success(groupsByEvent: Bool) {
        let fixture = Fixture(groupsByEvent: groupsByEvent), document = Document()
        let result = fixture.manager.withUndoGroup(named: "Both") {
            fixture.change(document, to: 1)
            fixture.change(document, to: 2)
            return 42
        }
        #expect(result == 42)
        if groupsByEvent { fixture.manager.runLoop.tick() }
        #expect(fixture.manager.undoCount == 1)
        #expect(fixture.manager.undoActionName == "Both")
        fixture.manager.undo()
        #expect(document.value == 0)
        fixture.manager.redo()
        #expect(document.value == 2)
    }

    @Test("A body that throws is undone, leaves no step, and the error comes out", arguments: [true, false])
    func rollback(groupsByEvent: Bool) {
        let fixture = Fixture(groupsByEvent: groupsByEvent), document = Document()
        fixture.step(document, to: 1, named: "First")
        let before = Snapshot(fixture.manager, [document])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup(named: "Failing") {
                fixture.change(document, to: 2)
                fixture.change(document, to: 3)
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document]) == before)
        if groupsByEvent { fixture.manager.runLoop.tick() }   // nothing left for the tick to close
        #expect(Snapshot(fixture.manager, [document]) == before)
        fixture.manager.undo()
        #expect(document.value == 0)
    }

    @Test("The redo stack is as before the call", arguments: [true, false])
    func redoStackRestored(groupsByEvent: Bool) {
        let fixture = Fixture(groupsByEvent: groupsByEvent), document = Document()
        fixture.step(document, to: 1, named: "One")
        fixture.step(document, to: 2, named: "Two")
        fixture.manager.undo()
        fixture.manager.undo()
        let before = Snapshot(fixture.manager, [document])
        #expect(before.redoNames == ["One", "Two"])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 9)
                #expect(fixture.manager.canRedo == false)   // cleared while the body runs, as Apple's
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document]) == before)
        fixture.manager.redo()
        fixture.manager.redo()
        #expect(document.value == 2)
    }

    @Test("An empty body that throws leaves the redo stack too")
    func emptyBodyKeepsRedo() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        fixture.step(document, to: 1, named: "One")
        fixture.manager.undo()
        let before = Snapshot(fixture.manager, [document])
        #expect(throws: Failure.self) { try fixture.manager.withUndoGroup { throw Failure() } }
        #expect(Snapshot(fixture.manager, [document]) == before)
    }

    @Test("Nested scopes are savepoints")
    func savepoints() {
        let fixture = Fixture(groupsByEvent: false), document = Document(), other = Document()
        fixture.manager.withUndoGroup(named: "Outer") {
            fixture.change(document, to: 1)
            do {
                try fixture.manager.withUndoGroup {
                    fixture.change(other, to: 5)
                    throw Failure()
                }
            } catch {}
            #expect(other.value == 0)
            fixture.change(document, to: 2)
        }
        #expect(fixture.manager.undoCount == 1)
        #expect(fixture.manager.undoActionName == "Outer")
        fixture.manager.undo()
        #expect(document.value == 0 && other.value == 0)

        let before = Snapshot(fixture.manager, [document, other])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 7)
                fixture.manager.withUndoGroup { fixture.change(other, to: 8) }
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document, other]) == before)
    }

    @Test("A scope inside an open group rolls back only its part and restores the group's name")
    func insideAnOpenGroup() {
        let fixture = Fixture(groupsByEvent: false), document = Document(), other = Document()
        fixture.manager.beginUndoGrouping()
        fixture.change(document, to: 1)
        fixture.manager.setActionName("Kept")
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup(named: "Renamed") {
                fixture.change(other, to: 2)
                fixture.manager.setActionCost(100)
                throw Failure()
            }
        }
        #expect(fixture.manager.undoActionName == "Kept")
        #expect(fixture.manager.totalActionCost == 0)
        fixture.manager.endUndoGrouping()
        fixture.manager.undo()
        #expect(document.value == 0 && other.value == 0)
        #expect(fixture.manager.redoActionName == "Kept")
    }

    @Test("Commands performed in the body roll back like closures")
    func commands() {
        let fixture = Fixture(), document = Document()
        fixture.manager.perform(SetValue(value: 1), on: document)
        fixture.manager.runLoop.tick()
        let before = Snapshot(fixture.manager, [document])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.manager.perform(SetValue(value: 2), on: document)
                fixture.manager.perform(SetValue(value: 3), on: document)
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document]) == before)
        fixture.manager.undo()
        #expect(document.value == 0)
        fixture.manager.redo()
        #expect(document.value == 1)
    }

    @Test("Observers see the close and the undo of the rolled-back group")
    func notifications() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 1)
                throw Failure()
            }
        }
        #expect(fixture.takeEvents() == [
            .checkpoint, .didOpenUndoGroup,                              // begin
            .checkpoint, .willCloseUndoGroup, .didCloseUndoGroup(isDiscardable: false),
            .checkpoint, .willUndoChange, .checkpoint, .checkpoint, .didUndoChange(isDiscardable: false),
        ])
    }

    /// A subclass that counts the calls a scope routes through its overrides.
    final class CountingManager: UndoManager {
        var calls: [String] = []
        override func beginUndoGrouping() { calls.append("begin"); super.beginUndoGrouping() }
        override func endUndoGrouping() { calls.append("end"); super.endUndoGrouping() }
        override func undoNestedGroup() { calls.append("undoNestedGroup"); super.undoNestedGroup() }
        override func setActionName(_ actionName: String) { calls.append("name"); super.setActionName(actionName) }
    }

    @Test("A subclass sees begin, name and end, and on rollback end then undoNestedGroup")
    func subclassRouting() {
        let manager = CountingManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        let document = Document()
        manager.withUndoGroup(named: "One") {
            manager.registerUndo(withTarget: document) { _ in }
        }
        #expect(throws: Failure.self) {
            try manager.withUndoGroup {
                manager.registerUndo(withTarget: document) { _ in }
                throw Failure()
            }
        }
        // The undo's redo group is opened through beginUndoGrouping() as on Apple platforms.
        #expect(manager.calls == ["begin", "name", "end", "begin", "end", "undoNestedGroup", "begin"])
        #expect(manager.undoCount == 1)
    }

    @Test("A failed scope is never coalesced into the previous step, nor trims an old one")
    func coalescingAndLimits() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        let manager = fixture.manager
        manager.levelsOfUndo = 2
        for value in 1...2 {
            manager.beginUndoGrouping()
            fixture.change(document, to: value)
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
        }
        #expect(manager.undoCount == 1)   // coalesced
        fixture.step(document, to: 3, named: "Three")
        let before = Snapshot(manager, [document])
        #expect(throws: Failure.self) {
            try manager.withUndoGroup {
                fixture.change(document, to: 4)
                manager.setActionCoalescingKey("typing")
                throw Failure()
            }
        }
        #expect(Snapshot(manager, [document]) == before)
        manager.undo()
        manager.undo()
        #expect(document.value == 0)
    }

    @Test("The clean mark is where it was")
    func cleanMark() {
        let fixture = Fixture(), document = Document()
        fixture.step(document, to: 1)
        fixture.manager.markClean()
        var changes: [Bool] = []
        let observation = fixture.manager.addCleanStateObserver { changes.append($0) }
        defer { observation.cancel() }
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 2)
                throw Failure()
            }
        }
        #expect(fixture.manager.isClean)
        #expect(changes.last ?? true)
        fixture.manager.undo()
        #expect(!fixture.manager.isClean)
    }

    @Test("With a coordinator, the other managers' redo steps and the redo order stay")
    func coordinator() {
        let coordinator = UndoCoordinator()
        let text = Fixture(groupsByEvent: false), canvas = Fixture(groupsByEvent: false)
        let page = Document(), shape = Document()
        coordinator.attach(text.manager)
        coordinator.attach(canvas.manager)
        text.step(page, to: 1, named: "Type")
        canvas.step(shape, to: 1, named: "Draw")
        text.step(page, to: 2, named: "Type more")
        coordinator.undo()
        coordinator.undo()
        coordinator.undo()
        #expect(coordinator.redoActionName == "Type")
        #expect(throws: Failure.self) {
            try text.manager.withUndoGroup {
                text.change(page, to: 9)
                throw Failure()
            }
        }
        #expect(canvas.manager.canRedo)
        #expect(coordinator.redoActionName == "Type")
        coordinator.redo()
        coordinator.redo()
        coordinator.redo()
        #expect(page.value == 2 && shape.value == 1)
    }

    @Test("Registration disabled: the body runs, nothing is recorded either way")
    func disabled() {
        let fixture = Fixture(), document = Document()
        fixture.manager.disableUndoRegistration()
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup { fixture.change(document, to: 1); throw Failure() }
        }
        #expect(document.value == 1)
        #expect(fixture.manager.groupingLevel == 0 && !fixture.manager.canUndo)
    }

    @Test("Grouping by event: the event group the scope opened goes away without a close")
    func notificationsWithEventGroup() {
        let fixture = Fixture(groupsByEvent: true), document = Document()
        fixture.step(document, to: 1, named: "One")
        fixture.manager.undo()
        _ = fixture.takeEvents()
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 2)
                throw Failure()
            }
        }
        // The begin opens the event group and the scope's (spec D), the close and the undo
        // follow; no close for the event group, which is simply gone.
        #expect(fixture.takeEvents() == [DO, CP, DO, CP, WC, DC, CP, WU, CP, DU])
        #expect(fixture.observedLevels == [1, 1, 2, 2, 2, 1, 1, 0, 1, 0])
        #expect(fixture.state.groupingLevel == 0)
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents().isEmpty)
        #expect(fixture.manager.redoActionName == "One")   // no empty close cleared it
    }

    @Test("A scope inside the event's open group keeps that group, and the tick closes it")
    func insideTheEventGroup() {
        let fixture = Fixture(groupsByEvent: true), document = Document(), other = Document()
        fixture.change(document, to: 1)
        fixture.manager.setActionName("Typing")
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup(named: "Failing") {
                fixture.change(other, to: 2)
                throw Failure()
            }
        }
        #expect(fixture.state.groupingLevel == 1)
        fixture.manager.runLoop.tick()
        #expect(fixture.manager.undoActionNames == ["Typing"])
        fixture.manager.undo()
        #expect(document.value == 0 && other.value == 0)
    }

    @Test("A redo in the body is rolled back: the redo steps and the enclosing group's name are back")
    func redoInBody() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        for value in 1...3 { fixture.step(document, to: value, named: "Set \(value)") }
        fixture.manager.undo()
        fixture.manager.undo()
        fixture.manager.beginUndoGrouping()
        fixture.manager.setActionName("Outer")
        let before = Snapshot(fixture.manager, [document])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.manager.redo()   // nested in the open groups; renames the outer one
                #expect(document.value == 2)
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document]) == before)
        #expect(fixture.state.undoActionName == "Outer")
        #expect(fixture.manager.redoActionNames == ["Set 2", "Set 3"])
        fixture.manager.endUndoGrouping()   // empty: clears the redo steps (spec R10.6)

    }

    @Test("Steps redone in the body go back to the redo stack, in order")
    func redoesInBody() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        for value in 1...3 { fixture.step(document, to: value, named: "Set \(value)") }
        for _ in 1...3 { fixture.manager.undo() }
        let before = Snapshot(fixture.manager, [document])
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.manager.redo()
                fixture.manager.redo()
                #expect(document.value == 2)
                throw Failure()
            }
        }
        #expect(Snapshot(fixture.manager, [document]) == before)
        #expect(fixture.manager.redoActionNames == ["Set 1", "Set 2", "Set 3"])
        for _ in 1...3 { fixture.manager.redo() }
        #expect(document.value == 3)
    }

    @Test("Actions removed in the body stay removed; cost, counts and the clean mark follow")
    func removalInBody() {
        let fixture = Fixture(groupsByEvent: false), kept = Document(), removed = Document()
        let manager = fixture.manager
        manager.beginUndoGrouping()
        fixture.change(removed, to: 1)
        manager.setActionCost(10)
        manager.setActionName("Removed")
        manager.endUndoGrouping()
        manager.markClean()
        manager.beginUndoGrouping()
        fixture.change(kept, to: 1)
        manager.setActionCost(5)
        manager.setActionName("Kept")
        manager.endUndoGrouping()
        fixture.step(removed, to: 2, named: "Redo removed")
        fixture.step(kept, to: 2, named: "Redo kept")
        manager.undo()
        manager.undo()
        #expect(manager.redoActionNames == ["Redo removed", "Redo kept"])
        #expect(throws: Failure.self) {
            try manager.withUndoGroup {
                fixture.change(kept, to: 9)
                manager.removeAllActions(withTarget: removed)
                throw Failure()
            }
        }
        #expect(kept.value == 1)
        #expect(manager.undoActionNames == ["Kept"])
        #expect(manager.redoActionNames == ["Redo kept"])
        #expect(manager.totalActionCost == 5)
        #expect(!manager.isClean)   // the marked step was removed
        fixture.manager.checkInvariants()
        manager.redo()
        #expect(kept.value == 2)
    }

    @Test("A removal of the scope's own actions only leaves coalescing and the clean mark alone")
    func removalOfOwnActions() {
        let fixture = Fixture(groupsByEvent: false), document = Document(), scratch = Document()
        let manager = fixture.manager
        for value in 1...2 {
            if value == 2 {
                #expect(throws: Failure.self) {
                    try manager.withUndoGroup {
                        fixture.change(scratch, to: 1)
                        manager.removeAllActions(withTarget: scratch)
                        throw Failure()
                    }
                }
                #expect(manager.isClean)
            }
            manager.beginUndoGrouping()
            fixture.change(document, to: value)
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
            if value == 1 { manager.markClean() }
        }
        // The mark is on the first step, which refuses to merge: two steps, as without the scope.
        #expect(manager.undoCount == 2)
        #expect(scratch.value == 1)   // nothing left to undo it: its actions were removed
    }

    @Test("Steps trimmed in the body by levelsOfUndo stay trimmed, and the cost follows")
    func trimmingInBody() {
        let fixture = Fixture(groupsByEvent: false), document = Document()
        let manager = fixture.manager
        for value in 1...3 {
            manager.beginUndoGrouping()
            fixture.change(document, to: value)
            manager.setActionCost(10)
            manager.endUndoGrouping()
        }
        manager.undo()
        manager.markClean()
        #expect(throws: Failure.self) {
            try manager.withUndoGroup {
                fixture.change(document, to: 9)
                manager.levelsOfUndo = 2   // the scope's open group counts: one closed step stays
                throw Failure()
            }
        }
        #expect(document.value == 2)
        #expect(manager.undoCount == 1 && manager.redoCount == 1)
        #expect(manager.totalActionCost == 10)
        #expect(manager.isClean)
        fixture.manager.checkInvariants()
    }

    @Test("A failed scope does not stop the next group from coalescing with the one before it")
    func coalescingGoesOn() {
        let fixture = Fixture(groupsByEvent: true), document = Document()
        for value in 1...2 {
            if value == 2 {
                #expect(throws: Failure.self) {
                    try fixture.manager.withUndoGroup {
                        fixture.change(document, to: 50)
                        fixture.manager.setActionCoalescingKey("typing")
                        throw Failure()
                    }
                }
            }
            fixture.change(document, to: value)
            fixture.manager.setActionCoalescingKey("typing")
            fixture.manager.runLoop.tick()
        }
        #expect(fixture.manager.undoCount == 1)
        fixture.manager.undo()
        #expect(document.value == 0)
    }

    @Test("With a coordinator, a redo step removed in the body stays out of the restored order")
    func coordinatorRemoval() {
        let coordinator = UndoCoordinator()
        let text = Fixture(groupsByEvent: false), canvas = Fixture(groupsByEvent: false)
        let page = Document(), note = Document(), shape = Document()
        coordinator.attach(text.manager)
        coordinator.attach(canvas.manager)
        text.step(page, to: 1, named: "Type")
        canvas.step(shape, to: 1, named: "Draw")
        text.step(note, to: 1, named: "Note")
        coordinator.undo()
        coordinator.undo()
        coordinator.undo()
        #expect(throws: Failure.self) {
            try text.manager.withUndoGroup {
                text.change(page, to: 9)
                text.manager.removeAllActions(withTarget: note)
                throw Failure()
            }
        }
        coordinator.checkInvariants()
        #expect(coordinator.redoActionName == "Type")
        coordinator.redo()
        coordinator.redo()
        #expect(!coordinator.canRedo)
        #expect(page.value == 1 && shape.value == 1 && note.value == 0)
    }

    @Test("Random edits with failing scopes leave the manager and the model as the same edits without them")
    func randomizedRollback() {
        for seed in [UInt64(1), 7, 42, 2_024, 0xC0FFEE] {
            var random = SplitMix64(seed: seed)
            let fixture = Fixture(groupsByEvent: seed % 2 == 0)
            let documents = (0..<3).map { Document("d\($0)") }
            var lastValue = 0
            for _ in 0..<200 {
                let document = documents[Int(random.next() % 3)]
                switch random.next() % 6 {
                case 0, 1:
                    lastValue += 1
                    fixture.step(document, to: lastValue, named: "Set \(lastValue)")
                case 2:
                    fixture.manager.undo()
                case 3:
                    fixture.manager.redo()
                case 4, 5:
                    let before = Snapshot(fixture.manager, documents)
                    let depth = Int(random.next() % 3)
                    #expect(throws: Failure.self) {
                        try nestedFailingScopes(depth: depth, fixture, documents, &random, &lastValue)
                    }
                    #expect(Snapshot(fixture.manager, documents) == before, "seed \(seed)")
                    if fixture.manager.groupsByEvent { fixture.manager.runLoop.tick() }
                    #expect(Snapshot(fixture.manager, documents) == before, "seed \(seed), after the tick")
                default:
                    break
                }
            }
        }
    }

    private func nestedFailingScopes(
        depth: Int, _ fixture: Fixture, _ documents: [Document], _ random: inout SplitMix64, _ lastValue: inout Int
    ) throws {
        try fixture.manager.withUndoGroup(named: random.next() % 2 == 0 ? "Scope" : nil) {
            for _ in 0..<Int(random.next() % 4) {
                lastValue += 1
                fixture.change(documents[Int(random.next() % 3)], to: lastValue)
            }
            if depth > 0 {
                // An inner scope that succeeds or fails and is caught: both are undone with
                // the outer one.
                do {
                    try nestedFailingScopes(depth: depth - 1, fixture, documents, &random, &lastValue)
                } catch {}
                fixture.manager.withUndoGroup {
                    lastValue += 1
                    fixture.change(documents[0], to: lastValue)
                }
            }
            throw Failure()
        }
    }

    @Test("A body that ends the scope's group itself stops the program with the fix")
    func unbalancedBody() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.withUndoGroup { manager.endUndoGrouping() }
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("withUndoGroup(named:_:)"))
        #expect(stderr.contains("groupingLevel 0"))
        #expect(stderr.contains("Fix: end every group the body begins"))
    }

    @Test("A body that ends the scope's group itself and then throws stops the program too")
    func unbalancedThrowingBody() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Failure: Error {}
            let manager = UndoManager()
            manager.groupsByEvent = false
            try? manager.withUndoGroup {
                manager.endUndoGrouping()
                throw Failure()
            }
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("left groupingLevel 0 where its group is at level 1"))
        #expect(stderr.contains("Fix: end every group the body begins"))
    }

    @Test("A body that leaves registration disabled stops the program: its group could not close")
    func bodyLeavesRegistrationDisabled() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.withUndoGroup { manager.disableUndoRegistration() }
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("left undo registration disabled"))
        #expect(stderr.contains("registration disabled: 1"))
        #expect(stderr.contains("Fix: balance every disableUndoRegistration()"))
    }

    @Test("A body that calls removeAllActions() stops the program, naming it")
    func bodyRemovesAllActions() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.withUndoGroup { manager.removeAllActions() }
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("called removeAllActions(), which removed the scope's open group"))
        #expect(stderr.contains("Fix: remove all actions after withUndoGroup returns"))
    }

    @Test("A body that disables and enables registration again is fine")
    func balancedDisable() {
        let fixture = Fixture(groupsByEvent: false), document = Document(), other = Document()
        #expect(throws: Failure.self) {
            try fixture.manager.withUndoGroup {
                fixture.change(document, to: 1)
                fixture.manager.disableUndoRegistration()
                defer { fixture.manager.enableUndoRegistration() }
                fixture.change(other, to: 1)   // not recorded, so not rolled back
                throw Failure()
            }
        }
        #expect(document.value == 0 && other.value == 1)
        #expect(fixture.state == ManagerState())
    }

    @Test("Called from an undo action, it stops the program with the fix")
    func insideUndo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager(), target = Target()
            manager.registerUndo(withTarget: target) { [unowned manager] _ in
                manager.withUndoGroup {}
            }
            manager.undo()
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("withUndoGroup may not be called while undoing or redoing"))
        #expect(stderr.contains("Fix: "))
    }
}
