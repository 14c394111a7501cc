import Testing
@testable import UndoKit

extension UndoManager.UserInfoKey {
    fileprivate static let icon: UndoManager.UserInfoKey = "icon"
}

@Suite("Action names, menu titles, discardable flags and user info (R34–R41)")
struct ActionMetadataTests {
    @Test("R34: the name goes to the outermost open group; the last write wins")
    func outermostGroupGetsName() {
        let fixture = Fixture(groupsByEvent: false)
        let doc = Document()
        fixture.manager.beginUndoGrouping()
        fixture.manager.setActionName("Outer")
        fixture.manager.beginUndoGrouping()
        fixture.change(doc, to: 1)
        fixture.manager.setActionName("Inner")
        #expect(fixture.state.undoActionName == "Inner")
        fixture.manager.endUndoGrouping()
        fixture.manager.endUndoGrouping()
        #expect(fixture.state.undoActionName == "Inner")
        #expect(fixture.state.undoMenuItemTitle == "Undo Inner")
    }

    @Test("R34/R36: names travel with their group through undo and redo")
    func namesTravel() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1, named: "One")
        fixture.step(doc, to: 2, named: "Two")
        fixture.manager.undo()
        #expect(fixture.state.undoActionName == "One")
        #expect(fixture.state.redoActionName == "Two")
        fixture.manager.redo()
        #expect(fixture.state.undoActionName == "Two")
        #expect(fixture.state.redoActionName == "")
    }

    @Test("R34: naming while undoing names the redo group being built")
    func renameWhileUndoing() {
        let fixture = Fixture()
        let doc = Document()
        fixture.manager.registerUndo(withTarget: doc) { [unowned fixture] doc in
            fixture.change(doc, to: 0)
            fixture.manager.setActionName("Renamed")
        }
        fixture.manager.setActionName("Original")
        fixture.manager.runLoop.tick()
        fixture.manager.undo()
        #expect(fixture.state.redoActionName == "Renamed")
    }

    @Test("R35: an empty name reads back empty and the titles fall back")
    func emptyName() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.setActionName("Typing")
        fixture.manager.setActionName("")
        #expect(fixture.state.undoActionName == "")
        #expect(fixture.state.undoMenuItemTitle == "Undo")
    }

    @Test("R36: with a group open, undoActionName reads the open group, even unnamed")
    func nameOfOpenGroup() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1, named: "One")
        fixture.change(doc, to: 2)
        #expect(fixture.state.undoActionName == "")
        fixture.manager.runLoop.tick()
        #expect(fixture.state.undoActionName == "")
        fixture.manager.undo()
        #expect(fixture.state.undoActionName == "One")
    }

    @Test("R37: naming with nothing open opens the automatic group, which stays named and empty")
    func namingOpensAutomaticGroup() {
        let fixture = Fixture()
        let doc = Document()
        fixture.step(doc, to: 1, named: "Real")
        fixture.manager.undo()
        #expect(fixture.state.canRedo)
        _ = fixture.takeEvents()
        fixture.manager.setActionName("Phantom")
        #expect(fixture.takeEvents() == [DO])
        fixture.manager.runLoop.tick()
        #expect(fixture.state == ManagerState().with {
            $0.canUndo = true
            $0.undoCount = 1
            $0.undoActionName = "Phantom"
            $0.undoMenuItemTitle = "Undo Phantom"
        })
        fixture.manager.undo()
        #expect(doc.value == 0)
        #expect(fixture.state == ManagerState())
    }

    @Test("R38/R39: menu titles", arguments: [
        ("Typing", "Undo Typing", "Redo Typing"),
        ("Move “Shape”", "Undo Move “Shape”", "Redo Move “Shape”"),
        ("", "Undo ", "Redo "),
    ])
    func menuTitles(name: String, undoTitle: String, redoTitle: String) {
        let manager = UndoManager()
        #expect(manager.undoMenuTitle(forUndoActionName: name) == undoTitle)
        #expect(manager.redoMenuTitle(forUndoActionName: name) == redoTitle)
    }

    @Test("R38: the item titles go through the overridable methods")
    func overriddenTitles() {
        final class FrenchUndoManager: UndoManager {
            override func undoMenuTitle(forUndoActionName actionName: String) -> String {
                "Annuler \(actionName)"
            }
            override func redoMenuTitle(forUndoActionName actionName: String) -> String {
                "Rétablir \(actionName)"
            }
        }
        let fixture = Fixture(manager: FrenchUndoManager())
        let doc = Document()
        fixture.step(doc, to: 1, named: "Frappe")
        #expect(fixture.manager.undoMenuItemTitle == "Annuler Frappe")
        fixture.manager.undo()
        #expect(fixture.manager.redoMenuItemTitle == "Rétablir Frappe")
        #expect(fixture.manager.undoMenuItemTitle == "Undo")
    }

    @Test("R40: the discardable flag targets the top-level group, travels, and rides on DC/DU/DR")
    func discardable() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.setActionIsDiscardable(true)
        _ = fixture.takeEvents()
        fixture.manager.runLoop.tick()
        #expect(fixture.takeEvents() == [CP, WC, DCdisc])
        #expect(fixture.state.undoActionIsDiscardable)
        fixture.manager.undo()
        #expect(fixture.takeEvents() == [CP, CP, WU, CP, DUdisc])
        #expect(fixture.state.redoActionIsDiscardable)
        #expect(!fixture.state.undoActionIsDiscardable)
        fixture.manager.redo()
        #expect(fixture.takeEvents() == [CP, WR, CP, CP, DRdisc])
        #expect(fixture.state.undoActionIsDiscardable)
    }

    @Test("R41: user info targets the top-level group, travels, and nil removes a key")
    func userInfo() {
        let fixture = Fixture()
        let doc = Document()
        fixture.change(doc, to: 1)
        fixture.manager.setActionUserInfoValue("pencil", forKey: .icon)
        fixture.manager.setActionUserInfoValue(42, forKey: "count")
        fixture.manager.runLoop.tick()
        #expect(fixture.manager.undoActionUserInfoValue(forKey: .icon) as? String == "pencil")
        fixture.manager.undo()
        #expect(fixture.manager.undoActionUserInfoValue(forKey: .icon) == nil)
        #expect(fixture.manager.redoActionUserInfoValue(forKey: .icon) as? String == "pencil")
        #expect(fixture.manager.redoActionUserInfoValue(forKey: "count") as? Int == 42)
        fixture.manager.redo()
        #expect(fixture.manager.undoActionUserInfoValue(forKey: .icon) as? String == "pencil")
        fixture.change(doc, to: 2)
        fixture.manager.setActionUserInfoValue("eraser", forKey: .icon)
        fixture.manager.setActionUserInfoValue(nil, forKey: .icon)
        #expect(fixture.manager.undoActionUserInfoValue(forKey: .icon) == nil)
    }

    @Test("UserInfoKey: both initializers and the literal agree")
    func userInfoKey() {
        let literal: UndoManager.UserInfoKey = "icon"
        #expect(literal == UndoManager.UserInfoKey("icon"))
        #expect(literal == UndoManager.UserInfoKey(rawValue: "icon"))
        #expect(literal.rawValue == "icon")
        #expect(Set([literal, .icon]).count == 1)
    }
}
