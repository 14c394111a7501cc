// libFuzzer harness: reading an earlier version's files to import them (todo.json, its
// journal and its undo history), and the JSON list file of `export` and `import`.
//
// Input: one flag byte, then the snapshot's bytes, a NUL, the journal's, a NUL, and the
// history's. Bits 0, 1 and 2 of the flags say whether each file exists.
//
// Beyond "never crash":
// - a failure is a clear error naming the file: an empty message is a bug too;
// - what imports is a list whose history, if any was kept, restores onto it, and undoing
//   every step and redoing every step gives the list back, each command applied as recorded;
// - the list exported as JSON reads back as the same items, and the snapshot's bytes, read
//   as a list file, never trap either.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/LegacyImport.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func legacyFilesFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    guard let flags = input.first else { return 0 }
    let parts = input.dropFirst().split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
    func part(_ index: Int) -> Data? { flags & (1 << index) != 0 ? (parts.indices.contains(index) ? parts[index] : Data()) : nil }
    if let snapshot = part(0) {
        _ = try? TODOListFile(decoding: snapshot)
    }
    let contents: LegacyFiles.Contents
    do {
        contents = try LegacyFiles.decode(snapshot: part(0), journal: part(1), history: part(2), at: URL(fileURLWithPath: "/fuzz/todo.json"))
    } catch {
        precondition(error.description.contains("/fuzz/todo.json"), "an error that does not name the file: \(error)")
        return 0
    }
    precondition(contents.problems.allSatisfy { !$0.isEmpty }, "a note without a message")

    let exported = TODOListFile(list: contents.list)
    precondition((try? TODOListFile(decoding: exported.encoded())) == exported, "an exported list reads back differently")

    guard let history = contents.history else { return 0 }
    let session = EditingSession(list: contents.list)
    do {
        try session.restoreHistory(history)
    } catch {
        preconditionFailure("an imported history does not restore: \(error)")
    }
    var undone = 0
    while session.canUndo {
        precondition((try? session.undo()) != nil, "undo refused or did nothing")
        undone += 1
    }
    precondition(undone == history.undoSteps.count, "undid another number of steps")
    for _ in 0..<undone {
        precondition((try? session.redo()) != nil, "redo refused")
    }
    precondition(session.list == contents.list, "undoing and redoing every step did not give the list back")
    return 0
}
