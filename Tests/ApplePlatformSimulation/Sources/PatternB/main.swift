// Pattern (b) on a simulated Apple platform: this module imports Apple's names (AppleFoundation,
// AppKit, UIKit: what `import Foundation`, `import AppKit` and `import UIKit` declare there)
// beside UndoKit, compiled as on an Apple platform. It names every public declaration of
// UndoKit that is top-level or extends another module's type, and runs the manager to show
// that Apple's notification names, keys and modes work with UndoKit's manager.
//
// When UndoKit gains a public name, mention it here (check-clashes.py fails meanwhile if the
// name is also Apple's).
import AppKit
import AppleFoundation
import Foundation
import PatternBLibrary
import UIKit
import UndoKit

@MainActor func check(_ condition: Bool, _ what: String, line: UInt = #line) {
    if !condition {
        print("pattern (b): FAILED at line \(line): \(what)")
        exit(1)
    }
}

// MARK: UndoKit's own top-level names (no Apple counterpart)

let loop = SimulatedRunLoop()
let manager = UndoManager(runLoop: loop)          // UndoKit's, through the module's typealias
let coordinator = UndoCoordinator()
coordinator.attach(manager)
var values = ValueHistory("a")
values.add("b")
let tree: UndoTree = manager.historyTree
let historyError: UndoHistoryError = .corrupt(reason: "example")

final class Counter { var value = 0 }
struct Add: UndoableCommand, Codable {
    var amount: Int
    mutating func execute(on counter: Counter) { counter.value += amount }
    mutating func undo(on counter: Counter) { counter.value -= amount }
    var actionName: String { "Add \(amount)" }
}
let history: UndoHistory<Add> = UndoHistory()
let size = UndoableValue(10, undoManager: manager)
check(values.current == "b" && tree.nodes.count >= 0 && history.undoSteps.isEmpty
      && historyError != .corrupt(reason: "other") && size.value == 10, "UndoKit's own types")

// MARK: Names Apple's Foundation, AppKit, UIKit and ObjectiveC declare: Apple's are used

// The notification names and the discardable key are Foundation's (UndoKit does not declare
// them on Apple platforms); UndoKit's manager posts them with the same raw values.
var seen: [Notification.Name] = []
var discardable: [Bool] = []
let names: [Notification.Name] = [
    .NSUndoManagerCheckpoint, .NSUndoManagerDidOpenUndoGroup, .NSUndoManagerWillCloseUndoGroup,
    .NSUndoManagerDidCloseUndoGroup, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
    .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
]
let center = NotificationCenter()
manager.notificationCenter = center
let observers = names.map { name in
    center.addObserver(forName: name, object: manager, queue: nil) { notification in
        let name = notification.name
        let isDiscardable = notification.userInfo?[NSUndoManagerGroupIsDiscardableKey] as? Bool ?? false
        MainActor.assumeIsolated {
            seen.append(name)
            if name == .NSUndoManagerDidCloseUndoGroup { discardable.append(isDiscardable) }
        }
    }
}

// AppKit's and UIKit's run loop modes.
manager.runLoopModes = [.default, .eventTracking, .modalPanel, .tracking]
check(NSUndoCloseGroupingRunLoopOrdering == 350_000, "Foundation's ordering constant")

