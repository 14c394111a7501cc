import Foundation
import Testing
import UndoKit

/// The overridable members the manager calls on its own, as Apple's does (spec I.2), seen by a
/// subclass that overrides every member: exact call sequences, so what is not routed shows too.
@Suite("Ported code: routing through a subclass that overrides every member")
struct RoutingTests {
    /// A recorder on a loop of its own that nothing drives, posting no notifications.
    private func makeManager(groupsByEvent: Bool = true) -> RecordingUndoManager {
        let manager = RecordingUndoManager(runLoop: SimulatedRunLoop())
        manager.notificationCenter = nil
        manager.groupsByEvent = groupsByEvent
        _ = manager.takeCalls()
        return manager
    }

    /// Runs `step` and returns the calls it made.
    private func calls(of manager: RecordingUndoManager, _ step: () -> Void) -> [Call] {
        _ = manager.takeCalls()
        step()
        return manager.takeCalls()
    }

    // MARK: Registration

    @Test func registrationOpeningTheAutomaticGroupPassesBothOverloadsThenBeginsAGroup() {
        let manager = makeManager()
        let note = PortedNote()
        #expect(calls(of: manager) { note.setText("a", using: manager) } == [.registerNonisolated, .registerMainActor, .beginUndoGrouping])
        #expect(calls(of: manager) { note.setText("b", using: manager) } == [.registerNonisolated, .registerMainActor])
    }

    @Test func aMainActorHandlerEntersThroughTheMainActorOverloadFirst() {
        let manager = makeManager()
        let note = PortedNote()
        let handler: @MainActor (PortedNote) -> Void = { _ in }
        #expect(calls(of: manager) { manager.registerUndo(withTarget: note, handler: handler) } == [.registerMainActor, .registerNonisolated, .beginUndoGrouping])
        #expect(manager.unrecorded { manager.canUndo })
    }

    @Test func theEndOfTheEventClosesWithEndUndoGroupingAndAQuietTickCallsNothing() {
        let manager = makeManager()
        PortedNote().setText("a", using: manager)
        #expect(calls(of: manager) { manager.runLoop.tick() } == [.endUndoGrouping])
        #expect(calls(of: manager) { manager.runLoop.tick() } == [])
    }

    @Test func endEventGroupClosesWithEndUndoGrouping() {
        let manager = makeManager()
        PortedNote().setText("a", using: manager)
        #expect(calls(of: manager) { manager.endEventGroup() } == [.endUndoGrouping])
        #expect(manager.unrecorded { manager.undoCount } == 1)
    }

    // MARK: Undo and redo

