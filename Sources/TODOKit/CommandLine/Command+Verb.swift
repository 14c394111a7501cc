extension Command {
    /// The word that starts a command, matched case-insensitively.
    ///
    /// ```swift
    /// Command.Verb(rawValue: "mv")?.usage   // "mv <n> <m>"
    /// ```
    public enum Verb: String, CaseIterable, Hashable, Sendable {
        /// `add <title>`
        ///
        /// ```swift
        /// Command.Verb.add.usage   // "add <title>"
        /// ```
        case add
        /// `edit <n> <title>`
        ///
        /// ```swift
        /// Command.Verb.edit.usage   // "edit <n> <title>"
        /// ```
        case edit
        /// `detail <n> [text]`
        ///
        /// ```swift
        /// Command.Verb.detail.usage   // "detail <n> [text]"
        /// ```
        case detail
        /// `priority <n> low|medium|high`
        ///
        /// ```swift
        /// Command.Verb.priority.usage   // "priority <n> low|medium|high"
        /// ```
        case priority
        /// `done <n>`
        ///
        /// ```swift
        /// Command.Verb.done.usage   // "done <n>"
        /// ```
        case done
        /// `undone <n>`
        ///
        /// ```swift
        /// Command.Verb.undone.usage   // "undone <n>"
        /// ```
        case undone
        /// `rm <n>`
        ///
        /// ```swift
        /// Command.Verb.rm.usage   // "rm <n>"
        /// ```
        case rm
        /// `mv <n> <m>`
        ///
        /// ```swift
        /// Command.Verb.mv.usage   // "mv <n> <m>"
        /// ```
        case mv
        /// `list`
        ///
        /// ```swift
        /// Command.Verb.list.usage   // "list"
        /// ```
        case list
        /// `undo [count]`
        ///
        /// ```swift
        /// Command.Verb.undo.usage   // "undo [count]"
        /// ```
        case undo
        /// `redo [count]`
        ///
        /// ```swift
        /// Command.Verb.redo.usage   // "redo [count]"
        /// ```
        case redo
        /// `goto <step>`
        ///
        /// ```swift
        /// Command.Verb.goto.usage   // "goto <step>"
        /// ```
        case goto
        /// `begin [name]`
        ///
        /// ```swift
        /// Command.Verb.begin.usage   // "begin [name]"
        /// ```
        case begin
        /// `end`
        ///
        /// ```swift
        /// Command.Verb.end.usage   // "end"
        /// ```
        case end
        /// `history`
        ///
        /// ```swift
        /// Command.Verb.history.usage   // "history"
        /// ```
        case history
        /// `help`
        ///
        /// ```swift
        /// Command.Verb.help.usage   // "help"
        /// ```
        case help
        /// `quit`
        ///
        /// ```swift
        /// Command.Verb.quit.usage   // "quit"
        /// ```
        case quit

        /// The verb a word names, case-insensitively, aliases included (`ls`, `del`, `delete`,
        /// `exit`); `nil` for an unknown word.
        ///
        /// ```swift
        /// Command.Verb(word: "LS")   // .list
        /// ```
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
        ///
        /// ```swift
        /// Command.Verb.rm.aliases   // ["del", "delete"]
        /// ```
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
        ///
        /// ```swift
        /// print("usage: \(Command.Verb.done.usage)")   // "usage: done <n>"
        /// ```
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
            case .goto: "goto <step>"
            case .list, .end, .history, .help, .quit: rawValue
            case .begin: "begin [name]"
            }
        }

        /// What the command does, in a few words, for `help`.
        ///
        /// ```swift
        /// Command.Verb.rm.summary   // "remove item n"
        /// ```
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
            case .undo: "undo the last step (or the last count steps)"
            case .redo: "redo the last undone step (or count of them)"
            case .goto: "go to a step of the history tree (0: before the first)"
            case .begin: "start a group: the lines until end are one undo step"
            case .end: "end the group"
            case .history: "draw the history tree: every step, numbered, with its date"
            case .help: "show this help"
            case .quit: "save and exit (end of input does the same)"
            }
        }
    }
}
