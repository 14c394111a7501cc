import Foundation
import Testing
@testable import UndoKit

/// A text buffer whose keystrokes are undoable, for the coalescing tests.
private final class TextBuffer {
    var text = ""
}

/// A manager with an injected clock, typing into a buffer one event per keystroke.
private final class TypingFixture {
    let manager = UndoManager()
    let buffer = TextBuffer()
    var now = ContinuousClock.now

    init(groupsByEvent: Bool = true) {
        manager.notificationCenter = nil
        manager.groupsByEvent = groupsByEvent
        manager.coalescingClock = { [unowned self] in self.now }
    }

    /// One keystroke: an edit named "Typing" with key "typing" (or `key`), then the end of
    /// the event.
    func type(_ character: Character, key: String? = "typing", name: String = "Typing", after delay: Duration = .milliseconds(100)) {
        now += delay
        buffer.text.append(character)
        registerRemoval(of: character)
        manager.setActionName(name)
        manager.setActionCoalescingKey(key)
        manager.runLoop.tick()
    }

    /// Registers the removal of the last character, whose undo registers its append back.
    func registerRemoval(of character: Character, log: ((String) -> Void)? = nil) {
        manager.registerUndo(withTarget: buffer) { [unowned self] buffer in
            log?(String(character))
            buffer.text.removeLast()
            self.registerAppend(of: character, log: log)
        }
    }

    private func registerAppend(of character: Character, log: ((String) -> Void)?) {
        manager.registerUndo(withTarget: buffer) { [unowned self] buffer in
            buffer.text.append(character)
            self.registerRemoval(of: character, log: log)
        }
    }
}

@Suite("UndoManager coalescing")
struct CoalescingTests {
    @Test("Quick keystrokes with one key become one step; undo reverts them all, newest first")
    func keystrokesMerge() {
        let fixture = TypingFixture()
        var order: [String] = []
        for character in "abc" {
            fixture.now += .milliseconds(100)
            fixture.buffer.text.append(character)
            fixture.registerRemoval(of: character) { order.append($0) }
            fixture.manager.setActionName("Typing")
            fixture.manager.setActionCoalescingKey("typing")
            fixture.manager.runLoop.tick()
        }
        #expect(fixture.manager.undoCount == 1)
        #expect(fixture.manager.undoActionName == "Typing")
        fixture.manager.undo()
        #expect(fixture.buffer.text == "")
        #expect(order == ["c", "b", "a"])
        #expect(fixture.manager.redoCount == 1)
        fixture.manager.redo()
        #expect(fixture.buffer.text == "abc")
        #expect(fixture.manager.undoCount == 1)
    }

    @Test("The interval is measured from the previous close", arguments: [
        (Duration.milliseconds(999), 1), (.seconds(1), 2), (.seconds(5), 2),
    ])
    func interval(delay: Duration, expectedSteps: Int) {
        let fixture = TypingFixture()
        fixture.type("a")
        fixture.type("b", after: delay)
        #expect(fixture.manager.undoCount == expectedSteps)
    }

    @Test("A steady run longer than the interval keeps merging")
    func steadyRun() {
        let fixture = TypingFixture()
        for character in "abcdefghijklmnopqrst" {
            fixture.type(character, after: .milliseconds(400))
        }
        #expect(fixture.manager.undoCount == 1)
        #expect(fixture.manager.undoActionNames == ["Typing"])
    }

    @Test("A custom interval applies")
    func customInterval() {
        let fixture = TypingFixture()
        fixture.manager.coalescingInterval = .milliseconds(50)
        fixture.type("a")
        fixture.type("b", after: .milliseconds(60))
        #expect(fixture.manager.undoCount == 2)
        #expect(fixture.manager.coalescingInterval == .milliseconds(50))
    }

    @Test("Groups merge only with the same key; nil never merges", arguments: [
        ("typing", "typing", 1), ("typing", "other", 2), (nil, nil, 2),
    ] as [(String?, String?, Int)])
    func keys(first: String?, second: String?, expectedSteps: Int) {
        let fixture = TypingFixture()
        fixture.type("a", key: first)
        fixture.type("b", key: second)
        #expect(fixture.manager.undoCount == expectedSteps)
    }

    @Test("An undo, a redo or a removal in between stops the merge", arguments: ["undo", "redo", "remove", "unkeyed"])
    func somethingInBetween(what: String) {
        let fixture = TypingFixture()
        let other = TextBuffer()
        fixture.type("a")
        switch what {
        case "undo":
            fixture.type("b")
            fixture.manager.undo()
        case "redo":
            fixture.type("b")
            fixture.manager.undo()
            fixture.manager.redo()
            #expect(fixture.manager.undoCount == 1)
        case "remove":
            other.text = "x"
            fixture.manager.registerUndo(withTarget: other) { $0.text = "" }
            fixture.manager.setActionCoalescingKey("typing")
            fixture.manager.runLoop.tick()
            fixture.manager.removeAllActions(withTarget: other)
        default:
            fixture.type("b", key: nil)
        }
        let before = fixture.manager.undoCount
        fixture.type("c")
        #expect(fixture.manager.undoCount == before + 1)
    }

