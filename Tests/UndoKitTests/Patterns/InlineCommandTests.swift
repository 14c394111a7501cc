import Foundation
import Testing
@testable import UndoKit

/// Commands no larger than a word and made of plain data are kept in their step (see
/// `InlineCommandOwner`): `perform(_:on:)` allocates nothing for them, and undo, redo, the
/// saved history and the equivalence with closures must not be able to tell.
@Suite("Small commands kept in their step")
struct InlineCommandTests {
    final class Counter {
        var value = 0
        var runs: [Int] = []
    }

    /// A word of plain data: kept in the step.
    struct Add: UndoableCommand, Codable, Equatable {
        let amount: Int
        func execute(on counter: Counter) { counter.value &+= amount }
        func undo(on counter: Counter) { counter.value &-= amount }
    }

    /// A command that changes itself each time it runs, as `UndoableCommand` allows: the step
    /// must keep what the run left.
    struct CountingToggle: UndoableCommand {
        var runs: Int32 = 0
        var flag = false
        mutating func execute(on counter: Counter) {
            runs += 1
            flag.toggle()
            counter.runs.append(Int(runs))
        }
        mutating func undo(on counter: Counter) {
            runs += 1
            flag.toggle()
            counter.runs.append(-Int(runs))
        }
    }

    /// Holds a reference: kept in a `CommandEntry`, as before.
    struct Named: UndoableCommand {
        let name: String
        func execute(on counter: Counter) { counter.value += name.count }
        func undo(on counter: Counter) { counter.value -= name.count }
    }

    private func makeManager() -> UndoManager {
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.groupsByEvent = false
        return manager
    }

    private func ownerKeepsCommandInStep(_ entry: UndoStack.Entry) -> Bool? {
        switch entry {
        case .action(_, let owner, _), .singleton(_, let owner, _): owner.keepsCommandInStep
        case .begin, .end: nil
        }
    }

    @Test("which commands fit: plain data of at most a word")
    func whichCommandsFit() {
        #expect(InlineCommandOwner<Add>.fitsInStep)
        #expect(InlineCommandOwner<CountingToggle>.fitsInStep)
        #expect(!InlineCommandOwner<Named>.fitsInStep)
        #expect(MemoryLayout<UndoStack.Entry>.size == 32, "a step that holds a command is still one entry of 32 bytes")
    }

    @Test("any bits survive perform, undo, redo and the history, in single steps and in groups",
          arguments: [Int.min, -1, 0, 1, 4095, 4096, Int.max])
    func bitsRoundTrip(amount: Int) throws {
        let manager = makeManager()
        let counter = Counter()
        // A single step (a singleton), then a group of three.
        manager.beginUndoGrouping()
        manager.perform(Add(amount: amount), on: counter)
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        for _ in 0..<3 { manager.perform(Add(amount: amount), on: counter) }
        manager.endUndoGrouping()
        #expect(manager.undoStack.entries.elements.compactMap(ownerKeepsCommandInStep).allSatisfy { $0 })
        let history = try manager.undoHistory(of: Add.self)
        #expect(history.undoSteps.map(\.commands) == [[Add(amount: amount)], Array(repeating: Add(amount: amount), count: 3)])
        manager.undo()
        #expect(counter.value == amount)
        manager.undo()
        #expect(counter.value == 0)
        let redone = try manager.undoHistory(of: Add.self)
        #expect(redone.redoSteps.count == 2)
        manager.redo()
        manager.redo()
        #expect(counter.value == amount &* 4)
        #expect(manager.undoCount == 2 && manager.redoCount == 0)
    }

    @Test("a command that changes itself keeps what each run left")
    func mutatingCommandsKeepTheirState() {
        let manager = makeManager()
        let counter = Counter()
        manager.beginUndoGrouping()
        manager.perform(CountingToggle(), on: counter)
        manager.endUndoGrouping()
        manager.undo()
        manager.redo()
        manager.undo()
        #expect(counter.runs == [1, -2, 3, -4])
    }

    @Test("a saved history of small commands restores into entries that run the same")
    func savedHistoryRestores() throws {
        let manager = makeManager()
        let counter = Counter()
        for amount in [3, 5] {
            manager.beginUndoGrouping()
            manager.perform(Add(amount: amount), on: counter)
            manager.endUndoGrouping()
        }
        manager.undo()
        let data = try JSONEncoder().encode(try manager.undoHistory(of: Add.self))
        let restored = makeManager()
        try restored.restoreUndoHistory(try JSONDecoder().decode(UndoHistory<Add>.self, from: data), on: counter)
        restored.redo()
        #expect(counter.value == 8)
        restored.undo()
        restored.undo()
        #expect(counter.value == 0)
    }

    @Test("consecutive small commands on one model share one owner; another type or model gets its own")
    func ownersAreShared() {
        let manager = makeManager()
        let (first, second) = (Counter(), Counter())
        manager.beginUndoGrouping()
        manager.perform(Add(amount: 1), on: first)
        manager.perform(Add(amount: 2), on: first)
        manager.perform(CountingToggle(), on: first)
        manager.perform(Add(amount: 3), on: second)
        manager.endUndoGrouping()
        let owners = manager.undoStack.entries.elements.compactMap { entry -> ObjectIdentifier? in
            if case .action(_, let owner, _) = entry { ObjectIdentifier(owner) } else { nil }
        }
        #expect(owners.count == 4)
        #expect(owners[0] == owners[1])
        #expect(Set(owners).count == 3)
    }

    @Test("a step whose model is gone is skipped, as a closure's is")
    func deadModelIsSkipped() {
        let manager = makeManager()
        var counter: Counter? = Counter()
        weak let watched = counter
        manager.beginUndoGrouping()
        manager.perform(Add(amount: 1), on: counter!)
        manager.endUndoGrouping()
        counter = nil
        #expect(watched == nil, "the manager holds the model weakly")
        manager.undo()
        #expect(manager.redoCount == 0, "the step did not run, so it recorded no inverse")
    }

    @Test("a subclass's manager keeps every command in an entry, so its overrides see a handler per step")
    func subclassesUseEntries() {
        final class Counting: UndoManager {
            var registrations = 0
            override func registerUndo<TargetType: AnyObject>(
                withTarget target: TargetType, handler: @escaping (TargetType) -> Void
            ) {
                registrations += 1
                super.registerUndo(withTarget: target, handler: handler)
            }
        }
        let manager = Counting()
        manager.groupsByEvent = false
        let counter = Counter()
        manager.beginUndoGrouping()
        manager.perform(Add(amount: 2), on: counter)
        manager.endUndoGrouping()
        #expect(manager.registrations == 1)
        #expect(manager.undoStack.entries.elements.compactMap(ownerKeepsCommandInStep) == [false])
        manager.undo()
        #expect(counter.value == 0 && manager.registrations == 2)
    }
}
