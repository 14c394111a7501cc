import Foundation
import Testing
@testable import UndoKit

@Suite struct PatternsValueHistoryCodingTests {
    private func encodedJSON<Value: Encodable>(_ history: ValueHistory<Value>) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(history), as: UTF8.self)
    }

    private func decode(_ json: String) throws -> ValueHistory<Int> {
        try JSONDecoder().decode(ValueHistory<Int>.self, from: Data(json.utf8))
    }

    @Test func encodesValuesPositionAndLimit() throws {
        var history = ValueHistory(1)
        history.add(2)
        history.add(3)
        history.previous()
        #expect(try encodedJSON(history) == #"{"currentIndex":1,"values":[1,2,3]}"#)

        var limited = ValueHistory("a", limit: 4)
        limited.add("b")
        #expect(try encodedJSON(limited) == #"{"currentIndex":1,"limit":4,"values":["a","b"]}"#)
    }

    @Test(arguments: [nil, 1, 3, 10] as [Int?])
    func roundTripsAtEveryPosition(limit: Int?) throws {
        var history = ValueHistory(0, limit: limit)
        for value in 1...6 { history.add(value) }
        repeat {
            let decoded = try decode(try encodedJSON(history))
            #expect(decoded == history)
            #expect(decoded.current == history.current)
            #expect(decoded.undoCount == history.undoCount && decoded.redoCount == history.redoCount)
        } while history.previous() != nil
    }

    @Test func aDecodedHistoryKeepsWorking() throws {
        var history = try decode(#"{"values":[1,2,3],"currentIndex":1,"limit":3}"#)
        history.add(7)
        #expect(history.undoCount == 2)
        history.add(8)
        #expect(history.undoCount == 2, "the decoded limit applies")
        #expect(history.previous() == 7)
    }

    /// Each archive breaks one invariant; decoding must name the key and the problem instead
    /// of producing a history that traps later.
    @Test(arguments: [
        (#"{"values":[],"currentIndex":0}"#, "values", "values is empty"),
        (#"{"values":[1,2],"currentIndex":2}"#, "currentIndex", "currentIndex 2 is outside the 2 values (0..<2)"),
        (#"{"values":[1,2],"currentIndex":-1}"#, "currentIndex", "currentIndex -1 is outside"),
        (#"{"values":[1],"currentIndex":0,"limit":0}"#, "limit", "limit 0 is below 1"),
        (#"{"values":[1,2,3],"currentIndex":0,"limit":2}"#, "values", "3 values exceed the limit of 2"),
        (#"{"values":[1,2,2,3],"currentIndex":0}"#, "values", "values at indices 1 and 2 are equal"),
    ])
    func invalidArchivesThrowDataCorrupted(json: String, key: String, problem: String) {
        do {
            let history = try decode(json)
            Issue.record("decoded an invalid archive as \(history)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == [key])
            #expect(context.debugDescription.hasPrefix("Invalid ValueHistory: "))
            #expect(context.debugDescription.contains(problem))
        } catch {
            Issue.record("expected DecodingError.dataCorrupted, got \(error)")
        }
    }

    @Test func missingKeysAndWrongTypesThrowTheDecodersOwnErrors() {
        #expect {
            try decode(#"{"values":[1]}"#)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "currentIndex"
        }
        #expect {
            try decode(#"{"values":["one"],"currentIndex":0}"#)
        } throws: { error in
            guard case DecodingError.typeMismatch = error else { return false }
            return true
        }
    }

    @Test func decodingIsAvailableForAnyCodableValue() throws {
        struct Point: Codable, Equatable { var x: Double, y: Double }
        var history = ValueHistory(Point(x: 0, y: 0), limit: 8)
        history.add(Point(x: 1, y: 2))
        let data = try JSONEncoder().encode(history)
        let decoded = try JSONDecoder().decode(ValueHistory<Point>.self, from: data)
        #expect(decoded == history)
    }
}
