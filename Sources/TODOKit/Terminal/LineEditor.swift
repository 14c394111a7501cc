/// The line being edited at an interactive prompt: text, cursor, and recall of earlier lines.
///
/// A pure state machine, so every key's effect is testable without a terminal:
/// ``TerminalLineReader`` decodes the bytes a terminal sends into ``Key``s, hands them here,
/// and draws what ``render(prompt:width:)`` returns.
///
/// ```swift
/// var editor = LineEditor(history: ["add Buy milk"])
/// for key in [.character("l"), .character("s"), .left, .character("i")] as [LineEditor.Key] {
///     _ = editor.handle(key)
/// }
/// editor.text               // "lis"
/// editor.handle(.up)        // .redraw: recalls "add Buy milk"
/// editor.handle(.enter)     // .submit("add Buy milk")
/// ```
public struct LineEditor {
    /// What a terminal's bytes mean to the editor.
    public enum Key: Equatable, Sendable {
        case character(Character)
        case enter, backspace, delete
        case left, right, home, end, wordLeft, wordRight, up, down
        /// Ctrl-K, Ctrl-U, Ctrl-W: delete to the end, to the start, the word before the cursor.
        case killToEnd, killToStart, killWordBefore
        /// Ctrl-C, Ctrl-D, Ctrl-L, Ctrl-Z.
        case interrupt, endOfInput, clearScreen, suspend
        /// A key the editor ignores (an unknown escape sequence, a control character).
        case ignored
    }

    /// What the caller does after a key.
    public enum Outcome: Equatable, Sendable {
        /// Draw the line again.
        case redraw
        /// The user pressed Enter: the line is done.
        case submit(String)
        /// Ctrl-C: the line is abandoned; show a fresh prompt.
        case abandon
        /// Ctrl-D on an empty line: no more input.
        case endOfInput
        /// Ctrl-L: clear the screen, then draw the line.
        case clearScreen
        /// Ctrl-Z: give the terminal back and stop; draw the line when continued.
        case suspend
        /// Nothing changed.
        case none
    }

    /// The characters of the line.
    public private(set) var characters: [Character] = []
    /// The cursor's position, in characters: before `characters[cursor]`.
    public private(set) var cursor = 0
    /// Earlier lines, oldest first, that ↑ and ↓ recall.
    public private(set) var history: [String]
    /// Which history entry ↑/↓ show: `history.count` is the line being typed.
    private var historyIndex: Int
    /// The line being typed, kept while ↑ shows older ones.
    private var draft: [Character] = []

    /// The line as text.
    public var text: String { String(characters) }

    /// Creates an editor with an empty line and `history` to recall, oldest first.
    public init(history: [String] = []) {
        self.history = history
        historyIndex = history.count
    }

