// libFuzzer harness: the command-line and REPL parsers and the REPL's line handling, in
// memory (no store, so no file is touched).
//
// Input: text, split into lines. The first line also goes through the option parser, as the
// words of a command line, and through the environment settings parser. Every line is then
// parsed as commands and handled by a REPL over an in-memory session.
//
// Beyond "never crash" (no trap in the parser, the session or the undo manager, whatever the
// item numbers, groups, undo and redo): a line that does not parse prints exactly one error
// and changes nothing; every error is one line with a message; a line's changes, as
// `EditingSession.takeChanges()` reports them, turn the previous list into the new one.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/CommandLineParser.

@_cdecl("LLVMFuzzerTestOneInput")
public func commandLineParserFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(64).map(String.init)
    if let first = lines.first {
        let words = first.split(separator: " ").map(String.init)
        _ = try? TODOCommandLine.Invocation(arguments: words)
        _ = try? TODOStore.Options(environment: [TODOStore.Options.lockTimeoutVariable: first])
        _ = try? TODOStore.Options(environment: [TODOStore.Options.historyLimitVariable: first])
    }

    var output = ""
    var errors: [String] = []
    let console = Console(
        isInteractive: false,
        readLine: { nil },
        write: { output += $0 },
        writeError: { errors += $0.split(separator: "\n").map(String.init) }
    )
    let session = EditingSession()
    let repl = REPL(session: session, database: nil, console: console)
    // The REPL drains the session's changes itself when it has no database, so the check of
    // `takeChanges()` runs on a session driven command by command below.
    let mirrorSession = EditingSession()
    var mirror = TODOList()

    for line in lines {
        errors.removeAll()
        let before = session.list
        let parsed = Result { () throws(CommandParseError) in try Command.parseLine(line) }
        // `export` and `import` write and read the files they name: not a fuzzer's to touch.
        if case .success(let commands) = parsed, commands.contains(where: { $0.verb == .export || $0.verb == .import }) {
            continue
        }
        repl.handle(line: line)
        for error in errors {
            precondition(error.hasPrefix("error: ") && error.count > "error: ".count, "an error line without a message: \(error)")
        }
        if case .failure = parsed {
            precondition(errors.count == 1, "a line that does not parse printed \(errors.count) errors")
            precondition(session.list == before, "a line that does not parse changed the list")
        }

        if case .success(let commands) = parsed {
            if commands.allSatisfy(\.isEditOrRead) {
                // A line of edits applies completely or not at all (UndoKit's withUndoGroup).
                let listBefore = mirrorSession.list
                let undoNamesBefore = mirrorSession.undoManager.undoActionNames
                do {
                    try mirrorSession.applyAll { try run(commands, on: mirrorSession, throwing: true) }
                } catch {
                    precondition(mirrorSession.list == listBefore, "a failed line of edits changed the list")
                    precondition(mirrorSession.undoManager.undoActionNames == undoNamesBefore, "a failed line left undo steps")
                }
                mirrorSession.endEvent()
            } else {
                try? run(commands, on: mirrorSession)
            }
        }
        for change in mirrorSession.takeChanges() {
            precondition(mirror.canApply(change), "a taken change does not fit the list it was made to")
            mirror.apply(change)
        }
        precondition(mirror == mirrorSession.list, "the taken changes do not replay the session's list")
    }
    return 0
}

/// Runs commands on a session as the REPL does, ignoring their errors (or rethrowing the
/// first, to roll a line back), then ends the event unless `throwing`.
private func run(_ commands: [Command], on session: EditingSession, throwing: Bool = false) throws {
    commands: for command in commands {
        do {
            switch command {
            case .add(let title): try session.add(title)
            case .edit(let number, let title): try session.setTitle(title, at: number - 1)
            case .detail(let number, let text): try session.setDetail(text, at: number - 1)
            case .priority(let number, let priority): try session.setPriority(priority, at: number - 1)
            case .done(let number): try session.setDone(true, at: number - 1)
            case .undone(let number): try session.setDone(false, at: number - 1)
            case .remove(let number): try session.remove(at: number - 1)
            case .move(let number, let destination): try session.move(from: number - 1, to: destination - 1)
            case .undo(let steps, _): for _ in 0..<steps { guard try session.undo() != nil else { break } }
            case .redo(let steps, _): for _ in 0..<steps { guard try session.redo() != nil else { break } }
            case .drop(let redo): _ = try session.dropStep(redo: redo)
            case .goto(let step): _ = try session.go(toStep: step)
            case .begin(let name): session.beginGroup(named: name)
            case .end: try session.endGroup()
            case .list, .history, .help, .export, .importFile: break
            case .quit: break commands
            }
        } catch {
            if throwing { throw error }
            break commands
        }
    }
    if !throwing { session.endEvent() }
}
