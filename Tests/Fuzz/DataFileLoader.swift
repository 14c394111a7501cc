// libFuzzer harness: the data-file loader, snapshot and journal together, in memory.
//
// Input: one flag byte, then the snapshot's bytes, a NUL, and the journal's bytes. Bit 0 of
// the flags says whether there is a snapshot file, bit 1 whether there is a journal file.
//
// Beyond "never crash", what loads must survive the store's own writers:
// - a compaction: the list written as a snapshot reads back as the same list and revision;
// - an append: a commit appended after the journal's trusted part (where the store appends,
//   cutting off any torn tail) reads back as the list plus that commit, one revision later;
// - an incremental read: scanning the journal's records in two parts gives the same records.
// A failure is a clear error: an empty message is a bug too.
//
// Run with Tests/Fuzz/run.sh; the seed corpus is in Tests/Fuzz/Corpus/DataFileLoader.

@_cdecl("LLVMFuzzerTestOneInput")
public func dataFileLoaderFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    guard let flags = input.first else { return 0 }
    let rest = input.dropFirst()
    let separator = rest.firstIndex(of: 0) ?? rest.endIndex
    let snapshot = flags & 1 != 0 ? Array(rest[..<separator]) : nil
    let journal = flags & 2 != 0 ? Array(rest[min(separator + 1, rest.endIndex)...]) : nil
    checkLoading(snapshot: snapshot, journal: journal)
    return 0
}

private func load(_ snapshot: [UInt8]?, _ journal: [UInt8]?) throws(TODOStoreError) -> TODOStore.DiskState {
    try TODOStore.decodeFiles(snapshot: snapshot, journal: journal, snapshotPath: "todo.json", journalPath: "todo.json.journal")
}

private func checkLoading(snapshot: [UInt8]?, journal: [UInt8]?) {
    let state: TODOStore.DiskState
    do {
        state = try load(snapshot, journal)
    } catch {
        precondition(!error.description.isEmpty, "an error without a message")
        return
    }

    // Compaction.
    let compacted = TODOStore.encodeSnapshot(items: state.list.items, revision: state.revision)
    do {
        let reloaded = try load(compacted, nil)
        precondition(reloaded.list == state.list, "the snapshot of a loaded list reads back differently")
        precondition(reloaded.revision == state.revision, "the snapshot of a loaded list has another revision")
    } catch {
        preconditionFailure("the snapshot of a loaded list does not load: \(error)")
    }

    guard let journal, let scan = state.journal, let base = scan.baseRevision else { return }
    precondition(scan.validEnd <= journal.count, "the trusted part is longer than the journal")

    // Incremental read: the records after the header, split at a line boundary.
    if scan.recordCount > 0 {
        do {
            let header = try TODOStore.scanJournal(journal[..<journal.index(after: journal.firstIndex(of: 10)!)])
            let all = try TODOStore.scanJournal(journal[header.validEnd..<scan.validEnd], lineNumber: 2, after: base)
            let middle = all.records.count / 2
            // Just past the `middle`-th line after the header, in the bytes as they are.
            let newlines = journal[header.validEnd..<scan.validEnd].indices.filter { journal[$0] == 10 }
            let firstPartEnd = middle == 0 ? header.validEnd : newlines[middle - 1] + 1
            let first = try TODOStore.scanJournal(journal[header.validEnd..<firstPartEnd], lineNumber: 2, after: base)
            let second = try TODOStore.scanJournal(
                journal[firstPartEnd..<scan.validEnd],
                lineNumber: 2 + middle,
                after: first.records.last?.revision ?? base
            )
            precondition(first.records + second.records == all.records, "reading the journal in parts gives other records")
            precondition(all.recordCount == scan.recordCount, "the journal has another number of records when read after its header")
        } catch {
            preconditionFailure("a journal that loads does not load in parts: \(error)")
        }
    }

    // Append, where the store would: only to a journal that ends at the list's revision.
    guard base + UInt64(scan.recordCount) == state.revision else { return }
    let item = TODOItem(title: "appended \"by\" the fuzzer\n")
    let change = TODOList.Change.insert(item, at: state.list.count)
    let record = TODOStore.JournalRecord(revision: state.revision + 1, changes: [TODOStore.RecordedChange(change, in: state.list)])
    let appended = Array(journal.prefix(scan.validEnd)) + TODOStore.journalRecordLine(record)
    do {
        let reloaded = try load(snapshot, appended)
        var expected = state.list
        expected.apply(change)
        precondition(reloaded.list == expected, "an appended record reads back differently")
        precondition(reloaded.revision == state.revision + 1, "an appended record has another revision")
    } catch {
        preconditionFailure("a journal with an appended record does not load: \(error)")
    }
}
