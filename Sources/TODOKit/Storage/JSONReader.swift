/// A strict pull parser for the JSON of the data files.
///
/// `JSONDecoder` spends about 50 ms on a 10,000-item list, half the time budget of a one-shot
/// `todo` command; this reader walks the bytes once, without building a tree, and lets the
/// format code ask for exactly the fields it expects. It accepts only RFC 8259 JSON in UTF-8:
/// no comments, no trailing commas, no lone surrogates, no control characters in strings.
///
/// The format code drives it: ``beginObject()`` and ``nextKey(_:)`` walk an object,
/// ``beginArray()`` and ``nextElement(_:)`` an array, and ``skipValue()`` passes over a value it
/// does not need while still checking its syntax.
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer throws(JSONReader.Failure) in
///     var reader = JSONReader(buffer)
///     var object = try reader.beginObject()
///     while let key = try reader.nextKey(&object) {
///         if key == "revision" { revision = try reader.readUInt64() } else { try reader.skipValue() }
///     }
///     try reader.expectEnd()
/// }
/// ```
struct JSONReader {
    /// Why the reader stopped.
    enum Failure: Error, Equatable {
        /// The bytes are not JSON (or nest deeper than ``maximumDepth``).
        case invalidJSON
        /// The next value is valid JSON of another type than the one asked for.
        case unexpectedType
        /// A number that is not a whole number, or does not fit the integer type asked for.
        case invalidNumber
    }

    /// Where an object or array walk is: before its first member, or after one.
    struct Cursor {
        fileprivate var isFirst = true
    }

    /// Deeper values than this are rejected rather than risking the stack; the files nest
    /// four levels at most.
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    /// Reads `bytes`, which must outlive the reader.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Structure

    /// Consumes `{` and returns the cursor for ``nextKey(_:)``.
    mutating func beginObject() throws(Failure) -> Cursor {
        try open(UInt8(ascii: "{"))
        return Cursor()
    }

    /// Returns the next key of the object and consumes the `:` after it, so that the caller
    /// reads or skips the value next; returns `nil` after consuming the closing `}`.
    mutating func nextKey(_ cursor: inout Cursor) throws(Failure) -> String? {
        guard try nextMember(&cursor, closing: UInt8(ascii: "}")) else { return nil }
        guard peekByte() == UInt8(ascii: "\"") else { throw .invalidJSON }
        let key = try readString()
        skipWhitespace()
        try consume(UInt8(ascii: ":"))
        return key
    }

    /// Consumes `[` and returns the cursor for ``nextElement(_:)``.
    mutating func beginArray() throws(Failure) -> Cursor {
        try open(UInt8(ascii: "["))
        return Cursor()
    }

    /// Whether another element follows, which the caller then reads or skips; `false` after
    /// consuming the closing `]`.
    mutating func nextElement(_ cursor: inout Cursor) throws(Failure) -> Bool {
        try nextMember(&cursor, closing: UInt8(ascii: "]"))
    }

    /// Checks that nothing but whitespace follows.
    mutating func expectEnd() throws(Failure) {
        skipWhitespace()
        guard position == bytes.count else { throw .invalidJSON }
    }

    // MARK: Values

    /// Reads a string, unescaping it.
    mutating func readString() throws(Failure) -> String {
        // `scanString` returns nil only when asked not to build the string.
        try scanString(building: true)!
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws(Failure) -> Bool {
        skipWhitespace()
        if try literal("true") { return true }
        if try literal("false") { return false }
        try throwTypeMismatchOrSyntaxError()
    }

    /// Reads a whole number that fits in `Int`.
    mutating func readInt() throws(Failure) -> Int {
        let (negative, magnitude) = try readWholeNumber()
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { throw .invalidNumber }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { throw .invalidNumber }
        return Int(magnitude)
    }

    /// Reads a whole number that fits in `UInt64`.
    mutating func readUInt64() throws(Failure) -> UInt64 {
        let (negative, magnitude) = try readWholeNumber()
        guard !negative || magnitude == 0 else { throw .invalidNumber }
        return magnitude
    }

    /// Whether the next value is `null`; consumes it if so.
    mutating func readNullIfPresent() throws(Failure) -> Bool {
        skipWhitespace()
        return try literal("null")
    }

    /// Passes over the next value, checking its syntax.
    mutating func skipValue() throws(Failure) {
        try skipValue(depth: 0)
    }

    // MARK: Implementation

    private mutating func skipValue(depth: Int) throws(Failure) {
        guard depth < Self.maximumDepth else { throw .invalidJSON }
        skipWhitespace()
        switch peekByte() {
        case UInt8(ascii: "{"):
            var cursor = try beginObject()
            while try nextKey(&cursor) != nil {
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            var cursor = try beginArray()
            while try nextElement(&cursor) {
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            _ = try scanString(building: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBool()
        case UInt8(ascii: "n"):
            guard try literal("null") else { throw .invalidJSON }
        default:
            _ = try scanNumber()
        }
    }

    /// Consumes a string and checks it; builds and returns it only if `building`, so that
    /// skipping a value costs no allocation.
    private mutating func scanString(building: Bool) throws(Failure) -> String? {
        try expectValue(startingWith: UInt8(ascii: "\""))
        position += 1
        let start = position
        var isASCII = true
        // Fast path: most strings have no escapes and can be validated and copied in one go.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try Self.string(utf8, isASCII: isASCII, building: building)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw .invalidJSON }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        var unescaped = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try unescaped.withUnsafeBufferPointer { buffer throws(Failure) in
                    try Self.string(buffer, isASCII: false, building: building)
                }
            case UInt8(ascii: "\\"):
                try appendEscape(to: &unescaped)
            case 0..<0x20:
                throw .invalidJSON
            default:
                unescaped.append(byte)
            }
        }
        throw .invalidJSON
    }

    private mutating func open(_ byte: UInt8) throws(Failure) {
        try expectValue(startingWith: byte)
        position += 1
    }

    private mutating func nextMember(_ cursor: inout Cursor, closing: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        if peekByte() == closing {
            position += 1
            return false
        }
        if cursor.isFirst {
            cursor.isFirst = false
        } else {
            try consume(UInt8(ascii: ","))
            skipWhitespace()
            // `[1,]` and `{"a":1,}` are not JSON.
            guard peekByte() != closing else { throw .invalidJSON }
        }
        guard position < bytes.count else { throw .invalidJSON }
        return true
    }

    /// Skips whitespace and checks that the next value starts with `byte`; a different but
    /// valid value start is a type mismatch, anything else a syntax error.
    private mutating func expectValue(startingWith byte: UInt8) throws(Failure) {
        skipWhitespace()
        guard peekByte() == byte else { try throwTypeMismatchOrSyntaxError() }
    }

    private func throwTypeMismatchOrSyntaxError() throws(Failure) -> Never {
        guard let byte = peekByte() else { throw .invalidJSON }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            throw .unexpectedType
        default:
            throw .invalidJSON
        }
    }

