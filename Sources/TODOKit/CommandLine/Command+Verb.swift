extension Command {
    /// The word that starts a command, matched case-insensitively.
    public enum Verb: String, CaseIterable, Hashable, Sendable {
        // In the order `help` lists them; each one's arguments are in `usage`, what it does
        // in `summary`.
        case add, edit, detail, priority, done, undone, rm, mv, list
        case undo, redo, drop, goto, begin, end, history
        case export, `import`, help, quit

        /// The verb a word names, case-insensitively, aliases included (`ls`, `del`, `delete`,
        /// `exit`); `nil` for an unknown word.
        public init?(word: String) {
            let word = word.lowercased()
            if let verb = Verb(rawValue: word) {
                self = verb
            } else if let verb = Self.allCases.first(where: { $0.aliases.contains(word) }) {
                self = verb
            } else {
                return nil
            }
        }

        /// Other words for the verb, the ones habit types.
        public var aliases: [String] {
            switch self {
            case .list: ["ls"]
            case .rm: ["del", "delete"]
            case .quit: ["exit"]
            case .goto: ["go"]
            default: []
            }
        }

        /// The verb and its arguments, as shown in error messages and `help`.
        public var usage: String {
            switch self {
            case .add: "add <title>"
            case .edit: "edit <n> <title>"
            case .detail: "detail <n> [text]"
            case .priority: "priority <n> low|medium|high"
            case .done: "done <n>"
            case .undone: "undone <n>"
            case .rm: "rm <n>"
            case .mv: "mv <n> <m>"
            case .undo: "undo [count]"
            case .redo: "redo [count]"
            case .drop: "drop [redo]"
            case .goto: "goto <step>"
            case .export: "export [path]"
            case .import: "import <path>"
            case .list, .end, .history, .help, .quit: rawValue
            case .begin: "begin [name]"
            }
        }

        /// What the command does, in a few words, for `help`.
        public var summary: String {
            switch self {
            case .add: "add an item at the end"
            case .edit: "change the title of item n"
            case .detail: "set the detail of item n (none: remove it)"
            case .priority: "set the priority of item n"
            case .done: "mark item n done"
            case .undone: "mark item n not done"
            case .rm: "remove item n"
            case .mv: "move item n to position m"
            case .list: "show the items"
            case .undo: "undo your last step (or count); undo!: even if changed since"
            case .redo: "redo your last undone step (or count); redo!: likewise"
            case .drop: "forget the step undo (or redo) would take, without running it"
            case .goto: "bring the list back to just after a step of history (0: the start)"
            case .begin: "start a group: the lines until end are one undo step"
            case .end: "end the group"
            case .history: "list the list's steps, everyone's: number, date, who, what"
            case .export: "write the list as JSON to a file (none: print it)"
            case .import: "add the items of a JSON file written by export, as one step"
            case .help: "show this help"
            case .quit: "save and exit (end of input does the same)"
            }
        }
    }
}
