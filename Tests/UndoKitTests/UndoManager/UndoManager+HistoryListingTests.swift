import Testing
@testable import UndoKit

@Suite("UndoManager history listing")
struct HistoryListingTests {
    private static func step(_ manager: UndoManager, _ document: Document, named name: String?) {
        registerPingPong(manager, document)
        if let name { manager.setActionName(name) }
        manager.runLoop.tick()
    }

    /// An action whose undo registers the same action again, so every step can be undone and
    /// redone forever.
    private static func registerPingPong(_ manager: UndoManager, _ document: Document) {
        manager.registerUndo(withTarget: document) { [unowned manager] document in
            registerPingPong(manager, document)
        }
    }

    @Test("Names come newest first, one per closed top-level group, \"\" when unnamed")
    func order() {
        let manager = UndoManager()
        let document = Document()
        #expect(manager.undoActionNames == [])
        #expect(manager.redoActionNames == [])
        Self.step(manager, document, named: "Add")
        Self.step(manager, document, named: nil)
        Self.step(manager, document, named: "Rename")
        #expect(manager.undoActionNames == ["Rename", "", "Add"])
        manager.undo()
        manager.undo()
        #expect(manager.undoActionNames == ["Add"])
        #expect(manager.redoActionNames == ["", "Rename"])
        manager.redo()
        #expect(manager.undoActionNames == ["", "Add"])
        #expect(manager.redoActionNames == ["Rename"])
    }

    @Test("An open group is not listed; nested groups are part of their step")
    func openAndNested() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let document = Document()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: document) { _ in }
        manager.setActionName("Outer")
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: document) { _ in }
        manager.endUndoGrouping()
        #expect(manager.undoActionNames == [])
        manager.endUndoGrouping()
        #expect(manager.undoActionNames == ["Outer"])
        manager.beginUndoGrouping()
        manager.setActionName("Open")
        #expect(manager.undoActionNames == ["Outer"])
        #expect(manager.undoActionName == "Open")
    }

    @Test("Listing matches undoing step by step", arguments: 0..<20)
    func matchesUndo(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let manager = UndoManager()
        manager.levelsOfUndo = Int(rng.next() % 4)
        let document = Document()
        for _ in 0..<(5 + Int(rng.next() % 10)) {
            switch rng.next() % 4 {
            case 0: manager.undo()
            case 1: manager.redo()
            default:
                let name = ["", "A", "B"][Int(rng.next() % 3)]
                Self.registerPingPong(manager, document)
                manager.setActionName(name)
                manager.runLoop.tick()
            }
        }
        let undoNames = manager.undoActionNames
        let redoNames = manager.redoActionNames
        #expect(undoNames.count == manager.undoCount)
        var undone: [String] = []
        while manager.canUndo {
            undone.append(manager.undoActionName)
            manager.undo()
        }
        #expect(undone == undoNames)
        #expect(Array(manager.redoActionNames.prefix(undoNames.count)) == undone.reversed())
        #expect(Array(manager.redoActionNames.dropFirst(undoNames.count)) == redoNames)
    }
}
