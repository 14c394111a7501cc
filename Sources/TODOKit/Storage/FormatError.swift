/// Why the bytes of a data file could not be read as a list, before the store names the file.
///
/// The format code knows what is wrong but not which file it is looking at; the store turns
/// this into a ``TODOStoreError`` naming the snapshot or the journal.
enum FormatError: Error, Equatable {
    /// The bytes are not a valid file of this kind; `reason` says where and why, in the words
    /// of ``TODOStoreError/corrupt(path:reason:)``.
    case corrupt(String)
    /// The file declares a format version this program does not read.
    case unsupportedVersion(Int)

    static func missing(_ key: String, at path: String) -> FormatError {
        .corrupt("missing \"\(key)\" at \(path)")
    }

    static func invalidValue(at path: String) -> FormatError {
        .corrupt("invalid value at \(path)")
    }

    /// The description of a reader failure at `path`, as `JSONDecoder` would have put it.
    static func reading(_ failure: JSONReader.Failure, at path: String) -> FormatError {
        switch failure {
        case .invalidJSON: .corrupt("not valid JSON")
        case .unexpectedType: .corrupt("unexpected value at \(path)")
        case .invalidNumber: invalidValue(at: path)
        }
    }

    /// The same error, with `prefix` (such as `line 7: `) in front of its reason.
    func prefixed(_ prefix: String) -> FormatError {
        switch self {
        case .corrupt(let reason): .corrupt(prefix + reason)
        case .unsupportedVersion: self
        }
    }

    /// The store's error for this problem in the file at `path`.
    func storeError(path: String, supported: Int) -> TODOStoreError {
        switch self {
        case .corrupt(let reason): .corrupt(path: path, reason: reason)
        case .unsupportedVersion(let found): .unsupportedVersion(path: path, found: found, supported: supported)
        }
    }
}

extension JSONReader {
    /// Runs one reader call for the value at `path`, turning its failure into a ``FormatError``
    /// that names the path. The path is built only if something fails.
    mutating func at<Value>(
        _ path: @autoclosure () -> String,
        _ read: (inout JSONReader) throws(JSONReader.Failure) -> Value
    ) throws(FormatError) -> Value {
        do {
            return try read(&self)
        } catch {
            throw FormatError.reading(error, at: path())
        }
    }

    /// Walks the object at `path`, calling `member` with each key after which the caller reads
    /// or skips the value.
    mutating func forEachKey(
        at path: @autoclosure () -> String,
        _ member: (inout JSONReader, String) throws(FormatError) -> Void
    ) throws(FormatError) {
        var cursor = try at(path()) { reader throws(JSONReader.Failure) in try reader.beginObject() }
        while let key = try at(path(), { reader throws(JSONReader.Failure) in try reader.nextKey(&cursor) }) {
            try member(&self, key)
        }
    }

    /// Walks the array at `path`, calling `element` with each index; the caller reads the
    /// element.
    mutating func forEachElement(
        at path: @autoclosure () -> String,
        _ element: (inout JSONReader, Int) throws(FormatError) -> Void
    ) throws(FormatError) {
        var cursor = try at(path()) { reader throws(JSONReader.Failure) in try reader.beginArray() }
        var index = 0
        while try at(path(), { reader throws(JSONReader.Failure) in try reader.nextElement(&cursor) }) {
            try element(&self, index)
            index += 1
        }
    }

    /// Skips the value at `path`, which only fails on invalid JSON.
    mutating func skip(at path: @autoclosure () -> String) throws(FormatError) {
        try at(path()) { reader throws(JSONReader.Failure) in try reader.skipValue() }
    }
}
