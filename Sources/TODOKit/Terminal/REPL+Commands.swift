extension REPL {
    /// Runs one parsed command and prints its result; returns `false`, after printing the
    /// error, if it failed (and so changed nothing).
    func execute(_ command: Command) -> Bool {
        do {
            try run(command)
            return true
        } catch {
            fail(message(for: error, running: command))
            return false
        }
    }

    private func run(_ command: Command) throws(EditingSessionError) {
        switch command {
        case .add(let title):
            try session.add(title)
            say(session.list.line(at: session.list.count - 1))
        case .edit(let number, let title):
            let position = try shownPosition(number)
            report(try session.setTitle(title, at: position), at: position)
        case .detail(let number, let text):
            let position = try shownPosition(number)
            report(try session.setDetail(text, at: position), at: position)
        case .priority(let number, let priority):
            let position = try shownPosition(number)
            report(try session.setPriority(priority, at: position), at: position)
        case .done(let number):
            let position = try shownPosition(number)
            report(try session.setDone(true, at: position), at: position)
        case .undone(let number):
            let position = try shownPosition(number)
            report(try session.setDone(false, at: position), at: position)
        case .remove(let number):
            let item = try session.remove(at: try shownPosition(number))
            say("Removed \"\(item.title)\"")
        case .move(let number, let destination):
            report(try session.move(from: try shownPosition(number), to: destination - 1), at: destination - 1)
        case .list:
            session.list.lines.forEach(say)
        case .undo:
            let before = session.list
            say(try session.undo().map { $0 + before.changes(to: session.list) } ?? "Nothing to undo")
        case .redo:
            let before = session.list
            say(try session.redo().map { $0 + before.changes(to: session.list) } ?? "Nothing to redo")
        case .begin(let name):
            session.beginGroup(named: name)
            say(name.map { "Group \"\($0)\" started; type end to finish it" } ?? "Group started; type end to finish it")
        case .end:
            try session.endGroup()
            say("Group ended")
        case .history:
            printHistory()
        case .help:
            pendingOutput.append((false, TODOCommandLine.helpText))
        case .quit:
            // `handle(line:)` stops at quit before executing it.
            break
        }
    }

    /// Where the item numbered `number` in the list as it was before the line is now: numbers
    /// on one line refer to that list, so `rm 1; rm 2` removes the first two items shown.
    private func shownPosition(_ number: Int) throws(EditingSessionError) -> Int {
        guard let shown = itemsShownBeforeLine else { return number - 1 }
        guard shown.indices.contains(number - 1) else {
            throw .noSuchItem(position: number - 1, count: shown.count)
        }
        guard let position = session.list.items.firstIndex(where: { $0.id == shown[number - 1] }) else {
            throw .removedEarlierOnTheLine(number: number)
        }
        return position
    }

    private func report(_ changed: Bool, at position: Int) {
        let line = session.list.line(at: position)
        say(changed ? line : "\(line)  (unchanged)")
    }

    private func printHistory() {
        let history = session.history
        func line(_ step: EditingSession.History.Step) -> String {
            "  \(Self.timestamp(step.date, in: timeZone))  \(step.name)"
        }
        let undo = (history.inProgress.map { [line($0) + "  (in progress)"] } ?? []) + history.undoSteps.map(line)
        say("Undo (newest first):")
        (undo.isEmpty ? ["  (none)"] : undo).forEach(say)
        say("Redo (newest first):")
        (history.redoSteps.isEmpty ? ["  (none)"] : history.redoSteps.map(line)).forEach(say)
    }

    private func message(for error: EditingSessionError, running command: Command) -> String {
        switch error {
        case .groupOpen:
            "cannot \(command.verb.rawValue) while a group is open; type \"end\" first"
        case .noGroupOpen:
            "\"end\" without \"begin\" (usage: begin [name], then end)"
        case .noSuchItem, .emptyTitle, .multipleLines, .controlCharacter, .removedEarlierOnTheLine:
            "\(error) (usage: \(command.verb.usage))"
        }
    }
}
