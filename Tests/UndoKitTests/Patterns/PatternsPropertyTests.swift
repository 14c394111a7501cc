import Foundation
import Testing
@testable import UndoKit

/// Random sequences of changes, undos and redos, replayed from fixed seeds, must leave each
/// pattern in the state that `Patterns.ReferenceHistory` predicts.
@Suite struct PatternsPropertyTests {
    static let operationsPerRun = 400

    // MARK: Commands

    /// Events of one to three commands (one undo step each), undos and redos, with and
    /// without `levelsOfUndo`.
    @Test(arguments: Patterns.seeds, [0, 3])
    func commandsMatchTheReference(seed: UInt64, levelsOfUndo: Int) {
        var random = SplitMix64(seed: seed)
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.levelsOfUndo = levelsOfUndo
        let list = Patterns.TodoList()
        var reference = Patterns.ReferenceHistory([String](), undoLimit: levelsOfUndo == 0 ? nil : levelsOfUndo)

        for operation in 0..<Self.operationsPerRun {
            switch random.next() % 4 {
            case 0, 1:
                var expected = reference.current
                Patterns.event(manager) {
                    for _ in 0...(random.next() % 3) {
                        if expected.isEmpty || random.next() % 3 != 0 {
                            let title = String(UnicodeScalar(UInt8(97 + random.next() % 26)))
                            let index = Int(random.next() % UInt64(expected.count + 1))
                            manager.perform(Patterns.AddTodo(title: title, index: index), on: list)
                            expected.insert(title, at: index)
                        } else {
                            let index = Int(random.next() % UInt64(expected.count))
                            manager.perform(Patterns.RemoveTodo(at: index), on: list)
                            expected.remove(at: index)
                        }
                    }
                }
                reference.commit(expected)
            case 2:
                manager.undo()
                reference.undo()
            default:
                manager.redo()
                reference.redo()
            }
            let context: Comment = "seed \(seed), levelsOfUndo \(levelsOfUndo), operation \(operation)"
            #expect(list.items == reference.current, context)
            #expect(manager.undoCount == reference.undoCount, context)
            #expect(manager.redoCount == reference.redoCount, context)
            if list.items != reference.current { return }
        }
    }

    // MARK: Value history

    /// Values from a small range, so that many adds repeat the current value.
    @Test(arguments: Patterns.seeds, [nil, 1, 2, 5] as [Int?])
    func valueHistoryMatchesTheReference(seed: UInt64, limit: Int?) throws {
        var random = SplitMix64(seed: seed)
        var history = ValueHistory(0, limit: limit)
        // ValueHistory's limit counts the current value; the reference counts undo steps.
        var reference = Patterns.ReferenceHistory(0, undoLimit: limit.map { $0 - 1 })

        for operation in 0..<Self.operationsPerRun {
            let context: Comment = "seed \(seed), limit \(String(describing: limit)), operation \(operation)"
            switch random.next() % 5 {
            case 0, 1:
                let value = Int(random.next() % 4)
                history.add(value)
                if value != reference.current { reference.commit(value) }
            case 2:
                let expected = reference.undoCount > 0 ? reference.undoStates.last : nil
                #expect(history.previous() == expected, context)
                reference.undo()
            case 3:
                let expected = reference.redoCount > 0 ? reference.redoStates.last : nil
                #expect(history.next() == expected, context)
                reference.redo()
            default:
                let data = try JSONEncoder().encode(history)
                #expect(try JSONDecoder().decode(ValueHistory<Int>.self, from: data) == history, context)
            }
            #expect(history.current == reference.current, context)
            #expect(history.undoCount == reference.undoCount, context)
            #expect(history.redoCount == reference.redoCount, context)
            #expect(history.hasPrevious == (reference.undoCount > 0), context)
            #expect(history.hasNext == (reference.redoCount > 0), context)
            if history.current != reference.current { return }
        }
    }

    // MARK: Undoable values

    /// Events of one to three modifies (some of whose bodies throw), undos and redos.
    @Test(arguments: Patterns.seeds, [0, 4])
    func undoableValueMatchesTheReference(seed: UInt64, levelsOfUndo: Int) {
        struct Rejected: Error {}
        var random = SplitMix64(seed: seed)
        let manager = UndoManager()
        manager.notificationCenter = nil
        manager.levelsOfUndo = levelsOfUndo
        let numbers = UndoableValue([Int](), undoManager: manager)
        var reported: [Int]? = nil
        numbers.onChange = { reported = $0.newValue }
        var reference = Patterns.ReferenceHistory([Int](), undoLimit: levelsOfUndo == 0 ? nil : levelsOfUndo)

        for operation in 0..<Self.operationsPerRun {
            let context: Comment = "seed \(seed), levelsOfUndo \(levelsOfUndo), operation \(operation)"
            switch random.next() % 4 {
            case 0, 1:
                var expected = reference.current
                var recorded = false
                Patterns.event(manager) {
                    for _ in 0...(random.next() % 3) {
                        let choice = random.next() % 4
                        let number = Int(random.next() % 100)
                        do {
                            try numbers.modify { numbers in
                                switch choice {
                                case 0 where !numbers.isEmpty:
                                    numbers.remove(at: number % numbers.count)
                                case 1:
                                    numbers.append(number)
                                    throw Rejected()
                                default:
                                    numbers.insert(number, at: number % (numbers.count + 1))
                                }
                            }
                            recorded = true
                            if choice == 0 && !expected.isEmpty {
                                expected.remove(at: number % expected.count)
                            } else {
                                expected.insert(number, at: number % (expected.count + 1))
                            }
                        } catch {
                            #expect(choice == 1, context)
                        }
                    }
                }
                if recorded { reference.commit(expected) }
            case 2:
                manager.undo()
                reference.undo()
            default:
                manager.redo()
                reference.redo()
            }
            #expect(numbers.value == reference.current, context)
            #expect(manager.undoCount == reference.undoCount, context)
            #expect(manager.redoCount == reference.redoCount, context)
            if let reported {
                #expect(reported == numbers.value, "onChange reported the latest value; \(context)")
            }
            if numbers.value != reference.current { break }
        }
        numbers.onChange = nil
    }
}
