/// One command of the `todo` command language.
///
/// Item numbers are one-based, as `list` shows them; whether they exist is checked when the
/// command runs, not when it is parsed.
///
/// ```swift
/// let commands = try Command.parseLine("add Buy milk; done 1")
/// // [.add(title: "Buy milk"), .done(item: 1)]
/// ```
public enum Command: Hashable, Sendable {
    /// `add <title>`: append an item.
    ///
    /// ```swift
    /// try Command(parsing: "add Buy milk")   // .add(title: "Buy milk")
    /// ```
    case add(title: String)
    /// `edit <n> <title>`: replace an item's title.
    ///
    /// ```swift
    /// try Command(parsing: "edit 1 Buy oat milk")   // .edit(item: 1, title: "Buy oat milk")
    /// ```
    case edit(item: Int, title: String)
    /// `detail <n> [text]`: set an item's detail; without text, remove it.
    ///
    /// ```swift
    /// try Command(parsing: "detail 1 2 litres")   // .detail(item: 1, text: "2 litres")
    /// ```
    case detail(item: Int, text: String)
    /// `priority <n> low|medium|high`: set an item's priority.
    ///
    /// ```swift
    /// try Command(parsing: "priority 2 HIGH")   // .priority(item: 2, .high)
    /// ```
    case priority(item: Int, TODOItem.Priority)
    /// `done <n>`: mark an item done.
    ///
    /// ```swift
    /// try Command(parsing: "done 1")   // .done(item: 1)
    /// ```
    case done(item: Int)
    /// `undone <n>`: mark an item not done.
    ///
    /// ```swift
    /// try Command(parsing: "undone 1")   // .undone(item: 1)
    /// ```
    case undone(item: Int)
    /// `rm <n>`: remove an item.
    ///
    /// ```swift
    /// try Command(parsing: "rm 3")   // .remove(item: 3)
    /// ```
    case remove(item: Int)
    /// `mv <n> <m>`: move item `n` to position `m`.
    ///
    /// ```swift
    /// try Command(parsing: "mv 3 1")   // .move(item: 3, to: 1)
    /// ```
    case move(item: Int, to: Int)
    /// `list`: print the items.
    ///
    /// ```swift
    /// try Command(parsing: "LIST")   // .list
    /// ```
    case list
    /// `undo [count]`: undo the last step, or the last `count` steps.
    ///
    /// ```swift
    /// try Command(parsing: "undo")     // .undo(steps: 1)
    /// try Command(parsing: "undo 3")   // .undo(steps: 3)
    /// ```
    case undo(steps: Int)
    /// `redo [count]`: redo the last undone step, or `count` of them.
    ///
    /// ```swift
    /// try Command(parsing: "redo")   // .redo(steps: 1)
    /// ```
    case redo(steps: Int)
    /// `goto <step>`: go to a step of the history tree as `history` numbers it (0: before
    /// the first step), undoing and redoing across branches.
    ///
    /// ```swift
    /// try Command(parsing: "goto 4")   // .goto(step: 4)
    /// ```
    case goto(step: Int)
    /// `begin [name]`: start a group that makes the following lines one undo step.
    ///
    /// ```swift
    /// try Command(parsing: "begin Plan Week")   // .begin(name: "Plan Week")
    /// ```
    case begin(name: String?)
    /// `end`: end the group started by the matching `begin`.
    ///
    /// ```swift
    /// try Command(parsing: "end")   // .end
    /// ```
    case end
    /// `history`: draw the history tree, numbered for `goto`, the current step marked.
    ///
    /// ```swift
    /// try Command(parsing: "history")   // .history
    /// ```
    case history
    /// `help`: print the command summary.
    ///
    /// ```swift
    /// try Command(parsing: "help")   // .help
    /// ```
    case help
    /// `quit`: save and stop reading input.
    ///
    /// ```swift
    /// try Command(parsing: "quit")   // .quit
    /// ```
    case quit

    /// The verb that introduces this command.
    ///
    /// ```swift
    /// Command.remove(item: 1).verb   // .rm
    /// ```
    public var verb: Verb {
        switch self {
        case .add: .add
        case .edit: .edit
        case .detail: .detail
        case .priority: .priority
        case .done: .done
        case .undone: .undone
        case .remove: .rm
        case .move: .mv
        case .list: .list
        case .undo: .undo
        case .redo: .redo
        case .goto: .goto
        case .begin: .begin
        case .end: .end
        case .history: .history
        case .help: .help
        case .quit: .quit
        }
    }
}