    /// Applies one key.
    @discardableResult
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .enter:
            let line = text
            if !line.allSatisfy(\.isWhitespace), history.last != line { history.append(line) }
            reset()
            return .submit(line)
        case .backspace:
            guard cursor > 0 else { return .none }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .left:
            guard cursor > 0 else { return .none }
            cursor -= 1
        case .right:
            guard cursor < characters.count else { return .none }
            cursor += 1
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .wordLeft:
            cursor = startOfWord(before: cursor)
        case .wordRight:
            var position = cursor
            while position < characters.count, !Self.isWordCharacter(characters[position]) {
                position += 1
            }
            while position < characters.count, Self.isWordCharacter(characters[position]) {
                position += 1
            }
            cursor = position
        case .up:
            guard historyIndex > 0 else { return .none }
            if historyIndex == history.count { draft = characters }
            historyIndex -= 1
            show(Array(history[historyIndex]))
        case .down:
            guard historyIndex < history.count else { return .none }
            historyIndex += 1
            show(historyIndex == history.count ? draft : Array(history[historyIndex]))
        case .killToEnd:
            characters.removeSubrange(cursor...)
        case .killToStart:
            characters.removeSubrange(..<cursor)
            cursor = 0
        case .killWordBefore:
            let start = startOfWord(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .interrupt:
            reset()
            return .abandon
        case .endOfInput:
            // Only an empty line ends the input; in mid-line Ctrl-D does nothing.
            guard characters.isEmpty else { return .none }
            return .endOfInput
        case .clearScreen:
            return .clearScreen
        case .suspend:
            return .suspend
        case .ignored:
            return .none
        }
        return .redraw
    }

    private mutating func show(_ line: [Character]) {
        characters = line
        cursor = line.count
    }

    private mutating func reset() {
        characters = []
        cursor = 0
        draft = []
        historyIndex = history.count
    }

    private func startOfWord(before position: Int) -> Int {
        var start = position
        while start > 0, !Self.isWordCharacter(characters[start - 1]) { start -= 1 }
        while start > 0, Self.isWordCharacter(characters[start - 1]) { start -= 1 }
        return start
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// The bytes that draw `prompt` and the line on the terminal's current row, `width`
    /// columns wide, with the cursor in place. A line wider than the row scrolls sideways so
    /// that the cursor stays visible. Control characters, typed, pasted or recalled, are drawn
    /// as their escapes (``TerminalText``), which the cursor counts: nothing typed reaches the
    /// terminal raw.
    ///
    /// ```swift
    /// var editor = LineEditor()
    /// editor.handle(.character("a"))
    /// editor.render(prompt: "> ", width: 80)   // "\r> a\u{1B}[K\r\u{1B}[3C"
    /// ```
    public func render(prompt: String, width: Int) -> String {
        layout(prompt: prompt, width: width).bytes
    }

    /// What ``render(prompt:width:)`` draws, and the column it leaves the cursor in.
    func layout(prompt: String, width: Int) -> (bytes: String, cursorColumn: Int) {
        let prompt = Self.fitted(prompt, width: width)
        let promptWidth = TerminalWidth.of(prompt)
        let room = max(1, width - promptWidth - 1)
        let shownCharacters = characters.map(TerminalText.visible)
        let widths = shownCharacters.map(TerminalWidth.of)
        // The window of characters shown: from `first`, as many as fit, always including the
        // cursor (the column after the last character counts as one).
        var first = 0
        var widthToCursor = widths[..<cursor].reduce(0, +)
        while widthToCursor >= room, first < cursor {
            widthToCursor -= widths[first]
            first += 1
        }
        var shown = ""
        var used = 0
        var index = first
        while index < characters.count, used + widths[index] <= room {
            shown += shownCharacters[index]
            used += widths[index]
            index += 1
        }
        let column = promptWidth + widthToCursor
        var bytes = "\r" + prompt + shown + "\u{1B}[K\r"
        if column > 0 {
            bytes += "\u{1B}[\(column)C"
        }
        return (bytes, column)
    }

    /// The bytes that show `line` as submitted: the prompt and the whole line, from the start
    /// of the row the line was edited on, wrapped by the terminal over as many rows as it
    /// needs, whatever part of it was in view, then a new line.
    ///
    /// Everything from that row down is cleared first (clearing after the text instead
    /// would, at a line that ends in the row's last column, take that column's character).
    ///
    /// ```swift
    /// LineEditor.renderSubmitted("add Buy milk", prompt: "> ", width: 8)
    /// // "\r\u{1B}[J> add Buy milk\r\n": "> add Bu" and "y milk" on the screen
    /// ```
    public static func renderSubmitted(_ line: String, prompt: String, width: Int) -> String {
        let shown = line.map(TerminalText.visible).joined()
        return "\r\u{1B}[J" + fitted(prompt, width: width) + shown + "\r\n"
    }

    /// `prompt`, or, when it would leave less than a third of the `width` columns for the
    /// line, "…" and as much of its end as fits in the rest: a prompt wider than the row would
    /// wrap, and every redraw, which starts at the beginning of the row, would leave a copy of
    /// it behind.
    static func fitted(_ prompt: String, width: Int) -> String {
        let most = max(1, width - 1 - width / 3)
        guard TerminalWidth.of(prompt) > most else { return prompt }
        var kept = ""
        var used = 1   // the "…"
        for character in prompt.reversed() {
            let characterWidth = TerminalWidth.of(character)
            guard used + characterWidth <= most else { break }
            kept.insert(character, at: kept.startIndex)
            used += characterWidth
        }
        return "…" + kept
    }
}
