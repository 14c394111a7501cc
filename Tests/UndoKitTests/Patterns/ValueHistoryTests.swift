import Testing
@testable import UndoKit

@Suite struct PatternsValueHistoryTests {
    // MARK: The calculator article's scenario

    /// A calculator display typed digit by digit: repeated readings of the same display are
    /// not new steps, and typing after going back drops what came after.
    @Test func calculatorDisplayWithDuplicatesAndTruncation() {
        var display = ValueHistory("0")
        display.add("1")
        display.add("12")
        display.add("12")
        display.add("123")
        #expect(display.current == "123")
        #expect(display.undoCount == 3 && display.redoCount == 0)

        #expect(display.previous() == "12")
        #expect(display.previous() == "1")
        #expect(display.hasNext && display.hasPrevious)
        #expect(display.redoCount == 2)

        display.add("1")   // the same as the current display: nothing changes
        #expect(display.redoCount == 2)

        display.add("15")
        #expect(display.current == "15")
        #expect(!display.hasNext)
        #expect(display.next() == nil)
        #expect(display.previous() == "1")
        #expect(display.previous() == "0")
        #expect(display.previous() == nil)
        #expect(display.next() == "1")
        #expect(display.next() == "15")
    }

    @Test func aNewHistoryHasOnlyItsInitialValue() {
        let history = ValueHistory(7)
        #expect(history.current == 7)
        #expect(!history.hasPrevious && !history.hasNext)
        #expect(history.undoCount == 0 && history.redoCount == 0)
        #expect(history.limit == nil)
    }

    @Test func previousAndNextAtTheEndsReturnNilAndChangeNothing() {
        var history = ValueHistory(1)
        history.add(2)
        let atNewest = history
        #expect(history.next() == nil)
        #expect(history == atNewest)
        history.previous()
        let atOldest = history
        #expect(history.previous() == nil)
        #expect(history == atOldest)
        #expect(history.current == 1)
    }

    @Test func addingAfterGoingBackDropsEveryNewerValue() {
        var history = ValueHistory(0)
        for value in 1...5 { history.add(value) }
        history.previous()
        history.previous()
        history.previous()
        history.add(9)
        #expect(history.undoCount == 3 && history.redoCount == 0)
        var walkedBack: [Int] = []
        while let value = history.previous() { walkedBack.append(value) }
        #expect(walkedBack == [2, 1, 0])
    }

    /// An equal value is ignored even when it equals a value that is not current: only the
    /// current one matters, so going back and re-adding a later value still truncates.
    @Test func onlyEqualityWithTheCurrentValueIsIgnored() {
        var history = ValueHistory("a")
        history.add("b")
        history.add("a")
        #expect(history.undoCount == 2)
        history.previous()   // "b"
        history.add("a")     // equals the next value, not the current one: truncate and add
        #expect(history.undoCount == 2 && history.redoCount == 0)
        #expect(history.current == "a")
    }

    // MARK: Limits

    @Test(arguments: [
        (limit: 1, adds: 5, undoCount: 0, oldest: 5),
        (limit: 2, adds: 5, undoCount: 1, oldest: 4),
        (limit: 3, adds: 5, undoCount: 2, oldest: 3),
        (limit: 6, adds: 5, undoCount: 5, oldest: 0),
        (limit: 7, adds: 5, undoCount: 5, oldest: 0),
        (limit: 100, adds: 5, undoCount: 5, oldest: 0),
    ])
    func theLimitKeepsTheNewestValues(limit: Int, adds: Int, undoCount: Int, oldest: Int) {
        var history = ValueHistory(0, limit: limit)
        for value in 1...adds { history.add(value) }
        #expect(history.limit == limit)
        #expect(history.current == adds)
        #expect(history.undoCount == undoCount)
        while history.previous() != nil {}
        #expect(history.current == oldest)
        #expect(history.redoCount == undoCount)
    }

    /// Truncation happens before the limit is applied, so a full history that went back does
    /// not lose old values to make room for values that are dropped anyway.
    @Test func truncationFreesRoomBeforeTheLimitDropsAnything() {
        var history = ValueHistory(0, limit: 3)
        history.add(1)
        history.add(2)
        history.previous()
        history.previous()
        history.add(5)
        #expect(history.undoCount == 1)
        #expect(history.previous() == 0)
    }

    @Test func aLimitOfOneKeepsOnlyTheCurrentValue() {
        var history = ValueHistory("a", limit: 1)
        history.add("b")
        #expect(history.current == "b")
        #expect(!history.hasPrevious)
        #expect(history.previous() == nil)
    }

    @Test(arguments: [0, -1, Int.min])
    func aLimitBelowOneStopsTheProgram(limit: Int) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [limit] in
            _ = ValueHistory(0, limit: limit)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ValueHistory(_:limit:): limit must be at least 1"))
        #expect(message.contains("got \(limit)"))
    }

    // MARK: Conformances

    @Test func equalHistoriesHaveTheSameValuesPositionAndLimit() {
        var a = ValueHistory(1)
        a.add(2)
        var b = ValueHistory(1)
        b.add(2)
        #expect(a == b)
        b.previous()
        #expect(a != b, "same values, different position")
        b.next()
        #expect(a == b)
        var limited = ValueHistory(1, limit: 5)
        limited.add(2)
        #expect(a != limited, "same values and position, different limit")
        #expect(Set([a, b, limited]).count == 2)
    }

    @Test func aSendableHistoryCrossesIsolationDomains() async {
        var history = ValueHistory(1)
        history.add(2)
        history.add(3)
        let snapshot = history
        let movedBack = await Task.detached {
            var copy = snapshot
            copy.previous()
            return copy
        }.value
        #expect(movedBack.current == 2)
        #expect(history.current == 3, "a value: the task changed its own copy")
    }
}
