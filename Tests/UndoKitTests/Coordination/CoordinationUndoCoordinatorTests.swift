import Foundation
import Testing
@testable import UndoKit

/// Three text views sharing one window's event loop, each with its own manager, attached to
/// one coordinator: the note app of the issue.
private struct NoteApp {
    let loop = SimulatedRunLoop()
    let coordinator = UndoCoordinator()
    let views: [CoordinationTextView]

    init(viewCount: Int = 3) {
        views = (0..<viewCount).map { [loop] _ in CoordinationTextView(runLoop: loop) }
        for view in views {
            coordinator.attach(view.undoManager)
        }
    }

    /// One event: `view` types `string`, then the event ends.
    func type(_ string: String, in view: Int) {
        views[view].type(string)
        loop.tick()
    }

    var texts: [String] { views.map(\.text) }
}

@Suite("UndoCoordinator: one undo order across managers")
struct CoordinationUndoCoordinatorTests {
    // MARK: The note app

    @Test("The note app: edits in views 1, 2, 1 undo in reverse order and redo forward")
    func noteAppScenario() {
        let app = NoteApp()
        app.type("Hello", in: 0)
        app.type("World", in: 1)
        app.type("!", in: 0)
        #expect(app.texts == ["Hello!", "World", ""])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type Hello", "Type World", "Type !"], redo: []))
        #expect(app.coordinator.undoMenuItemTitle == "Undo Type !")

        app.coordinator.undo()
        #expect(app.texts == ["Hello", "World", ""])
        #expect(app.coordinator.undoActionName == "Type World")
        #expect(app.coordinator.redoMenuItemTitle == "Redo Type !")
        app.coordinator.undo()
        #expect(app.texts == ["Hello", "", ""])
        app.coordinator.undo()
        #expect(app.texts == ["", "", ""])
        #expect(!app.coordinator.canUndo)
        #expect(app.coordinator.undoMenuItemTitle == "Undo")
        app.coordinator.undo()   // nothing left: does nothing
        #expect(app.texts == ["", "", ""])

        app.coordinator.redo()
        #expect(app.texts == ["Hello", "", ""])
        app.coordinator.redo()
        #expect(app.texts == ["Hello", "World", ""])
        app.coordinator.redo()
        #expect(app.texts == ["Hello!", "World", ""])
        #expect(!app.coordinator.canRedo)
        #expect(app.coordinator.redoMenuItemTitle == "Redo")
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type Hello", "Type World", "Type !"], redo: []))
        app.coordinator.checkInvariants()
    }