    private mutating func readWholeNumber() throws(Failure) -> (negative: Bool, magnitude: UInt64) {
        skipWhitespace()
        guard let byte = peekByte(), byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            try throwTypeMismatchOrSyntaxError()
        }
        let number = try scanNumber()
        guard number.isWhole else { throw .invalidNumber }
        var magnitude: UInt64 = 0
        for digit in bytes[number.digits] {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw .invalidNumber }
            magnitude = sum
        }
        return (number.isNegative, magnitude)
    }

    /// Consumes a number as RFC 8259 spells it and returns where its integer digits are.
    private mutating func scanNumber() throws(Failure) -> (isNegative: Bool, digits: Range<Int>, isWhole: Bool) {
        let isNegative = peekByte() == UInt8(ascii: "-")
        if isNegative { position += 1 }
        let digitsStart = position
        guard let first = peekByte(), isDigit(first) else { throw .invalidJSON }
        position += 1
        // A leading zero stands alone: `01` is not JSON.
        if first != UInt8(ascii: "0") {
            skipDigits()
        }
        let digits = digitsStart..<position
        var isWhole = true
        if peekByte() == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw .invalidJSON }
            isWhole = false
        }
        if peekByte() == UInt8(ascii: "e") || peekByte() == UInt8(ascii: "E") {
            position += 1
            if peekByte() == UInt8(ascii: "+") || peekByte() == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw .invalidJSON }
            isWhole = false
        }
        return (isNegative, digits, isWhole)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = peekByte(), isDigit(byte) { position += 1 }
        return position - start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Consumes `word` if the input continues with it.
    private mutating func literal(_ word: StaticString) throws(Failure) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else {
            // A truncated literal (`tru` at the end) is a syntax error, not another type.
            if peekByte() == word.utf8Start.pointee { throw .invalidJSON }
            return false
        }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            if offset > 0 { throw .invalidJSON }
            return false
        }
        position += count
        return true
    }

    private mutating func appendEscape(to unescaped: inout [UInt8]) throws(Failure) {
        guard let byte = peekByte() else { throw .invalidJSON }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var value = UInt32(try readHexQuad())
            if (0xD800..<0xDC00).contains(value) {
                // A high surrogate must be followed by an escaped low one; together they name
                // one scalar beyond the Basic Multilingual Plane.
                guard peekByte() == UInt8(ascii: "\\") else { throw .invalidJSON }
                position += 1
                guard peekByte() == UInt8(ascii: "u") else { throw .invalidJSON }
                position += 1
                let low = UInt32(try readHexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidJSON }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { throw .invalidJSON }
            unescaped.append(contentsOf: UTF8.encode(scalar)!)
        default:
            throw .invalidJSON
        }
    }

    private mutating func readHexQuad() throws(Failure) -> UInt16 {
        guard position + 4 <= bytes.count else { throw .invalidJSON }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidJSON
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    /// The UTF-8 `utf8` as a string, or `nil` if not `building`; fails on invalid UTF-8.
    private static func string(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool, building: Bool) throws(Failure) -> String? {
        // ASCII is valid UTF-8, and the plain decoding initializer is several times cheaper
        // than the validating one, which dominated loading a long list.
        if isASCII {
            return building ? String(decoding: utf8, as: UTF8.self) : nil
        }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidJSON }
        return building ? text : nil
    }

    private mutating func consume(_ byte: UInt8) throws(Failure) {
        guard peekByte() == byte else { throw .invalidJSON }
        position += 1
    }

    private func peekByte() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peekByte(),
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t") {
            position += 1
        }
    }
}
