/// Why a line of input is not a valid command.
///
/// Its ``description`` is the one-line message the REPL prints, naming the problem and, when
/// the verb is known, its usage.
///
/// ```swift
/// do {
///     _ = try Command(parsing: "done")
/// } catch {
///     print("error: \(error)")   // "error: missing <n> (usage: done <n>)"
/// }
/// ```
public enum CommandParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The first word is not a command.
    case unknownCommand(String)
    /// A required argument, such as `<n>` or `<title>`, is missing.
    case missingArgument(Command.Verb, String)
    /// An item number is not a positive whole number.
    case invalidItemNumber(Command.Verb, String)
    /// The priority is not low, medium or high.
    case invalidPriority(String)
    /// A number the verb takes (a count of steps, a step number) is not one.
    case invalidNumber(Command.Verb, String, expected: String)
    /// Something follows a command that takes no more arguments.
    case unexpectedArgument(Command.Verb, String)
    /// A `"` opened text that the line did not close.
    case unterminatedQuote

    /// The verb whose usage applies, if the verb was recognised.
    public var verb: Command.Verb? {
        switch self {
        case .unknownCommand, .unterminatedQuote: nil
        case .missingArgument(let verb, _), .invalidItemNumber(let verb, _), .unexpectedArgument(let verb, _),
            .invalidNumber(let verb, _, _):
            verb
        case .invalidPriority: .priority
        }
    }

    /// The problem, without the usage.
    public var problem: String {
        switch self {
        case .unknownCommand(let word): "unknown command \"\(word)\""
        case .missingArgument(_, let argument): "missing \(argument)"
        case .invalidItemNumber(_, let text): "\"\(text)\" is not an item number (items are numbered from 1)"
        case .invalidPriority(let text): "\"\(text)\" is not a priority"
        case .invalidNumber(_, let text, let expected): "\"\(text)\" is not \(expected)"
        case .unexpectedArgument(let verb, let text): "unexpected \"\(text)\" after \(verb.rawValue)"
        case .unterminatedQuote: "a \" opens text that the line does not close"
        }
    }

    /// The problem followed by the usage, on one line.
    public var description: String {
        if let verb {
            "\(problem) (usage: \(verb.usage))"
        } else {
            "\(problem) (type help for the list of commands)"
        }
    }
}
