import Testing
@testable import TODOKit

/// Random scripts of edits, undo, redo and groups, run against an `EditingSession` and against
/// a reference that records plain before/after snapshots. After every event both must agree on
/// the list, `canUndo`/`canRedo` and the history of step names.
@Suite struct EditingSessionModelTests {
    /// The reference: an undo step is a snapshot of the list before and after it.
    struct Reference {
        struct Step {
            var before: [TODOItem]
            var after: [TODOItem]
            var name: String
        }

        var items: [TODOItem]
        var undo: [Step] = []
        var redo: [Step] = []
        /// The step being recorded: the edits since the last step ended.
        var pending: (before: [TODOItem], name: String)?
        /// The names of the open groups, outermost first.
        var groups: [String?] = []

        mutating func edit(named name: String, _ change: (inout [TODOItem]) -> Void) {
            if pending == nil {
                pending = (items, name)
            }
            change(&items)
            pending?.name = name
            redo.removeAll()
        }

        /// Ending the outermost group names the step so far; the last name set wins.
        mutating func end() {
            let name = groups.removeLast()
            if groups.isEmpty, let name, pending != nil {
                pending?.name = name
            }
        }

        /// Steps are made of whole events: the pending step closes at an event's end, or when
        /// undo/redo needs it closed, once no group is open.
        mutating func closePendingStep() {
            guard groups.isEmpty, let step = pending else { return }
            undo.append(Step(before: step.before, after: items, name: step.name))
            pending = nil
        }

        mutating func performUndo() -> String? {
            closePendingStep()
            guard let step = undo.popLast() else { return nil }
            items = step.before
            redo.append(step)
            return "Undo \(step.name)"
        }

        mutating func performRedo() -> String? {
            // Nothing can be redone while a step is pending (its edits cleared redo), and a redo
            // with nothing to redo leaves the event's step open.
            guard let step = redo.popLast() else { return nil }
            closePendingStep()
            items = step.after
            undo.append(step)
            return "Redo \(step.name)"
        }
    }

    /// Runs one script and checks the session against the reference after every event.
    /// Returns the number of steps that were undone or redone, to show the script did work.
    static func runScript(seed: UInt64, events: Int) throws -> Int {
        var random = SplitMix64(seed: seed)
        let start = (0..<Int.random(in: 0...4, using: &random)).map { TODOItem(title: "Item \($0)") }
        let session = EditingSession(list: TODOList(items: start))
        // The reference steps are Apple's: one per event, never merged (coalescing has a test
        // of its own, EditingSessionCoalescingTests).
        session.coalescesEdits = false
        var reference = Reference(items: start)
        var undoRedoCount = 0
        var titleCounter = 0
        // What ran, event by event, so that a failure shows a script to reproduce by hand.
        var log: [String] = []
        func note(_ text: String) { log[log.count - 1] += text + "; " }

        func randomPosition() -> Int {
            // Now and then one past the end (or negative) to exercise the refusals.
            Int.random(in: -1...(reference.items.count), using: &random)
        }

        func randomEdit() throws {
            let position = randomPosition()
            let destination = randomPosition()
            let valid = reference.items.indices.contains(position)
            let old = valid ? reference.items[position] : nil
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                titleCounter += 1
                note("add New \(titleCounter)")
                let item = try session.add("New \(titleCounter)")
                reference.edit(named: "Add \"\(item.title)\"") { $0.append(item) }
            case 1:
                guard valid else {
                    #expect(throws: EditingSessionError.self) { try session.setTitle("x", at: position) }
                    return
                }
                titleCounter += 1
                let title = "Title \(titleCounter)"
                note("setTitle \(title) at \(position)")
                try session.setTitle(title, at: position)
                reference.edit(named: "Edit \"\(title)\"") { $0[position].title = title }
            case 2:
                guard let old else {
                    #expect(throws: EditingSessionError.self) { try session.remove(at: position) }
                    return
                }
                note("remove \(position)")
                #expect(try session.remove(at: position) == old)
                reference.edit(named: "Remove \"\(old.title)\"") { $0.remove(at: position) }
            case 3:
                guard let old, reference.items.indices.contains(destination) else {
                    #expect(throws: EditingSessionError.self) { try session.move(from: position, to: destination) }
                    return
                }
                note("move \(position) \(destination)")
                guard try session.move(from: position, to: destination) else {
                    #expect(position == destination)
                    return
                }
                reference.edit(named: "Move \"\(old.title)\"") {
                    $0.insert($0.remove(at: position), at: destination)
                }
            case 4, 5:
                guard let old else {
                    #expect(throws: EditingSessionError.self) { try session.setDone(true, at: position) }
                    return
                }
                let isDone = Bool.random(using: &random)
                note("setDone \(isDone) at \(position)")
                guard try session.setDone(isDone, at: position) else {
                    #expect(old.isDone == isDone)
                    return
                }
                reference.edit(named: "Mark \"\(old.title)\" \(isDone ? "Done" : "Not Done")") { $0[position].isDone = isDone }
            case 6:
                guard let old else {
                    #expect(throws: EditingSessionError.self) { try session.setPriority(.high, at: position) }
                    return
                }
                let priority = TODOItem.Priority.allCases.randomElement(using: &random)!
                note("setPriority \(priority) at \(position)")
                guard try session.setPriority(priority, at: position) else {
                    #expect(old.priority == priority)
                    return
                }
                reference.edit(named: "Set Priority of \"\(old.title)\"") { $0[position].priority = priority }
            default:
                guard let old else {
                    #expect(throws: EditingSessionError.self) { try session.setDetail("d", at: position) }
                    return
                }
                let detail = Bool.random(using: &random) ? "" : "detail \(titleCounter)"
                note("setDetail '\(detail)' at \(position)")
                guard try session.setDetail(detail, at: position) else {
                    #expect(old.detail == detail)
                    return
                }
                reference.edit(named: "Edit Detail of \"\(old.title)\"") { $0[position].detail = detail }
            }
        }

