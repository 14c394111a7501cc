import Foundation
import Testing
import UndoKit

@Suite("History tree")
struct HistoryTreeTests {
    private func makeManager(branches: Bool) -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = branches
        // Recording from the first step, so ids count from 1 as the reference tree's do.
        _ = manager.historyTree
        return (manager, TreeDocument(manager: manager))
    }

    /// The tree the manager reports, as parent links, names and the current node.
    private func shape(of tree: UndoTree) -> [UInt64: (parent: UInt64?, name: String)] {
        Dictionary(uniqueKeysWithValues: tree.nodes.map { ($0.id.rawValue, ($0.parent?.rawValue, $0.actionName)) })
    }

    private func expectMatches(_ manager: UndoManager, _ document: TreeDocument, _ model: ReferenceTree,
                               _ context: @autoclosure () -> String) {
        let tree = manager.historyTree
        #expect(document.items == model.items, "\(context())")
        #expect(tree.current?.rawValue == model.current, "\(context())")
        let actual = shape(of: tree)
        #expect(actual.count == model.nodes.count, "\(context())")
        for (id, node) in model.nodes {
            #expect(actual[id]?.parent == node.parent && actual[id]?.name == node.name, "node \(id): \(context())")
        }
        for node in tree.nodes {
            #expect(node.children.map(\.rawValue) == model.children(of: node.id.rawValue), "\(context())")
        }
        let redoName = model.redoChild(of: model.current).map { model.nodes[$0]!.name }
        #expect(manager.canRedo == (redoName != nil), "\(context())")
        #expect(manager.redoActionName == (redoName ?? ""), "\(context())")
        #expect(manager.undoCount == model.path(to: model.current).count, "\(context())")
    }

    @Test("a new edit after undo keeps the undone steps as a branch")
    func branchKept() {
        let (manager, document) = makeManager(branches: true)
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)
        #expect(document.items == [1, 3])
        #expect(!manager.canRedo)
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName) == ["Add 1", "Add 2", "Add 3"])
        let first = tree.nodes[0]
        #expect(first.children.count == 2)
        manager.go(to: tree.nodes[1])
        #expect(document.items == [1, 2])
        #expect(manager.historyTree.current == tree.nodes[1].id)
        manager.undo()
        #expect(manager.redoActionName == "Add 2")   // the branch go(to:) took
        manager.goToStart()
        #expect(document.items.isEmpty)
        #expect(manager.historyTree.nodes.count == 3)
    }

    @Test("without branches the tree is the undo and redo stacks, and a new edit drops redo")
    func linear() {
        let (manager, document) = makeManager(branches: false)
        document.add(1)
        document.add(2)
        document.add(3)
        manager.undo()
        manager.undo()
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName) == ["Add 1", "Add 2", "Add 3"])
        #expect(tree.current == tree.nodes[0].id)
        manager.go(to: tree.nodes[2])   // Qt's setIndex
        #expect(document.items == [1, 2, 3])
        manager.go(to: tree.nodes[0])
        document.add(4)
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 1", "Add 4"])
        #expect(manager.historyTree.nodes.map(\.id) != tree.nodes.map(\.id))
    }

    @Test("ids stay while a step exists, through undo and redo; dates are those of the close")
    func stableIDs() {
        let (manager, document) = makeManager(branches: true)
        let before = Date()
        document.add(1)
        document.add(2)
        let ids = manager.historyTree.nodes.map(\.id)
        manager.undo()
        manager.undo()
        manager.redo()
        #expect(manager.historyTree.nodes.map(\.id) == ids)
        let dates = manager.historyTree.nodes.compactMap(\.date)
        #expect(dates.count == 2 && dates.allSatisfy { $0 >= before && $0 <= Date() })
    }

    @Test("steps recorded before the tree was first read get ids then, and no date")
    func lateRecording() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let document = TreeDocument(manager: manager)
        document.add(1)
        document.add(2)
        manager.undo()
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName) == ["Add 1", "Add 2"])
        #expect(tree.nodes.allSatisfy { $0.date == nil })
        document.add(3)
        #expect(manager.historyTree.nodes.last?.date != nil)
    }

    @Test("chronological steps walk states in the order they were first reached", arguments: [true, false])
    func chronological(branches: Bool) {
        let (manager, document) = makeManager(branches: branches)
        var model = ReferenceTree(keepsBranches: branches)
        document.add(1); model.add(1)
        document.add(2); model.add(2)
        manager.undo(); model.undo()
        document.add(3); model.add(3)
        for _ in 0..<4 {
            manager.goToEarlierState(); model.goEarlier()
            expectMatches(manager, document, model, "earlier")
        }
        for _ in 0..<4 {
            manager.goToLaterState(); model.goLater()
            expectMatches(manager, document, model, "later")
        }
    }

    @Test("random edits, undos, redos, jumps and chronological steps match the reference tree",
          arguments: [(true, UInt64(1)), (true, 2), (true, 3), (false, 4), (false, 5)])
    func randomized(branches: Bool, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let (manager, document) = makeManager(branches: branches)
        var model = ReferenceTree(keepsBranches: branches)
        var log: [String] = []
        for step in 0..<300 {
            let choice = Int.random(in: 0..<10, using: &random)
            switch choice {
            case 0...2:
                let value = step
                document.add(value); model.add(value)
                log.append("add \(value)")
            case 3...4:
                manager.undo(); model.undo()
                log.append("undo")
            case 5:
                manager.redo(); model.redo()
                log.append("redo")
            case 6...7:
                let ids = Array(model.nodes.keys) + [0]
                let pick = ids.randomElement(using: &random)!
                let target = pick == 0 ? nil : manager.historyTree.node(UndoTree.NodeID(rawValue: pick))
                manager.go(toNodeOrStart: target); model.go(to: pick == 0 ? nil : pick)
                log.append("go \(pick)")
            case 8:
                manager.goToEarlierState(); model.goEarlier()
                log.append("earlier")
            default:
                manager.goToLaterState(); model.goLater()
                log.append("later")
            }
            expectMatches(manager, document, model, "seed \(seed) after \(log.suffix(6))")
            if document.items != model.items { return }
        }
    }

    @Test("with levelsOfUndo, random histories trim the least recently visited leaves, as the reference tree does",
          arguments: [UInt64(41), 42, 43, 44])
    func randomizedWithLimit(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let (manager, document) = makeManager(branches: true)
        manager.levelsOfUndo = 8
        var model = ReferenceTree(keepsBranches: true)
        var log: [String] = []
        for step in 0..<300 {
            switch Int.random(in: 0..<8, using: &random) {
            case 0...2:
                document.add(step); model.add(step); model.trim(to: 8)
                log.append("add \(step)")
            case 3...4:
                manager.undo(); model.undo()
                log.append("undo")
            case 5:
                manager.redo(); model.redo()
                log.append("redo")
            default:
                let ids = Array(model.nodes.keys) + [0]
                let pick = ids.randomElement(using: &random)!
                let target = pick == 0 ? nil : manager.historyTree.node(UndoTree.NodeID(rawValue: pick))
                manager.go(toNodeOrStart: target); model.go(to: pick == 0 ? nil : pick)
                log.append("go \(pick)")
            }
            expectMatches(manager, document, model, "seed \(seed) after \(log.suffix(6))")
            if document.items != model.items { return }
        }
    }

    @Test("go(to:) and back leaves the model and the tree unchanged", arguments: [UInt64(11), 12, 13])
    func goAndBack(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let (manager, document) = makeManager(branches: true)
        for step in 0..<60 {
            if Bool.random(using: &random) || !manager.canUndo {
                document.add(step)
            } else {
                manager.undo()
            }
        }
        for _ in 0..<30 {
            let tree = manager.historyTree
            let items = document.items
            let start = tree.current.map { tree[$0] }
            manager.go(toNodeOrStart: tree.nodes.randomElement(using: &random))
            manager.go(toNodeOrStart: start)
            #expect(document.items == items)
            let after = manager.historyTree
            #expect(after.current == tree.current)
            #expect(after.nodes.map(\.id) == tree.nodes.map(\.id))
            #expect(after.nodes.map(\.parent) == tree.nodes.map(\.parent))
        }
    }
}

