import Testing
@testable import UndoKit

/// Namespace for the fixtures the pattern tests share; other engineers add test files to the
/// same module concurrently, so nothing here is declared at the top level.
enum Patterns {}

extension Patterns {
    /// The seeds every property test runs: fixed, so a failure names a seed that replays it.
    static let seeds: [UInt64] = [0, 1, 42, 0xC0FFEE, 0xDEAD_BEEF, 2_024, 31_337, 0x5EED_5EED]

    /// The Realm TODO article's model: a list of items that commands edit in place.
    final class TodoList {
        var items: [String]

        init(_ items: [String] = []) {
            self.items = items
        }
    }

    /// The article's create command: its undo needs nothing but its own fields.
    struct AddTodo: UndoableCommand {
        let title: String
        let index: Int

        var actionName: String { "Add \"\(title)\"" }

        func execute(on list: TodoList) {
            list.items.insert(title, at: index)
        }

        func undo(on list: TodoList) {
            list.items.remove(at: index)
        }
    }

    /// The article's delete command: it learns what it removed only when it executes, and its
    /// undo needs exactly that, on every cycle. Undo forgets the item again, so a step that
    /// replayed a stale copy of the command would have nothing to put back.
    struct RemoveTodo: UndoableCommand {
        let index: Int
        private(set) var removed: String?

        init(at index: Int) {
            self.index = index
        }

        var actionName: String { removed.map { "Delete \"\($0)\"" } ?? "Delete" }

        mutating func execute(on list: TodoList) {
            removed = list.items.remove(at: index)
        }

        mutating func undo(on list: TodoList) {
            guard let removed else {
                Issue.record("undo(on:) ran without the item its execute(on:) removed")
                return
            }
            list.items.insert(removed, at: index)
            self.removed = nil
        }
    }

    /// Runs `body` as one event, so that its registrations form one undo step.
    static func event(_ manager: UndoManager, _ body: () throws -> Void) rethrows {
        try body()
        manager.runLoop.tick()
    }

    /// Linear history of states: the reference the property tests compare the patterns with.
    ///
    /// Kept as two stacks around the current state, a different shape from both the
    /// manager's grouped stacks and `ValueHistory`'s array and index, so that a bug shared
    /// by a pattern and its reference is unlikely.
    struct ReferenceHistory<State: Equatable>: Equatable {
        private(set) var current: State
        private(set) var undoStates: [State] = []
        private(set) var redoStates: [State] = []
        /// The most undo steps kept (the manager's `levelsOfUndo`); `nil` for no limit.
        let undoLimit: Int?

        init(_ initial: State, undoLimit: Int? = nil) {
            current = initial
            self.undoLimit = undoLimit
        }

        var undoCount: Int { undoStates.count }
        var redoCount: Int { redoStates.count }

        mutating func commit(_ state: State) {
            undoStates.append(current)
            current = state
            redoStates.removeAll()
            if let undoLimit, undoStates.count > undoLimit {
                undoStates.removeFirst()
            }
        }

        mutating func undo() {
            guard let state = undoStates.popLast() else { return }
            redoStates.append(current)
            current = state
        }

        mutating func redo() {
            guard let state = redoStates.popLast() else { return }
            undoStates.append(current)
            current = state
        }
    }

    /// An object the tests watch through a weak reference to see when it is freed.
    final class Payload: Hashable, CustomStringConvertible {
        let id: Int

        init(_ id: Int) {
            self.id = id
        }

        static func == (lhs: Payload, rhs: Payload) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
        var description: String { "Payload(\(id))" }
    }

    /// A weak reference to an object, to check lifetimes without keeping anything alive.
    struct Weak<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object) {
            self.object = object
        }
    }
}

@Suite struct PatternsSupportTests {
    /// The property tests are only reproducible if the generator is exactly SplitMix64; these
    /// are the first outputs of the reference implementation for seed 0.
    @Test func splitMix64MatchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func referenceHistoryTrimsTheOldestUndoStepAtItsLimit() {
        var reference = Patterns.ReferenceHistory(0, undoLimit: 2)
        for state in 1...4 { reference.commit(state) }
        #expect(reference.undoStates == [2, 3])
        reference.undo()
        reference.undo()
        reference.undo()
        #expect(reference.current == 2 && reference.redoStates == [4, 3])
        reference.commit(9)
        #expect(reference.redoCount == 0 && reference.undoStates == [2])
    }
}
