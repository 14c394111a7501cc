import Foundation
import Observation
import Synchronization
import Testing
@testable import UndoKit

@Suite struct StaleStepTests {
    private func makeManager(policy: StaleStepPolicy = .run) -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.staleStepPolicy = policy
        return manager
    }

    @Test("a step is stale once a part it declared changes elsewhere, not before, and not for other parts")
    func stalenessFollowsDeclaredParts() {
        let manager = makeManager()
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager)
        #expect(manager.undoActionParts == [UndoPart("field", "title")])
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        #expect(manager.staleUndoStep == nil)
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        let stale = manager.staleUndoStep
        #expect(stale?.id == manager.historyTree.current)
        #expect(stale?.withoutID == StaleStep(
            actionName: "Set title", parts: [UndoPart("field", "title")],
            changes: [UndoChange(part: UndoPart("field", "title"), origin: "Bob")]
        ))
        #expect(stale?.origins == ["Bob"])
        // Under the default policy the step still runs, over Bob's change, as Apple's does.
        #expect(manager.canUndo && manager.undoMenuItemTitle == "Undo Set title")
        manager.undo()
        #expect(document.fields["title"] == nil)
        // The redo step was recorded just now: nothing changed since.
        #expect(manager.staleRedoStep == nil)
    }

    @Test("a step that declared nothing is stale after any change; a change to every part makes every step stale")
    func undeclaredStepsConflictWithEverything() {
        let manager = makeManager()
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager, declaring: false)
        #expect(manager.undoActionParts == nil)
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        #expect(manager.staleUndoStep?.changes == [UndoChange(part: UndoPart("field", "body"), origin: "Bob")])

        let declared = makeManager()
        document.set("body", to: "Text", by: declared)
        declared.noteChangesToAllParts(origin: "another window")
        #expect(declared.staleUndoStep?.changes == [UndoChange(part: nil, origin: "another window")])
    }

    @Test("refuse: nothing runs while the next step is stale; removing it reaches the older steps")
    func refusePolicy() {
        let manager = makeManager(policy: .refuse)
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager)
        document.set("body", to: "Hello", by: manager)
        // Bob rewrites the body.
        document.fields["body"] = "Bob's text"
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        #expect(!manager.canUndo)
        #expect(manager.undoMenuItemTitle == "Undo" && manager.undoActionName == "")
        #expect(manager.staleUndoStep?.actionName == "Set body")
        manager.undo()
        #expect(document.fields == ["title": "Draft", "body": "Bob's text"])
        #expect(manager.undoCount == 2)
        manager.removeNextUndoStep()
        #expect(manager.canUndo && manager.undoActionName == "Set title")
        manager.undo()
        #expect(document.fields == ["body": "Bob's text"])
        manager.checkInvariants()
    }

    @Test("skip: an undo drops the stale steps, announcing each, and undoes the newest safe one")
    func skipPolicy() {
        let manager = makeManager(policy: .skip)
        let document = SharedDocument()
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        let droppedNames = Mutex<[String]>([])
        let center = NotificationCenter()
        manager.notificationCenter = center
        let token = center.addObserver(forName: .UndoKitDidDropStaleStep, object: manager, queue: nil) { note in
            let name = note.userInfo?[UndoKitStaleStepActionNameKey] as? String ?? "?"
            droppedNames.withLock { $0.append(name) }
        }
        document.set("title", to: "Draft", by: manager)
        document.set("body", to: "Hello", by: manager)
        document.set("tags", to: "new", by: manager)
        manager.noteChanges(to: [UndoPart("field", "body"), UndoPart("field", "tags")], origin: "Bob")
        #expect(manager.canUndo && manager.undoActionName == "Set title")
        #expect(manager.staleUndoStep?.actionName == "Set tags")
        events.removeAll()
        manager.undo()
        #expect(document.fields == ["body": "Hello", "tags": "new"])
        let dropped = events.compactMap { if case .didDropStaleStep(let step) = $0 { step } else { nil } }
        #expect(dropped.map(\.actionName) == ["Set tags", "Set body"])
        #expect(dropped.map(\.parts) == [[UndoPart("field", "tags")], [UndoPart("field", "body")]])
        #expect(dropped.allSatisfy { $0.id != nil && $0.origins == ["Bob"] })
        #expect(droppedNames.withLock { $0 } == ["Set tags", "Set body"])
        #expect(manager.undoCount == 0 && manager.redoCount == 1)
        center.removeObserver(token)
        withExtendedLifetime(observation) {}
    }

    @Test("staleness survives undo and redo moves: a redo step touched by a later change is stale")
    func redoStepsGoStale() {
        let manager = makeManager(policy: .refuse)
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager)
        manager.undo()
        #expect(manager.canRedo)
        document.fields["title"] = "Bob's"
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        #expect(!manager.canRedo && manager.redoMenuItemTitle == "Redo")
        #expect(manager.staleRedoStep?.actionName == "Set title")
        manager.redo()
        #expect(document.fields["title"] == "Bob's")
        manager.removeNextRedoStep()
        #expect(manager.redoCount == 0 && manager.staleRedoStep == nil)
    }

    @Test("a stale step is never coalesced into")
    func noCoalescingIntoStaleSteps() {
        let manager = makeManager()
        let document = SharedDocument()
        func type(_ text: String) {
            let old = document.fields["body"]
            document.fields["body"] = text
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: document) { $0.fields["body"] = old }
            manager.addActionParts(UndoPart("field", "body"))
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
        }
        type("a")
        type("ab")
        #expect(manager.undoCount == 1)
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        type("abc")
        #expect(manager.undoCount == 2)
        // The new step is fresh; coalescing into it goes on.
        type("abcd")
        #expect(manager.undoCount == 2 && manager.staleUndoStep == nil)
    }

    @Test("a step merged by coalescing has the parts of both, and is fresh")
    func coalescedPartsUnion() {
        let manager = makeManager()
        let document = SharedDocument()
        func type(_ field: String, _ text: String) {
            let old = document.fields[field]
            document.fields[field] = text
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: document) { $0.fields[field] = old }
            manager.addActionParts(UndoPart("field", field))
            manager.setActionCoalescingKey("typing")
            manager.endUndoGrouping()
        }
        type("title", "a")
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        type("body", "b")
        #expect(manager.undoCount == 1)
        #expect(manager.undoActionParts == [UndoPart("field", "title"), UndoPart("field", "body")])
        #expect(manager.staleUndoStep == nil)
    }

    @Test("the clean mark: dropping an undo step keeps its changes, dropping a redo step loses a mark past it")
    func cleanMarkAfterDrops() {
        let manager = makeManager(policy: .refuse)
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager)
        manager.markClean()
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        manager.removeNextUndoStep()
        // The model is still as it was when marked: nothing undid the step.
        #expect(manager.isClean)

        let redoing = makeManager(policy: .refuse)
        document.set("body", to: "Hello", by: redoing)
        redoing.markClean()
        redoing.undo()
        #expect(!redoing.isClean)
        redoing.removeNextRedoStep()
        #expect(!redoing.isClean && !redoing.canRedo)
    }

    @Test("commands declare their parts")
    func commandsDeclareParts() {
        struct Retitle: UndoableCommand {
            let field: String
            var value: String?
            func execute(on document: SharedDocument) {}
            func undo(on document: SharedDocument) {}
            var undoParts: [UndoPart] { [UndoPart("field", field)] }
            var actionName: String { "Retitle" }
        }
        let manager = makeManager(policy: .refuse)
        let document = SharedDocument()
        manager.beginUndoGrouping()
        manager.perform(Retitle(field: "title"), on: document)
        manager.endUndoGrouping()
        #expect(manager.undoActionParts == [UndoPart("field", "title")])
        manager.noteChanges(to: [UndoPart("field", "title")])
        #expect(!manager.canUndo)
    }

    @Test("Observation sees canUndo change when a noted change makes the next step stale")
    func observationFollowsNotes() {
        let manager = makeManager(policy: .refuse)
        let document = SharedDocument()
        document.set("title", to: "Draft", by: manager)
        let changes = Mutex(0)
        withObservationTracking {
            _ = manager.canUndo
            _ = manager.staleUndoStep
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        manager.noteChanges(to: [UndoPart("field", "title")], origin: "Bob")
        #expect(changes.withLock { $0 } == 1)
    }

    @Test("policy: default is run, settable, and a manager that noted nothing has nothing stale")
    func defaults() {
        let manager = UndoManager()
        #expect(manager.staleStepPolicy == .run)
        #expect(manager.staleUndoStep == nil && manager.staleRedoStep == nil)
        #expect(manager.undoActionParts == nil)
    }

    @Test("parts: kinds, literals, descriptions and order")
    func parts() {
        #expect(UndoPart("item", 7).description == "item:7")
        #expect(("title" as UndoPart).description == "title")
        #expect(UndoPart(42) == UndoPart(String(reflecting: Int.self), 42))
        #expect([UndoPart("item", 2), UndoPart("item", 1)].sorted() == [UndoPart("item", 1), UndoPart("item", 2)])
        let encoded = try? JSONEncoder().encode(UndoPart("item", 7))
        #expect(encoded.flatMap { try? JSONDecoder().decode(UndoPart.self, from: $0) } == UndoPart("item", 7))
    }

    @Test("removing the next step with a group open stops the program with the call and the fix")
    func removeNextStepTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.removeNextUndoStep()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("removeNextUndoStep()") && message.contains("group is open"))
    }
}

