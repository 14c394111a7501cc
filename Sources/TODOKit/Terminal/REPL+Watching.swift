import Foundation

extension REPL {
    /// What the session watches while it waits for a line: another process's change to the
    /// list, through the database's seam (``TODODatabase/changeDescriptor``,
    /// ``TODODatabase/changePollInterval``, ``TODODatabase/hasChangedElsewhere()``); `nil`
    /// when the list is in memory only.
    ///
    /// Showing a change is the catch-up every line starts with (``catchUp()``), run early: the
    /// session takes the new list, notes who changed which item for its undo, and says so in
    /// the same line on standard error (`todo: the list changed on disk (another todo saved
    /// it); reloaded: 4 items`). The numbers of the next line still refer to the items as the
    /// person last saw them listed, as they would had the change been found at that line.
    /// A check that fails (the file unreadable for a moment) shows nothing; a catch-up that
    /// fails says why once, and the watch says nothing more until the next line, whose own
    /// catch-up says it again: a waiting session never repeats an error four times a second.
    /// A server out of reach (`isConnectionProblem`) is not said while waiting: a restart
    /// usually ends before the next line, whose catch-up reconnects, or says what happened.
    ///
    /// ```swift
    /// let line = reader.readLine(prompt: repl.prompt, watching: repl.changeWatch)
    /// ```
    public var changeWatch: ChangeWatch? {
        guard let database else {
            return nil
        }
        let failure = CatchUpFailure()
        return ChangeWatch(
            descriptor: { database.changeDescriptor },
            interval: database.changePollInterval,
            hasChanged: { !failure.happened && ((try? database.hasChangedElsewhere()) ?? false) },
            show: { [unowned self] in
                do throws(TODOStoreError) {
                    _ = try self.catchUpHoldingLock()
                } catch {
                    failure.happened = true
                    // A server out of reach while nobody asked for anything (a restart, a
                    // network blip) is tried again by the next line, which says so if it still
                    // is; damage is said at once.
                    if !error.isConnectionProblem {
                        self.notice("\(error)", isError: true)
                    }
                }
                self.flushOutput()
                return self.prompt
            }
        )
    }

    /// Reads the next line: with the line editor, which draws the prompt and shows changes
    /// above it; else, when a person is typing, after writing the prompt, with no change
    /// shown while they type (the terminal's own line editing would have its line cut); else
    /// (a script) watching for changes between lines, if the console can.
    func readNextLine() -> String? {
        if console.isInteractive, let readWithPrompt = console.readLineWithPrompt {
            return readWithPrompt(prompt, changeWatch)
        }
        if console.isInteractive {
            console.write(prompt)
            return console.readLine()
        }
        if let readWatching = console.readLineWatching, let watch = changeWatch {
            return readWatching(watch)
        }
        return console.readLine()
    }
}

/// Whether a watch's catch-up failed while the session waited for its line: it then asks no
/// more until the next line.
private final class CatchUpFailure {
    var happened = false
}