// The OS 26 typed messages: UndoKit's nested types (through the typealias) and identifiers,
// told apart from Foundation's by the manager's type.
var messages: [String] = []
let tokens = [
    center.addObserver(of: manager, for: .checkpoint) { _ in messages.append("checkpoint") },
    center.addObserver(of: manager, for: .didOpenUndoGroup) { _ in messages.append("didOpen") },
    center.addObserver(of: manager, for: .willCloseUndoGroup) { _ in messages.append("willClose") },
    center.addObserver(of: manager, for: .didCloseUndoGroup) { message in
        messages.append("didClose(\(message.groupIsDiscardable))")
    },
    center.addObserver(of: manager, for: .willUndoChange) { _ in messages.append("willUndo") },
    center.addObserver(of: manager, for: .didUndoChange) { _ in messages.append("didUndo") },
    center.addObserver(of: manager, for: .willRedoChange) { _ in messages.append("willRedo") },
    center.addObserver(of: manager, for: .didRedoChange) { _ in messages.append("didRedo") },
    center.addObserver(of: manager, for: UndoManager.DidUndoChangeMessage.self) { _ in messages.append("didUndo by type") },
]
let checkpoints: AsyncStream<UndoManager.CheckpointMessage> = center.messages(of: manager, for: .checkpoint)
_ = checkpoints
let messageTypes: [any NotificationCenter.MainActorMessage.Type] = [
    UndoManager.CheckpointMessage.self, UndoManager.DidOpenUndoGroupMessage.self,
    UndoManager.WillCloseUndoGroupMessage.self, UndoManager.DidCloseUndoGroupMessage.self,
    UndoManager.WillUndoChangeMessage.self, UndoManager.DidUndoChangeMessage.self,
    UndoManager.WillRedoChangeMessage.self, UndoManager.DidRedoChangeMessage.self,
]
check(messageTypes.count == 8, "the message types")

// Apple's own manager stays reachable, spelled with its module (`Foundation.UndoManager` on
// an Apple platform), for the managers AppKit, UIKit and SwiftUI hand out; its identifiers
// resolve to Foundation's for it.
let systemManager: AppleFoundation.UndoManager? = nil
if let systemManager {
    _ = center.addObserver(of: systemManager, for: .checkpoint) { _ in }
}

// ObjectiveC's `Selector`, in an override of the selector-based API.
final class QuietUndoManager: UndoManager {
    private(set) var ignored = 0
    override func registerUndo(withTarget target: Any, selector: Selector, object anObject: Any?) {
        ignored += 1
    }
}
let selector: Selector = "setTitle:"
let quiet = QuietUndoManager()
quiet.registerUndo(withTarget: Counter(), selector: selector, object: nil)
check(quiet.ignored == 1, "an override taking ObjectiveC's Selector")

// UndoKit's user info keys, nested in its manager.
let iconKey: UndoManager.UserInfoKey = "icon"

// MARK: Run it

let counter = Counter()
manager.perform(Add(amount: 2), on: counter)
manager.setActionUserInfoValue("plus", forKey: iconKey)
loop.tick(mode: .tracking)                       // UIKit's mode ends the event
check(counter.value == 2 && manager.undoMenuItemTitle == "Undo Add 2", "a step registered and named")
check(manager.undoActionUserInfoValue(forKey: iconKey) as? String == "plus", "user info")
manager.undo()
manager.redo()
check(counter.value == 2 && coordinator.canUndo, "undo and redo")

let expected: [Notification.Name] = [
    .NSUndoManagerDidOpenUndoGroup, .NSUndoManagerCheckpoint, .NSUndoManagerWillCloseUndoGroup,
    .NSUndoManagerDidCloseUndoGroup,
]
check(Array(seen.prefix(4)) == expected, "Foundation's names observe UndoKit's notifications: \(seen)")
check(seen.contains(.NSUndoManagerDidUndoChange) && seen.contains(.NSUndoManagerDidRedoChange), "undo and redo notifications")
check(discardable == [false], "Foundation's discardable key")
check(messages.contains("didClose(false)") && messages.contains("didUndo") && messages.contains("didUndo by type")
      && messages.contains("didRedo"), "typed messages: \(messages)")

let canvas = Canvas()
canvas.add("circle")
canvas.undoManager.runLoop.tick()
canvas.undoManager.undo()
check(canvas.shapes.isEmpty, "a file without `import UndoKit` uses UndoKit's manager")

let document = Document()
document.rename(to: "Draft")
document.undoManager.runLoop.tick()
document.undoManager.undo()
check(document.title == "", "a library's public UndoKit.UndoManager")

observers.forEach(center.removeObserver)
tokens.forEach(center.removeObserver)
print("pattern (b) on a simulated Apple platform: ok")