/// Parts and staleness in saved histories and in the history tree.
@Suite struct StaleStepPersistenceTests {
    struct SetField: UndoableCommand, Codable {
        var field: String
        var value: String?
        var previous: String?
        mutating func execute(on document: SharedDocument) {
            previous = document.fields[field]
            document.fields[field] = value
        }
        func undo(on document: SharedDocument) {
            document.fields[field] = previous
        }
        var actionName: String { "Set \(field)" }
        var undoParts: [UndoPart] { [UndoPart("field", field)] }
    }

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        return manager
    }

    private func perform(_ command: SetField, on document: SharedDocument, by manager: UndoManager) {
        manager.beginUndoGrouping()
        manager.perform(command, on: document)
        manager.endUndoGrouping()
    }

    @Test("parts and staleness are saved and restored: a stale step stays stale until it runs")
    func savedAndRestored() throws {
        let manager = makeManager()
        let document = SharedDocument()
        perform(SetField(field: "title", value: "Draft"), on: document, by: manager)
        perform(SetField(field: "body", value: "Hello"), on: document, by: manager)
        manager.noteChanges(to: [UndoPart("field", "body")], origin: "Bob")
        let history = try manager.undoHistory(of: SetField.self)
        #expect(history.undoSteps.map(\.parts) == [[UndoPart("field", "title")], [UndoPart("field", "body")]])
        #expect(history.undoSteps.map(\.staleChanges) == [[], [UndoChange(part: UndoPart("field", "body"), origin: "Bob")]])

        let data = try JSONEncoder().encode(history)
        let decoded = try JSONDecoder().decode(UndoHistory<SetField>.self, from: data)
        let restored = makeManager()
        restored.staleStepPolicy = .refuse
        try restored.restoreUndoHistory(decoded, on: document)
        #expect(restored.undoActionParts == [UndoPart("field", "body")])
        #expect(restored.staleUndoStep?.changes == [UndoChange(part: UndoPart("field", "body"), origin: "Bob")])
        #expect(!restored.canUndo)
        restored.staleStepPolicy = .run
        restored.undo()
        #expect(restored.staleRedoStep == nil)
    }

    @Test("a step without parts or staleness saves as before (no new keys), and reads back as declaring nothing")
    func formatUnchangedWithoutParts() throws {
        struct Plain: UndoableCommand, Codable {
            func execute(on document: SharedDocument) {}
            func undo(on document: SharedDocument) {}
        }
        let manager = makeManager()
        let document = SharedDocument()
        manager.beginUndoGrouping()
        manager.perform(Plain(), on: document)
        manager.endUndoGrouping()
        let data = try JSONEncoder().encode(try manager.undoHistory(of: Plain.self))
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("parts") && !text.contains("stale"))
        let decoded = try JSONDecoder().decode(UndoHistory<Plain>.self, from: data)
        #expect(decoded.undoSteps.first?.parts == nil && decoded.undoSteps.first?.staleChanges == [])
    }

    @Test("the history tree marks stale nodes, on the path and on branches")
    func treeMarksStaleNodes() {
        let manager = makeManager()
        let document = SharedDocument()
        perform(SetField(field: "title", value: "A"), on: document, by: manager)
        perform(SetField(field: "body", value: "B"), on: document, by: manager)
        manager.undo()
        perform(SetField(field: "tags", value: "C"), on: document, by: manager)
        // "Set body" is a branch now.
        manager.noteChanges(to: [UndoPart("field", "body"), UndoPart("field", "tags")], origin: "Bob")
        let stale = Dictionary(uniqueKeysWithValues: manager.historyTree.nodes.map { ($0.actionName, $0.isStale) })
        #expect(stale == ["Set title": false, "Set body": true, "Set tags": true])
    }
}
