// libFuzzer harness: the undo history as the database holds it, one row per step, turned
// back into UndoKit's history tree, and restored onto the list.
//
// Input: a list as `export` writes it (JSON), a NUL, then one line per step row:
// `<id> <parent id or -> <place> <the step as UndoKit encodes a group>`, the first line the
// current step's id (or `-`). A list that does not read stands for an empty one.
//
// Beyond "never crash":
// - rows that do not make one tree are refused with a reason, never half read;
// - a history that restores undoes and redoes exactly as recorded: undoing every step and
//   redoing every step gives the list back, and the history taken again from the session has
//   the same steps;
// - a history that does not fit the list is refused and leaves the session as it was.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/SavedSteps.
import Foundation
import UndoKit

@_cdecl("LLVMFuzzerTestOneInput")
public func savedStepsFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let separator = input.firstIndex(of: 0) ?? input.endIndex
    let list = (try? TODOListFile(decoding: Data(input[..<separator]))).map { TODOList(items: $0.items) } ?? TODOList()
    let lines = String(decoding: input[min(separator + 1, input.endIndex)...], as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).prefix(200)
    func id(_ text: Substring?) -> UndoTree.NodeID? { text.flatMap { UInt64($0) }.map(UndoTree.NodeID.init(rawValue:)) }
    let current = id(lines.first)
    var rows: [(id: UndoTree.NodeID, parent: UndoTree.NodeID?, place: String, body: String)] = []
    for line in lines.dropFirst() {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let rowID = id(fields[0]), !rows.contains(where: { $0.id == rowID }) else { continue }
        rows.append((rowID, id(fields[1]), String(fields[2]), String(fields[3])))
    }

    let history: UndoHistory<TODOCommand>
    switch TODODatabase.history(rows: rows, current: current) {
    case .unusable(let reason):
        precondition(!reason.isEmpty, "a refusal without a reason")
        return 0
    case .usable(let usable, let places):
        precondition(places.count == rows.count, "a row left out of the tree")
        history = usable
    }
    let session = EditingSession(list: list)
    do {
        try session.restoreHistory(history)
    } catch {
        precondition(!error.description.isEmpty, "a refusal without a reason")
        precondition(!session.canUndo && !session.canRedo && session.list == list, "a refused history changed the session")
        return 0
    }
    let taken = try? session.undoManager.undoHistory(of: TODOCommand.self)
    precondition(taken?.undoSteps.map(\.id) == history.undoSteps.map(\.id), "the restored undo steps are other steps")
    precondition(taken?.redoSteps.map(\.id) == history.redoSteps.map(\.id), "the restored redo steps are other steps")
    let (undoCount, redoCount) = (session.undoManager.undoCount, session.undoManager.redoCount)
    while session.canUndo {
        precondition((try? session.undo()) != nil, "undo refused or did nothing")
    }
    precondition(session.undoManager.redoCount == undoCount + redoCount, "undone steps are not all redoable")
    while session.canRedo {
        precondition((try? session.redo()) != nil, "redo refused or did nothing")
    }
    for _ in 0..<redoCount {
        _ = try? session.undo()
    }
    precondition(session.list == list, "undoing and redoing every step did not give the list back")
    return 0
}
