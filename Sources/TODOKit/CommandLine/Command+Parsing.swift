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
        // `undo!` and `redo!` run a step even if its item was changed elsewhere since.
        let anyway = word.hasSuffix("!")
        guard let verb = Verb(word: anyway ? String(word.dropLast()) : word), !anyway || verb == .undo || verb == .redo
        else {
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
            guard let priority = TODOItem.Priority(rawValue: word.lowercased()) else { throw .invalidPriority(word) }
            try scanner.expectEnd(verb)
            self = .priority(item: item, priority)
        case .done, .undone, .rm:
            let item = try scanner.itemNumber(verb, "<n>")
            try scanner.expectEnd(verb)
            self =
                switch verb {
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
        case .undo, .redo:
            let steps = try scanner.optionalCount(verb) ?? 1
            try scanner.expectEnd(verb)
            self = verb == .undo ? .undo(steps: steps, anyway: anyway) : .redo(steps: steps, anyway: anyway)
        case .drop:
            let word = scanner.nextWord()
            let which = word?.lowercased()
            guard which == nil || which == "undo" || which == "redo" else {
                throw .unexpectedArgument(verb, word ?? "")
            }
            try scanner.expectEnd(verb)
            self = .drop(redo: which == "redo")
        case .export:
            let path = scanner.rest()
            self = .export(path: path.isEmpty ? nil : path)
        case .import:
            self = .importFile(path: try scanner.requiredRest(verb, "<path>"))
        case .goto:
            let step = try scanner.stepNumber(verb)
            try scanner.expectEnd(verb)
            self = .goto(step: step)
        case .list, .end, .history, .help, .quit:
            try scanner.expectEnd(verb)
            self =
                switch verb {
                case .list: .list
                case .end: .end
                case .history: .history
                case .help: .help
                default: .quit
                }
        }
    }

    /// Parses a line of input: commands separated by `;`, run in order as one event.
    ///
    /// A `;` inside double quotes, or written `\;`, is text: `add "semi; colon"` and
    /// `add semi\; colon` both add `semi; colon`. The quotes are removed; `\"` and `\\` write
    /// a quote and a backslash; any other backslash is kept as it is. Empty commands (a blank
    /// line, a trailing `;`) are skipped. The whole line is parsed before anything runs, so a
    /// typo anywhere on it means nothing on it runs.
    ///
    /// ```swift
    /// try Command.parseLine("add Buy milk; add Buy eggs;")   // two .add commands
    /// try Command.parseLine("add \"semi; colon\"")          // [.add(title: "semi; colon")]
    /// try Command.parseLine("   ")                          // []
    /// ```
    ///
    /// - Throws: ``CommandParseError`` for the first invalid command, or
    ///   ``CommandParseError/unterminatedQuote``.
    public static func parseLine(_ line: String) throws(CommandParseError) -> [Command] {
        var commands: [Command] = []
        for part in try splitCommands(line) {
            guard part.contains(where: { !$0.isWhitespace }) else { continue }
            commands.append(try Command(parsing: part))
        }
        return commands
    }

    /// The line's commands, split at every `;` that is neither quoted nor escaped, with the
    /// quotes and escapes resolved.
    static func splitCommands(_ line: String) throws(CommandParseError) -> [String] {
        var parts: [String] = []
        var current = ""
        var isQuoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\\":
                guard let next = characters.next() else {
                    current.append(character)
                    break
                }
                if next == ";" || next == "\"" || next == "\\" {
                    current.append(next)
                } else {
                    current.append(character)
                    current.append(next)
                }
            case "\"":
                isQuoted.toggle()
            case ";" where !isQuoted:
                parts.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        guard !isQuoted else { throw .unterminatedQuote }
        parts.append(current)
        return parts
    }

    /// The line that one-shot arguments stand for: the words joined by spaces, each word's
    /// `;`, `"` and `\` escaped so that they are text (the shell already grouped the words:
    /// `todo add 'semi; colon'` adds `semi; colon`). A word that is just `;` separates
    /// commands, as on a line: `todo add milk ';' add eggs`.
    public static func line(fromArguments arguments: [String]) -> String {
        arguments.map { word in
            guard word != ";" else { return word }
            var escaped = ""
            for character in word {
                if character == ";" || character == "\"" || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }.joined(separator: " ")
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

    /// A count of steps if one follows: digits, 1 or more.
    mutating func optionalCount(_ verb: Command.Verb) throws(CommandParseError) -> Int? {
        guard let word = nextWord() else { return nil }
        guard word.allSatisfy(\.isASCIIDigitCharacter), let count = Int(word), count >= 1 else {
            throw .invalidNumber(verb, word, expected: "a count of steps (1 or more)")
        }
        return count
    }

    /// A step number of `history`: digits, 0 for the start.
    mutating func stepNumber(_ verb: Command.Verb) throws(CommandParseError) -> Int {
        guard let word = nextWord() else { throw .missingArgument(verb, "<step>") }
        guard word.allSatisfy(\.isASCIIDigitCharacter), let step = Int(word) else {
            throw .invalidNumber(verb, word, expected: "a step number as history shows it (0: before the first step)")
        }
        return step
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
