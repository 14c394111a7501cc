import Observation
import Testing
@testable import UndoKit

/// Issue 25: a History panel that reads `historyTree` inside `withObservationTracking` hears of
/// every public operation that changes the tree, including those that change only a branch.
///
/// Written from the list of public operations that can change the tree (the undo manager's,
/// the coordinator's that reach into a member, and the event loop's), not from where the
/// implementation happens to publish: each case sets a scene, performs the operation once, and
/// checks that the tree changed and that a tracking of `historyTree` alone fired exactly once.
@Suite("Observation: historyTree is announced by every operation that changes it")
struct HistoryTreeObservationTests {
    /// A list the operations edit, with commands that save with the history.
    final class Numbers {
        var items: [Int] = []
    }

    struct Append: UndoableCommand, Codable {
        let value: Int
        var actionName: String { "Append \(value)" }
        func execute(on numbers: Numbers) { numbers.items.append(value) }
        func undo(on numbers: Numbers) { numbers.items.removeLast() }
    }

    /// Everything a case works with: a manager that keeps branches, two documents (targets),
    /// and a coordinated pair for the coordinator's case.
    final class Scene {
        let manager = UndoManager()
        let document: TreeDocument
        let other: TreeDocument
        let numbers = Numbers()

        init() {
            manager.groupsByEvent = false
            manager.keepsRedoBranches = true
            document = TreeDocument(manager: manager)
            other = TreeDocument(manager: manager)
        }

        /// Steps 1 and 2; 2 undone; step 3, so that 2 is a branch below 1.
        func branchBelowTheFirstStep() {
            document.add(1)
            document.add(2)
            manager.undo()
            document.add(3)
        }
    }

    enum Operation: String, CaseIterable, Sendable {
        case registerUndoClearsRedo, registerMainActorHandlerClearsRedo, performClearsRedo
        case endUndoGroupingClosesAStep, endUndoGroupingOfAnEmptyGroupEndsRedo
        case tickClosesTheAutomaticGroup, endEventGroupClosesTheAutomaticGroup
        case undo, undoNestedGroupOfATopLevelStep, undoNestedGroupInsideAnOpenGroup, redo
        case removeAllActions, removeAllActionsWithTargetOnThePath, removeAllActionsWithTargetOnlyOnABranch
        case levelsOfUndoTrimsThePath, levelsOfUndoTrimsABranchTip, actionCostLimitTrims
        case keepsRedoBranchesOffDropsTheBranches, keepsRedoBranchesOnTrimsToTheLimit
        case goTo, goToStart, goToEarlierState, goToLaterState
        case withUndoGroupSucceeds, restoreUndoHistory, coordinatorEndsAnotherMembersRedo

