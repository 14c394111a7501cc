import Foundation

extension TODOItem {
    /// Reads an item object; `path` (such as `items[3]`) names it in error messages.
    ///
    /// Every field is required, as `JSONDecoder` required them of version 1 files, and missing
    /// ones are reported in declaration order. Unknown keys are skipped, so a later version may
    /// add fields.
    static func read(from reader: inout JSONReader, at path: () -> String) throws(FormatError) -> TODOItem {
        var id: UUID?, title: String?, detail: String?, isDone: Bool?, priority: Priority?
        try reader.forEachKey(at: path()) { reader, key throws(FormatError) in
            func fieldPath() -> String { "\(path()).\(key)" }
            switch key {
            case "id":
                let text = try reader.at(fieldPath()) { reader throws(JSONReader.Failure) in try reader.readString() }
                guard let value = UUID(parsing: text) else { throw .invalidValue(at: fieldPath()) }
                id = value
            case "title":
                title = try reader.at(fieldPath()) { reader throws(JSONReader.Failure) in try reader.readString() }
            case "detail":
                detail = try reader.at(fieldPath()) { reader throws(JSONReader.Failure) in try reader.readString() }
            case "isDone":
                isDone = try reader.at(fieldPath()) { reader throws(JSONReader.Failure) in try reader.readBool() }
            case "priority":
                let text = try reader.at(fieldPath()) { reader throws(JSONReader.Failure) in try reader.readString() }
                guard let value = Priority(rawValue: text) else { throw .invalidValue(at: fieldPath()) }
                priority = value
            default:
                try reader.skip(at: fieldPath())
            }
        }
        guard let id else { throw .missing("id", at: path()) }
        guard let title else { throw .missing("title", at: path()) }
        guard let detail else { throw .missing("detail", at: path()) }
        guard let isDone else { throw .missing("isDone", at: path()) }
        guard let priority else { throw .missing("priority", at: path()) }
        return TODOItem(id: id, title: title, detail: detail, isDone: isDone, priority: priority)
    }

    /// Writes the item as an object with sorted keys: on one line, or pretty-printed with its
    /// braces at `indentation` spaces.
    func write(to writer: inout JSONWriter, indentation: Int? = nil) {
        let pretty = indentation != nil
        func key(_ name: StaticString, first: Bool = false) {
            if !first { writer.append(",") }
            if let indentation {
                writer.append("\n")
                writer.appendIndentation(indentation + 2)
            }
            writer.appendKey(name, pretty: pretty)
        }
        writer.append("{")
        key("detail", first: true)
        writer.appendString(detail)
        key("id")
        writer.appendUUID(id)
        key("isDone")
        writer.appendBool(isDone)
        key("priority")
        writer.appendString(priority.rawValue)
        key("title")
        writer.appendString(title)
        if let indentation {
            writer.append("\n")
            writer.appendIndentation(indentation)
        }
        writer.append("}")
    }
}
