import Foundation
import Testing
@testable import TODOKit

@Suite struct JSONReaderTests {
    /// Runs `body` on a reader over `text`'s UTF-8.
    static func reading<T>(_ text: String, _ body: (inout JSONReader) throws(JSONReader.Failure) -> T) throws(JSONReader.Failure) -> T {
        try Array(text.utf8).withUnsafeBufferPointer { buffer throws(JSONReader.Failure) in
            var reader = JSONReader(buffer)
            return try body(&reader)
        }
    }

    static func skipsAsOneValue(_ text: String) -> Bool {
        let skipped: Void? = try? reading(text) { reader throws(JSONReader.Failure) in
            try reader.skipValue()
            try reader.expectEnd()
        }
        return skipped != nil
    }

    @Test(arguments: [
        "{}", "[]", " [ 1 , -0 , 2.5e-3 , 1E+2 , true , false , null ] ", "\"\"", "0", "-12",
        "{\"a\":{\"b\":[{\"c\":\"\\u00e9\\n\"}]}}", "\"\\ud83d\\ude00\"", "\"é 😀\"", "\t\r\n{}\n",
    ])
    func validJSONIsAccepted(text: String) {
        #expect(Self.skipsAsOneValue(text))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "01", "-", "1.", ".5", "1e", "+1", "tru", "nul",
        "True", "{\"a\" 1}", "{a:1}", "'x'", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud800\\u0041\"", "\"tab\there\"", "[1 2]", "{} {}", "[]]", "NaN", "\"\u{7}\"",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func invalidJSONIsRejected(text: String) {
        #expect(!Self.skipsAsOneValue(text))
    }

    @Test func invalidUTF8IsRejected() {
        let bytes: [UInt8] = [UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]
        let result = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return Result { () throws(JSONReader.Failure) in try reader.readString() }
        }
        #expect(throws: JSONReader.Failure.invalidJSON) { try result.get() }
    }

    @Test(arguments: [
        ("\"plain\"", "plain"),
        ("\"a\\\"b\\\\c\\/d\"", "a\"b\\c/d"),
        ("\"\\b\\f\\n\\r\\t\"", "\u{8}\u{C}\n\r\t"),
        ("\"\\u0041\\u00E9\\u20ac\"", "Aé€"),
        ("\"\\uD83D\\uDE00!\"", "😀!"),
        ("\"straight é 😀\"", "straight é 😀"),
    ])
    func stringsAreUnescaped(json: String, expected: String) throws {
        #expect(try Self.reading(json) { reader throws(JSONReader.Failure) in try reader.readString() } == expected)
    }

    @Test(arguments: [
        ("true", JSONReader.Failure.unexpectedType),
        ("{}", .unexpectedType),
        ("1.5", .invalidNumber),
        ("1e3", .invalidNumber),
        ("9223372036854775808", .invalidNumber),
        ("-9223372036854775809", .invalidNumber),
        ("x", .invalidJSON),
    ])
    func integersMustBeWholeAndFit(json: String, failure: JSONReader.Failure) {
        #expect(throws: failure) {
            try Self.reading(json) { reader throws(JSONReader.Failure) in try reader.readInt() }
        }
    }

    @Test func integerLimitsAreRead() throws {
        #expect(try Self.reading("-9223372036854775808") { reader throws(JSONReader.Failure) in try reader.readInt() } == Int.min)
        #expect(try Self.reading("9223372036854775807") { reader throws(JSONReader.Failure) in try reader.readInt() } == Int.max)
        #expect(try Self.reading("18446744073709551615") { reader throws(JSONReader.Failure) in try reader.readUInt64() } == UInt64.max)
        #expect(throws: JSONReader.Failure.invalidNumber) {
            try Self.reading("-1") { reader throws(JSONReader.Failure) in try reader.readUInt64() }
        }
    }

    /// Random strings, control characters and astral planes included, survive the writer and
    /// the reader, and Foundation's decoder reads the writer's output the same way.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func writtenStringsReadBackExactly(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}",
                                          "é", "€", "\u{2028}", "😀", "\u{10FFFF}", "{", "]", ","]
        for _ in 0..<200 {
            let text = String(String.UnicodeScalarView((0..<Int.random(in: 0...20, using: &random)).map { _ in
                alphabet.randomElement(using: &random)!
            }))
            var writer = JSONWriter()
            writer.appendString(text)
            let json = String(decoding: writer.bytes, as: UTF8.self)
            #expect(try Self.reading(json) { reader throws(JSONReader.Failure) in try reader.readString() } == text)
            #expect(try JSONDecoder().decode(String.self, from: Data(writer.bytes)) == text)
        }
    }
}
