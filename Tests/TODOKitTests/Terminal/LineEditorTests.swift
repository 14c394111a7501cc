import Foundation
import Testing
@testable import TODOKit

@Suite struct LineEditorTests {
    static func typed(_ keys: [LineEditor.Key], history: [String] = []) -> LineEditor {
        var editor = LineEditor(history: history)
        for key in keys { editor.handle(key) }
        return editor
    }

    static func characters(_ text: String) -> [LineEditor.Key] { text.map { .character($0) } }

    @Test(arguments: [
        (characters("ac") + [.left, .character("b")], "abc", 2),
        (characters("abc") + [.home, .delete], "bc", 0),
        (characters("abc") + [.home, .end, .backspace], "ab", 2),
        (characters("one two three") + [.wordLeft, .wordLeft], "one two three", 4),
        (characters("one two three") + [.home, .wordRight], "one two three", 3),
        (characters("one two") + [.killWordBefore], "one ", 4),
        (characters("one two") + [.wordLeft, .killToEnd], "one ", 4),
        (characters("one two") + [.wordLeft, .killToStart], "two", 0),
        (characters("日本") + [.left, .backspace], "本", 0),
        ([.backspace, .left, .delete], "", 0),
    ] as [([LineEditor.Key], String, Int)])
    func editingKeys(keys: [LineEditor.Key], text: String, cursor: Int) {
        let editor = Self.typed(keys)
        #expect(editor.text == text)
        #expect(editor.cursor == cursor)
    }

    @Test func enterSubmitsAndRemembersTheLine() {
        var editor = Self.typed(Self.characters("list"))
        #expect(editor.handle(.enter) == .submit("list"))
        #expect(editor.text.isEmpty)
        #expect(editor.history == ["list"])
        editor.handle(.enter)                  // an empty line is not remembered
        #expect(editor.history == ["list"])
    }

    @Test func upAndDownRecallAndKeepTheDraft() {
        var editor = Self.typed(Self.characters("dra"), history: ["one", "two"])
        #expect(editor.handle(.up) == .redraw)
        #expect(editor.text == "two")
        editor.handle(.up)
        #expect(editor.text == "one")
        #expect(editor.handle(.up) == LineEditor.Outcome.none)
        editor.handle(.down)
        editor.handle(.down)
        #expect(editor.text == "dra")
    }

    @Test func controlKeys() {
        var editor = Self.typed(Self.characters("half"))
        #expect(editor.handle(.endOfInput) == LineEditor.Outcome.none, "Ctrl-D in mid-line does nothing")
        #expect(editor.handle(.interrupt) == .abandon)
        #expect(editor.text.isEmpty)
        #expect(editor.handle(.endOfInput) == .endOfInput)
        #expect(editor.handle(.clearScreen) == .clearScreen)
    }

    @Test func aLongLineScrollsToKeepTheCursorVisible() {
        let editor = Self.typed(Self.characters(String(repeating: "a", count: 30) + "XYZ"))
        let drawn = editor.render(prompt: "> ", width: 20)
        #expect(drawn.contains("XYZ"))
        #expect(!drawn.contains(String(repeating: "a", count: 20)))
        let start = Self.typed(Self.characters(String(repeating: "a", count: 30) + "XYZ") + [.home])
        #expect(start.render(prompt: "> ", width: 20).contains("> aaaa"))
    }

    /// Whatever the width, the prompt and the line, the row drawn fits in the terminal with a
    /// column to spare (a row that wraps would leave a copy behind at every redraw) and the
    /// cursor is on it: a prompt too wide for the window is shortened to its end.
    @Test(arguments: [8, 12, 20, 31, 80])
    func theRowDrawnAlwaysFits(width: Int) {
        let prompts = ["> ", "todo (12 items, group open)> ", "リスト (12 items)> "]
        let lines = ["", "add milk", "add " + String(repeating: "日本", count: 30) + " and 👍🏽"]
        for prompt in prompts {
            for line in lines {
                var editor = Self.typed(Self.characters(line))
                for _ in 0...line.count {
                    let drawn = editor.render(prompt: prompt, width: width)
                    let row = drawn.dropFirst().prefix { $0 != "\u{1B}" }
                    #expect(TerminalWidth.of(String(row)) < width, "\(prompt.debugDescription) \(width): \(drawn.debugDescription)")
                    let column = drawn.split(separator: "[").last.flatMap { Int($0.dropLast()) } ?? 0
                    #expect(column < width)
                    #expect(column >= TerminalWidth.of(LineEditor.fitted(prompt, width: width)))
                    editor.handle(.left)
                }
                #expect(LineEditor.renderSubmitted(line, prompt: prompt, width: width).hasSuffix(line + "\r\n"))
            }
        }
    }

