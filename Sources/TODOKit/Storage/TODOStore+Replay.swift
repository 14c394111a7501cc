extension TODOStore {
    /// What loading the two files found: the list, its revision, and what the replica needs to
    /// know to notice later changes and to append.
    struct DiskState {
        var list: TODOList
        var revision: UInt64
        /// The snapshot as read, without its items (they are in `list` now); `nil` if there is
        /// no snapshot file.
        var snapshot: Snapshot?
        /// The number of items in the snapshot.
        var snapshotItemCount: Int
        /// The journal as read, without its records (they are applied); `nil` if there is no
        /// journal file.
        var journal: JournalScan?
    }

    /// Combines a snapshot and a journal, either of which may be missing, into the list.
    ///
    /// Records the snapshot already contains (revision ≤ the snapshot's) are skipped: a crash
    /// between the two steps of a compaction leaves a new snapshot beside the old journal, and
    /// skipping by revision means no record is applied twice and none is lost. A journal that
    /// starts after the snapshot's revision would leave a gap, so it is an error.
    ///
    /// Pure: the fuzzer drives it with arbitrary bytes.
    static func decodeFiles(
        snapshot snapshotBytes: [UInt8]?,
        journal journalBytes: [UInt8]?,
        snapshotPath: String,
        journalPath: String
    ) throws(TODOStoreError) -> DiskState {
        var snapshot: Snapshot?
        if let snapshotBytes {
            do throws(FormatError) {
                snapshot = try decodeSnapshot(snapshotBytes)
            } catch {
                throw error.storeError(path: snapshotPath, supported: formatVersion)
            }
        }
        var list = TODOList(items: snapshot?.items ?? [])
        var revision = snapshot?.revision ?? 0
        let snapshotItemCount = list.count
        snapshot?.items = []

        var journal: JournalScan?
        if let journalBytes {
            do throws(FormatError) {
                var scan = try scanJournal(journalBytes[...])
                if let base = scan.baseRevision, base > revision {
                    let name = snapshotPath.split(separator: "/").last.map(String.init) ?? snapshotPath
                    throw FormatError.corrupt(
                        "it continues revision \(base), but \(name) is at revision \(revision); the two files do not belong together"
                    )
                }
                try replay(scan.records, onto: &list, revision: &revision, firstLineNumber: 2)
                scan.records = []
                journal = scan
            } catch {
                throw error.storeError(path: journalPath, supported: formatVersion)
            }
        }
        return DiskState(list: list, revision: revision, snapshot: snapshot, snapshotItemCount: snapshotItemCount, journal: journal)
    }

    /// Applies the records newer than `revision` to `list`, checking that every change fits
    /// the list: its positions exist and it touches the item it names.
    ///
    /// Positions are applied directly, so replaying is linear in the number of changes; the
    /// identity check is one comparison per change.
    ///
    /// - Parameter firstLineNumber: The journal line of `records[0]`, for messages.
    static func replay(
        _ records: [JournalRecord],
        onto list: inout TODOList,
        revision: inout UInt64,
        firstLineNumber: Int
    ) throws(FormatError) {
        for (index, record) in records.enumerated() where record.revision > revision {
            let line = firstLineNumber + index
            guard record.revision == revision + 1 else {
                throw .corrupt("line \(line): revision \(record.revision) does not follow revision \(revision)")
            }
            for (number, recorded) in record.changes.enumerated() {
                guard list.canApply(recorded.change), touchesItem(recorded, in: list) else {
                    throw .corrupt("line \(line): change \(number + 1) of revision \(record.revision) does not fit the list")
                }
                list.apply(recorded.change)
            }
            revision = record.revision
        }
    }

    /// Whether the item `recorded` names is the one at the position it changes (always true of
    /// an insertion, whose item is new). `recorded` must fit the list's positions.
    static func touchesItem(_ recorded: RecordedChange, in list: TODOList) -> Bool {
        recorded == RecordedChange(recorded.change, in: list)
    }
}
