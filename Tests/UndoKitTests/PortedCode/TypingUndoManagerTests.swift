import Foundation
import Testing
import UndoKit

// Text editors' managers (the shapes of STTextView's CoalescingUndoManager and Runestone's
// TimedUndoManager): grouping by event off, one group kept open across the keystrokes of a
// typing run, and closed when the user undoes, redoes, pauses or the document is reset.

/// The text of an editor; each insertion registers its deletion and the other way round.
private final class TypingBuffer {
    private(set) var text = ""

    func insert(_ characters: String, using manager: UndoManager) {
        text += characters
        manager.registerUndo(withTarget: self) { [unowned manager] buffer in
            buffer.deleteLast(characters.count, using: manager)
        }
    }

    func deleteLast(_ count: Int, using manager: UndoManager) {
        let removed = String(text.suffix(count))
        text.removeLast(count)
        manager.registerUndo(withTarget: self) { [unowned manager] buffer in
            buffer.insert(removed, using: manager)
        }
    }
}

/// The editor's side tells the manager when a typing run starts and ends; the overrides of
/// `undo()`, `redo()` and `removeAllActions()` end a run still open.
private final class KeystrokeUndoManager: UndoManager {
    private(set) var isTyping = false

    override init() {
        super.init()
        groupsByEvent = false
        runLoopModes = [.default, .common]
    }

    /// Called before each keystroke registers its undo: the first one of a run opens the group.
    func willType() {
        guard !isTyping else { return }
        isTyping = true
        beginUndoGrouping()
        setActionName("Typing")
    }

    /// A pause, a move of the insertion point, or a save ends the run.
    func endTyping() {
        guard isTyping else { return }
        isTyping = false
        endUndoGrouping()
    }

    override func undo() {
        endTyping()
        super.undo()
    }

    override func redo() {
        endTyping()
        super.redo()
    }

    override func removeAllActions() {
        isTyping = false
        super.removeAllActions()
    }
}

/// The other shape: every keystroke calls `beginUndoGrouping()`, and the override opens a group
/// only at level 0 and schedules the pause that will close it, so a run shares one group.
private final class CoalescingUndoManager: UndoManager {
    /// The editor's pause timer, without the timer: ``firePause()`` stands for it firing.
    private(set) var pauseIsScheduled = false

    override init() {
        super.init()
        groupsByEvent = false
    }

    override func beginUndoGrouping() {
        if groupingLevel == 0 {
            super.beginUndoGrouping()
            pauseIsScheduled = true
        }
    }

    override func endUndoGrouping() {
        pauseIsScheduled = false
        if groupingLevel > 0 {
            super.endUndoGrouping()
        }
    }

    func firePause() {
        if pauseIsScheduled {
            endUndoGrouping()
        }
    }

    override func undo() {
        endUndoGrouping()
        super.undo()
    }

    override func removeAllActions() {
        pauseIsScheduled = false
        super.removeAllActions()
    }
}

/// The shape of a later TimedUndoManager: its own group is tracked with a flag, and the
/// manager's own group calls made during undo and redo are passed through untouched. (Without
/// the pass-through, undo's redo group, opened with `beginUndoGrouping()`, would set the flag.)
private final class PassThroughUndoManager: UndoManager {
    private var isPerformingUndoRedo = false
    private(set) var hasOwnGroup = false
    private(set) var passedThrough: [String] = []

    override init() {
        super.init()
        groupsByEvent = false
    }

    override func beginUndoGrouping() {
        if isPerformingUndoRedo {
            passedThrough.append("begin")
            super.beginUndoGrouping()
        } else if !hasOwnGroup {
            hasOwnGroup = true
            super.beginUndoGrouping()
        }
    }

    override func endUndoGrouping() {
        if isPerformingUndoRedo {
            passedThrough.append("end")
            super.endUndoGrouping()
        } else if hasOwnGroup {
            hasOwnGroup = false
            super.endUndoGrouping()
        }
    }

    override func undo() {
        endUndoGrouping()
        isPerformingUndoRedo = true
        super.undo()
        isPerformingUndoRedo = false
    }

    override func redo() {
        endUndoGrouping()
        isPerformingUndoRedo = true
        super.redo()
        isPerformingUndoRedo = false
    }
}

@Suite("Ported code: a text editor's typing manager")
struct TypingUndoManagerTests {
    /// Types each string as one keystroke event: the keystroke, then the end of the event.
    private func type(_ keystrokes: [String], into buffer: TypingBuffer, with manager: KeystrokeUndoManager) {
        for keystroke in keystrokes {
            manager.willType()
            buffer.insert(keystroke, using: manager)
            manager.runLoop.tick()
        }
    }

