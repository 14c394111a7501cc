/// The `todo` read–eval–print loop: reads lines of commands, applies them to an
/// ``EditingSession`` and saves the list after every change.
///
/// One line is one event: after running a line's commands the REPL calls
/// ``EditingSession/endEvent()``, so the undo manager's `groupsByEvent` turns the line into one
/// undo step, and the commands of a line separated by `;` are undone together. Before the next
/// prompt, any change (including undo and redo) is saved through the ``TODOStore``; if that
/// fails the REPL says so, keeps the list and its undo history, and tries again after the next
/// line.
///
/// ```swift
/// let repl = REPL(session: EditingSession(list: try store.load()), store: store, console: .standard)
/// exit(repl.run())
/// ```
public final class REPL {
    /// The session the commands edit.
    ///
    /// ```swift
    /// repl.handle(line: "add Buy milk")
    /// repl.session.list.count   // 1
    /// ```
    public let session: EditingSession

    /// Where the list is saved; `nil` keeps it in memory only.
    ///
    /// ```swift
    /// let scratch = REPL(session: EditingSession(), store: nil, console: console)
    /// ```
    public let store: TODOStore?

    let console: Console

    /// The session's ``EditingSession/changeCount`` when the list was last saved (or loaded).
    var savedChangeCount: Int

    /// Whether any command failed or any save failed so far; ``run()`` exits with status 1 then.
    ///
    /// ```swift
    /// repl.handle(line: "frob")
    /// repl.hadErrors   // true
    /// ```
    public private(set) var hadErrors = false

    /// Creates a REPL; nothing is read or written until ``run()`` or ``handle(line:)``.
    ///
    /// ```swift
    /// let repl = REPL(session: EditingSession(), store: TODOStore(fileURL: url), console: .standard)
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session to edit; its current list counts as saved.
    ///   - store: Where to save after each change, or `nil` not to save.
    ///   - console: The input and output streams.
    public init(session: EditingSession, store: TODOStore?, console: Console) {
        self.session = session
        self.store = store
        self.console = console
        savedChangeCount = session.changeCount
    }

    /// Whether the list has changes that are not yet in the data file.
    ///
    /// ```swift
    /// if repl.hasUnsavedChanges { print("not saved") }
    /// ```
    public var hasUnsavedChanges: Bool {
        store != nil && session.changeCount != savedChangeCount
    }

    /// Reads and runs lines until `quit` or the end of input, then returns the exit status:
    /// 0 if every command succeeded and everything was saved, 1 otherwise.
    ///
    /// When the console is interactive it greets on standard output and prompts with the item
    /// count; otherwise it names the data file on standard error and prints no prompt, so a
    /// script's output holds only what its commands print.
    ///
    /// ```swift
    /// let status = repl.run()
    /// ```
    public func run() -> Int32 {
        announce()
        while true {
            if console.isInteractive {
                console.write(prompt)
            }
            guard let line = console.readLine() else {
                // End of input (Ctrl-D in a terminal) ends the prompt line the user was on.
                if console.isInteractive { console.write("\n") }
                break
            }
            guard handle(line: line) else { break }
        }
        if hasUnsavedChanges, let store {
            console.writeError("error: the last changes are not saved in \(store.fileURL.path)\n")
            hadErrors = true
        }
        return hadErrors ? 1 : 0
    }

    /// Runs one line of input as one event, saves if the list changed, and returns `false`
    /// if the line asked to quit.
    ///
    /// A line whose commands don't all parse runs nothing. A command that fails stops the line
    /// there; the commands before it stay applied, as one undo step.
    ///
    /// ```swift
    /// repl.handle(line: "add Buy milk; add Buy eggs")
    /// repl.handle(line: "undo")   // prints: Undo Add "Buy eggs" (both are removed)
    /// ```
    @discardableResult
    public func handle(line: String) -> Bool {
        var keepGoing = true
        do {
            for command in try Command.parseLine(line) {
                if command == .quit {
                    keepGoing = false
                    break
                }
                guard execute(command) else { break }
            }
        } catch {
            fail("\(error)")
        }
        session.endEvent()
        saveIfNeeded()
        return keepGoing
    }

    /// The prompt: the item count, and a reminder while a group is open.
    var prompt: String {
        let count = session.list.count
        let items = count == 1 ? "1 item" : "\(count) items"
        return session.isGroupOpen ? "todo (\(items), group open)> " : "todo (\(items))> "
    }

    private func announce() {
        guard let store else { return }
        if console.isInteractive {
            console.write("""
                UndoKit TODO: using \(store.fileURL.path)
                Type "help" for commands. Undo history lasts until you quit.

                """)
        } else {
            console.writeError("todo: using \(store.fileURL.path)\n")
        }
    }

    func saveIfNeeded() {
        guard hasUnsavedChanges, let store else { return }
        let changeCount = session.changeCount
        do {
            try store.save(session.list)
            savedChangeCount = changeCount
        } catch {
            fail("\(error) (the list and its undo history are kept; saving again after the next line)")
        }
    }

    func say(_ text: String) {
        console.write(text + "\n")
    }

    func fail(_ message: String) {
        hadErrors = true
        console.writeError("error: \(message)\n")
    }
}