@Suite("History tree: what branches leave unchanged")
struct HistoryTreeInteractionTests {
    private func makeManager() -> (UndoManager, TreeDocument) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        return (manager, TreeDocument(manager: manager))
    }

    @Test("the clean mark on a branch comes back when go(to:) reaches it")
    func cleanMarkOnBranch() {
        let (manager, document) = makeManager()
        document.add(1)
        manager.markClean()
        let saved = manager.historyTree.current
        manager.undo()
        document.add(2)                 // step 1 is now on a branch
        #expect(!manager.isClean)
        manager.go(to: manager.historyTree.node(saved!)!)
        #expect(document.items == [1])
        #expect(manager.isClean)
        manager.undo()
        #expect(!manager.isClean)
        manager.redo()
        #expect(manager.isClean)
    }

    @Test("levelsOfUndo counts every node and drops the least recently visited leaf first")
    func levelsCountTheTree() {
        let (manager, document) = makeManager()
        manager.levelsOfUndo = 4
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)                 // 1 → {2, 3}
        manager.undo()
        document.add(4)                 // 1 → {2, 3, 4}: four nodes
        #expect(manager.historyTree.nodes.count == 4)
        document.add(5)                 // five: 2, the least recently visited leaf, goes
        let names = manager.historyTree.nodes.map(\.actionName)
        #expect(names == ["Add 1", "Add 3", "Add 4", "Add 5"])
        document.add(6)                 // 3 goes next; never 1, 4 or 5 (the path)
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 1", "Add 4", "Add 5", "Add 6"])
        document.add(7)                 // only the path is left: its oldest step goes
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 4", "Add 5", "Add 6", "Add 7"])
        #expect(document.items == [1, 4, 5, 6, 7])
    }

    @Test("the byte budget counts every node")
    func costCountsTheTree() {
        let (manager, document) = makeManager()
        manager.actionCostLimit = 30
        for value in 1...2 {
            manager.beginUndoGrouping()
            document.append(value)
            manager.setActionCost(10)
            manager.endUndoGrouping()
        }
        manager.undo()
        manager.beginUndoGrouping()
        document.append(3)
        manager.setActionCost(10)
        manager.endUndoGrouping()       // 30 bytes in three nodes: all kept
        #expect(manager.historyTree.nodes.count == 3)
        manager.beginUndoGrouping()
        document.append(4)
        manager.setActionCost(10)
        manager.endUndoGrouping()       // 40: the branch leaf goes
        #expect(manager.historyTree.nodes.count == 3)
        #expect(!manager.historyTree.nodes.contains { $0.actionName == "Add 2" })
    }

    @Test("removeAllActions(withTarget:) prunes every branch; a branch step it empties leaves its children to its parent")
    func removalPrunesBranches() {
        let (manager, document) = makeManager()
        let other = TreeDocument(manager: manager)
        document.add(1)
        other.add(10)                   // will be emptied
        document.add(2)
        manager.undo()
        manager.undo()
        document.add(3)                 // branch: 10 → 2
        manager.removeAllActions(withTarget: other)
        let tree = manager.historyTree
        #expect(tree.nodes.map(\.actionName) == ["Add 1", "Add 2", "Add 3"])
        let two = tree.nodes[1]
        #expect(two.parent == tree.nodes[0].id)
        manager.go(to: two)
        #expect(document.items == [1, 2])
        #expect(other.items == [])
    }

    @Test("removeAllActions() drops the branches")
    func clearingDropsBranches() {
        let (manager, document) = makeManager()
        document.add(1)
        manager.undo()
        document.add(2)
        manager.removeAllActions()
        #expect(manager.historyTree.isEmpty)
        document.add(3)
        #expect(manager.historyTree.nodes.count == 1)
    }

    @Test("a rolled-back withUndoGroup leaves the redo steps on the path, not on a branch")
    func scopeRollback() {
        struct Failure: Error {}
        let (manager, document) = makeManager()
        document.add(1)
        manager.undo()
        #expect(throws: Failure.self) {
            try manager.withUndoGroup(named: "Fails") {
                document.append(2)
                throw Failure()
            }
        }
        #expect(document.items == [])
        #expect(manager.redoActionName == "Add 1")
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 1"])
        manager.redo()
        #expect(document.items == [1])
    }

    @Test("coalescing never merges across a branch point")
    func coalescingStopsAtBranch() {
        let (manager, document) = makeManager()
        var now = ContinuousClock.now
        manager.coalescingClock = { now }
        for value in 1...2 {
            document.type(value)
            now += .milliseconds(10)
        }
        #expect(manager.historyTree.nodes.count == 1)
        manager.undo()
        manager.beginUndoGrouping()
        manager.setActionCoalescingKey("typing")
        document.append(3)
        manager.endUndoGrouping()
        let tree = manager.historyTree
        #expect(tree.nodes.count == 2)
        #expect(tree.roots.count == 2)
    }

    @Test("currentHistoryNodeID is the tree's current node: new for a new step, the same for a merge, moved by undo and go(to:)",
          arguments: [true, false])
    func currentNodeIDFollowsTheTree(branches: Bool) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = branches
        let document = TreeDocument(manager: manager)
        #expect(manager.currentHistoryNodeID == nil)
        document.add(1)
        document.add(2)
        #expect(manager.currentHistoryNodeID == manager.historyTree.current)
        let second = manager.currentHistoryNodeID
        var now = ContinuousClock.now
        manager.coalescingClock = { now }
        for value in 3...4 {
            document.type(value)
            now += .milliseconds(10)
        }
        let merged = manager.currentHistoryNodeID
        #expect(merged != second && merged! > second!, "a new step has a new, larger id")
        #expect(manager.historyTree.current == merged, "the second edit merged into that step")
        manager.undo()
        #expect(manager.currentHistoryNodeID == second)
        manager.goToStart()
        #expect(manager.currentHistoryNodeID == nil)
        manager.go(to: manager.historyTree.node(merged!)!)
        #expect(manager.currentHistoryNodeID == merged)
    }

    @Test("at the tree-wide limit, coalescing goes on as it does on a stack whose limit drops its oldest step",
          arguments: [true, false])
    func coalescingGoesOnAtTheLimit(branches: Bool) {
        let manager = UndoManager()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = branches
        _ = manager.historyTree
        manager.levelsOfUndo = 3
        let document = TreeDocument(manager: manager)
        for value in 1...3 {
            document.add(value)
        }
        var now = ContinuousClock.now
        manager.coalescingClock = { now }
        // Each of these closes a step that trims the oldest one, and the second merges into
        // the first, as with branches off.
        for value in 4...5 {
            document.type(value)
            now += .milliseconds(10)
        }
        #expect(manager.undoCount == 3)
        #expect(manager.historyTree.nodes.count == 3)
        manager.undo()
        #expect(document.items == [1, 2, 3])
    }

    @Test("go(to:) posts each step's notifications and goes through overridable undo() and redo()")
    func stepsAreUndosAndRedos() throws {
        final class Counting: UndoManager {
            var calls: [String] = []
            override func undo() { calls.append("undo"); super.undo() }
            override func redo() { calls.append("redo"); super.redo() }
        }
        let manager = Counting()
        manager.groupsByEvent = false
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)
        manager.calls = []
        var events: [String] = []
        let observation = manager.addEventObserver { event in
            switch event {
            case .didUndoChange: events.append("didUndo")
            case .didRedoChange: events.append("didRedo")
            default: break
            }
        }
        manager.go(to: try #require(manager.historyTree.nodes.first { $0.actionName == "Add 2" }))
        #expect(manager.calls == ["undo", "redo"])
        #expect(events == ["didUndo", "didRedo"])
        #expect(document.items == [1, 2])
        withExtendedLifetime(observation) {}
    }

    @Test("with groupsByEvent, go(to:) first closes the event's group, as undo() does")
    func closesTheAutomaticGroup() {
        let manager = UndoManager()
        manager.keepsRedoBranches = true
        let document = TreeDocument(manager: manager)
        document.append(1)
        manager.runLoop.tick()
        document.append(2)              // the event's group is still open
        manager.goToStart()
        #expect(document.items == [])
        #expect(manager.historyTree.nodes.count == 2)
    }

    @Test("turning branches off drops them and keeps both stacks")
    func turningOff() {
        let (manager, document) = makeManager()
        document.add(1)
        document.add(2)
        manager.undo()
        document.add(3)
        manager.undo()
        manager.keepsRedoBranches = false
        #expect(manager.historyTree.nodes.map(\.actionName) == ["Add 1", "Add 3"])
        #expect(manager.redoActionName == "Add 3")
    }

    @Test("misuse stops the program with the call and the fix", arguments: [
        ("open group", "go(to:)"), ("during undo", "go(to:)"), ("unknown node", "go(to:)"),
        ("start with a group open", "goToStart()"), ("start during undo", "goToStart()"),
    ])
    func traps(situation: String, call: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [situation] in
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.keepsRedoBranches = true
            let document = TreeDocument(manager: manager)
            document.add(1)
            let first = manager.historyTree.nodes[0]
            switch situation {
            case "open group":
                manager.beginUndoGrouping()
                manager.go(to: first)
            case "during undo":
                manager.beginUndoGrouping()
                manager.registerUndo(withTarget: document) { _ in manager.go(to: first) }
                manager.endUndoGrouping()
                manager.undo()
            case "start with a group open":
                manager.beginUndoGrouping()
                manager.goToStart()
            case "start during undo":
                manager.beginUndoGrouping()
                manager.registerUndo(withTarget: document) { _ in manager.goToStart() }
                manager.endUndoGrouping()
                manager.undo()
            default:
                let other = UndoManager()
                other.groupsByEvent = false
                let otherDocument = TreeDocument(manager: other)
                otherDocument.add(1)
                otherDocument.add(2)
                manager.go(to: other.historyTree.nodes[1])
            }
        }
        let output = result.standardErrorText
        #expect(output.contains(call))
        #expect(output.contains("Fix:"))
    }
}
