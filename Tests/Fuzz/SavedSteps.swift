// libFuzzer harness: the list's history as the database holds it (rows of `step` and
// `step_change`, in columns), read back, restored as a person's steps, and worked through by
// undo, redo, goto and history, as a session and as one-shots would.
//
// Input: a list as `export` writes it (JSON), a NUL, then one row per line:
//   step <id> <kind> <target or -> <person> <revision> <name…>
//   change <step> <revision> <number> <op> <item> <position> <destination or -> <fields>
//     (fields: title, detail, is_done, priority, old_title, old_detail, old_is_done,
//     old_priority, separated by tabs, `-` for NULL)
//   revision <n>          the list's revision
//   line <REPL line>      run by alice's session, in order (`oneshot <line>`: by a one-shot)
// A list that does not read stands for an empty one. The rows go in as another program could
// write them: without the schema's checks.
//
// Beyond "never crash":
// - a row todo never writes is reported as damage, with a reason, never half read;
// - every change read back writes the same columns again;
// - whatever the rows, the list stays a list: no two items with one identity, and what the
//   REPL says is on disk is on disk.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/SavedSteps.
import Foundation
import UndoKit

@_cdecl("LLVMFuzzerTestOneInput")
public func savedStepsFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let separator = input.firstIndex(of: 0) ?? input.endIndex
    let list = (try? TODOListFile(decoding: Data(input[..<separator]))).map { TODOList(items: $0.items) } ?? TODOList()
    guard Set(list.items.map(\.id)).count == list.count else {
        return 0
    }
    let lines = String(decoding: input[min(separator + 1, input.endIndex)...], as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).prefix(200)

    // In memory where there is a tmpfs: every line of the REPL commits, and waits for the disk.
    var base = FileManager.default.temporaryDirectory
    if FileManager.default.fileExists(atPath: "/dev/shm") {
        base = URL(fileURLWithPath: "/dev/shm")
    }
    let directory = base.appendingPathComponent("SavedStepsFuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("todo.db")
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + "-wal"))
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + "-shm"))
    let store = TODOStore(fileURL: url)

    // The schema, and the list, written as todo writes them.
    let setup = TODODatabase(store: store)
    do {
        try setup.write { () throws(TODOStoreError) in
            _ = try setup.refresh()
            try setup.commit(list.items.enumerated().map { .init(change: .insert($1, at: $0), itemID: nil) })
        }
    } catch {
        preconditionFailure("a new database cannot be written: \(error)")
    }
    guard let connection = try? SQLiteConnection(path: url.path, creating: false) else {
        preconditionFailure("the database cannot be opened")
    }
    try? connection.executeScript("PRAGMA ignore_check_constraints = ON")

    var replLines: [(oneShot: Bool, line: String)] = []
    for line in lines {
        let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let rest = fields.count > 1 ? String(fields[1]) : ""
        func value(_ text: Substring) -> SQLiteValue {
            if text == "-" {
                return .null
            }
            if let number = Int64(text) {
                return .integer(number)
            }
            return .text(String(text))
        }
        switch fields[0] {
        case "step":
            let parts = rest.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
            guard parts.count == 6 else {
                continue
            }
            _ = try? connection.execute(
                "INSERT INTO step (id, kind, target, person, revision, name, origin, made_at) VALUES (?, ?, ?, ?, ?, ?, 'fuzz', 0)",
                parts.map(value))
        case "change":
            let parts = rest.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: false)
            guard parts.count == 8 else {
                continue
            }
            var values = parts.prefix(7).map(value)
            let itemFields = parts[7].split(separator: "\t", omittingEmptySubsequences: false).prefix(8).map(value)
            values += itemFields + Array(repeating: SQLiteValue.null, count: 8 - itemFields.count)
            _ = try? connection.execute(
                """
                INSERT INTO step_change (step, revision, number, op, item, position, destination,
                    title, detail, is_done, priority, old_title, old_detail, old_is_done, old_priority)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values)
        case "revision":
            if let revision = Int64(rest), revision >= 0 {
                _ = try? connection.execute("UPDATE list_state SET revision = ?", [.integer(revision)])
            }
        case "line":
            replLines.append((false, rest))
        case "oneshot":
            replLines.append((true, rest))
        default:
            continue
        }
    }

    // Every change that reads back writes the same columns again.
    let reader = TODODatabase(store: store)
    if (try? reader.refresh()) != nil, let steps = try? reader.readSteps() {
        if let changes = try? reader.readChanges(ofSteps: steps.map(\.id)) {
            for change in changes.values.joined() {
                let identified = TODOList.IdentifiedChange(change: change.change, itemID: change.item, inverse: change.inverse)
                precondition(TODODatabase.columns(of: identified) != nil, "a change read back cannot be written")
            }
        }
    }

    // Alice's session restores her steps and runs the lines; one-shots run theirs.
    final class Output {
        var text = ""
    }
    let output = Output()
    let console = Console(isInteractive: false, readLine: { nil }, write: { output.text += $0 }, writeError: { output.text += $0 })
    let session = REPL(session: EditingSession(), store: store, console: console)
    session.database?.person = "alice"
    for (oneShot, line) in replLines.prefix(20) {
        if oneShot {
            let repl = REPL(session: EditingSession(), store: store, console: console)
            repl.database?.person = "bob"
            repl.ownStepsOnly = false
            repl.reportsOutsideChanges = false
            repl.handle(line: line)
        } else {
            session.handle(line: line)
        }
        let onDisk = try? store.load().list
        if let onDisk {
            precondition(Set(onDisk.items.map(\.id)).count == onDisk.count, "two items share an identity")
        }
        if session.isLoaded, !oneShot, let onDisk, session.session.list != onDisk, !session.hadErrors {
            preconditionFailure("the session's list is not the one on disk after a line it reported as saved")
        }
    }
    return 0
}