    @Test("The coordinator goes through each manager's own undo() and redo(), with their events")
    func goesThroughManagers() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        var events: [[UndoManager.Event]] = [[], []]
        let observations = app.views.indices.map { index in
            app.views[index].undoManager.addEventObserver { events[index].append($0) }
        }
        app.coordinator.undo()
        #expect(events[0].isEmpty)
        #expect(events[1].contains(.willUndoChange) && events[1].contains(.didUndoChange(isDiscardable: false)))
        app.coordinator.redo()
        #expect(events[1].contains(.didRedoChange(isDiscardable: false)))
        #expect(events[0].isEmpty)
        observations.forEach { $0.cancel() }
    }

    // MARK: Consistency with the members

    @Test("A member undone directly leaves the order and becomes the most recently undone step")
    func memberUndoneDirectly() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 0)
        app.views[1].undoManager.undo()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a", "Type c"], redo: ["Type b"]))
        app.coordinator.undo()
        #expect(app.texts == ["a", "", ""])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a"], redo: ["Type b", "Type c"]))
        app.coordinator.redo()   // the most recently undone: "c"
        #expect(app.texts == ["ac", "", ""])
        app.coordinator.redo()
        #expect(app.texts == ["ac", "b", ""])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a", "Type c", "Type b"], redo: []))
        app.coordinator.checkInvariants()
    }

    @Test("A member redone directly makes that step the newest")
    func memberRedoneDirectly() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.coordinator.undo()
        app.coordinator.undo()
        #expect(app.coordinator.order() == CoordinationOrder(undo: [], redo: ["Type b", "Type a"]))
        app.views[1].undoManager.redo()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b"], redo: ["Type a"]))
        app.coordinator.redo()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b", "Type a"], redo: []))
        app.coordinator.undo()
        #expect(app.texts == ["", "b", ""])
        app.coordinator.checkInvariants()
    }

    @Test("removeAllActions() on a member drops its steps from both orders")
    func removeAllActionsDropsSteps() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 0)
        app.type("d", in: 2)
        app.coordinator.undo()   // d
        app.views[2].undoManager.removeAllActions()
        app.views[0].undoManager.removeAllActions()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b"], redo: []))
        #expect(app.coordinator.canUndo && !app.coordinator.canRedo)
        app.coordinator.undo()
        #expect(app.texts == ["ac", "", ""])
        #expect(!app.coordinator.canUndo)
        app.coordinator.checkInvariants()
    }

    @Test("removeAllActions(withTarget:) drops a group from the middle of a member's stack")
    func removeTargetDropsMiddleGroup() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let canvas = UndoManager(runLoop: loop)
        let text = CoordinationTextView(runLoop: loop)
        coordinator.attach(canvas)
        coordinator.attach(text.undoManager)
        let circle = CoordinationCounter()
        let square = CoordinationCounter()
        func edit(_ counter: CoordinationCounter, _ name: String) {
            counter.add(1, using: canvas)
            canvas.setActionName(name)
            loop.tick()
        }
        edit(circle, "Circle 1")
        text.type("x")
        loop.tick()
        edit(square, "Square")
        edit(circle, "Circle 2")
        canvas.removeAllActions(withTarget: square)
        #expect(coordinator.order() == CoordinationOrder(undo: ["Circle 1", "Type x", "Circle 2"], redo: []))
        coordinator.undo()
        coordinator.undo()
        #expect(circle.value == 1 && square.value == 1 && text.text == "")
        coordinator.undo()
        #expect(circle.value == 0 && square.value == 1)
        #expect(!coordinator.canUndo)
        coordinator.checkInvariants()
    }

    @Test("removeAllActions(withTarget:) on a member's redo stack drops redo steps")
    func removeTargetOnRedoStack() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let manager = UndoManager(runLoop: loop)
        let other = CoordinationTextView(runLoop: loop)
        coordinator.attach(manager)
        coordinator.attach(other.undoManager)
        let first = CoordinationCounter()
        let second = CoordinationCounter()
        first.add(1, using: manager); manager.setActionName("First"); loop.tick()
        other.type("o"); loop.tick()
        second.add(1, using: manager); manager.setActionName("Second"); loop.tick()
        coordinator.undo()
        coordinator.undo()
        coordinator.undo()
        #expect(coordinator.order() == CoordinationOrder(undo: [], redo: ["Second", "Type o", "First"]))
        manager.removeAllActions(withTarget: first)
        #expect(coordinator.order() == CoordinationOrder(undo: [], redo: ["Second", "Type o"]))
        coordinator.redo()
        #expect(other.text == "o" && first.value == 0 && second.value == 0)
        coordinator.checkInvariants()
    }

    @Test("An undo or redo right after a removal the coordinator has not seen still lands last")
    func moveAfterUnseenRemoval() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let canvas = UndoManager(runLoop: loop)
        let text = CoordinationTextView(runLoop: loop)
        coordinator.attach(canvas)
        coordinator.attach(text.undoManager)
        let first = CoordinationCounter()
        let second = CoordinationCounter()
        let third = CoordinationCounter()
        first.add(1, using: canvas); canvas.setActionName("First"); loop.tick()
        text.type("b"); loop.tick()
        second.add(1, using: canvas); canvas.setActionName("Second"); loop.tick()
        third.add(1, using: canvas); canvas.setActionName("Third"); loop.tick()
        text.undoManager.undo()
        #expect(coordinator.order() == CoordinationOrder(undo: ["First", "Second", "Third"], redo: ["Type b"]))

        // No query between the removal and the undo, so the undo's event finds the stacks
        // changed twice over; the undone step must still be the most recently undone.
        canvas.removeAllActions(withTarget: first)
        canvas.undo()
        #expect(coordinator.order() == CoordinationOrder(undo: ["Second"], redo: ["Type b", "Third"]))

        // The same for a redo: it must still be the newest step.
        text.undoManager.redo()
        canvas.removeAllActions(withTarget: second)
        canvas.redo()
        #expect(coordinator.order() == CoordinationOrder(undo: ["Type b", "Third"], redo: []))
        coordinator.checkInvariants()
    }

    @Test("levelsOfUndo dropping a member's oldest groups drops their steps")
    func levelsOfUndoTrims() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 0)
        app.type("d", in: 0)
        app.views[0].undoManager.levelsOfUndo = 2
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b", "Type c", "Type d"], redo: []))
        app.type("e", in: 0)   // trims "c" as it closes
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b", "Type d", "Type e"], redo: []))
        app.coordinator.undo()
        app.coordinator.undo()
        app.coordinator.undo()
        #expect(app.texts == ["ac", ""])   // view 1 keeps "a" and "c": their steps were trimmed
        #expect(!app.coordinator.canUndo)
        app.coordinator.redo()
        app.coordinator.redo()
        app.coordinator.redo()
        #expect(app.texts == ["acde", "b"])
        app.coordinator.checkInvariants()
    }

    @Test("levelsOfUndo trimming during a redo drops the member's oldest step")
    func levelsOfUndoTrimsOnRedo() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 0)
        app.coordinator.undo()
        app.views[0].undoManager.levelsOfUndo = 1
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a", "Type b"], redo: ["Type c"]))
        app.coordinator.redo()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b", "Type c"], redo: []))
        app.coordinator.checkInvariants()
    }

    @Test("A new edit in any member ends redo for all of them: one linear history")
    func newEditEndsRedoEverywhere() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 0)
        app.coordinator.undo()   // c
        app.coordinator.undo()   // b
        app.coordinator.undo()   // a
        #expect(app.coordinator.order().redo == ["Type c", "Type b", "Type a"])
        app.type("x", in: 0)
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type x"], redo: []))
        #expect(!app.coordinator.canRedo)
        // The member's own stack lost the step too: a direct redo cannot bring it back.
        #expect(app.views[1].undoManager.redoCount == 0)
        app.views[1].undoManager.redo()
        #expect(app.texts == ["x", "", ""])
        app.coordinator.redo()
        #expect(app.texts == ["x", "", ""])
        app.coordinator.checkInvariants()
    }

    @Test("A new edit in a manager that is not attached leaves the coordinator's redo alone")
    func detachedManagerEditKeepsRedo() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.coordinator.undo()
        let outsider = UndoManager(runLoop: app.loop)
        let note = CoordinationCounter()
        note.add(1, using: outsider)
        app.loop.tick()
        #expect(app.coordinator.order() == CoordinationOrder(undo: [], redo: ["Type a"]))
        app.coordinator.redo()
        #expect(app.texts == ["a", ""])
        app.coordinator.checkInvariants()
    }

    @Test("A registration ends redo for every member before its group even closes")
    func registrationEndsRedoAtOnce() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.coordinator.undo()
        app.coordinator.undo()
        app.views[1].type("z")   // event not over: the group is still open
        #expect(app.coordinator.order() == CoordinationOrder(undo: [], redo: []))
        #expect(app.coordinator.redoActionName == "")
        #expect(app.views[0].undoManager.redoCount == 0)
        app.loop.tick()
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type z"], redo: []))
        app.coordinator.checkInvariants()
    }

    @Test("Detaching removes a member's steps; reattaching adopts its history as the oldest")
    func detachAndReattach() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.type("c", in: 2)
        app.coordinator.undo()   // c
        app.coordinator.detach(app.views[1].undoManager)
        #expect(app.coordinator.managers.count == 2)
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a"], redo: ["Type c"]))
        app.type("d", in: 1)   // not coordinated while detached
        app.views[1].undoManager.undo()
        #expect(app.views[1].text == "b")
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a"], redo: ["Type c"]))
        app.coordinator.detach(app.views[1].undoManager)   // not attached: nothing happens

        app.coordinator.attach(app.views[1].undoManager)
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type b", "Type a"], redo: ["Type d", "Type c"]))
        app.coordinator.undo()
        app.coordinator.undo()
        #expect(app.texts == ["", "", ""])
        app.coordinator.checkInvariants()
    }

    @Test("A member that goes away leaves the order; the coordinator does not keep it alive")
    func deallocatedMember() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let kept = CoordinationTextView(runLoop: loop)
        coordinator.attach(kept.undoManager)
        weak var goneManager: UndoManager?
        do {
            let gone = CoordinationTextView(runLoop: loop)
            goneManager = gone.undoManager
            coordinator.attach(gone.undoManager)
            kept.type("a"); loop.tick()
            gone.type("b"); loop.tick()
            kept.type("c"); loop.tick()
            gone.type("d"); loop.tick()
            coordinator.undo()   // d
        }
        #expect(goneManager == nil)
        #expect(coordinator.managers.count == 1)
        #expect(coordinator.order() == CoordinationOrder(undo: ["Type a", "Type c"], redo: []))
        #expect(coordinator.undoActionName == "Type c")
        coordinator.undo()
        coordinator.undo()
        #expect(kept.text == "")
        #expect(!coordinator.canUndo)
        coordinator.checkInvariants()
    }

    @Test("A coordinator is kept by its managers; once detached it goes away, stops observing, and its managers keep working")
    func deallocatedCoordinator() {
        let loop = SimulatedRunLoop()
        let view = CoordinationTextView(runLoop: loop)
        weak var weakCoordinator: UndoCoordinator?
        do {
            let coordinator = UndoCoordinator()
            weakCoordinator = coordinator
            coordinator.attach(view.undoManager)
            view.type("a"); loop.tick()
        }
        // The attached manager keeps its coordinator (spec K4).
        #expect(weakCoordinator != nil)
        weakCoordinator?.detach(view.undoManager)
        #expect(weakCoordinator == nil)
        #expect(view.undoManager.coordinator == nil)
        #expect(view.undoManager.storage.pointee.eventObservers.isEmpty)
        view.type("b"); loop.tick()
        view.undoManager.undo()
        #expect(view.text == "a")
        let next = UndoCoordinator()
        next.attach(view.undoManager)
        #expect(next.order() == CoordinationOrder(undo: ["Type a"], redo: ["Type b"]))
        next.checkInvariants()
    }

    @Test("Attaching to a second coordinator moves the manager")
    func attachMovesBetweenCoordinators() {
        let loop = SimulatedRunLoop()
        let first = UndoCoordinator()
        let second = UndoCoordinator()
        let view = CoordinationTextView(runLoop: loop)
        first.attach(view.undoManager)
        first.attach(view.undoManager)   // already attached: nothing changes
        #expect(first.managers.count == 1)
        view.type("a"); loop.tick()
        second.attach(view.undoManager)
        #expect(first.managers.isEmpty && !first.canUndo)
        #expect(second.order() == CoordinationOrder(undo: ["Type a"], redo: []))
        view.type("b"); loop.tick()
        #expect(second.order() == CoordinationOrder(undo: ["Type a", "Type b"], redo: []))
        #expect(first.order() == CoordinationOrder(undo: [], redo: []))
        first.checkInvariants()
        second.checkInvariants()
    }

    // MARK: Events in progress

    @Test("undo() first ends every open event group, oldest first, then undoes the newest")
    func undoEndsOpenEventGroups() {
        let app = NoteApp()
        app.type("a", in: 0)
        app.views[2].type("x")   // same event: both groups open
        app.views[1].type("y")
        #expect(app.coordinator.canUndo)
        #expect(app.coordinator.undoActionName == "Type y")
        app.coordinator.undo()
        #expect(app.texts == ["a", "", "x"])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a", "Type x"], redo: ["Type y"]))
        app.loop.tick()   // the event's end finds nothing armed: no trap, nothing changes
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a", "Type x"], redo: ["Type y"]))
        app.coordinator.checkInvariants()
    }

    @Test("canRedo accounts for an empty event group whose end will end redo for every member")
    func emptyEventGroupEndsRedo() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.coordinator.undo()   // b
        app.coordinator.undo()   // a
        app.views[0].undoManager.setActionName("Nothing")   // opens an empty automatic group
        // Ending that group, as redo() would first, is a new edit (R10.6): no redo is left.
        #expect(!app.coordinator.canRedo)
        #expect(app.coordinator.redoActionName == "")
        app.coordinator.redo()
        #expect(app.texts == ["", ""])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Nothing"], redo: []))
        #expect(app.views[1].undoManager.redoCount == 0)
        app.coordinator.checkInvariants()
    }

    @Test("A redo nested in an open group becomes part of that group's step")
    func redoNestedInOpenGroup() {
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let manager = UndoManager(runLoop: loop)
        coordinator.attach(manager)
        let counter = CoordinationCounter()
        counter.add(1, using: manager); manager.setActionName("Add"); loop.tick()
        coordinator.undo()
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        manager.redo()   // nested in the open group, which takes the redone group's metadata
        #expect(counter.value == 1)
        #expect(coordinator.order() == CoordinationOrder(undo: [], redo: []))
        manager.undoNestedGroup()   // the nested group's inverse: a new redo step
        #expect(counter.value == 0)
        #expect(coordinator.order() == CoordinationOrder(undo: [], redo: ["Add"]))
        coordinator.checkInvariants()
        manager.endUndoGrouping()   // closes the now empty outer group, which clears redo
        #expect(coordinator.order() == CoordinationOrder(undo: ["Add"], redo: []))
        coordinator.checkInvariants()
        coordinator.undo()
        #expect(counter.value == 0)
        #expect(!coordinator.canUndo && !coordinator.canRedo)
        coordinator.checkInvariants()
    }

    @Test("An undo with registration disabled leaves no redo step")
    func undoWhileDisabled() {
        let app = NoteApp(viewCount: 2)
        app.type("a", in: 0)
        app.type("b", in: 1)
        app.views[1].undoManager.disableUndoRegistration()
        app.coordinator.undo()
        app.views[1].undoManager.enableUndoRegistration()
        #expect(app.texts == ["a", ""])
        #expect(app.coordinator.order() == CoordinationOrder(undo: ["Type a"], redo: []))
        app.coordinator.checkInvariants()
    }

    // MARK: Storage

    @Test("Attaching keeps collapsed single-action groups and every invariant: steps are ordered by id")
    func attachingKeepsSingletons() {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        counter.add(1, using: manager)   // one action, no metadata: stored as a singleton
        loop.tick()
        if case .singleton? = manager.undoStack.entries.last {} else {
            Issue.record("expected a collapsed group, got \(manager.undoStack.entries.elements)")
        }
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)   // adopts it: ordered by its step id, the entry untouched
        counter.add(2, using: manager)
        loop.tick()                   // a new step: ordered by its id too
        let entryCount = manager.undoStack.entries.count
        #expect(entryCount == 2)
        manager.checkInvariants()
        #expect(manager.undoCount == 2 && manager.undoActionName == "")
        coordinator.undo()
        coordinator.undo()
        #expect(counter.value == 0)
        coordinator.redo()
        coordinator.redo()
        #expect(counter.value == 3)
        manager.checkInvariants()
        coordinator.checkInvariants()
    }

    @Test("Adopting a history with singletons in the middle and an open group keeps the stack sound")
    func adoptingMixedHistory() {
        let loop = SimulatedRunLoop()
        let manager = UndoManager(runLoop: loop)
        let counter = CoordinationCounter()
        counter.add(1, using: manager); loop.tick()                                    // singleton
        counter.add(2, using: manager); manager.setActionName("Two"); loop.tick()       // named
        counter.add(3, using: manager); loop.tick()                                    // singleton
        manager.levelsOfUndo = 3
        counter.add(4, using: manager); loop.tick()                                    // trims the first
        counter.add(5, using: manager)                                                  // left open
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)
        manager.checkInvariants()
        #expect(coordinator.order() == CoordinationOrder(undo: ["Two", "", ""], redo: []))
        loop.tick()
        #expect(coordinator.order() == CoordinationOrder(undo: ["", "", ""], redo: []))
        coordinator.undo()
        #expect(counter.value == 10)
        coordinator.checkInvariants()
    }

    // MARK: Titles

    @Test("Menu titles come from the owning manager, so its localization applies")
    func titlesUseOwningManager() {
        final class FrenchUndoManager: UndoManager {
            override func undoMenuTitle(forUndoActionName actionName: String) -> String { "Annuler \(actionName)" }
            override func redoMenuTitle(forUndoActionName actionName: String) -> String { "Rétablir \(actionName)" }
        }
        let loop = SimulatedRunLoop()
        let coordinator = UndoCoordinator()
        let french = FrenchUndoManager(runLoop: loop)
        let english = UndoManager(runLoop: loop)
        coordinator.attach(french)
        coordinator.attach(english)
        let counter = CoordinationCounter()
        counter.add(1, using: english); english.setActionName("Add"); loop.tick()
        counter.add(1, using: french); french.setActionName("Saisie"); loop.tick()
        #expect(coordinator.undoMenuItemTitle == "Annuler Saisie")
        coordinator.undo()
        #expect(coordinator.undoMenuItemTitle == "Undo Add")
        #expect(coordinator.redoMenuItemTitle == "Rétablir Saisie")
        counter.add(1, using: english); loop.tick()   // unnamed step
        #expect(coordinator.undoMenuItemTitle == "Undo")
        #expect(coordinator.undoActionName == "")
        #expect(coordinator.canUndo)
    }

    @Test("Reading the coordinator's redo title posts no checkpoint to the managers")
    func redoTitlePostsNoCheckpoint() {
        let app = NoteApp(viewCount: 1)
        app.type("a", in: 0)
        app.coordinator.undo()
        var events: [UndoManager.Event] = []
        let observation = app.views[0].undoManager.addEventObserver { events.append($0) }
        #expect(app.coordinator.canRedo)
        #expect(app.coordinator.redoMenuItemTitle == "Redo Type a")
        #expect(events.isEmpty)
        observation.cancel()
    }
}