        /// Sets the scene and returns the operation, which runs while the tree is watched.
        @MainActor
        func prepare(_ scene: Scene) -> () -> Void {
            let manager = scene.manager
            switch self {
            case .registerUndoClearsRedo:
                scene.document.add(1)
                manager.undo()
                manager.beginUndoGrouping()
                return { scene.document.append(2) }
            case .registerMainActorHandlerClearsRedo:
                scene.document.add(1)
                manager.undo()
                manager.beginUndoGrouping()
                return {
                    let handler: @MainActor (TreeDocument) -> Void = { _ in }
                    manager.registerUndo(withTarget: scene.document, handler: handler)
                }
            case .performClearsRedo:
                scene.document.add(1)
                manager.undo()
                manager.beginUndoGrouping()
                return { manager.perform(Append(value: 2), on: scene.numbers) }
            case .endUndoGroupingClosesAStep:
                manager.beginUndoGrouping()
                scene.document.append(1)
                return { manager.endUndoGrouping() }
            case .endUndoGroupingOfAnEmptyGroupEndsRedo:
                manager.keepsRedoBranches = false
                scene.document.add(1)
                manager.undo()
                manager.beginUndoGrouping()
                return { manager.endUndoGrouping() }
            case .tickClosesTheAutomaticGroup:
                manager.groupsByEvent = true
                scene.document.append(1)
                return { manager.runLoop.tick() }
            case .endEventGroupClosesTheAutomaticGroup:
                manager.groupsByEvent = true
                scene.document.append(1)
                return { manager.endEventGroup() }
            case .undo:
                scene.document.add(1)
                return { manager.undo() }
            case .undoNestedGroupOfATopLevelStep:
                scene.document.add(1)
                return { manager.undoNestedGroup() }
            case .undoNestedGroupInsideAnOpenGroup:
                manager.beginUndoGrouping()
                scene.document.add(1)  // a closed group nested in the open one
                return { manager.undoNestedGroup() }  // its inverse is a new redo step
            case .redo:
                scene.document.add(1)
                manager.undo()
                return { manager.redo() }
            case .removeAllActions:
                scene.document.add(1)
                return { manager.removeAllActions() }
            case .removeAllActionsWithTargetOnThePath:
                scene.document.add(1)
                scene.other.add(2)
                return { manager.removeAllActions(withTarget: scene.other) }
            case .removeAllActionsWithTargetOnlyOnABranch:
                // The other document's only step is on a branch: the paths do not change.
                scene.document.add(1)
                scene.other.add(2)
                manager.undo()
                scene.document.add(3)
                return { manager.removeAllActions(withTarget: scene.other) }
            case .levelsOfUndoTrimsThePath:
                manager.keepsRedoBranches = false
                scene.document.add(1)
                scene.document.add(2)
                return { manager.levelsOfUndo = 1 }
            case .levelsOfUndoTrimsABranchTip:
                // Three nodes; a limit of two drops the least recently visited leaf, the branch.
                scene.branchBelowTheFirstStep()
                return { manager.levelsOfUndo = 2 }
            case .actionCostLimitTrims:
                manager.keepsRedoBranches = false
                for value in 1...2 {
                    manager.beginUndoGrouping()
                    scene.document.append(value)
                    manager.setActionCost(100)
                    manager.endUndoGrouping()
                }
                return { manager.actionCostLimit = 100 }
            case .keepsRedoBranchesOffDropsTheBranches:
                scene.branchBelowTheFirstStep()
                return { manager.keepsRedoBranches = false }
            case .keepsRedoBranchesOnTrimsToTheLimit:
                // Without branches the redo stack is not limited (spec R28); with them the
                // limit counts every node.
                manager.keepsRedoBranches = false
                manager.levelsOfUndo = 2
                scene.document.add(1)
                scene.document.add(2)
                manager.undo()
                manager.undo()
                scene.document.add(3)
                manager.undo()
                manager.redo()
                scene.document.add(4)  // ends redo: nothing to keep
                manager.undo()
                manager.undo()
                manager.levelsOfUndo = 1
                return { manager.keepsRedoBranches = true }
            case .goTo:
                scene.branchBelowTheFirstStep()
                let branch = manager.historyTree.nodes.first { $0.actionName == "Add 2" }!
                return { manager.go(to: branch) }
            case .goToStart:
                scene.document.add(1)
                return { manager.goToStart() }
            case .goToEarlierState:
                scene.branchBelowTheFirstStep()
                return { manager.goToEarlierState() }
            case .goToLaterState:
                scene.branchBelowTheFirstStep()
                manager.goToStart()
                return { manager.goToLaterState() }
            case .withUndoGroupSucceeds:
                return { manager.withUndoGroup(named: "Scope") { scene.document.append(1) } }
            case .restoreUndoHistory:
                let source = UndoManager()
                source.groupsByEvent = false
                let numbers = Numbers()
                source.beginUndoGrouping()
                source.perform(Append(value: 1), on: numbers)
                source.endUndoGrouping()
                let history = try! source.undoHistory(of: Append.self)
                return { try! manager.restoreUndoHistory(history, on: scene.numbers) }
            case .coordinatorEndsAnotherMembersRedo:
                // Scene's manager is the watched member; a new edit in the other member ends
                // redo for both.
                manager.keepsRedoBranches = false
                let coordinator = UndoCoordinator()
                let editor = UndoManager()
                editor.groupsByEvent = false
                coordinator.attach(manager)
                coordinator.attach(editor)
                let page = TreeDocument(manager: editor)
                scene.document.add(1)
                manager.undo()
                return {
                    page.add(2)
                    withExtendedLifetime(coordinator) {}
                }
            }
        }
    }

    @MainActor
    @Test("the operation changes the tree and a tracking of historyTree hears it once", arguments: Operation.allCases)
    func announced(_ operation: Operation) {
        let scene = Scene()
        let perform = operation.prepare(scene)
        let before = scene.manager.historyTree
        let fired = changes(of: scene.manager, reading: { _ = $0.historyTree }, after: perform)
        #expect(scene.manager.historyTree != before, "the scene does not change the tree")
        #expect(fired == 1)
    }

    @MainActor
    @Test("the three branch-only changes leave both paths as they were", arguments: [
        Operation.removeAllActionsWithTargetOnlyOnABranch, .levelsOfUndoTrimsABranchTip, .keepsRedoBranchesOffDropsTheBranches,
    ])
    func branchOnlyChangesLeaveThePaths(_ operation: Operation) {
        let scene = Scene()
        let perform = operation.prepare(scene)
        let (undoNames, redoNames, current) =
            (scene.manager.undoActionNames, scene.manager.redoActionNames, scene.manager.currentHistoryNodeID)
        let branchesBefore = scene.manager.historyTree.nodes.count
        perform()
        #expect(scene.manager.undoActionNames == undoNames && scene.manager.redoActionNames == redoNames)
        #expect(scene.manager.currentHistoryNodeID == current)
        #expect(scene.manager.historyTree.nodes.count < branchesBefore)
    }

    @MainActor
    @Test("operations that leave the tree as it was are not announced")
    func unchangedTreeIsNotAnnounced() {
        let scene = Scene()
        scene.document.add(1)
        let fired = changes(of: scene.manager, reading: { _ = $0.historyTree }) {
            scene.manager.markClean()
            scene.manager.beginUndoGrouping()
            scene.document.append(2)
            scene.manager.setActionName("Open")
            scene.manager.setActionCost(5)
            scene.manager.disableUndoRegistration()
            scene.manager.enableUndoRegistration()
            _ = scene.manager.canRedo
        }
        #expect(fired == 0)
    }
}
