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
    case add(title: String)
    /// `edit <n> <title>`: replace an item's title.
    case edit(item: Int, title: String)
    /// `detail <n> [text]`: set an item's detail; without text, remove it.
    case detail(item: Int, text: String)
    /// `priority <n> low|medium|high`: set an item's priority.
    case priority(item: Int, TODOItem.Priority)
    /// `done <n>`: mark an item done.
    case done(item: Int)
    /// `undone <n>`: mark an item not done.
    case undone(item: Int)
    /// `rm <n>`: remove an item.
    case remove(item: Int)
    /// `mv <n> <m>`: move item `n` to position `m`.
    case move(item: Int, to: Int)
    /// `list`: print the items.
    case list
    /// `undo [count]`: undo the last step, or the last `count` steps; `undo!` undoes a step
    /// whose item was changed elsewhere since, over that change (`anyway`).
    case undo(steps: Int, anyway: Bool = false)
    /// `redo [count]`: redo the last undone step, or `count` of them; `redo!`, `anyway`.
    case redo(steps: Int, anyway: Bool = false)
    /// `drop [redo]`: forget the step undo (or redo) would take, without running it.
    case drop(redo: Bool)
    /// `goto <step>`: go to a step of the history tree as `history` numbers it (0: before
    /// the first step), undoing and redoing across branches.
    case goto(step: Int)
    /// `begin [name]`: start a group that makes the following lines one undo step.
    case begin(name: String?)
    /// `end`: end the group started by the matching `begin`.
    case end
    /// `history`: draw the history tree, numbered for `goto`, the current step marked.
    case history
    /// `export [path]`: write the list as JSON to a file, or print it.
    case export(path: String?)
    /// `import <path>`: add the items of a JSON file that `export` (or an earlier `todo`)
    /// wrote, except those the list has already, as one undo step.
    case importFile(path: String)
    /// `help`: print the command summary.
    case help
    /// `quit`: save and stop reading input.
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
        case .drop: .drop
        case .goto: .goto
        case .begin: .begin
        case .end: .end
        case .history: .history
        case .export: .export
        case .importFile: .import
        case .help: .help
        case .quit: .quit
        }
    }
}
