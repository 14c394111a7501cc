// libFuzzer harness: the undo history loader (todo.json.history) and restoring what it loads.
//
// Input: a snapshot of the list (todo.json as the store writes it), a NUL, and the history
// file's bytes. A snapshot that does not load stands for an empty list.
//
// Beyond "never crash":
// - a history that loads (a base and the changes after it) encodes, whole, and loads again as
//   the same history at the same revision;
// - restoring it onto the list either fails, leaving the session without history and the list
//   as it was, or succeeds; then undoing every step and redoing every step applies every
//   command as recorded, so the list comes back exactly, and the history taken again equals
//   the one restored;
// - a failure is a clear error: an empty message is a bug too.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/HistoryLoader.
import UndoKit

@_cdecl("LLVMFuzzerTestOneInput")
public func historyLoaderFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let separator = input.firstIndex(of: 0) ?? input.endIndex
    let list = (try? TODOStore.decodeSnapshot(Array(input[..<separator])))
        .map { TODOList(items: $0.items) } ?? TODOList()
    checkHistory(Array(input[min(separator + 1, input.endIndex)...]), on: list)
    return 0
}

private func checkHistory(_ bytes: [UInt8], on list: TODOList) {
    let saved: SavedHistory
    do {
        saved = try SavedHistory(decoding: bytes)
    } catch {
        precondition(!error.description.isEmpty, "an error without a message")
        return
    }

    // Round trip.
    do {
        let again = try SavedHistory(decoding: try saved.encoded())
        precondition(again.history == saved.history && again.revision == saved.revision,
                     "a loaded history encodes and loads as another history")
    } catch {
        preconditionFailure("a loaded history does not load again after encoding: \(error)")
    }

    // Restoring.
    let session = EditingSession(list: list)
    do {
        try session.restoreHistory(saved.history)
    } catch {
        precondition(!error.description.isEmpty, "an error without a message")
        precondition(!session.canUndo && !session.canRedo, "a refused history left steps behind")
        precondition(session.list == list && session.takeChanges().isEmpty, "a refused history changed the list")
        return
    }
    precondition(session.list == list, "restoring changed the list")
    precondition(session.undoManager.undoCount == saved.history.undoSteps.count, "restored another number of undo steps")
    precondition(session.undoManager.redoCount == saved.history.redoSteps.count, "restored another number of redo steps")
    // Branches come back in id order, whatever order the file listed them in.
    var expected = saved.history
    expected.branches.sort { $0.step.id!.rawValue < $1.step.id!.rawValue }
    var readBack = session.savableHistory()!
    if (expected.undoSteps + expected.redoSteps).allSatisfy({ $0.id == nil }) {
        // A version 1 history has no step ids; the session's manager, which records the tree,
        // gives the restored steps ids of its own.
        for index in readBack.undoSteps.indices { readBack.undoSteps[index].id = nil }
        for index in readBack.redoSteps.indices { readBack.redoSteps[index].id = nil }
    }
    precondition(readBack == expected, "the restored history reads back differently")
    _ = session.history

    // Every command applies as recorded: undo all, redo all, and the list is back.
    let undoCount = session.undoManager.undoCount
    let redoCount = session.undoManager.redoCount
    var applied = 0
    while session.canUndo {
        precondition((try? session.undo()) != nil, "undo refused or did nothing")
        applied += 1
    }
    precondition(applied == undoCount, "undid another number of steps")
    precondition(session.undoManager.redoCount == undoCount + redoCount, "undone steps are not all redoable")
    while session.canRedo {
        precondition((try? session.redo()) != nil, "redo refused or did nothing")
    }
    // The redo steps saved were redone too, so the list is where they lead; undo them again.
    for _ in 0..<redoCount {
        _ = try? session.undo()
    }
    precondition(session.list == list, "undoing and redoing every step did not give the list back")
    let expectedChanges = saved.history.undoSteps.flatMap(\.commands).count * 2 + saved.history.redoSteps.flatMap(\.commands).count * 2
    precondition(session.takeChanges().count == expectedChanges, "a command did not apply as recorded")
}
