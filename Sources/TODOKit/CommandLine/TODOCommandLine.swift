import Foundation

/// The `todo` program: argument handling, the data file, and the choice between the REPL and
/// a single command.
///
/// ```
/// todo [--file PATH]                      read commands from standard input
/// todo [--file PATH] <command> [args…]   run one command and exit
/// todo --database postgres://…           the same, on a list kept in PostgreSQL
/// ```
///
/// The `todo` executable is `exit(TODOCommandLine.run(…))`; tests call ``run(arguments:environment:console:)``
/// with their own console and environment.
///
/// ```swift
/// let status = TODOCommandLine.run(
///     arguments: ["--file", "/tmp/todo.json", "add", "Buy", "milk"],
///     environment: ProcessInfo.processInfo.environment,
///     console: .standard
/// )
/// ```
public enum TODOCommandLine {
    /// Runs `todo` with `arguments` (without the program name) and returns its exit status:
    /// 0 on success; 1 if a command failed, the data file could not be read or stayed busy with
    /// another process's change, or a change could not be saved (an interactive session: only
    /// if the list could not be read, see ``REPL/run()``); 2 for invalid options or settings
    /// (`TODO_LOCK_TIMEOUT`, `TODO_HISTORY_LIMIT`). A saved undo history that can't be used is
    /// dropped with a warning, never an error.
    ///
    /// ```swift
    /// exit(TODOCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()),
    ///                          environment: ProcessInfo.processInfo.environment,
    ///                          console: .standard))
    /// ```
    public static func run(arguments: [String], environment: [String: String], console: Console) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Invocation(arguments: arguments)
        } catch {
            console.writeError("todo: \(TerminalText.line(error.message))\n\(usage)")
            return 2
        }
        if invocation.wantsHelp {
            console.write(usage + "\n" + helpText)
            return 0
        }
        if invocation.wantsVersion {
            console.write("todo \(version), the UndoKit sample\n")
            return 0
        }

        let options: TODOStore.Options
        do {
            options = try TODOStore.Options(environment: environment)
        } catch {
            console.writeError("todo: \(error)\n")
            return 2
        }
        let store: TODOStore
        do {
            store = try TODOStore(file: invocation.file, database: invocation.database, environment: environment, options: options)
        } catch {
            console.writeError("todo: \(TerminalText.line(error.message))\n")
            return 2
        }
        let person = invocation.person ?? TODODatabase.defaultPerson(environment: environment)

        guard !invocation.command.isEmpty else {
            var console = console
            if console.usesTerminal {
                console.readLineWithPrompt = lineEditor(
                    recallingFrom: LineHistoryFile(url: store.linesURL), console: console)
            }
            let repl = REPL(session: EditingSession(), store: store, console: console)
            repl.database?.person = person
            return repl.run()
        }
        var oneShot = console
        oneShot.isInteractive = false
        let repl = REPL(session: EditingSession(), store: store, console: oneShot)
        repl.database?.person = person
        // A one-shot has no steps of its own: its undo takes the newest step of the list.
        repl.ownStepsOnly = false
        // Loading before the line (without the lock) reports an unreadable file before
        // anything is created; the line then catches up under the lock.
        guard repl.loadIfNeeded() else {
            repl.flushOutput()
            return 1
        }
        repl.reportsOutsideChanges = false
        let line = Command.line(fromArguments: invocation.command)
        if let commands = try? Command.parseLine(line),
            let sessionOnly = commands.first(where: { [.begin, .end, .drop].contains($0.verb) })
        {
            // A group needs later lines to end it, and a one-shot has no steps of its own to drop.
            console.writeError(
                sessionOnly.verb == .drop
                    ? """
                    todo: "drop" works only in a session, on a step of its own that undo refuses; a one-shot undo \
                    takes the newest step of the list, whoever made it, if its items are as it left them

                    """
                    : """
                    todo: "\(sessionOnly.verb.rawValue)" works only in a session, where later lines can add to the group \
                    and "end" closes it; start one with `todo` (no command) or group one-shot commands on one \
                    line: todo add milk ';' add eggs

                    """)
            return 2
        }
        repl.handle(line: line)
        return repl.hadErrors ? 1 : 0
    }

    /// A line editor on the terminal whose ↑ recalls the lines of earlier sessions, each line
    /// added to those saved beside the list (by every session) as it is typed.
    static func lineEditor(recallingFrom file: LineHistoryFile, console: Console) -> (String, ChangeWatch?) -> String? {
        // Made at the first prompt, once the list is open: opening it may have imported the
        // lines of an earlier version's file.
        var madeReader: TerminalLineReader?
        var reportedFailure = false
        return { prompt, watch in
            let reader =
                madeReader ?? TerminalLineReader(input: STDIN_FILENO, output: STDOUT_FILENO, history: file.load())
            madeReader = reader
            let line = reader.readLine(prompt: prompt, watching: watch)
            if let line {
                do {
                    try file.append([line])
                } catch where !reportedFailure {
                    reportedFailure = true
                    console.writeError(
                        "todo: the lines typed are not kept for the next session: \(error.localizedDescription)\n")
                } catch {}
            }
            return line
        }
    }

    /// The sample's version, as `todo --version` prints it: UndoKit has no releases yet.
    public static let version = "0.1.0-dev"

    /// How to invoke the program.
    public static var usage: String {
        """
        usage: todo [--file PATH] [--as NAME]                     read commands from standard input
               todo [--file PATH] [--as NAME] <command> [args…]   run one command and exit
               todo --database URL [--as NAME] [<command> [args…]]  the same, the list in PostgreSQL
               todo --help | --version
        The list is the SQLite database --file, else $TODO_FILE, else
        $XDG_DATA_HOME/undokit-todo/todo.db, else ~/.local/share/undokit-todo/todo.db (a PATH
        ending in .json means the .db beside it, into which an earlier version's files are
        imported). Other todo processes may use it at the same time; $TODO_LOCK_TIMEOUT is
        how many seconds to wait for their changes (default 5). The undo history is saved
        in it too; $TODO_HISTORY_LIMIT is how many steps it keeps (default 100; 0 keeps none).
        --as NAME is who you are in it (default: your login name): whose steps your undo takes,
        in this session and the next, and who history says made each step.
        --database URL (else $TODO_DATABASE_URL, when --file is not given) keeps the list in
        a PostgreSQL database instead, to share it across machines: a URL such as
        postgres://alice@db.example/todo or postgresql://alice:secret@localhost:5432/todo
        (postgres:///todo?host=/tmp for a local server's socket). The database must exist
        (createdb todo); todo makes its tables at the first change. Every session hears the
        others' changes at once; $TODO_LOCK_TIMEOUT is how long a change waits for another's.

        """
    }

    /// The text the `help` command prints.
    public static var helpText: String {
        let width = Command.Verb.allCases.map(\.usage.count).max() ?? 0
        let commands = Command.Verb.allCases.map { verb in
            "  " + verb.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + verb.summary
                + (verb.aliases.isEmpty ? "" : " (also \(verb.aliases.joined(separator: ", ")))")
        }
        return """
            Commands (case-insensitive; <n> is an item number as shown by list; the numbers
            on one line refer to the list as it was before the line, so "rm 1; rm 2" removes
            the first two items):
            \(commands.joined(separator: "\n"))
            One line is one undo step: separate commands with ";" to undo them together,
            or put lines between begin and end. A line of edits applies completely or not
            at all: if one of its commands fails, none of them changes the list.
            A ";" inside double quotes, or written \\;, is text: add "Milk; eggs". In
            one-shot commands a ";" inside an argument is text too; give it as an argument
            of its own to separate commands: todo add milk ';' add eggs.
            The list is saved after every change, with its history, in a database any number
            of todo processes can share, and later ones read. The history is one timeline of
            everyone's steps, oldest first, each with its number (which never changes), when,
            and who made it (--as NAME, default your login name); an undo, a redo or a goto is
            a step of its own. "history" lists it; "goto N" brings the list back to just after
            step N (goto 0: before the oldest step kept), as a new step. $TODO_HISTORY_LIMIT
            steps are kept (default 100; 0 keeps none), the oldest dropped first. If another
            todo changes the list, it is reloaded before your next line, and item numbers on
            that line still mean the items you saw; if one is gone, the line stops and shows
            the list now, to retype the numbers.
            undo and redo take only your own steps (yours as NAME, also from earlier sessions),
            whatever others did in between. A step whose item someone else changed since is
            refused, saying who and when, and nothing changes: "undo!" undoes it anyway (only
            the fields your step changed), and "drop" forgets it for good (your later sessions
            do not offer it again), so that undo goes on with your step before it ("redo!"
            and "drop redo" likewise). A one-shot "todo undo"
            undoes the newest step of the list, whoever made it, if its items are as it left
            them; "todo redo" redoes the step the newest undo took back.
            Exit status: 0 when all went well; 1 when a command failed or its change could not
            be saved (a session at a terminal shows those as they happen, so it ends with 0
            after quit or Ctrl-D, and with 1 only if the list cannot be read); 2 for invalid
            options or settings.

            """
    }
}

