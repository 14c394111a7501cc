import Testing
@testable import TODOKit

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[31mRED", "\\u{1B}[31mRED"),
        ("bell\u{07}", "bell\\u{07}"),
        ("\u{9B}2J", "\\u{9B}2J"),
        ("del\u{7F}", "del\\u{7F}"),
        ("\u{00}nul", "\\u{00}nul"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("日本語 👍🏽", "日本語 👍🏽"),
        ("e\u{301}\u{1B}", "e\u{301}\\u{1B}"),
        ("invoice\u{202E}fdp.exe", "invoice\\u{202E}fdp.exe"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
        ("\u{2066}a\u{2067}b\u{2068}c\u{2069}", "\\u{2066}a\\u{2067}b\\u{2068}c\\u{2069}"),
        ("\u{200E}ltr \u{200F}rtl \u{061C}arabic", "\\u{200E}ltr \\u{200F}rtl \\u{61C}arabic"),
        ("עברית العربية — em dash, ‘quotes’ …", "עברית العربية — em dash, ‘quotes’ …"),
    ])
    func controlCharactersAreShownEscaped(text: String, shown: String) {
        #expect(TerminalText.safe(text) == shown)
    }

    @Test func aLineEscapesNewlinesToo() {
        #expect(TerminalText.line("evil\nerror: fake\r\n\tx") == "evil\\u{0A}error: fake\\u{0D}\\u{0A}\tx")
    }

    @Test func theFirstControlCharacterIsFoundByCharacterPosition() {
        #expect(TerminalText.firstControlCharacter(in: "ok, no control") == nil)
        let tab = TerminalText.firstControlCharacter(in: "ok\ttab")
        #expect(tab?.scalar == "\t" && tab?.position == 3, "a tab too: its width depends on its column")
        let found = TerminalText.firstControlCharacter(in: "日本\u{1B}[2J")
        #expect(found?.scalar == "\u{1B}" && found?.position == 3)
    }

    @Test func titlesWithControlCharactersAreRefused() {
        let session = EditingSession()
        #expect(throws: EditingSessionError.controlCharacter(0x1B, position: 5)) { try session.add("evil\u{1B}[2J") }
        #expect(throws: EditingSessionError.controlCharacter(0x9B, position: 1)) { try session.add("\u{9B}x") }
        #expect(throws: EditingSessionError.controlCharacter(0x202E, position: 4)) { try session.add("txt\u{202E}exe") }
        #expect(session.list.isEmpty)
        #expect("\(EditingSessionError.controlCharacter(0x1B, position: 5))"
            == "titles and details cannot contain control characters (U+001B at character 5)")
    }

    @Test func everythingAConsoleWritesIsEscaped() {
        var output = "", errors = ""
        let console = Console(isInteractive: false, readLine: { nil }, write: { output += $0 }, writeError: { errors += $0 })
        console.write("1. [ ] \u{1B}[31mRED\n")
        console.writeError("todo: /tmp/\u{07}x is locked\n")
        #expect(output == "1. [ ] \\u{1B}[31mRED\n")
        #expect(errors == "todo: /tmp/\\u{07}x is locked\n")
    }
}
