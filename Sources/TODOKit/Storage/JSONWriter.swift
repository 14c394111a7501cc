import Foundation

/// Builds the JSON text of the data files, byte by byte.
///
/// The counterpart of ``JSONReader``: the format code writes exactly the keys it means, in
/// sorted order, so that the files diff well and the same list always gives the same bytes.
/// Strings are escaped as RFC 8259 requires (quote, backslash and control characters) and
/// everything else is written as UTF-8.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.append("{")
/// writer.appendKey("title")
/// writer.appendString("Buy \"oat\" milk")
/// writer.append("}")
/// writer.bytes   // {"title":"Buy \"oat\" milk"}
/// ```
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends literal JSON punctuation or whitespace.
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `"key":` (or `"key" : ` when `pretty`, as `JSONEncoder` formats it).
    mutating func appendKey(_ key: StaticString, pretty: Bool = false) {
        append("\"")
        append(key)
        append(pretty ? "\" : " : "\":")
    }

    /// Appends `spaces` spaces, for pretty-printed indentation.
    mutating func appendIndentation(_ spaces: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }

    mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy those in one go. (The undo history file is
        // written after every commit, and this was a tenth of its cost byte by byte.)
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a UUID as a quoted string in `uuidString`'s form (upper-case hex), without
    /// going through `uuidString`, which formats with `snprintf` on Linux.
    mutating func appendUUID(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    bytes.append(UInt8(ascii: "-"))
                }
                bytes.append(Self.upperHexDigit(byte >> 4))
                bytes.append(Self.upperHexDigit(byte & 0xF))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func upperHexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    mutating func appendBool(_ value: Bool) {
        append(value ? "true" : "false")
    }

    mutating func appendInteger(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number as the shortest text that reads back as the same `Double`.
    mutating func appendDouble(_ value: Double) {
        precondition(value.isFinite, "JSON has no text for \(value)")
        bytes.append(contentsOf: String(value).utf8)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
