/// Text that is safe to write to a terminal: the characters a terminal acts on instead of
/// showing (C0 controls but tab and newline, DEL, C1 controls, and so every escape sequence)
/// appear as `\u{1B}`-style escapes.
///
/// Items can come from anywhere: another program may write the data file, an older `todo`
/// may have stored what this one refuses. So ``Console`` passes everything it writes through
/// ``safe(_:)``, whatever the output path (lists, history, undo messages, errors), and titles
/// and details with control characters are refused on input.
///
/// ```swift
/// TerminalText.safe("\u{1B}[31mRED")   // "\\u{1B}[31mRED"
/// ```
public enum TerminalText {
    /// `text` with every control character but newline and tab written as `\u{XX}`.
    public static func safe(_ text: String) -> String {
        escaped(text, keepingNewlines: true)
    }

    /// `text` as one line: every control character but tab escaped, newlines included, so
    /// that text from outside (a title in the file, a word the user typed) can never start a
    /// line of its own that looks like one of `todo`'s.
    public static func line(_ text: String) -> String {
        escaped(text, keepingNewlines: false)
    }

    /// `character` as the line editor draws it: itself, or, if it holds a control character,
    /// the escapes of its scalars. Tab too: what width it takes depends on the column it
    /// starts in, and the editor must know where its cursor is.
    static func visible(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: isControl) else { return String(character) }
        return character.unicodeScalars.map { isControl($0) ? escape($0) : String($0) }.joined()
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2) + "}"
    }

    private static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
            isControl(scalar) && scalar != "\t" && !(keepingNewlines && scalar == "\n")
        }
        // Nearly all text has nothing to escape: look at its bytes first, which is much faster
        // than at its scalars (a C1 control is 0xC2 0x80–0x9F in UTF-8).
        let mayHaveControls = text.utf8.contains { byte in
            byte < 0x20 ? byte != 0x09 && !(keepingNewlines && byte == 0x0A) : byte == 0x7F || byte == 0xC2
        }
        guard mayHaveControls, text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The first control character of `text`, tab included, and its position counted in
    /// characters from 1; `nil` if there is none. Titles and details may hold none: a tab
    /// moves the terminal's cursor to its next tab stop, so a line holding one is wider than
    /// its characters and the cursor would land in the wrong place.
    public static func firstControlCharacter(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        for (offset, character) in text.enumerated() {
            if let scalar = character.unicodeScalars.first(where: isControl) { return (scalar, offset + 1) }
        }
        return nil
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
