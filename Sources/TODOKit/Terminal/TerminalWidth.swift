/// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and
/// for emoji shown as pictures, 0 for combining marks and format characters, 1 otherwise.
///
/// A character is measured by its first scalar, as terminals do; the scalars that follow
/// (combining marks, variation selectors, skin tones, joined emoji) add nothing.
///
/// ```swift
/// TerminalWidth.of("日本")    // 4
/// TerminalWidth.of("👍🏽")     // 2
/// TerminalWidth.of("e\u{301}") // 1
/// ```
public enum TerminalWidth {
    /// The columns `text` takes.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character takes.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") {
            return 2
        }
        return isWide(scalar.value) ? 2 : 1
    }

    /// Unicode's East Asian Width W and F ranges (UAX #11), the blocks terminals draw double.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
