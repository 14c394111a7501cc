/// Why an ``EditingSession`` refused a request; the list and the undo history are unchanged.
///
/// ```swift
/// do {
///     try session.remove(at: 7)
/// } catch let error as EditingSessionError {
///     print("error: \(error)")   // "error: no item 8; the list has 2 items"
/// }
/// ```
public enum EditingSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The position names no item. Positions are zero-based; the description shows them
    /// one-based, as `list` numbers them.
    case noSuchItem(position: Int, count: Int)
    /// A title must contain something other than spaces.
    case emptyTitle
    /// Titles and details are single lines, so that `list` prints one line per item.
    case multipleLines
    /// `undo` or `redo` while an explicit group is open: the undo manager requires groups to
    /// be closed first.
    case groupOpen
    /// ``EditingSession/endGroup()`` without a matching ``EditingSession/beginGroup(named:)``.
    case noGroupOpen
    /// A title or detail holds a control character (an escape sequence, a bell…), which a
    /// terminal would act on instead of showing; `position` counts characters from 1.
    case controlCharacter(UInt32, position: Int)
    /// Item `number` of a file to import cannot be added: `reason` says why.
    case importedItem(number: Int, reason: String)
    /// Item `number`, as the list was shown before the line, was removed by an earlier command
    /// of the same line.
    case removedEarlierOnTheLine(number: Int)
    /// `goto` named a step `history` does not show.
    case noSuchStep(number: Int, count: Int)
    /// The step undo (`isUndo`) or redo would take touched items changed elsewhere since:
    /// `changes` says which and how (see ``EditingSession/undo(anyway:)``).
    case changedElsewhere(step: String, isUndo: Bool, changes: [String])
    /// Item `number`, as the person last saw the list, was removed by `by` (another process)
    /// since: the line does nothing to another item in its place.
    case goneElsewhere(number: Int, title: String, by: String)
    /// Item `number` is not in the list as the person last saw it, which had `count` items:
    /// another process changed the list since.
    case notInListAsShown(number: Int, count: Int)
    /// A one-shot `undo` or `redo` of the list's step `step`: `reason` says what changed
    /// since, and who changed it.
    case stepChangedSince(step: String, reason: String)
    /// The list's history cannot be used for what was asked: `reason` says why.
    case historyUnusable(reason: String)

    /// A one-line explanation for the user.
    public var description: String {
        switch self {
        case .noSuchItem(let position, let count):
            let number = position + 1
            return switch count {
            case 0: "no item \(number); the list is empty"
            case 1: "no item \(number); the list has 1 item"
            default: "no item \(number); the list has \(count) items"
            }
        case .emptyTitle:
            return "the title is empty"
        case .multipleLines:
            return "titles and details must be a single line"
        case .groupOpen:
            return "a group is open; type \"end\" first"
        case .noGroupOpen:
            return "no group is open (\"end\" must follow \"begin\")"
        case .removedEarlierOnTheLine(let number):
            return
                "item \(number) was removed earlier on this line (numbers refer to the list as it was before the line)"
        case .importedItem(let number, let reason):
            return "item \(number) of the file: \(reason)"
        case .noSuchStep(let number, let count):
            return count == 0
                ? "no step \(number); the history is empty (0: before the first step)"
                : "no step \(number); history shows steps 1 to \(count) (0: before the first step)"
        case .changedElsewhere(let step, let isUndo, let changes):
            let more = changes.count > 2 ? ", and \(changes.count - 2) more items were changed" : ""
            return "cannot \(isUndo ? "undo" : "redo") \(step): " + changes.prefix(2).joined(separator: ", and ") + more
                + "; nothing changed"
        case .goneElsewhere(let number, let title, let by):
            let item = title.isEmpty ? "item \(number)" : "item \(number) \"\(title)\""
            return "\(item), as you last saw the list, was removed by \(by); nothing changed; the list now, to retype "
                + "with its numbers:"
        case .notInListAsShown(let number, let count):
            let items = count == 1 ? "1 item" : "\(count) items"
            return
                "no item \(number) in the list as you last saw it (\(items)); it changed since, and nothing changed; "
                + "the list now, to retype with its numbers:"
        case .stepChangedSince(let step, let reason):
            return "cannot \(step): \(reason); nothing changed"
        case .historyUnusable(let reason):
            return "\(reason); nothing changed"
        case .controlCharacter(0x09, let position):
            return "titles and details cannot contain tabs (U+0009 at character \(position)); use spaces"
        case .controlCharacter(let value, let position):
            let hex = String(value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "titles and details cannot contain control characters (\(code) at character \(position))"
        }
    }
}
