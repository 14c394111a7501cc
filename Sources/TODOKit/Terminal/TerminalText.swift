/// Text that is safe to write to a terminal: the characters a terminal acts on instead of
/// showing (C0 controls but tab and newline, DEL, C1 controls, and so every escape sequence)
/// and the bidirectional controls, which reorder the text drawn after them (an override
/// U+202E shows `txt.exe` as `exe.txt`), appear as `\u{1B}`-style escapes.
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
    /// the escapes of its control scalars. Tab too: what width it takes depends on the column it
    /// starts in, and the editor must know where its cursor is.
    static func visible(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: isControl) else { return String(character) }
        return character.unicodeScalars.map { scalar in
            isControl(scalar) ? escape(scalar) : String(scalar)
        }.joined()
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2) + "}"
    }

    private static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
            isControl(scalar) && scalar != "\t" && !(keepingNewlines && scalar == "\n")
        }
        // Nearly all text has nothing to escape: look at its bytes first, which is much faster
        // than at its scalars. In UTF-8 a C1 control starts with 0xC2, U+061C with 0xD8 and the
        // other bidirectional controls with 0xE2.
        let mayHaveControls = text.utf8.contains { byte in
            if byte < 0x20 {
                return byte != 0x09 && !(keepingNewlines && byte == 0x0A)
            }
            return byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
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

    /// The first control character of `text`, tab and bidirectional controls included, and its
    /// position counted in characters from 1; `nil` if there is none. Titles and details may hold none: a tab
    /// moves the terminal's cursor to its next tab stop, so a line holding one is wider than
    /// its characters and the cursor would land in the wrong place.
    public static func firstControlCharacter(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        for (offset, character) in text.enumerated() {
            if let scalar = character.unicodeScalars.first(where: isControl) {
                return (scalar, offset + 1)
            }
        }
        return nil
    }

    /// C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F), and the bidirectional controls:
    /// the marks (U+061C, U+200E, U+200F), embeddings and overrides (U+202A–U+202E) and
    /// isolates (U+2066–U+2069).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case ..<0x20, 0x7F...0x9F:
            true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        guard count < width else { return self }
        return String(repeating: "0", count: width - count) + self
    }
}
