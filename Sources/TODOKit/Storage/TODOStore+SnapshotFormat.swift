extension TODOStore {
    /// The snapshot file as read: the whole list at one revision.
    ///
    /// Version 1 files (written before the journal existed) have no revision and count as
    /// revision 0; version 2 files record the revision of the last change they contain.
    struct Snapshot: Equatable {
        var formatVersion: Int
        var revision: UInt64
        var items: [TODOItem]
    }

    /// Reads a snapshot file.
    ///
    /// The version is checked first, over the whole document, so that a file written by a
    /// newer version is reported as such and not as whatever its new shape looks like to this
    /// one; a syntax error anywhere is reported before a shape error, as `JSONDecoder` did.
    static func decodeSnapshot(_ bytes: [UInt8]) throws(FormatError) -> Snapshot {
        try bytes.withUnsafeBufferPointer { buffer throws(FormatError) in
            let version = try probeVersion(buffer)
            guard (1...formatVersion).contains(version) else { throw .unsupportedVersion(version) }
            var reader = JSONReader(buffer)
            var items: [TODOItem]?
            var revision: UInt64?
            try reader.forEachKey(at: "the top level") { reader, key throws(FormatError) in
                switch key {
                case "items":
                    var read: [TODOItem] = []
                    try reader.forEachElement(at: "items") { reader, index throws(FormatError) in
                        read.append(try TODOItem.read(from: &reader, at: { "items[\(index)]" }))
                    }
                    items = read
                case "revision" where version >= 2:
                    revision = try reader.at("revision") { reader throws(JSONReader.Failure) in try reader.readUInt64() }
                default:
                    try reader.skip(at: key)
                }
            }
            guard let items else { throw .missing("items", at: "the top level") }
            if version == 1 {
                return Snapshot(formatVersion: 1, revision: 0, items: items)
            }
            guard let revision else { throw .missing("revision", at: "the top level") }
            return Snapshot(formatVersion: version, revision: revision, items: items)
        }
    }

    /// Checks the syntax of the whole document and returns its `formatVersion`.
    private static func probeVersion(_ buffer: UnsafeBufferPointer<UInt8>) throws(FormatError) -> Int {
        enum Probe {
            case notAnObject
            case noVersion
            case version(Int)
            case badVersion(JSONReader.Failure)
        }
        var reader = JSONReader(buffer)
        var probe = Probe.noVersion
        do throws(JSONReader.Failure) {
            do throws(JSONReader.Failure) {
                var cursor = try reader.beginObject()
                while let key = try reader.nextKey(&cursor) {
                    guard key == "formatVersion" else {
                        try reader.skipValue()
                        continue
                    }
                    let start = reader
                    do throws(JSONReader.Failure) {
                        probe = .version(try reader.readInt())
                    } catch .invalidJSON {
                        throw .invalidJSON
                    } catch {
                        probe = .badVersion(error)
                        reader = start
                        try reader.skipValue()
                    }
                }
            } catch .unexpectedType {
                probe = .notAnObject
                try reader.skipValue()
            }
            try reader.expectEnd()
        } catch {
            throw .corrupt("not valid JSON")
        }
        switch probe {
        case .notAnObject: throw .corrupt("unexpected value at the top level")
        case .noVersion: throw .corrupt("no \"formatVersion\" field")
        case .badVersion(let failure): throw .reading(failure, at: "formatVersion")
        case .version(let version): return version
        }
    }

    /// The snapshot file for `items` at `revision`: the current format version, pretty-printed
    /// with sorted keys like the version 1 files `JSONEncoder` wrote, so diffs stay readable.
    static func encodeSnapshot(items: [TODOItem], revision: UInt64) -> [UInt8] {
        var writer = JSONWriter()
        writer.append("{\n  ")
        writer.appendKey("formatVersion", pretty: true)
        writer.appendInteger(formatVersion)
        writer.append(",\n  ")
        writer.appendKey("items", pretty: true)
        if items.isEmpty {
            writer.append("[]")
        } else {
            writer.append("[")
            for (index, item) in items.enumerated() {
                writer.append(index == 0 ? "\n    " : ",\n    ")
                item.write(to: &writer, indentation: 4)
            }
            writer.append("\n  ]")
        }
        writer.append(",\n  ")
        writer.appendKey("revision", pretty: true)
        writer.appendInteger(revision)
        writer.append("\n}\n")
        return writer.bytes
    }
}
