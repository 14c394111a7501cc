/// What a manager knows about changes made outside it (see ARCHITECTURE.md, "Where a new
/// feature hooks in"): when each part last changed, and when each of its steps was last
/// done, undone or redone. A step is stale when a part it touched changed after that.
///
/// Times are a counter that each note advances, not clocks. Noting a change costs one
/// dictionary write per part, whatever the history's length; asking whether a step is stale
/// costs one lookup per part it declared. A manager creates its log at its first note: until
/// then nothing can be stale, and nothing is recorded.
struct PartChangeLog {
    /// A note: its time and who made it.
    struct Note: Hashable {
        var time: UInt64
        var origin: String?
    }

    /// The time of the newest note.
    private(set) var now: UInt64 = 0
    /// The newest note that named each part.
    private(set) var lastChange: [UndoPart: Note] = [:]
    /// The newest note of a change to parts nobody named: it touches every step.
    private(set) var lastChangeToAllParts: Note?
    /// The newest note of any kind: a step that declared no parts touched every part, so
    /// any change touches it.
    private(set) var lastNote: Note?
    /// When each step was last closed, undone or redone, while the log existed; a step
    /// missing here is older than the log, so older than every note.
    private var doneAt: [StepID: UInt64] = [:]
    /// The changes a restored step was already stale by when its history was saved.
    private var restoredChanges: [StepID: [UndoChange]] = [:]
    /// The time of the first note made while the open top-level group on the undo stack held
    /// an action (spec K2): the step it closes as was recorded from that action on, so it is
    /// done just before this note. `nil` while no such note was made.
    var firstNoteInOpenStep: UInt64?
    /// The same for the group an undo builds on the redo stack: the time of the first note
    /// made during the undo once that group held an action (the redo step it closes as was
    /// recorded from that action on). A redo builds its group on the undo stack, which
    /// ``firstNoteInOpenStep`` covers.
    var firstNoteInOpenRedoStep: UInt64?

    /// Records a change to `parts` by `origin`. Returns whether there was a part: a change
    /// to none changes nothing, and takes no time.
    mutating func note(_ parts: some Sequence<UndoPart>, origin: String?) -> Bool {
        var note: Note?
        for part in parts {
            if note == nil {
                now &+= 1
                note = Note(time: now, origin: origin)
            }
            lastChange[part] = note
            // Only a change to some part touches a step that declared none.
            lastNote = note
        }
        return note != nil
    }

    mutating func noteAllParts(origin: String?) -> Bool {
        now &+= 1
        let note = Note(time: now, origin: origin)
        lastChangeToAllParts = note
        lastNote = note
        return true
    }

    /// Step `id` was closed, undone or redone just now: what changed before no longer
    /// touches it.
    mutating func stepWasDone(_ id: StepID) {
        doneAt[id] = now
        restoredChanges[id] = nil
    }

    /// Step `id` just closed as a new step, or a group merged into it: done when its first
    /// action was recorded if a note came after that (``firstNoteInOpenStep``), else now.
    mutating func stepWasClosed(_ id: StepID) {
        let firstNote = firstNoteInOpenStep
        firstNoteInOpenStep = nil
        stepWasClosed(id, firstNote: firstNote)
    }

    /// Step `id` just closed on the redo stack, built by an undo: done when the undo's first
    /// registration was recorded if a note came after that (``firstNoteInOpenRedoStep``),
    /// else now.
    mutating func redoStepWasClosed(_ id: StepID) {
        let firstNote = firstNoteInOpenRedoStep
        firstNoteInOpenRedoStep = nil
        stepWasClosed(id, firstNote: firstNote)
    }

    /// Every open group went (``UndoManager/removeAllActions()``): a note held for the step one
    /// would have closed as is held against no step.
    mutating func openGroupsWereRemoved() {
        firstNoteInOpenStep = nil
        firstNoteInOpenRedoStep = nil
    }

    /// Step `id` closed: done just before `firstNote`, the first note made after its first
    /// action, if any; else now.
    private mutating func stepWasClosed(_ id: StepID, firstNote: UInt64?) {
        guard let firstNote else {
            stepWasDone(id)
            return
        }
        doneAt[id] = firstNote &- 1
        restoredChanges[id] = nil
    }

    /// Steps that left the stacks, to forget once nothing can put them back.
    private var stepsThatLeft: [StepID] = []

    /// Step `id` left the stacks: for good, unless a scope's rollback puts it back.
    mutating func stepLeft(_ id: StepID) {
        stepsThatLeft.append(id)
    }

    /// The steps the log holds a time or changes for (for the debug checks).
    var stepsHeld: Set<StepID> {
        Set(doneAt.keys).union(restoredChanges.keys)
    }

    /// Whether step `id` left and waits for ``forgetStepsThatLeft(_:)``.
    func leftAwaitingForget(_ id: StepID) -> Bool {
        stepsThatLeft.contains(id)
    }

    /// Forgets the steps that left and are gone (`isGone`).
    mutating func forgetStepsThatLeft(_ isGone: (StepID) -> Bool) {
        for id in stepsThatLeft where isGone(id) {
            doneAt[id] = nil
            restoredChanges[id] = nil
        }
        stepsThatLeft.removeAll()
    }

    /// Step `id`, restored from a saved history, was stale by `changes` when it was saved.
    mutating func restore(_ id: StepID, staleBy changes: [UndoChange]) {
        doneAt[id] = now
        restoredChanges[id] = changes.isEmpty ? nil : changes
    }

    /// The changes since step `id` that touched `parts` (every part, for `nil`): empty if
    /// the step is not stale.
    func changes(since id: StepID, touching parts: Set<UndoPart>?) -> [UndoChange] {
        let since = doneAt[id] ?? 0
        var changes = restoredChanges[id] ?? []
        if let parts {
            for part in parts.sorted() {
                if let note = lastChange[part], note.time > since {
                    changes.append(UndoChange(part: part, origin: note.origin))
                }
            }
        } else {
            // A step that declared nothing touched every part: every part noted since.
            for (part, note) in lastChange.sorted(by: { $0.key < $1.key }) where note.time > since {
                changes.append(UndoChange(part: part, origin: note.origin))
            }
        }
        if let note = lastChangeToAllParts, note.time > since {
            changes.append(UndoChange(part: nil, origin: note.origin))
        }
        return changes
    }

    /// Whether step `id` (which touched `parts`, every part for `nil`) is stale: the fast
    /// form of ``changes(since:touching:)``.
    func isStale(_ id: StepID, touching parts: Set<UndoPart>?) -> Bool {
        let since = doneAt[id] ?? 0
        if restoredChanges[id] != nil {
            return true
        }
        guard let parts else {
            return (lastNote?.time ?? 0) > since
        }
        if let note = lastChangeToAllParts, note.time > since {
            return true
        }
        return parts.contains { (lastChange[$0]?.time ?? 0) > since }
    }
}
