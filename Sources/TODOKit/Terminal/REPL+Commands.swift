import Foundation

extension REPL {
    /// Runs one parsed command and prints its result; returns `false`, after printing the
    /// error, if it failed (and so changed nothing).
    func execute(_ command: Command) -> Bool {
        do {
            switch command {
            case .export(let path): return export(to: path)
            case .importFile(let path): return try importItems(from: path)
            default: try run(command)
            }
            return true
        } catch {
            fail(message(for: error, running: command))
            switch error {
            case .goneElsewhere, .notInListAsShown:
                showsListAfterLine = true
            default:
                break
            }
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
        case .undo(let steps, let anyway):
            try undo(steps, redo: false, anyway: anyway)
        case .redo(let steps, let anyway):
            try undo(steps, redo: true, anyway: anyway)
        case .drop(let redo):
            try drop(redo: redo)
        case .goto(let number):
            try goto(number)
        case .begin(let name):
            session.beginGroup(named: name)
            say(name.map { "Group \"\($0)\" started; type end to finish it" } ?? "Group started; type end to finish it")
        case .end:
            try session.endGroup()
            say("Group ended")
        case .history:
            printHistory()
        case .export, .importFile:
            // Files to write or read: see `execute(_:)`.
            break
        case .help:
            pendingOutput.append((false, TODOCommandLine.helpText))
        case .quit:
            // `handle(line:)` stops at quit before executing it.
            break
        }
    }

    /// Writes the list as JSON to `path`, or prints it.
    private func export(to path: String?) -> Bool {
        let bytes = TODOListFile(list: session.list).encoded()
        guard let path else {
            // Several lines, which the console escapes as it does all output.
            pendingOutput.append((false, String(decoding: bytes, as: UTF8.self)))
            return true
        }
        do {
            try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            fail("cannot write \(path): \(error.localizedDescription)")
            return false
        }
        say("Exported \(Self.counted(session.list.count)) to \(path)")
        return true
    }

    /// Adds the items of the JSON file at `path` that the list does not have, as one step.
    private func importItems(from path: String) throws(EditingSessionError) -> Bool {
        let file: TODOListFile
        do {
            file = try TODOListFile(decoding: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fail("cannot import \(path): \((error as? TODOListFile.ReadError)?.reason ?? "it cannot be read")")
            return false
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let added = try session.addItems(file.items, named: "Import \(Self.quoted(name))")
        let skipped = file.items.count - added
        say("Imported \(Self.counted(added)) from \(path)" + (skipped > 0 ? " (\(skipped) already in the list)" : ""))
        return true
    }

    /// Where the item numbered `number` in the list as it was before the line is now: numbers
    /// on one line refer to that list, so `rm 1; rm 2` removes the first two items shown.
    ///
    /// Found by following the item through the line's changes so far, which costs what the
    /// line did, not what the list holds: a removal loses it, unless an insertion (an undo)
    /// brings the same item back.
    private func shownPosition(_ number: Int) throws(EditingSessionError) -> Int {
        guard let start = lineStart else {
            return number - 1
        }
        var startPosition = number - 1
        if let shown = shownItems {
            // The list changed underneath since the person saw it: the number is the item
            // they saw, wherever it is now, if it is still there.
            guard number >= 1, number <= shown.count else {
                throw .notInListAsShown(number: number, count: shown.count)
            }
            guard let position = shown[number - 1].position else {
                let gone = session.outsideChanges[shown[number - 1].id]
                throw .goneElsewhere(number: number, title: gone?.title ?? "", by: gone?.origin ?? "another todo")
            }
            startPosition = position
        } else {
            guard number >= 1, number <= start.count else {
                throw .noSuchItem(position: number - 1, count: start.count)
            }
        }
        var position: Int? = startPosition
        var removed: UUID?
        for identified in session.appliedChanges[start.changes...] {
            switch (identified.change, position) {
            case (.insert(_, let at), let current?):
                if at <= current { position = current + 1 }
            case (.insert(let item, let at), nil):
                if item.id == removed { position = at }
            case (.remove(let at), let current?):
                if at == current {
                    position = nil
                    removed = identified.itemID
                } else if at < current {
                    position = current - 1
                }
            case (.move(let source, let destination), let current?):
                if source == current {
                    position = destination
                } else {
                    let shifted = source < current ? current - 1 : current
                    position = destination <= shifted ? shifted + 1 : shifted
                }
            case (.replace, _), (.remove, nil), (.move, nil):
                break
            }
        }
        guard let position else { throw .removedEarlierOnTheLine(number: number) }
        return position
    }

    func report(_ changed: Bool, at position: Int) {
        let line = session.list.line(at: position)
        say(changed ? line : "\(line)  (unchanged)")
    }

    /// The titles of the steps an `undo N` or `redo N` took, the last with what changed.
    func report(_ titles: [String], asked: Int, from before: TODOList, nothing: String) {
        guard let last = titles.last else {
            say(nothing)
            return
        }
        titles.dropLast().forEach(say)
        var changes = before.changes(to: session.list)
        if changes.isEmpty && titles.count == 1 && before == session.list {
            changes = " (nothing to change: its items are gone, or as it would leave them)"
        }
        say(last + changes)
        if titles.count < asked { say("(\(nothing.lowercased()) after \(titles.count) of \(asked))") }
    }

    /// A step's date as the `history` command shows it: `2026-11-23 14:05` in `timeZone`.
    ///
    /// ```swift
    /// REPL.timestamp(Date(timeIntervalSince1970: 0), in: TimeZone(identifier: "UTC")!)   // "1970-01-01 00:00"
    /// ```
    static func timestamp(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private func message(for error: EditingSessionError, running command: Command) -> String {
        switch error {
        case .groupOpen where command.verb == .drop && !session.isGroupOpen:
            "cannot drop a step on a line that changed the list; type drop on a line of its own"
        case .groupOpen:
            "cannot \(command.verb.rawValue) while a group is open; type \"end\" first"
        case .noGroupOpen:
            "\"end\" without \"begin\" (usage: begin [name], then end)"
        case .noSuchItem, .emptyTitle, .multipleLines, .controlCharacter, .removedEarlierOnTheLine, .noSuchStep,
            .importedItem:
            "\(error) (usage: \(command.verb.usage))"
        case .changedElsewhere(_, let isUndo, _):
            refusal(error, isUndo: isUndo)
        case .goneElsewhere, .stepChangedSince, .historyUnusable, .notInListAsShown:
            "\(error)"
        }
    }
}