    @Test("The merged step takes the newest name and stays discardable only if both were")
    func mergedMetadata() {
        let fixture = TypingFixture()
        let key = UndoManager.UserInfoKey("k")
        fixture.now += .milliseconds(10)
        fixture.manager.registerUndo(withTarget: fixture.buffer) { _ in }
        fixture.manager.setActionName("First")
        fixture.manager.setActionIsDiscardable(true)
        fixture.manager.setActionUserInfoValue(1, forKey: key)
        fixture.manager.setActionCoalescingKey("k")
        fixture.manager.runLoop.tick()
        fixture.manager.registerUndo(withTarget: fixture.buffer) { _ in }
        fixture.manager.setActionName("Second")
        fixture.manager.setActionCoalescingKey("k")
        fixture.manager.runLoop.tick()
        #expect(fixture.manager.undoCount == 1)
        #expect(fixture.manager.undoActionName == "Second")
        #expect(fixture.manager.undoActionIsDiscardable == false)
        #expect(fixture.manager.undoActionUserInfoValue(forKey: key) as? Int == 1)
    }

    @Test("Explicit groups coalesce too, with groupsByEvent off")
    func explicitGroups() {
        let fixture = TypingFixture(groupsByEvent: false)
        for character in "ab" {
            fixture.manager.beginUndoGrouping()
            fixture.buffer.text.append(character)
            fixture.manager.registerUndo(withTarget: fixture.buffer) { $0.text.removeLast() }
            fixture.manager.setActionCoalescingKey("typing")
            fixture.manager.endUndoGrouping()
        }
        #expect(fixture.manager.undoCount == 1)
        fixture.manager.undo()
        #expect(fixture.buffer.text == "")
    }

    @Test("Every group posts its notifications; after a merge the count has not grown")
    func notifications() {
        let fixture = TypingFixture()
        var seen: [(UndoManager.Event, Int)] = []
        let observation = fixture.manager.addEventObserver { [unowned manager = fixture.manager] event in
            if case .didCloseUndoGroup = event { seen.append((event, manager.undoCount)) }
        }
        defer { observation.cancel() }
        fixture.type("a")
        fixture.type("b")
        #expect(seen.map(\.1) == [1, 1])
    }

    @Test("A group is not merged into the step the clean mark points at")
    func notIntoTheCleanStep() {
        let fixture = TypingFixture()
        fixture.type("a")
        fixture.manager.markClean()
        fixture.type("b")
        #expect(fixture.manager.undoCount == 2)
        #expect(!fixture.manager.isClean)
        fixture.manager.undo()
        #expect(fixture.manager.isClean)
        #expect(fixture.buffer.text == "a")
    }

    @Test("A mark below the previous step keeps its distance across a merge")
    func markBelow() {
        let fixture = TypingFixture()
        fixture.type("a")
        fixture.type("b")
        #expect(fixture.manager.undoCount == 1)
        fixture.manager.undo()
        #expect(fixture.manager.isClean)
    }

    @Test("Without any key the manager reads no clock")
    func noClockWithoutKeys() {
        let manager = UndoManager()
        let buffer = TextBuffer()
        var reads = 0
        manager.coalescingClock = {
            reads += 1
            return ContinuousClock.now
        }
        manager.registerUndo(withTarget: buffer) { _ in }
        manager.runLoop.tick()
        manager.registerUndo(withTarget: buffer) { _ in }
        manager.runLoop.tick()
        #expect(reads == 0)
        #expect(manager.undoCount == 2)
    }
}

@Suite("UndoManager coalescing into the clean step")
struct CoalescingIntoCleanStepTests {
    @Test("by default a step after markClean() never merges into the marked step; with coalescesIntoCleanStep it does, and the manager is unclean", arguments: [false, true])
    func mergingIntoTheMarkedStep(allowed: Bool) {
        let fixture = TypingFixture()
        fixture.manager.coalescesIntoCleanStep = allowed
        fixture.type("a")
        fixture.manager.markClean()
        fixture.type("b")
        #expect(fixture.manager.undoCount == (allowed ? 1 : 2))
        #expect(!fixture.manager.isClean)
        fixture.manager.undo()
        #expect(fixture.buffer.text == (allowed ? "" : "a"))
        // Allowed, the saved state "a" is gone: no undo or redo comes back to it.
        #expect(fixture.manager.isClean == !allowed)
        fixture.manager.redo()
        #expect(!fixture.manager.isClean)
    }
}
