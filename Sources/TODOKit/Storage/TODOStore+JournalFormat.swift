import Foundation

extension TODOStore {
    /// A change as the journal records it: the change, and the identity of the item it finds
    /// at its position (none for an insertion).
    ///
    /// Positions are enough to replay a change on the list it was made to; the identity lets
    /// the loader check that it is replaying on that list, so a journal that does not belong to
    /// its snapshot is reported instead of scrambling the items.
    struct RecordedChange: Equatable {
        var change: TODOList.Change
        var itemID: UUID?

        /// `change` as made to `list`, which it must fit.
        init(_ change: TODOList.Change, in list: TODOList) {
            self.change = change
            switch change {
            case .insert: itemID = nil
            case .remove(let position), .replace(let position, _), .move(let position, _): itemID = list.items[position].id
            }
        }

        init(change: TODOList.Change, itemID: UUID?) {
            self.change = change
            self.itemID = itemID
        }
    }

    /// One line of the journal after its header: every change of one commit, and the revision
    /// the commit created.
    struct JournalRecord: Equatable {
        var revision: UInt64
        var changes: [RecordedChange]
    }

    /// What a scan of journal bytes found.
    struct JournalScan: Equatable {
        /// The header's revision: the snapshot revision the journal was started after. `nil`
        /// when the scan did not start at the beginning of the file, or the file has no
        /// complete header yet.
        var baseRevision: UInt64?
        /// The records, in order, with consecutive revisions.
        var records: [JournalRecord] = []
        /// The number of records scanned; still right after `records` is emptied.
        var recordCount = 0
        /// The offset, relative to the scanned bytes, just past the last line that can be
        /// trusted. Anything after it is a torn line from an interrupted append.
        var validEnd = 0
        /// The number of trusted lines scanned, header included.
        var lineCount = 0
    }

    /// The journal's first line: its format version and the revision it continues.
    static func journalHeaderLine(baseRevision: UInt64) -> [UInt8] {
        var writer = JSONWriter()
        writer.append("{")
        writer.appendKey("baseRevision")
        writer.appendInteger(baseRevision)
        writer.append(",")
        writer.appendKey("formatVersion")
        writer.appendInteger(formatVersion)
        writer.append("}")
        return framedLine(writer.bytes)
    }

    /// The journal line of one commit.
    static func journalRecordLine(_ record: JournalRecord) -> [UInt8] {
        var writer = JSONWriter()
        writer.append("{")
        writer.appendKey("changes")
        writer.append("[")
        for (index, recorded) in record.changes.enumerated() {
            if index > 0 { writer.append(",") }
            write(recorded, to: &writer)
        }
        writer.append("],")
        writer.appendKey("revision")
        writer.appendInteger(record.revision)
        writer.append("}")
        return framedLine(writer.bytes)
    }

