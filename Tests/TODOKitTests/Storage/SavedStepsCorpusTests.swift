import Foundation
import Testing
@testable import TODOKit

/// The saved-steps fuzzer's seed inputs (`Tests/Fuzz/Corpus/SavedSteps`), replayed on both
/// backends: each input's rows are written as another program could write them, then Alice's
/// session and Bob's one-shots run its lines. Whatever the rows, both backends must say the
/// same thing, word for word but the list's location (the same clear error for a damaged
/// history), and hold the same list afterwards. Each input runs as it is and damaged: its
/// first change's operation replaced by one `todo` never writes.
///
/// The input format is the harness's (`Tests/Fuzz/SavedSteps.swift`): a list as `export`
/// writes it, a NUL, then `step …`, `change …`, `revision N`, `line …` and `oneshot …` lines.
@Suite struct SavedStepsCorpusTests {
    struct Input: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let corpus: [Input] = {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // Storage
            .deletingLastPathComponent()   // TODOKitTests
            .deletingLastPathComponent()   // Tests
            .appendingPathComponent("Fuzz/Corpus/SavedSteps")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var inputs: [Input] = []
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { continue }
            let bytes = Array(data)
            inputs.append(Input(name: name, bytes: bytes))
            let text = String(decoding: bytes, as: UTF8.self)
            if let range = text.range(of: #"(?m)^(change \S+ \S+ \S+ )(\S+)"#, options: .regularExpression) {
                let line = String(text[range])
                let damaged = line.split(separator: " ").prefix(4).joined(separator: " ") + " garbage"
                inputs.append(Input(name: name + " (damaged)", bytes: Array(text.replacingCharacters(in: range, with: damaged).utf8)))
            }
        }
        return inputs
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.corpus.count >= 8, "the seed inputs of Tests/Fuzz/Corpus/SavedSteps and their damaged copies")
    }

    // Needs PostgreSQL to compare with; `PostgresInstallation.testsRun` says loudly when it skips.
    @Test(.enabled(if: PostgresInstallation.testsRun, "needs the PostgreSQL server programs"), arguments: corpus)
    func bothBackendsSayTheSameAndKeepTheSameList(input: Input) throws {
        let onSQLite = try Self.replay(input, on: .sqlite)
        let onPostgres = try Self.replay(input, on: .postgres)
        #expect(onPostgres.output == onSQLite.output)
        #expect(onPostgres.list == onSQLite.list)
    }

    /// What the lines printed (the location written `<list>`, and where it changed as `<where the list is>`) and the list they left.
    static func replay(_ input: Input, on backend: Backend) throws -> (output: String, list: [String]) {
        let testList = try backend.makeList()
        let store = try testList.store()
        let separator = input.bytes.firstIndex(of: 0) ?? input.bytes.endIndex
        let list = (try? TODOListFile(decoding: Data(input.bytes[..<separator]))).map { TODOList(items: $0.items) } ?? TODOList()
        let setup = TODODatabase(store: store)
        try setup.write { () throws(TODOStoreError) in
            _ = try setup.refresh()
            try setup.commit(list.items.enumerated().map { .init(change: .insert($1, at: $0), itemID: nil) })
        }
        let connection = try store.sqlConnection()
        switch backend {
        case .sqlite: try connection.executeScript("PRAGMA ignore_check_constraints = ON")
        case .postgres: try testList.damage("SELECT 1")   // drops the CHECK constraints
        }

        var lines: [(oneShot: Bool, line: String)] = []
        let text = String(decoding: input.bytes[min(separator + 1, input.bytes.endIndex)...], as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200) {
            let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let rest = fields.count > 1 ? String(fields[1]) : ""
            func value(_ text: Substring) -> SQLValue {
                if text == "-" { return .null }
                if let number = Int64(text) { return .integer(number) }
                return .text(String(text))
            }
            switch fields[0] {
            case "step":
                let parts = rest.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
                guard parts.count == 6 else { continue }
                // PostgreSQL gives step numbers itself unless told to take the row's.
                let overriding = backend == .postgres ? "OVERRIDING SYSTEM VALUE" : ""
                _ = try? connection.execute(
                    "INSERT INTO step (id, kind, target, person, revision, name, origin, made_at) \(overriding) VALUES (?, ?, ?, ?, ?, ?, 'fuzz', 0)",
                    parts.map(value))
            case "change":
                let parts = rest.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: false)
                guard parts.count == 8 else { continue }
                var values = parts.prefix(7).map(value)
                let itemFields = parts[7].split(separator: "\t", omittingEmptySubsequences: false).prefix(8).map(value)
                values += itemFields + Array(repeating: SQLValue.null, count: 8 - itemFields.count)
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
            case "line": lines.append((false, rest))
            case "oneshot": lines.append((true, rest))
            default: continue
            }
        }

        if backend == .postgres {
            // As a program that writes step numbers of its own must (pg_restore does): the
            // identity's next number goes past them. Without it, todo's next step takes a
            // number in use and its save fails ("duplicate key value violates unique
            // constraint"), where SQLite's AUTOINCREMENT follows the largest number written.
            try connection.execute("SELECT setval(pg_get_serial_sequence('step', 'id'), max(id)) FROM step HAVING max(id) IS NOT NULL")
        }

        let console = ScriptedConsole()
        let session = REPL(session: EditingSession(), store: store, console: console.console)
        session.database?.person = "alice"
        for (oneShot, line) in lines.prefix(20) {
            if oneShot {
                let repl = REPL(session: EditingSession(), store: store, console: console.console)
                repl.database?.person = "bob"
                repl.ownStepsOnly = false
                repl.reportsOutsideChanges = false
                _ = repl.handle(line: line)
            } else {
                _ = session.handle(line: line)
            }
        }
        // Both streams, but the line naming the list in use.
        let output = (console.outputLines + console.errorLines.filter { !$0.hasPrefix("todo: using ") })
            .joined(separator: "\n")
            .replacingOccurrences(of: testList.location, with: "<list>")
            .replacingOccurrences(of: backend.changedPlace, with: "changed <where the list is>")
        return (output, try store.load().list.items.map(\.title))
    }
}