    @Test(arguments: [("a", 1), ("日", 2), ("👍🏽", 2), ("e\u{301}", 1), ("\u{301}", 0), ("❤️", 2)])
    func widths(text: String, columns: Int) {
        #expect(TerminalWidth.of(text) == columns)
    }

    @Test func keysFromBytesIncludingSplitSequencesAndBadUTF8() {
        var decoder = LineEditor.KeyDecoder()
        #expect(decoder.keys(from: [0x1B, 0x5B]).isEmpty)
        #expect(decoder.keys(from: [0x44]) == [.left])
        #expect(decoder.keys(from: Array("\u{1B}[1;5C\u{1B}[3~\u{1B}OH\u{1B}b".utf8)) == [.wordRight, .delete, .home, .wordLeft])
        let bytes = Array("日".utf8)
        #expect(decoder.keys(from: Array(bytes[..<2])).isEmpty)
        #expect(decoder.keys(from: Array(bytes[2...])) == [.character("日")])
        #expect(decoder.keys(from: [0xFF, 0x61]) == [.character("\u{FFFD}"), .character("a")])
        #expect(decoder.keys(from: [0x03, 0x04, 0x0C, 0x0D, 0x7F]) == [.interrupt, .endOfInput, .clearScreen, .enter, .backspace])
        #expect(decoder.keys(from: [0x1B]).isEmpty && decoder.isWaitingAfterEscape)
        #expect(decoder.flushEscape() == [.ignored])
    }

    @Test func theRecallFileKeepsTheNewestLines() throws {
        let directory = try TemporaryDirectory()
        let file = LineHistoryFile(url: directory.file("todo.db.lines"), limit: 3)
        #expect(file.load().isEmpty)
        try file.save(["1", "2", "3", "4"])
        #expect(file.load() == ["2", "3", "4"])
        let unwritable = LineHistoryFile(url: directory.file("missing/dir/todo.db.lines"))
        #expect(throws: (any Error).self) { try unwritable.save(["x"]) }
        #expect(unwritable.load().isEmpty)
    }

    /// Control characters typed, pasted or recalled are drawn escaped, like every other
    /// output, and the cursor counts the escapes' width: C0, DEL, C1 (U+009B, the one-byte
    /// CSI, included) and tab, whose real width would depend on the column.
    @Test(arguments: [
        ("a\u{1B}[2J", "a\\u{1B}[2J", 10),
        ("\u{1B}]0;pwned\u{07}", "\\u{1B}]0;pwned\\u{07}", 20),
        ("x\u{9B}2J", "x\\u{9B}2J", 9),
        ("del\u{7F}", "del\\u{7F}", 9),
        ("a\tb", "a\\u{09}b", 8),
        ("e\u{301}\u{85}", "e\u{301}\\u{85}", 7),
        ("a\u{202E}b", "a\\u{202E}b", 10),
    ])
    func controlCharactersAreDrawnEscapedAndTheCursorCountsThem(typed: String, shown: String, column: Int) {
        let editor = Self.typed(Self.characters(typed))
        let drawn = editor.render(prompt: "", width: 80)
        #expect(drawn == "\r" + shown + "\u{1B}[K\r\u{1B}[\(column)C")
        #expect(!drawn.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\r" && $0 != "\u{1B}" })
        #expect(!drawn.dropFirst().replacingOccurrences(of: "\u{1B}[K\r\u{1B}[\(column)C", with: "").contains("\u{1B}"))
    }

    @Test func theRecallFileKeepsNoLineWithAControlCharacter() throws {
        let directory = try TemporaryDirectory()
        let file = LineHistoryFile(url: directory.file("todo.db.lines"))
        try file.save(["list", "add \u{1B}]0;pwned\u{07} x \u{1B}[2J", "add \u{9B}2J", "add tab\there", "add Tea"])
        #expect(file.load() == ["list", "add Tea"])
        let bytes = [UInt8](try Data(contentsOf: file.url))
        let raw = bytes.filter { byte in (byte < 0x20 && byte != 0x0A) || byte == 0x7F || byte == 0xC2 }
        #expect(raw.isEmpty, "nothing raw waits in the file")
    }
}