extension TODOCommandLine {
    /// The parsed command line.
    struct Invocation: Equatable {
        var file: String?
        /// `--database URL`: the list in PostgreSQL.
        var database: String?
        /// `--as NAME`: the person the steps are made for.
        var person: String?
        var wantsHelp = false
        var wantsVersion = false
        var command: [String] = []

        struct Failure: Error {
            var message: String
        }

        /// Options come first; the first other word starts the command, so the command's own
        /// words may start with a dash (`todo add -5 degrees`).
        init(arguments: [String]) throws(Failure) {
            var remaining = arguments[...]
            while let argument = remaining.first, argument.hasPrefix("-") {
                remaining = remaining.dropFirst()
                if let path = try Self.value(of: "--file", in: argument, remaining: &remaining,
                                             missing: "--file needs a path") {
                    file = path
                    continue
                }
                if let url = try Self.value(
                    of: "--database", in: argument, remaining: &remaining,
                    missing: "--database needs a URL, such as postgres://alice@db.example/todo") {
                    database = url
                    continue
                }
                if let name = try Self.value(of: "--as", in: argument, remaining: &remaining,
                                             missing: "--as needs a name") {
                    person = try Self.validPerson(name)
                    continue
                }
                switch argument {
                case "--":
                    command = Array(remaining)
                    return
                case "-h", "--help":
                    wantsHelp = true
                case "--version":
                    wantsVersion = true
                default:
                    throw Failure(message: "unknown option \(argument)")
                }
            }
            command = Array(remaining)
            if file != nil && database != nil {
                throw Failure(
                    message: "--file names an SQLite file and --database a PostgreSQL database; give one of them")
            }
        }

        /// The value of option `name` if `argument` is that option, given as `name VALUE` (the
        /// value taken from `remaining`) or `name=VALUE`; `nil` if `argument` is another option.
        /// A missing or empty value throws `missing`.
        static func value(
            of name: String, in argument: String, remaining: inout ArraySlice<String>, missing: String
        ) throws(Failure) -> String? {
            let value: String?
            if argument == name {
                value = remaining.popFirst()
            } else if argument.hasPrefix(name + "=") {
                value = String(argument.dropFirst(name.count + 1))
            } else {
                return nil
            }
            guard let value, !value.isEmpty else {
                throw Failure(message: missing)
            }
            return value
        }

        /// A person's name as `history` shows it: one line of up to 32 characters, no control
        /// characters, not empty.
        static func validPerson(_ name: String) throws(Failure) -> String {
            let name = name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw Failure(message: "--as needs a name")
            }
            guard name.count <= 32, !name.contains(where: \.isNewline),
                TerminalText.firstControlCharacter(in: name) == nil
            else {
                throw Failure(message: "--as takes a name of one line, up to 32 characters, without control characters")
            }
            return name
        }
    }
}
