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
    /// A check that fails (the file unreadable for a moment) shows nothing: the next line's
    /// catch-up says what went wrong.
    ///
    /// ```swift
    /// let line = reader.readLine(prompt: repl.prompt, watching: repl.changeWatch)
    /// ```
    public var changeWatch: ChangeWatch? {
        guard let database else {
            return nil
        }
        return ChangeWatch(
            descriptor: { database.changeDescriptor },
            interval: database.changePollInterval,
            hasChanged: { (try? database.hasChangedElsewhere()) ?? false },
            show: { [unowned self] in
                _ = self.catchUp()
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
