import Testing
@testable import TODOKit

@Suite struct TODOListTests {
    static let milk = TODOItem(title: "Buy milk")
    static let eggs = TODOItem(title: "Buy eggs")
    static let bread = TODOItem(title: "Bread")
    static let start: TODOList = [milk, eggs, bread]

    @Test(arguments: [
        (TODOList.Change.insert(TODOItem(title: "Rent"), at: 0), 4),
        (.insert(TODOItem(title: "Rent"), at: 3), 4),
        (.remove(at: 1), 2),
        (.replace(at: 2, with: TODOItem(title: "Rye bread")), 3),
        (.move(from: 0, to: 2), 3),
        (.move(from: 2, to: 0), 3),
        (.move(from: 1, to: 1), 3),
    ])
    func applyingTheReturnedInverseRestoresTheList(change: TODOList.Change, expectedCount: Int) {
        var list = Self.start
        #expect(list.canApply(change))
        let inverse = list.apply(change)
        #expect(list.count == expectedCount)
        #expect(list.canApply(inverse))
        let again = list.apply(inverse)
        #expect(list == Self.start)
        #expect(again == change, "the inverse of the inverse is the original change, which redo relies on")
    }

    @Test func moveShiftsTheItemsInBetween() {
        var list = Self.start
        list.apply(.move(from: 0, to: 2))
        #expect(list.items.map(\.title) == ["Buy eggs", "Bread", "Buy milk"])
        list.apply(.move(from: 2, to: 1))
        #expect(list.items.map(\.title) == ["Buy eggs", "Buy milk", "Bread"])
    }

    @Test(arguments: [
        TODOList.Change.insert(TODOItem(title: "Rent"), at: 4),
        .insert(TODOItem(title: "Rent"), at: -1),
        .remove(at: 3),
        .remove(at: -1),
        .replace(at: 3, with: TODOItem(title: "Rent")),
        .move(from: 0, to: 3),
        .move(from: 3, to: 0),
    ])
    func changesAtMissingPositionsAreRecognised(change: TODOList.Change) {
        #expect(!Self.start.canApply(change))
    }

    @Test func findsPositionsByIdentity() {
        #expect(Self.start.position(of: Self.bread.id) == 2)
        #expect(Self.start.position(of: TODOItem(title: "Bread").id) == nil)
        #expect(Self.start.contains(position: 2))
        #expect(!Self.start.contains(position: 3))
        #expect(TODOList().isEmpty)
    }
}

@Suite struct TODOListChangesTests {
    static let a = TODOItem(title: "a"), b = TODOItem(title: "b"), c = TODOItem(title: "c")

    @Test func whatUndoAndRedoReport() {
        let (a, b, c) = (Self.a, Self.b, Self.c)
        var doneB = b
        doneB.isDone = true
        let cases: [(TODOList, TODOList, String)] = [
            ([a, c], [a, b, c], " (item 2 is back)"),
            ([a, b, c], [a, c], " (item 2 is gone)"),
            ([a], [a, b, c], " (items 2 and 3 are back)"),
            ([a, b, c], [a, doneB, c], " (item 2 changed)"),
            ([a, b, c], [c, a, b], " (item 3 moved to 1)"),
            ([a, b, c], [b, c, a], " (item 1 moved to 3)"),
            ([a, b], [a, b], ""),
            ([a, b, c], [doneB], " (items 1 and 3 are gone; item 1 changed)"),
        ]
        for (before, after, expected) in cases {
            #expect(before.changes(to: after) == expected, "\(before.items.map(\.title)) → \(after.items.map(\.title))")
        }
    }
}
