import Foundation

/// The `todo` read–eval–print loop: reads lines of commands, applies them to an
/// ``EditingSession`` and saves every change in the database.
///
/// One line is one event: after running a line's commands the REPL calls
/// ``EditingSession/endEvent()``, so the undo manager's `groupsByEvent` turns the line into one
/// undo step, and the commands of a line separated by `;` are undone together.
///
/// One line is also one transaction, so several `todo` processes can share a list: a line that
/// may change it takes the database's write lock, catches up with what other processes saved,
/// runs, writes its changes and its undo step together, and commits; only then does it print
/// what it did, so whatever the REPL reports is on disk. A line that cannot be saved (the
/// location is not writable, the disk is full, another process held the lock too long) is
/// rolled back, in the database and in the session, and says so: nothing it did is shown as
/// done. When another process changed the list, the REPL reloads it and says so in one line, as
/// it comes while the REPL waits for a line (``changeWatch``), or else before the next line runs. A session's `undo` and `redo` take only its own steps (``ownStepsOnly``), and refuse
/// a step whose item another process changed since; the list's undo history, shared by every
/// process, is read when a command needs it (`history`, `goto`).
///
/// ```swift
/// let repl = REPL(session: EditingSession(), store: store, console: .standard)
/// exit(repl.run())
/// ```
public final class REPL {
    /// The session the commands edit.
    public let session: EditingSession

    /// The database changes are saved in; `nil` keeps the list in memory only.
    public let database: TODODatabase?

    let console: Console

    /// The row of each of the session's steps in the list's history, and the pieces of the
    /// line running.
    let steps: SessionSteps

    /// Whether `undo` and `redo` take only the steps this session's person made (a session:
    /// `true`), or the newest step of the list's history, whoever made it (a one-shot command).
    public var ownStepsOnly = true

    /// While a line runs: the items as the person last saw them numbered, when another
    /// process changed the list since; the line's item numbers refer to them.
    var numbersAsShown: [TODOItem.ID]?
    /// While a line runs, when ``numbersAsShown`` is set: each item the person saw, and where
    /// it was when the line started (`nil`: gone).
    var shownItems: [(id: TODOItem.ID, position: Int?)]?
    /// Whether the line stopped at a number of an item the person saw that is gone, or past
    /// what they saw: it ends by showing the list now, so that they can retype its numbers.
    var showsListAfterLine = false

    /// The time zone `history` shows dates in; tests fix it.
    var timeZone = TimeZone.current

    /// Whether to announce that another process changed the list. A one-shot command, which
    /// never showed the list, has nothing to announce.
    var reportsOutsideChanges = true

    /// What the current line printed, held back until its changes are committed.
    var pendingOutput: [(isError: Bool, text: String)] = []
    /// While a line runs: how many items the list had before it, which its item numbers refer
    /// to, and how many changes the session had made then; see `shownPosition(_:)`.
    var lineStart: (count: Int, changes: Int)?

    /// Whether any command failed, or any change could not be saved, so far.
    public internal(set) var hadErrors = false

    /// Creates a REPL that saves in `database`; nothing is read or written until ``run()`` or
    /// ``handle(line:)``, the first of which loads the list. The session's `levelsOfUndo`
    /// becomes the store's ``TODOStore/Options/historyLimit``.
    public init(session: EditingSession, database: TODODatabase?, console: Console) {
        self.session = session
        self.database = database
        self.console = console
        let limit = database?.store.options.historyLimit ?? 0
        steps = SessionSteps(limit: limit)
        if limit > 0 {
            // What a session can undo is what it saves, and what the next process can undo.
            session.undoManager.levelsOfUndo = limit
        }
    }

    /// Creates a REPL that saves in `store`'s database, or, with `nil`, in memory only.
    public convenience init(session: EditingSession, store: TODOStore?, console: Console) {
        self.init(session: session, database: store.map(TODODatabase.init(store:)), console: console)
    }

    /// The store changes are saved in, if any.
    public var store: TODOStore? { database?.store }