    @Test func undoClosesTheOpenAutomaticGroupThenUndoesTheNestedGroup() {
        let manager = makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        #expect(
            calls(of: manager) { manager.undo() }
                == [.undo, .endUndoGrouping, .undoNestedGroup, .beginUndoGrouping, .registerNonisolated, .registerMainActor]
        )
        #expect(note.text == "")
    }

    @Test func undoOfAClosedGroupCallsNoEndUndoGrouping() {
        let manager = makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.runLoop.tick()
        #expect(calls(of: manager) { manager.undo() } == [.undo, .undoNestedGroup, .beginUndoGrouping, .registerNonisolated, .registerMainActor])
    }

    @Test func undoWithNothingToUndoReachesUndoNestedGroupOnly() {
        let manager = makeManager()
        #expect(calls(of: manager) { manager.undo() } == [.undo, .undoNestedGroup])
    }

    @Test func redoAsksCanRedoAndBuildsItsGroupWithBeginAndEnd() {
        let manager = makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.undo()
        #expect(
            calls(of: manager) { manager.redo() }
                == [.redo, .canRedo, .beginUndoGrouping, .registerNonisolated, .registerMainActor, .endUndoGrouping]
        )
        #expect(note.text == "a")
    }

    @Test func redoWithNothingToRedoAsksCanRedoOnly() {
        let manager = makeManager()
        #expect(calls(of: manager) { manager.redo() } == [.redo, .canRedo])
    }

    @Test func undoNestedGroupOpensTheRedoGroupWithBeginAndClosesItUnseen() {
        let manager = makeManager(groupsByEvent: false)
        let note = PortedNote()
        manager.beginUndoGrouping()
        manager.beginUndoGrouping()
        note.setText("inner", using: manager)
        manager.endUndoGrouping()
        #expect(calls(of: manager) { manager.undoNestedGroup() } == [.undoNestedGroup, .beginUndoGrouping, .registerNonisolated, .registerMainActor])
        #expect(note.text == "")
        #expect(manager.unrecorded { manager.groupingLevel } == 1)
    }

    // MARK: Explicit groups

    @Test func explicitGroupsWithoutGroupingByEventCallOnlyWhatTheCallerCalls() {
        let manager = makeManager(groupsByEvent: false)
        let note = PortedNote()
        #expect(calls(of: manager) { manager.beginUndoGrouping() } == [.beginUndoGrouping])
        #expect(calls(of: manager) { note.setText("a", using: manager) } == [.registerNonisolated, .registerMainActor])
        #expect(calls(of: manager) { manager.endUndoGrouping() } == [.endUndoGrouping])
    }

    @Test func anExplicitGroupAtLevelZeroWhileGroupingByEventFirstOpensTheAutomaticGroupThroughBegin() {
        let manager = makeManager()
        #expect(calls(of: manager) { manager.beginUndoGrouping() } == [.beginUndoGrouping, .beginUndoGrouping])
        #expect(manager.unrecorded { manager.groupingLevel } == 2)
    }

    // MARK: Metadata and titles

    enum MetadataSetter: CaseIterable, Sendable {
        case name, discardable, userInfo

        func apply(to manager: UndoManager) {
            switch self {
            case .name: manager.setActionName("Rename")
            case .discardable: manager.setActionIsDiscardable(true)
            case .userInfo: manager.setActionUserInfoValue("pencil", forKey: "icon")
            }
        }

        var call: Call {
            switch self {
            case .name: .setActionName("Rename")
            case .discardable: .setActionIsDiscardable(true)
            case .userInfo: .setActionUserInfoValue("icon")
            }
        }
    }

    @Test(arguments: MetadataSetter.allCases)
    func aMetadataSetterOpeningTheAutomaticGroupDoesSoWithBegin(_ setter: MetadataSetter) {
        let manager = makeManager()
        #expect(calls(of: manager) { setter.apply(to: manager) } == [setter.call, .beginUndoGrouping])
        #expect(calls(of: manager) { setter.apply(to: manager) } == [setter.call])
    }

    @Test func undoMenuItemTitleReadsCanUndoThenTheNameThenTheTitle() {
        let manager = makeManager()
        #expect(calls(of: manager) { _ = manager.undoMenuItemTitle } == [.undoMenuItemTitle, .canUndo])
        PortedNote().setText("a", using: manager)
        #expect(calls(of: manager) { _ = manager.undoMenuItemTitle } == [.undoMenuItemTitle, .canUndo, .undoActionName])
        manager.setActionName("Typing")
        var title = ""
        #expect(calls(of: manager) { title = manager.undoMenuItemTitle } == [.undoMenuItemTitle, .canUndo, .undoActionName, .undoMenuTitle("Typing")])
        #expect(title == "Undo Typing")
    }

    @Test func redoMenuItemTitleReadsCanRedoThenTheNameThenTheTitle() {
        let manager = makeManager()
        #expect(calls(of: manager) { _ = manager.redoMenuItemTitle } == [.redoMenuItemTitle, .canRedo])
        let note = PortedNote()
        note.setText("a", using: manager)
        manager.setActionName("Typing")
        manager.undo()
        var title = ""
        #expect(calls(of: manager) { title = manager.redoMenuItemTitle } == [.redoMenuItemTitle, .canRedo, .redoActionName, .redoMenuTitle("Typing")])
        #expect(title == "Redo Typing")
    }

    // MARK: What is not routed

    @Test func clearingDisablingAndSettingCallNoOtherMember() {
        let manager = makeManager()
        let note = PortedNote()
        note.setText("a", using: manager)
        #expect(calls(of: manager) { manager.removeAllActions(withTarget: note) } == [.removeAllActionsWithTarget])
        #expect(calls(of: manager) { manager.removeAllActions() } == [.removeAllActions])
        #expect(calls(of: manager) { manager.disableUndoRegistration() } == [.disableUndoRegistration])
        #expect(calls(of: manager) { manager.enableUndoRegistration() } == [.enableUndoRegistration])
        #expect(calls(of: manager) { manager.levelsOfUndo = 3 } == [.setLevelsOfUndo(3)])
        #expect(calls(of: manager) { manager.groupsByEvent = false } == [.setGroupsByEvent(false)])
        #expect(calls(of: manager) { manager.runLoopModes = [.default] } == [.setRunLoopModes])
    }

    @Test func aRegistrationWhileDisabledPassesBothOverloadsAndNothingElse() {
        let manager = makeManager()
        manager.disableUndoRegistration()
        #expect(calls(of: manager) { PortedNote().setText("a", using: manager) } == [.registerNonisolated, .registerMainActor])
        #expect(manager.unrecorded { manager.canUndo } == false)
    }

    @Test func descriptionCallsNothingElseAndNamesTheSubclass() {
        let manager = makeManager()
        var events: [UndoManager.Event] = []
        let observation = manager.addEventObserver { events.append($0) }
        var description = ""
        #expect(calls(of: manager) { description = manager.description } == [.description])
        #expect(description.contains("RecordingUndoManager"))
        #expect(events.isEmpty)
        observation.cancel()
    }

    // MARK: UndoKit's own entry points

    @Test func performRegistersThroughTheOverridesAndNamesTheGroup() {
        let manager = makeManager()
        let list = PortedList()
        #expect(calls(of: manager) { manager.perform(PortedAppend(item: "milk"), on: list) } == [.registerNonisolated, .registerMainActor, .beginUndoGrouping, .setActionName("Add milk")])
    }

    @Test func undoableValueRegistersThroughTheOverrides() {
        let manager = makeManager()
        let value = UndoableValue(1, undoManager: manager)
        #expect(calls(of: manager) { value.modify(actionName: "Double") { $0 *= 2 } } == [.registerNonisolated, .registerMainActor, .beginUndoGrouping, .setActionName("Double")])
    }

    @Test func coordinatorUndoAndRedoReachTheOverrides() {
        let manager = makeManager()
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)
        let note = PortedNote()
        note.setText("a", using: manager)
        let undoCalls = calls(of: manager) { coordinator.undo() }.filter { $0 != .groupingLevel }
        #expect(undoCalls == [.endUndoGrouping, .undo, .undoNestedGroup, .beginUndoGrouping, .registerNonisolated, .registerMainActor])
        let redoCalls = calls(of: manager) { coordinator.redo() }.filter { $0 != .groupingLevel }
        #expect(redoCalls == [.redo, .canRedo, .beginUndoGrouping, .registerNonisolated, .registerMainActor, .endUndoGrouping])
        #expect(note.text == "a")
    }

    @Test func coordinatorBookkeepingReadsNoOverridableGetter() {
        let manager = makeManager()
        let coordinator = UndoCoordinator()
        coordinator.attach(manager)
        let note = PortedNote()
        #expect(calls(of: manager) { note.setText("a", using: manager) } == [.registerNonisolated, .registerMainActor, .beginUndoGrouping])
        #expect(calls(of: manager) { manager.runLoop.tick() } == [.endUndoGrouping])
    }
}

/// A list model for `UndoManager.perform(_:on:)`.
final class PortedList {
    var items: [String] = []
}

/// Appends an item; its undo removes it.
struct PortedAppend: UndoableCommand {
    let item: String

    var actionName: String { "Add \(item)" }

    func execute(on list: PortedList) {
        list.items.append(item)
    }

    func undo(on list: PortedList) {
        list.items.removeLast()
    }
}
