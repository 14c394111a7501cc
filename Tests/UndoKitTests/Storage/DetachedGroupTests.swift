import Testing
@testable import UndoKit

/// An undo or redo runs the group it takes off a stack in place (`StackEntries.detachSuffix`):
/// the entries stay where they were while the other stack grows into the slots they leave, and
/// an undo of a manager with nothing to redo starts its redo group just above the group. What
/// a step does meanwhile must not be able to tell, or to overwrite an entry still to run.
@Suite("Groups run in place")
struct DetachedGroupTests {
    final class Counter {
        var value = 0
        var log: [Int] = []
    }

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        return manager
    }

    /// Adds `amount` and registers its inverse, doing `during` when it runs as an undo or redo.
    private static func add(_ amount: Int, to counter: Counter, in manager: UndoManager, during: @escaping () -> Void = {}) {
        counter.value += amount
        counter.log.append(amount)
        manager.registerUndo(withTarget: counter) { counter in
            during()
            add(-amount, to: counter, in: manager, during: during)
        }
    }

    private func group(_ amounts: [Int], on counter: Counter, in manager: UndoManager,
                       during: [Int: () -> Void] = [:]) {
        manager.beginUndoGrouping()
        for amount in amounts {
            Self.add(amount, to: counter, in: manager, during: during[amount] ?? {})
        }
        manager.endUndoGrouping()
    }

    @Test("steps that register more than they take make the buffer grow under the group; every step still runs once")
    func growingUnderARunningGroup() {
        let manager = makeManager()
        let counter = Counter(), other = Counter()
        // Each undo step registers its inverse and three more actions: the redo group outgrows
        // the headroom and the slots the group leaves, so the shared buffer reallocates while
        // most of the group still waits in it.
        let extra: () -> Void = {
            for _ in 0..<3 { manager.registerUndo(withTarget: other) { $0.value += 1 } }
        }
        let amounts = Array(1...500)
        group(amounts, on: counter, in: manager, during: Dictionary(uniqueKeysWithValues: amounts.map { ($0, extra) }))
        counter.log.removeAll()
        manager.undo()
        #expect(counter.value == 0)
        #expect(counter.log == amounts.reversed().map { -$0 })
        manager.redo()
        #expect(counter.value == amounts.reduce(0, +))
        #expect(other.value == 1500, "the extra actions ran once, in the redo")
    }

    @Test("a step that removes actions below the group, or trims the oldest steps, leaves the rest of the group to run")
    func removalsBelowARunningGroup() {
        let manager = makeManager()
        let counter = Counter(), old = Counter()
        for amount in [100, 200, 300] {
            group([amount], on: old, in: manager)
        }
        group([1, 2, 3, 4, 5, 6], on: counter, in: manager, during: [
            5: { manager.removeAllActions(withTarget: old) },
            3: { manager.levelsOfUndo = 1 },
        ])
        counter.log.removeAll()
        manager.undo()
        #expect(counter.value == 0)
        #expect(counter.log == [-6, -5, -4, -3, -2, -1])
        #expect(manager.undoCount == 0)
        manager.redo()
        #expect(counter.value == 21)
    }

    @Test("a step that makes its stack grow (a first read of the history tree rewrites it) moves the rest of the group out of the way")
    func appendsToTheStackOfARunningGroup() {
        let manager = makeManager()
        let counter = Counter(), old = Counter()
        // Single steps below the group are stored as singletons; the tree's first read gives
        // each a begin and an end mark, so the undo stack grows over the group's slots.
        for amount in [100, 200, 300, 400] {
            group([amount], on: old, in: manager)
        }
        var tree: UndoTree?
        group([1, 2, 3, 4], on: counter, in: manager, during: [4: { tree = manager.historyTree }])
        counter.log.removeAll()
        manager.undo()
        #expect(counter.log == [-4, -3, -2, -1])
        #expect(tree?.nodes.count == 4, "the four steps below; the group being undone is off the stack")
        manager.redo()
        #expect(counter.value == 10)
        manager.undo()
        manager.undo()
        #expect(old.value == 600)
    }

    @Test("undo and redo of big groups, one after another, land the stacks where they started")
    func manyRoundTrips() {
        let manager = makeManager()
        let counter = Counter()
        for size in [1, 2, 70, 300, 5] {
            group(Array(repeating: 1, count: size), on: counter, in: manager)
        }
        for _ in 0..<3 {
            while manager.canUndo { manager.undo() }
            #expect(counter.value == 0)
            while manager.canRedo { manager.redo() }
            #expect(counter.value == 378)
        }
        // A new edit after undoing everything writes where the floated redo stack was.
        while manager.canUndo { manager.undo() }
        for _ in 0..<200 {
            group([1], on: counter, in: manager)
        }
        #expect(counter.value == 200 && manager.undoCount == 200 && !manager.canRedo)
    }
}