        func undoOrRedo(_ isUndo: Bool) throws {
            note(isUndo ? "undo" : "redo")
            guard reference.groups.isEmpty else {
                #expect(throws: EditingSessionError.groupOpen) { isUndo ? try session.undo() : try session.redo() }
                return
            }
            let expected = isUndo ? reference.performUndo() : reference.performRedo()
            let actual = isUndo ? try session.undo() : try session.redo()
            #expect(actual == expected, "seed \(seed)")
            if expected != nil { undoRedoCount += 1 }
        }

        for _ in 0..<events {
            log.append("")
            // One event: a few commands, as on one line of the REPL.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<11:
                    try randomEdit()
                case 11..<14:
                    try undoOrRedo(true)
                case 14..<17:
                    try undoOrRedo(false)
                case 17:
                    guard reference.groups.count < 3 else { continue }
                    let name: String? = Bool.random(using: &random) ? "Group \(titleCounter)" : nil
                    note("begin \(name ?? "")")
                    session.beginGroup(named: name)
                    reference.groups.append(name)
                default:
                    guard !reference.groups.isEmpty else {
                        #expect(throws: EditingSessionError.noGroupOpen) { try session.endGroup() }
                        continue
                    }
                    note("end")
                    try session.endGroup()
                    reference.end()
                }
            }
            session.endEvent()
            reference.closePendingStep()

            let script = Comment(rawValue: "seed \(seed), script by event:\n" + log.joined(separator: "\n"))
            var agrees = session.list.items == reference.items
            if reference.groups.isEmpty {
                agrees = agrees
                    && session.undoManager.groupingLevel == 0
                    && session.canUndo == !reference.undo.isEmpty
                    && session.canRedo == !reference.redo.isEmpty
                    && session.historyNames == .init(undo: reference.undo.reversed().map(\.name), redo: reference.redo.reversed().map(\.name))
            }
            guard agrees else {
                #expect(session.list.items == reference.items, script)
                #expect(session.historyNames == .init(undo: reference.undo.reversed().map(\.name), redo: reference.redo.reversed().map(\.name)), script)
                #expect(session.canUndo == !reference.undo.isEmpty, script)
                #expect(session.canRedo == !reference.redo.isEmpty, script)
                #expect(session.undoManager.groupingLevel == 0, script)
                return undoRedoCount
            }
        }

        // Finally everything undoes back to the start and redoes to the last redoable state.
        while !reference.groups.isEmpty {
            try session.endGroup()
            reference.end()
        }
        session.endEvent()
        reference.closePendingStep()
        let last = reference.redo.first?.after ?? reference.items
        var steps = 0
        while try session.undo() != nil { steps += 1 }
        #expect(session.list.items == start, "seed \(seed)")
        #expect(steps == reference.undo.count, "seed \(seed)")
        while try session.redo() != nil { steps -= 1 }
        #expect(session.list.items == last, "seed \(seed)")
        #expect(steps == -reference.redo.count, "seed \(seed)")
        return undoRedoCount
    }

    @Test(arguments: 0..<8)
    func randomScriptsMatchTheReference(batch: UInt64) throws {
        var undoRedoCount = 0
        for script in 0..<40 as Range<UInt64> {
            undoRedoCount += try Self.runScript(seed: 0x5EED_0000 + batch * 1000 + script, events: 60)
        }
        // Guards against a generator that stops exercising undo and redo.
        #expect(undoRedoCount > 200)
    }
}
