import Foundation
import Testing
import UndoKit

/// Spec E: every misuse Apple reports with an internal-inconsistency exception stops the
/// process, with Apple's detail text and the name of the public call in the message.
///
/// Exit-test bodies cannot capture anything, so each builds its own manager.
@Suite("Programmer errors (section E)")
struct ProgrammerErrorTests {
    /// Checks that a child process that trapped said `call` and `detail` on standard error.
    /// (The exit-test body itself must be a closure literal at the `#expect` site.)
    static func check(
        _ result: ExitTest.Result?,
        _ call: String,
        _ detail: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let result else { return }
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains(call), "message names \(call)", sourceLocation: sourceLocation)
        #expect(stderr.contains(detail), "message says \(detail)", sourceLocation: sourceLocation)
        #expect(stderr.contains("is in invalid state"), sourceLocation: sourceLocation)
        #expect(stderr.contains("groupingLevel:"), "message reports the state", sourceLocation: sourceLocation)
        #expect(stderr.contains("\nFix: "), "message names the fix on a line of its own", sourceLocation: sourceLocation)
    }

    @Test("E1: endUndoGrouping() with nothing open")
    func endWithoutBegin() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            UndoManager().endUndoGrouping()
        }
        Self.check(result, "endUndoGrouping()", "endUndoGrouping called with no matching begin")
    }

    @Test("E1/R15/R17: the end of the event after the automatic group was closed by hand")
    func tickAfterManualClose() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.endUndoGrouping()
            manager.runLoop.tick()
        }
        Self.check(result, "SimulatedRunLoop.tick(mode:)", "endUndoGrouping called with no matching begin")
    }

    @Test("E1/R32: removeAllActions() from inside an undo action")
    func removeAllInsideUndo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { [unowned manager] _ in
                manager.removeAllActions()
            }
            manager.runLoop.tick()
            manager.undo()
        }
        Self.check(result, "undo()", "endUndoGrouping called with no matching begin")
    }

    @Test("E2: enableUndoRegistration() without a matching disable")
    func enableWithoutDisable() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            UndoManager().enableUndoRegistration()
        }
        Self.check(result,  "enableUndoRegistration()", "enableUndoRegistration may only be invoked with matching call to disableUndoRegistration" )
    }

    @Test("E3: undo() with an explicit group open (groupsByEvent off)")
    func undoWithExplicitGroupOpen() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.undo()
        }
        Self.check(result, "undo()", "undo was called with too many nested undo groups")
    }

    @Test("E3: undo() with an explicit group open inside the automatic one")
    func undoWithTwoLevels() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.beginUndoGrouping()
            manager.undo()
        }
        Self.check(result, "undo()", "undo was called with too many nested undo groups")
    }

    @Test("E3/R18: undo() with the automatic group open while registration is disabled")
    func undoWhileDisabledWithAutomaticGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.disableUndoRegistration()
            manager.undo()
        }
        Self.check(result, "undo()", "undo was called with too many nested undo groups")
    }

    @Test("E4: undoNestedGroup() with a group open on top")
    func undoNestedWithOpenGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            manager.groupsByEvent = false
            let target = Target()
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
            manager.undoNestedGroup()
        }
        Self.check(result, "undoNestedGroup()", "call endUndoGrouping before calling this method")
    }

    @Test("E4/R23: undo() from inside an undo action")
    func reentrantUndo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.runLoop.tick()
            manager.registerUndo(withTarget: target) { [unowned manager] _ in manager.undo() }
            manager.runLoop.tick()
            manager.undo()
        }
        Self.check(result, "undo()", "call endUndoGrouping before calling this method")
    }

    @Test("E5/R23: redo() from inside an undo action")
    func redoWhileUndoing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { [unowned manager] target in
                manager.registerUndo(withTarget: target) { _ in }
                manager.redo()
            }
            manager.runLoop.tick()
            manager.undo()
        }
        Self.check(result, "redo()", "do not invoke this method while undoing")
    }

    @Test("E6: registering with no group open and groupsByEvent off")
    func registerWithoutGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.registerUndo(withTarget: Target()) { _ in }
        }
        Self.check(result, "registerUndo(withTarget:handler:)", "must begin a group before registering undo")
    }

    @Test("E6/R17: registering after the automatic group was closed by hand in the same event")
    func registerAfterManualClose() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Target {}
            let manager = UndoManager()
            let target = Target()
            manager.registerUndo(withTarget: target) { _ in }
            manager.endUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
        }
        Self.check(result, "registerUndo(withTarget:handler:)", "must begin a group before registering undo")
    }

    @Test("E7: setActionName(_:) with no group open")
    func nameWithoutGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.setActionName("Typing")
        }
        Self.check(result, "setActionName(_:)", "must begin a group before registering undo")
    }

    @Test("E8: setActionIsDiscardable(_:) with no group open")
    func discardableWithoutGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.setActionIsDiscardable(true)
        }
        Self.check(result,  "setActionIsDiscardable(_:)", "must begin a group before setting undo action discardability" )
    }

    @Test("E9: setActionUserInfoValue(_:forKey:) with no group open")
    func userInfoWithoutGroup() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.setActionUserInfoValue(1, forKey: "key")
        }
        Self.check(result,  "setActionUserInfoValue(_:forKey:)", "must begin a group before setting undo action user info" )
    }
}