    /// Reads and runs lines until `quit` or the end of input, then returns the exit status.
    ///
    /// An interactive session says what went wrong as it happens, so its status says only how
    /// it ended: 0, or 1 if the list could not be read at all. A script (standard input not a
    /// terminal) exits with 1 if any of its commands failed or could not be saved, so that
    /// whatever runs it can tell. When the console is interactive it greets on standard
    /// output and prompts with the item count; otherwise it names the data file on standard
    /// error and prints no prompt, so a script's output holds only what its commands print.
    public func run() -> Int32 {
        guard loadIfNeeded() else {
            flushOutput()
            return 1
        }
        announce()
        flushOutput()
        while true {
            if console.isInteractive {
                // The prompt counts the items on disk: another todo may have changed them
                // since the last line. One `PRAGMA data_version` tells.
                _ = catchUp()
                flushOutput()
            }
            guard let line = readNextLine() else {
                // End of input (Ctrl-D in a terminal) ends the prompt line the user was on
                // (the line editor has done so already).
                if console.isInteractive && console.readLineWithPrompt == nil {
                    console.write("\n")
                }
                break
            }
            guard handle(line: line) else { break }
        }
        return hadErrors && !console.isInteractive ? 1 : 0
    }

    /// Runs one line of input as one event and one transaction, and returns `false` if the line
    /// asked to quit.
    ///
    /// A line whose commands don't all parse runs nothing. A line of edits applies completely
    /// or not at all: when a command fails, the commands before it are rolled back and nothing
    /// is saved. A line with `undo`, `redo`, `begin` or `end` stops at a failing command, and the
    /// commands before it stay applied, as one undo step, and are saved.
    @discardableResult
    public func handle(line: String) -> Bool {
        defer { flushOutput() }
        var commands: [Command] = []
        do {
            commands = try Command.parseLine(line)
        } catch {
            fail("\(error)")
        }
        var quits = false
        if let quit = commands.firstIndex(of: .quit) {
            commands.removeSubrange(quit...)
            quits = true
        }
        let succeeded = runAndSave(commands)
        return !(quits && succeeded)
    }

    /// Loads the list if it never was; on failure prints the problem and returns `false`.
    func loadIfNeeded() -> Bool {
        guard database != nil, !isLoaded else { return true }
        return catchUp()
    }

    /// Whether the list has been read from the database.
    var isLoaded = false
    /// How many of the database's notices (an import, an upgrade) were printed.
    var noticesShown = 0

    /// The prompt: the item count, and a reminder while a group is open.
    var prompt: String {
        var state = [Self.counted(session.list.count)]
        if session.isGroupOpen { state.append("group open") }
        return "todo (\(state.joined(separator: ", ")))> "
    }

    /// "1 item", "2 items".
    static func counted(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    /// The person this `todo` works for: whose steps its undo takes.
    public var person: String {
        database?.person ?? "you"
    }

    private func announce() {
        guard let store else {
            return
        }
        if console.isInteractive {
            let undo: String
            if steps.limit > 0 {
                undo = """
                    undo and redo take back \(person)'s own steps, those of earlier
                    sessions too; "history" shows everyone's steps, and "goto" returns to any.
                    """
            } else {
                undo = """
                    undo and redo take back this session's
                    steps; no history is kept with the list (TODO_HISTORY_LIMIT=0).
                    """
            }
            console.write("""
                UndoKit TODO: using \(store.location), as \(person)
                Type "help" for commands; \(undo)

                """)
        } else {
            console.writeError("todo: using \(store.location)\n")
        }
    }

    /// Prints a command's result (after the line's commit).
    func say(_ text: String) {
        pendingOutput.append((false, TerminalText.line(text) + "\n"))
    }

    /// Prints an error about the line's commands.
    func fail(_ message: String) {
        hadErrors = true
        pendingOutput.append((true, "error: \(TerminalText.line(message))\n"))
    }

    /// Prints a message about the data file, as `todo: …` on standard error.
    func notice(_ message: String, isError: Bool = false) {
        if isError { hadErrors = true }
        pendingOutput.append((true, "todo: \(TerminalText.line(message))\n"))
    }

    /// Writes what the line printed, one write per run of the same stream.
    func flushOutput() {
        var index = pendingOutput.startIndex
        while index < pendingOutput.endIndex {
            let isError = pendingOutput[index].isError
            var text = ""
            while index < pendingOutput.endIndex, pendingOutput[index].isError == isError {
                text += pendingOutput[index].text
                index += 1
            }
            if isError {
                console.writeError(text)
            } else {
                console.write(text)
            }
        }
        pendingOutput.removeAll()
    }
}
