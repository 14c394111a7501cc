import Testing
@testable import UndoKit

/// Every trap ends with a line that names the fix, chosen from the situation: the table puts
/// a manager in each situation (without trapping) and asks what the trap would say; the exit
/// tests check that real traps print it.
@Suite("Programmer errors name the fix")
struct ProgrammerErrorFixTests {
    final class Target {}

    enum Situation: String, CaseIterable, Sendable {
        case endWithoutBegin, tickAfterManualClose, removeAllDuringUndo, enableWithoutDisable
        case undoWithExplicitGroup, undoWithNestedGroups, undoWhileDisabled, undoFromRedoAction
        case undoNestedGroupWithOpenGroup, undoNestedGroupFromAction, redoFromAction
        case registerAfterManualClose, registerWithGroupsByEventOff, markCleanWhileUndoing

        /// Apple's detail text of the trap, and the call it is reported in.
        var detail: String {
            switch self {
            case .endWithoutBegin, .tickAfterManualClose, .removeAllDuringUndo: "endUndoGrouping called with no matching begin"
            case .enableWithoutDisable: "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration"
            case .undoWithExplicitGroup, .undoWithNestedGroups, .undoWhileDisabled, .undoFromRedoAction:
                "undo was called with too many nested undo groups"
            case .undoNestedGroupWithOpenGroup, .undoNestedGroupFromAction: "call endUndoGrouping before calling this method"
            case .redoFromAction: "do not invoke this method while undoing"
            case .registerAfterManualClose, .registerWithGroupsByEventOff: "must begin a group before registering undo"
            case .markCleanWhileUndoing: "markClean may not be called while undoing or redoing"
            }
        }

        var call: PublicCall {
            switch self {
            case .tickAfterManualClose: PublicCall("SimulatedRunLoop.tick(mode:) closing the automatic group")
            case .removeAllDuringUndo: PublicCall("endUndoGrouping()", calledBy: "undoNestedGroup()")
            default: PublicCall("some call")
            }
        }

        /// What the fix must say.
        var expected: String {
            switch self {
            case .endWithoutBegin: "withUndoGroup(named:_:)"
            case .tickAfterManualClose: "endEventGroup()"
            case .removeAllDuringUndo: "call removeAllActions() after undo() or redo() returns"
            case .enableWithoutDisable: "once for each disableUndoRegistration()"
            case .undoWithExplicitGroup: "close your group with endUndoGrouping() before undo()"
            case .undoWithNestedGroups: "close the 2 open groups"
            case .undoWhileDisabled: "call enableUndoRegistration() before undo()"
            case .undoFromRedoAction: "undo() from inside a redo action is not allowed"
            case .undoNestedGroupWithOpenGroup: "the newest group is still open"
            case .undoNestedGroupFromAction: "undo from inside an undo or redo action is not allowed"
            case .redoFromAction: "redo() from inside an undo or redo action is not allowed"
            case .registerAfterManualClose: "close it with endEventGroup() instead"
            case .registerWithGroupsByEventOff: "with groupsByEvent off, open a group first"
            case .markCleanWhileUndoing: "after undo() or redo() returns"
            }
        }

        /// Runs `check` with the manager in the situation, just before the trap would fire.
        func inSituation(_ check: @escaping (UndoManager) -> Void) {
            let manager = UndoManager(), target = Target()
            manager.notificationCenter = nil
            switch self {
            case .endWithoutBegin, .enableWithoutDisable:
                manager.groupsByEvent = false
                check(manager)
            case .tickAfterManualClose, .registerAfterManualClose:
                manager.registerUndo(withTarget: target) { _ in }
                manager.endUndoGrouping()
                check(manager)
            case .removeAllDuringUndo, .undoNestedGroupFromAction, .markCleanWhileUndoing:
                manager.registerUndo(withTarget: target) { [unowned manager] _ in check(manager) }
                manager.undo()
            case .undoWithExplicitGroup, .registerWithGroupsByEventOff:
                manager.groupsByEvent = false
                if self == .undoWithExplicitGroup { manager.beginUndoGrouping() }
                check(manager)
            case .undoWithNestedGroups:
                manager.beginUndoGrouping()   // the automatic group and this one
                check(manager)
            case .undoWhileDisabled:
                manager.registerUndo(withTarget: target) { _ in }
                manager.disableUndoRegistration()
                check(manager)
            case .undoFromRedoAction, .redoFromAction:
                manager.registerUndo(withTarget: target) { [unowned manager] target in
                    manager.registerUndo(withTarget: target) { [unowned manager] _ in check(manager) }
                }
                manager.undo()
                manager.redo()
            case .undoNestedGroupWithOpenGroup:
                manager.registerUndo(withTarget: target) { _ in }
                check(manager)
            }
        }
    }

    @Test("The fix fits the situation", arguments: Situation.allCases)
    func fixFitsTheSituation(_ situation: Situation) {
        var fix: String?
        situation.inSituation { manager in
            fix = manager.fix(for: situation.detail, in: situation.call)
        }
        #expect(fix?.contains(situation.expected) == true, "\(fix ?? "not reached")")
    }

    @Test("A registration after closing the automatic group by hand names endEventGroup()")
    func registerAfterManualCloseTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager(), target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.endUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("must begin a group before registering undo"))
        #expect(stderr.contains("Fix: the event's automatic group was closed by hand"))
        #expect(stderr.contains("endEventGroup()"))
    }

    @Test("undo() with an explicit group open (groupsByEvent off) names endUndoGrouping() and withUndoGroup")
    func undoWithOpenGroupTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.undo()
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("undo was called with too many nested undo groups"))
        #expect(stderr.contains("Fix: undo() closes only the event's automatic group"))
        #expect(stderr.contains("withUndoGroup(named:_:)"))
    }

    @Test("Setting runLoop while an event is pending names when to set it")
    func runLoopMoveTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager(), target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.runLoop = SimulatedRunLoop()
        }
        let stderr = result.standardErrorText
        #expect(stderr.contains("Fix: set runLoop before the first registration"))
    }
}