    @Test func aTypingRunStaysOneOpenGroupAcrossKeystrokeEvents() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        type(["h", "i", "!"], into: buffer, with: manager)
        #expect(buffer.text == "hi!")
        #expect(manager.groupingLevel == 1)
        #expect(manager.canUndo)
        #expect(manager.undoCount == 0)   // spec R26: the walk starts inside the open group
    }

    @Test func undoClosesTheRunAndRevertsAllOfIt() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        type(["h", "i", "!"], into: buffer, with: manager)
        manager.undo()
        #expect(buffer.text == "")
        #expect(!manager.isTyping)
        #expect(manager.groupingLevel == 0)
        #expect(manager.undoCount == 0 && manager.redoCount == 1)
    }

    @Test func redoRetypesTheWholeRunAndUndoRevertsItAgain() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        type(["a", "b", "c"], into: buffer, with: manager)
        manager.undo()
        manager.redo()
        #expect(buffer.text == "abc")
        #expect(manager.undoCount == 1 && manager.redoCount == 0)
        manager.undo()
        #expect(buffer.text == "")
        manager.redo()
        #expect(buffer.text == "abc")
    }

    @Test func menuTitlesNameTheTypingRunThroughUndoAndRedo() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        #expect(manager.undoMenuItemTitle == "Undo")
        type(["o", "k"], into: buffer, with: manager)
        #expect(manager.undoMenuItemTitle == "Undo Typing")
        manager.undo()
        #expect(manager.undoMenuItemTitle == "Undo")
        #expect(manager.redoMenuItemTitle == "Redo Typing")
        manager.redo()
        #expect(manager.undoMenuItemTitle == "Undo Typing")
        #expect(manager.redoMenuItemTitle == "Redo")
    }

    @Test func aPauseSplitsTypingIntoSeparateSteps() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        type(["a", "b"], into: buffer, with: manager)
        manager.endTyping()
        type(["c", "d"], into: buffer, with: manager)
        manager.undo()
        #expect(buffer.text == "ab")
        manager.undo()
        #expect(buffer.text == "")
        #expect(manager.redoCount == 2)
    }

    @Test func removeAllActionsDuringARunEndsItAndTheNextKeystrokeStartsAFreshRun() {
        let manager = KeystrokeUndoManager()
        let buffer = TypingBuffer()
        type(["x", "y"], into: buffer, with: manager)
        manager.removeAllActions()
        #expect(!manager.isTyping && manager.groupingLevel == 0 && !manager.canUndo)
        type(["z"], into: buffer, with: manager)
        manager.undo()
        #expect(buffer.text == "xy")
        #expect(!manager.canUndo)
    }

    // MARK: The gated-begin shape

    /// One keystroke event: `beginUndoGrouping()`, the insertion, the end of the event.
    private func keystroke(_ characters: String, into buffer: TypingBuffer, with manager: CoalescingUndoManager) {
        manager.beginUndoGrouping()
        buffer.insert(characters, using: manager)
        manager.runLoop.tick()
    }

    @Test func gatedBeginsShareOneGroupUntilAPause() {
        let manager = CoalescingUndoManager()
        let buffer = TypingBuffer()
        keystroke("a", into: buffer, with: manager)
        keystroke("b", into: buffer, with: manager)
        #expect(manager.groupingLevel == 1)
        manager.firePause()
        keystroke("c", into: buffer, with: manager)
        manager.undo()
        #expect(buffer.text == "ab")
        manager.undo()
        #expect(buffer.text == "")
    }

    @Test func gatedBeginsLetUndoAndRedoBuildTheirGroupsThroughTheOverride() {
        // undo() and redo() open their groups with beginUndoGrouping(); the override sees
        // groupingLevel 0 (the redo stack's level while undoing, the undo stack's while
        // redoing) and passes them on, so both directions work for several cycles.
        let manager = CoalescingUndoManager()
        let buffer = TypingBuffer()
        keystroke("a", into: buffer, with: manager)
        keystroke("b", into: buffer, with: manager)
        for _ in 0..<3 {
            manager.undo()
            #expect(buffer.text == "")
            #expect(manager.redoCount == 1)
            manager.redo()
            #expect(buffer.text == "ab")
            #expect(manager.undoCount == 1 && manager.groupingLevel == 0)
        }
    }

    @Test func gatedRemoveAllActionsCancelsThePauseAndDropsTheOpenRun() {
        let manager = CoalescingUndoManager()
        let buffer = TypingBuffer()
        keystroke("a", into: buffer, with: manager)
        #expect(manager.pauseIsScheduled)
        manager.removeAllActions()
        #expect(!manager.pauseIsScheduled && manager.groupingLevel == 0 && !manager.canUndo)
        keystroke("b", into: buffer, with: manager)
        manager.undo()
        #expect(buffer.text == "a")
    }

    // MARK: The pass-through shape

    @Test func theManagersOwnGroupCallsDuringUndoAndRedoReachThePassThrough() {
        let manager = PassThroughUndoManager()
        let buffer = TypingBuffer()
        for character in ["a", "b"] {
            manager.beginUndoGrouping()
            buffer.insert(character, using: manager)
        }
        manager.undo()
        #expect(buffer.text == "" && !manager.hasOwnGroup)
        manager.redo()
        #expect(buffer.text == "ab" && !manager.hasOwnGroup)
        #expect(manager.passedThrough == ["begin", "begin", "end"])   // undo's open; redo's open and close
        manager.beginUndoGrouping()
        buffer.insert("c", using: manager)
        manager.undo()
        #expect(buffer.text == "ab")
    }

    @Test func withoutThePassThroughUndosGroupSetsTheFlagAndTheNextKeystrokeTraps() async {
        // What the pass-through guards against, reproduced: the flag set by undo's redo group
        // swallows the next keystroke's group, and its registration finds no group open.
        await #expect(processExitsWith: .failure) {
            final class FlagUndoManager: UndoManager {
                var hasOwnGroup = false
                override func beginUndoGrouping() {
                    if !hasOwnGroup {
                        hasOwnGroup = true
                        super.beginUndoGrouping()
                    }
                }
                override func endUndoGrouping() {
                    if hasOwnGroup {
                        hasOwnGroup = false
                        super.endUndoGrouping()
                    }
                }
                override func undo() {
                    endUndoGrouping()
                    super.undo()
                }
            }
            final class Target {}
            let manager = FlagUndoManager()
            manager.groupsByEvent = false
            let target = Target()
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: target) { _ in }
            manager.undo()
            manager.beginUndoGrouping()                          // swallowed: the flag is still set
            manager.registerUndo(withTarget: target) { _ in }    // no group open: traps
        }
    }
}