    /// `<crc32 of payload, 8 lowercase hex digits> <payload>\n`: the checksum makes the line
    /// self-checking, so a line torn by a crash can never be mistaken for a change.
    static func framedLine(_ payload: [UInt8]) -> [UInt8] {
        let checksum = String(CRC32.checksum(payload), radix: 16)
        var line = Array(repeating: UInt8(ascii: "0"), count: 8 - checksum.utf8.count)
        line += checksum.utf8
        line.append(UInt8(ascii: " "))
        line += payload
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The payload of a framed line (without its newline), or `nil` if the checksum fails.
    static func verifiedPayload(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard line.count >= 9, line[line.startIndex + 8] == UInt8(ascii: " ") else { return nil }
        var expected: UInt32 = 0
        for byte in line.prefix(8) {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            expected = expected << 4 | UInt32(digit)
        }
        let payload = line.dropFirst(9)
        return CRC32.checksum(payload) == expected ? payload : nil
    }

    /// Reads journal lines.
    ///
    /// Only the last line may fail its checksum or lack its newline: that is an append a crash
    /// interrupted, which was never reported as saved, so it is left out (``JournalScan/validEnd``
    /// stops before it). A damaged line with lines after it is an error: those lines were
    /// reported as saved and must not be skipped silently.
    ///
    /// - Parameters:
    ///   - bytes: The journal from `lineNumber`'s line on.
    ///   - lineNumber: The number of the first line in `bytes`, for messages; 1 means `bytes`
    ///     starts at the beginning of the file, with the header.
    ///   - lastRevision: The revision of the record before `bytes`; `nil` at the beginning of
    ///     the file, where the header gives it.
    static func scanJournal(
        _ bytes: ArraySlice<UInt8>,
        lineNumber: Int = 1,
        after lastRevision: UInt64? = nil
    ) throws(FormatError) -> JournalScan {
        var scan = JournalScan()
        var previous = lastRevision
        var offset = bytes.startIndex
        var number = lineNumber
        while offset < bytes.endIndex {
            guard let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            guard let payload = verifiedPayload(bytes[offset..<newline]) else {
                guard newline + 1 == bytes.endIndex else {
                    throw .corrupt("line \(number) is damaged (its checksum does not match) and saved changes follow it")
                }
                break
            }
            do throws(FormatError) {
                if let revision = previous {
                    let record = try decodeRecord(payload)
                    guard record.revision == revision &+ 1 else {
                        throw .corrupt("revision \(record.revision) does not follow revision \(revision)")
                    }
                    scan.records.append(record)
                    scan.recordCount += 1
                    previous = record.revision
                } else {
                    let base = try decodeHeader(payload)
                    scan.baseRevision = base
                    previous = base
                }
            } catch {
                throw error.prefixed("line \(number): ")
            }
            offset = newline + 1
            number += 1
            scan.lineCount += 1
        }
        scan.validEnd = offset - bytes.startIndex
        return scan
    }

    private static func decodeHeader(_ payload: ArraySlice<UInt8>) throws(FormatError) -> UInt64 {
        var version: Int?
        var base: UInt64?
        try decodeLine(payload) { reader, key throws(FormatError) in
            switch key {
            case "formatVersion":
                version = try reader.at(key) { reader throws(JSONReader.Failure) in try reader.readInt() }
            case "baseRevision":
                base = try reader.at(key) { reader throws(JSONReader.Failure) in try reader.readUInt64() }
            default:
                try reader.skip(at: key)
            }
        }
        guard let version else { throw .corrupt("no \"formatVersion\" field") }
        // The journal appeared with format version 2; there never was a version 1 journal.
        guard version == formatVersion else { throw .unsupportedVersion(version) }
        guard let base else { throw .missing("baseRevision", at: "the top level") }
        return base
    }

    private static func decodeRecord(_ payload: ArraySlice<UInt8>) throws(FormatError) -> JournalRecord {
        var revision: UInt64?
        var changes: [RecordedChange]?
        try decodeLine(payload) { reader, key throws(FormatError) in
            switch key {
            case "revision":
                revision = try reader.at(key) { reader throws(JSONReader.Failure) in try reader.readUInt64() }
            case "changes":
                var read: [RecordedChange] = []
                try reader.forEachElement(at: key) { reader, index throws(FormatError) in
                    read.append(try decodeChange(from: &reader, at: "changes[\(index)]"))
                }
                changes = read
            default:
                try reader.skip(at: key)
            }
        }
        guard let revision else { throw .missing("revision", at: "the top level") }
        guard let changes else { throw .missing("changes", at: "the top level") }
        return JournalRecord(revision: revision, changes: changes)
    }

    /// Reads one line's object, which must be the whole payload.
    private static func decodeLine(
        _ payload: ArraySlice<UInt8>,
        _ member: (inout JSONReader, String) throws(FormatError) -> Void
    ) throws(FormatError) {
        try payload.withUnsafeBufferPointer { buffer throws(FormatError) in
            var reader = JSONReader(buffer)
            try reader.forEachKey(at: "the top level", member)
            try reader.at("the top level") { reader throws(JSONReader.Failure) in try reader.expectEnd() }
        }
    }

    private static func decodeChange(from reader: inout JSONReader, at path: String) throws(FormatError) -> RecordedChange {
        var operation: String?, id: UUID?, item: TODOItem?
        var positions: [String: Int] = [:]
        try reader.forEachKey(at: path) { reader, key throws(FormatError) in
            switch key {
            case "op":
                operation = try reader.at("\(path).op") { reader throws(JSONReader.Failure) in try reader.readString() }
            case "id":
                let text = try reader.at("\(path).id") { reader throws(JSONReader.Failure) in try reader.readString() }
                guard let value = UUID(parsing: text) else { throw .invalidValue(at: "\(path).id") }
                id = value
            case "item":
                item = try TODOItem.read(from: &reader, at: { "\(path).item" })
            case "at", "from", "to":
                let position = try reader.at("\(path).\(key)") { reader throws(JSONReader.Failure) in try reader.readInt() }
                guard position >= 0 else { throw .invalidValue(at: "\(path).\(key)") }
                positions[key] = position
            default:
                try reader.skip(at: "\(path).\(key)")
            }
        }
        func position(_ key: String) throws(FormatError) -> Int {
            guard let position = positions[key] else { throw .missing(key, at: path) }
            return position
        }
        func required<Value>(_ value: Value?, _ key: String) throws(FormatError) -> Value {
            guard let value else { throw .missing(key, at: path) }
            return value
        }
        switch try required(operation, "op") {
        case "insert":
            return RecordedChange(change: .insert(try required(item, "item"), at: try position("at")), itemID: nil)
        case "remove":
            return RecordedChange(change: .remove(at: try position("at")), itemID: try required(id, "id"))
        case "replace":
            let change = TODOList.Change.replace(at: try position("at"), with: try required(item, "item"))
            return RecordedChange(change: change, itemID: try required(id, "id"))
        case "move":
            let change = TODOList.Change.move(from: try position("from"), to: try position("to"))
            return RecordedChange(change: change, itemID: try required(id, "id"))
        default:
            throw .invalidValue(at: "\(path).op")
        }
    }

    private static func write(_ recorded: RecordedChange, to writer: inout JSONWriter) {
        func position(_ key: StaticString, _ value: Int) {
            writer.appendKey(key)
            writer.appendInteger(value)
            writer.append(",")
        }
        func operation(_ name: String) {
            writer.appendKey("op")
            writer.appendString(name)
        }
        func identity() {
            guard let id = recorded.itemID else { return }
            writer.appendKey("id")
            writer.appendUUID(id)
            writer.append(",")
        }
        func item(_ item: TODOItem) {
            writer.appendKey("item")
            item.write(to: &writer)
            writer.append(",")
        }
        writer.append("{")
        switch recorded.change {
        case .insert(let value, let at):
            position("at", at)
            item(value)
            operation("insert")
        case .remove(let at):
            position("at", at)
            identity()
            operation("remove")
        case .replace(let at, let value):
            position("at", at)
            identity()
            item(value)
            operation("replace")
        case .move(let from, let to):
            position("from", from)
            identity()
            operation("move")
            writer.append(",")
            writer.appendKey("to")
            writer.appendInteger(to)
        }
        writer.append("}")
    }
}
