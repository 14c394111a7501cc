import Foundation

/// The `todo` read–eval–print loop: reads lines of commands, applies them to an
/// ``EditingSession`` and commits every change to the data file.
///
/// One line is one event: after running a line's commands the REPL calls
/// ``EditingSession/endEvent()``, so the undo manager's `groupsByEvent` turns the line into one
/// undo step, and the commands of a line separated by `;` are undone together.
///
/// One line is also one commit, so several `todo` processes can share a file: a line that may
/// change the list takes the store's lock, catches up with what other processes saved
/// (``TODOReplica/refresh()``), runs, appends its changes to the journal and flushes them, and
/// releases the lock; only then does it print what it did, so whatever the REPL reports is on
/// disk. After each commit, still holding the lock, it saves the session's undo history beside
/// the list (``SavedHistory``), so that a later `todo` can undo and redo what this one did. If
/// another process changed the list since the previous line, the REPL reloads it first, with
/// the undo history that process saved, says so in one line, and continues from there: undo
/// is linear across processes. Lines that only read (`list`, `history`, …) catch up without
/// the lock.
///
/// If a commit fails (the location is not writable, the disk is full) the REPL says so, keeps
/// the list and its undo history in memory, and tries again after the next line. Those unsaved
/// changes are dropped, with a message, if another process changes the list meanwhile: they
/// were made to a list that no longer exists on disk. If the lock stays taken for the lock
/// timeout, the line is not run.
///
/// ```swift
/// let repl = REPL(session: EditingSession(), store: store, console: .standard)
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

    /// The replica of the data file that changes are committed to; `nil` keeps the list in
    /// memory only.
    ///
    /// ```swift
    /// repl.replica?.revision   // the revision on disk after the last line
    /// ```
    public let replica: TODOReplica?

    let console: Console

    /// The time zone `history` shows dates in; tests fix it.
    var timeZone = TimeZone.current

    /// Changes the session made that are not yet committed, because a commit failed.
    var unsavedChanges: [TODOList.Change] = []

    /// What the history file holds, as this REPL last wrote or read it: the revision it
    /// belongs to, where its steps are, and how many changes follow its base. `nil` when the
    /// next save must write the history whole (none written or read yet, or one that could
    /// not be appended to).
    var historyOnDisk: HistoryOnDisk?

    /// Whether to announce that another process changed the list. A one-shot command, which
    /// never showed the list, has nothing to announce.
    var reportsOutsideChanges = true
    /// Whether this REPL runs one command line and exits (`todo add …`): a change it cannot
    /// save is lost, and it says so.
    var isOneShot = false

    /// What the current line printed, held back until its changes are committed.
    var pendingOutput: [(isError: Bool, text: String)] = []
    /// While a line runs: the items of the list as it was before the line, in order, which
    /// its item numbers refer to.
    var itemsShownBeforeLine: [UUID]?

    /// Whether any command failed or any save failed so far; ``run()`` exits with status 1 then.
    ///
    /// ```swift
    /// repl.handle(line: "frob")
    /// repl.hadErrors   // true
    /// ```
    public internal(set) var hadErrors = false

    /// Creates a REPL that commits to `replica`; nothing is read or written until ``run()`` or
    /// ``handle(line:)``.
    ///
    /// If the replica has not been loaded yet, the first of those loads it and the session
    /// starts from the file's list and the undo history saved with it. The session's
    /// `levelsOfUndo` becomes the store's ``TODOStore/Options/historyLimit``.
    ///
    /// ```swift
    /// let replica = TODOReplica(store: store)
    /// try replica.refresh()
    /// let repl = REPL(session: EditingSession(list: replica.list), replica: replica, console: .standard)
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session to edit; its list must be the replica's if the replica is
    ///     loaded.
    ///   - replica: Where to commit after each change, or `nil` not to save.
    ///   - console: The input and output streams.
    public init(session: EditingSession, replica: TODOReplica?, console: Console) {
        self.session = session
        self.replica = replica
        self.console = console
        if let limit = replica?.store.options.historyLimit, limit > 0 {
            // What a session can undo is what it saves, and what the next process can undo.
            session.undoManager.levelsOfUndo = limit
        }
    }

    /// Creates a REPL that commits to a new replica of `store`, loaded by the first ``run()``
    /// or ``handle(line:)``; the session then starts from the file's list.
    ///
    /// ```swift
    /// let repl = REPL(session: EditingSession(), store: TODOStore(fileURL: url), console: .standard)
    /// let scratch = REPL(session: EditingSession(), store: nil, console: console)   // memory only
    /// ```
    public convenience init(session: EditingSession, store: TODOStore?, console: Console) {
        self.init(session: session, replica: store.map(TODOReplica.init(store:)), console: console)
    }

    /// The store changes are committed to, if any.
    ///
    /// ```swift
    /// repl.store?.fileURL.path
    /// ```
    public var store: TODOStore? { replica?.store }

    /// Whether the list has changes that are not yet in the data file.
    ///
    /// ```swift
    /// if repl.hasUnsavedChanges { print("not saved") }
    /// ```
    public var hasUnsavedChanges: Bool {
        replica != nil && !(unsavedChanges.isEmpty && session.appliedChanges.isEmpty)
    }

    /// Reads and runs lines until `quit` or the end of input, then returns the exit status:
    /// 0 if every command succeeded and everything was saved, 1 otherwise.
    ///
    /// Loads the data file first, if that has not happened yet, and returns 1 at once if it
    /// can't be read. When the console is interactive it greets on standard output and prompts
    /// with the item count; otherwise it names the data file on standard error and prints no
    /// prompt, so a script's output holds only what its commands print.
    ///
    /// ```swift
    /// let status = repl.run()
    /// ```
    public func run() -> Int32 {
        guard loadIfNeeded() else { return 1 }
        announce()
        flushOutput()
        while true {
            if console.isInteractive {
                // The prompt counts the items on disk: another todo may have changed them
                // since the last line. Reading the journal's new records is cheap (see
                // `TODOReplica.refresh()`); a list with changes not yet saved stays as it is.
                if let replica, !hasUnsavedChanges {
                    _ = catchUp(replica, holdingLock: false)
                    flushOutput()
                }
            }
            let line: String?
            if console.isInteractive, let readWithPrompt = console.readLineWithPrompt {
                line = readWithPrompt(prompt)   // the line editor draws the prompt
            } else {
                if console.isInteractive { console.write(prompt) }
                line = console.readLine()
            }
            guard let line else {
                // End of input (Ctrl-D in a terminal) ends the prompt line the user was on
                // (the line editor has done so already).
                if console.isInteractive && console.readLineWithPrompt == nil { console.write("\n") }
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

    /// Runs one line of input as one event and one commit, and returns `false` if the line
    /// asked to quit.
    ///
    /// A line whose commands don't all parse runs nothing. A line of edits applies completely
    /// or not at all: when a command fails, the commands before it are rolled back and nothing
    /// is saved. A line with `undo`, `redo`, `begin` or `end` stops at a failing command, and the
    /// commands before it stay applied, as one undo step, and are saved.
    ///
    /// ```swift
    /// repl.handle(line: "add Buy milk; add Buy eggs")
    /// repl.handle(line: "undo")   // prints: Undo Add "Buy eggs" (both are removed)
    /// ```
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
        let succeeded = runAndCommit(commands)
        return !(quits && succeeded)
    }

    /// Loads the replica if it never was, and starts the session from its list and the undo
    /// history saved with it; on failure prints the problem and returns `false`.
    func loadIfNeeded() -> Bool {
        guard let replica, !replica.isLoaded else { return true }
        do {
            try replica.refresh()
        } catch {
            console.writeError("todo: \(error)\n")
            hadErrors = true
            return false
        }
        session.replaceList(replica.list)
        _ = adoptSavedHistory(replica, holdingLock: false)
        markSaved()
        return true
    }

    /// The prompt: the item count, and a reminder while a group is open.
    var prompt: String {
        var state = [Self.counted(session.list.count)]
        if session.isGroupOpen { state.append("group open") }
        // UndoKit's clean state, marked whenever the list is saved: a change that could not
        // be saved leaves the manager unclean until it is saved, or undone.
        if replica != nil && !session.undoManager.isClean { state.append("not saved") }
        return "todo (\(state.joined(separator: ", ")))> "
    }

    /// "1 item", "2 items".
    static func counted(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    private func announce() {
        guard let store else { return }
        if console.isInteractive {
            console.write("""
                UndoKit TODO: using \(store.fileURL.path)
                Type "help" for commands. Undo history is saved with the list.

                """)
        } else {
            console.writeError("todo: using \(store.fileURL.path)\n")
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
            isError ? console.writeError(text) : console.write(text)
        }
        pendingOutput.removeAll()
    }
}
