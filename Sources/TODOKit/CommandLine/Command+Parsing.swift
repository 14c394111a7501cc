extension Command {
    /// Parses one command: a verb, matched case-insensitively, and its arguments.
    ///
    /// Text arguments (titles, details, group names) take the rest of the command with inner
    /// spaces kept and surrounding spaces trimmed.
    ///
    /// ```swift
    /// try Command(parsing: "Edit 2  Call  Mum ")   // .edit(item: 2, title: "Call  Mum")
    /// ```
    ///
    /// - Throws: ``CommandParseError``.
    public init(parsing text: String) throws(CommandParseError) {
        var scanner = ArgumentScanner(text)
        let word = scanner.nextWord() ?? ""
        guard let verb = Verb(rawValue: word.lowercased()) else {
            throw .unknownCommand(word)
        }
        switch verb {
        case .add:
            self = .add(title: try scanner.requiredRest(verb, "<title>"))
        case .edit:
            let item = try scanner.itemNumber(verb, "<n>")
            self = .edit(item: item, title: try scanner.requiredRest(verb, "<title>"))
        case .detail:
            let item = try scanner.itemNumber(verb, "<n>")
            self = .detail(item: item, text: scanner.rest())
        case .priority:
            let item = try scanner.itemNumber(verb, "<n>")
            guard let word = scanner.nextWord() else { throw .missingArgument(verb, "low|medium|high") }
            guard let priority = TODOItem.Priority(rawValue: word.lowercased()) else {
                throw .invalidPriority(word)
            }
            try scanner.expectEnd(verb)
            self = .priority(item: item, priority)
        case .done, .undone, .rm:
            let item = try scanner.itemNumber(verb, "<n>")
            try scanner.expectEnd(verb)
            self = switch verb {
            case .done: .done(item: item)
            case .undone: .undone(item: item)
            default: .remove(item: item)
            }
        case .mv:
            let item = try scanner.itemNumber(verb, "<n>")
            let destination = try scanner.itemNumber(verb, "<m>")
            try scanner.expectEnd(verb)
            self = .move(item: item, to: destination)
        case .begin:
            let name = scanner.rest()
            self = .begin(name: name.isEmpty ? nil : name)
        case .list, .undo, .redo, .end, .history, .help, .quit:
            try scanner.expectEnd(verb)
            self = switch verb {
            case .list: .list
            case .undo: .undo
            case .redo: .redo
            case .end: .end
            case .history: .history
            case .help: .help
            default: .quit
            }
        }
    }

    /// Parses a line of input: commands separated by `;`, run in order as one event.
    ///
    /// Empty commands (a blank line, a trailing `;`) are skipped. The whole line is parsed
    /// before anything runs, so a typo anywhere on it means nothing on it runs.
    ///
    /// ```swift
    /// try Command.parseLine("add Buy milk; add Buy eggs;")   // two .add commands
    /// try Command.parseLine("   ")                          // []
    /// ```
    ///
    /// - Throws: ``CommandParseError`` for the first invalid command.
    public static func parseLine(_ line: String) throws(CommandParseError) -> [Command] {
        var commands: [Command] = []
        for part in line.split(separator: ";", omittingEmptySubsequences: false) {
            guard part.contains(where: { !$0.isWhitespace }) else { continue }
            commands.append(try Command(parsing: String(part)))
        }
        return commands
    }
}

/// Splits a command into whitespace-separated words, keeping the remainder intact for text
/// arguments.
private struct ArgumentScanner {
    private var remainder: Substring

    init(_ text: String) {
        remainder = Substring(text)
        skipWhitespace()
    }

    mutating func nextWord() -> String? {
        guard !remainder.isEmpty else { return nil }
        let end = remainder.firstIndex(where: \.isWhitespace) ?? remainder.endIndex
        let word = remainder[..<end]
        remainder = remainder[end...]
        skipWhitespace()
        return String(word)
    }

    func rest() -> String {
        String(remainder.reversed().drop(while: \.isWhitespace).reversed())
    }

    mutating func requiredRest(_ verb: Command.Verb, _ name: String) throws(CommandParseError) -> String {
        let text = rest()
        guard !text.isEmpty else { throw .missingArgument(verb, name) }
        return text
    }

    mutating func itemNumber(_ verb: Command.Verb, _ name: String) throws(CommandParseError) -> Int {
        guard let word = nextWord() else { throw .missingArgument(verb, name) }
        // `Int("+1")` accepts a sign; item numbers are plain digits.
        guard word.allSatisfy(\.isASCIIDigitCharacter), let number = Int(word), number >= 1 else {
            throw .invalidItemNumber(verb, word)
        }
        return number
    }

    func expectEnd(_ verb: Command.Verb) throws(CommandParseError) {
        let text = rest()
        guard text.isEmpty else { throw .unexpectedArgument(verb, text) }
    }

    private mutating func skipWhitespace() {
        remainder = remainder.drop(while: \.isWhitespace)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool {
        ("0"..."9").contains(self)
    }
}
