import Foundation
import Testing
@testable import TODOKit

/// Three people on one list, two in sessions and one running one-shots, doing random lines in
/// random turns; after every line the list on disk is checked against what each person saw
/// and was told.
@Suite struct SharedListRandomTests {
    /// A person's session, and the items as they last saw them numbered: the list as their
    /// previous line left it.
    final class Person {
        let name: String
        let repl: REPL
        let console: ScriptedConsole
        var seen: [TODOItem.ID] = []
        /// Every item a step of theirs touched: what their undo may change.
        var touched: Set<TODOItem.ID> = []

        init(_ name: String, store: TODOStore) {
            self.name = name
            console = ScriptedConsole()
            repl = REPL(session: EditingSession(), store: store, console: console.console)
            repl.database?.person = name
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomLinesOfThreePeopleActOnWhatEachSawAndUndoOnlyTheirOwn(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let store = TODOStore(fileURL: directory.file("todo.db"))
        let people = [Person("alice", store: store), Person("bob", store: store)]
        var counter = 0
        func onDisk() throws -> TODOList {
            try store.load().list
        }

        for _ in 0..<120 {
            counter += 1
            let before = try onDisk()
            if Int.random(in: 0..<5, using: &random) == 0 {
                // Carol, in one-shots: an add, or an undo of the newest step of the list.
                let console = ScriptedConsole()
                let oneShot = REPL(session: EditingSession(), store: store, console: console.console)
                oneShot.database?.person = "carol"
                oneShot.ownStepsOnly = false
                oneShot.reportsOutsideChanges = false
                let line = Bool.random(using: &random) ? "add carol \(counter)" : "undo"
                oneShot.handle(line: line)
                if line.hasPrefix("add") {
                    #expect(try onDisk().items.map(\.title).contains("carol \(counter)"), "a one-shot's add is on disk")
                }
                continue
            }
            let person = people[Int.random(in: 0..<people.count, using: &random)]
            let count = person.seen.count
            let number = count > 0 ? Int.random(in: 1...count, using: &random) : 1
            var line: String
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: line = "add \(person.name) \(counter)"
            case 2: line = "edit \(number) \(person.name) edit \(counter)"
            case 3: line = "done \(number)"
            case 4: line = "rm \(number)"
            case 5: line = "mv \(number) 1"
            case 6: line = "undo"
            default: line = "redo"
            }
            if count == 0 && !line.hasPrefix("add") && !line.hasPrefix("undo") && !line.hasPrefix("redo") {
                // No numbers before the person has seen the list.
                line = "add \(person.name) \(counter)"
            }
            person.console.clear()
            person.repl.handle(line: line)
            let after = try onDisk()
            let errors = person.console.errorLines.filter { $0.hasPrefix("error: ") }
            let saw = number <= count ? person.seen[number - 1] : nil

            // What the REPL says it did is on disk: the session holds the list on disk.
            #expect(person.repl.session.list == after, "\(person.name): \(line)")
            if errors.isEmpty {
                let verb = line.split(separator: " ")[0]
                switch verb {
                case "add":
                    let added = after.items.first { $0.title == "\(person.name) \(counter)" }
                    #expect(added != nil, "no lost line: \(line)")
                    if let added {
                        person.touched.insert(added.id)
                    }
                case "edit", "done":
                    // The edit changed the very item the person saw as that number.
                    let changed = after.items.filter { item in before.items.first { $0.id == item.id } != item }
                    #expect(changed.allSatisfy { $0.id == saw }, "\(person.name): \(line) changed another item")
                    if let saw {
                        person.touched.insert(saw)
                    }
                case "rm":
                    let gone = before.items.filter { item in !after.items.contains { $0.id == item.id } }
                    #expect(gone.map(\.id) == [saw].compactMap { $0 }, "\(person.name): \(line) removed another item")
                    if let saw {
                        person.touched.insert(saw)
                    }
                case "mv":
                    #expect(after.items.first?.id == saw, "\(person.name): \(line) moved another item")
                    if let saw {
                        person.touched.insert(saw)
                    }
                default:
                    // An undo or redo changes only items the person's own steps touched.
                    let beforeByID = Dictionary(uniqueKeysWithValues: before.items.map { ($0.id, $0) })
                    let afterByID = Dictionary(uniqueKeysWithValues: after.items.map { ($0.id, $0) })
                    let changed = Set(beforeByID.keys).union(afterByID.keys).filter { beforeByID[$0] != afterByID[$0] }
                    #expect(changed.isSubset(of: person.touched), "\(person.name): \(line) changed someone else's item")
                }
            } else {
                // A refusal changes nothing, and says why in words a person recognises.
                #expect(after == before, "\(person.name): a refused \(line) changed the list")
                for error in errors where error.contains("cannot undo") || error.contains("cannot redo") {
                    #expect(error.contains(" by "), "a refusal says who: \(error)")
                }
            }
            person.seen = person.repl.session.list.items.map(\.id)
        }
        let history = try store.savedSteps()
        #expect(history.map(\.id) == history.map(\.id).sorted(), "step numbers only grow")
    }
}
