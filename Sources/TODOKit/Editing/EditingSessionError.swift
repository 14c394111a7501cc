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
    ///
    /// ```swift
    /// EditingSessionError.noSuchItem(position: 3, count: 2).description
    /// // "no item 4; the list has 2 items"
    /// ```
    case noSuchItem(position: Int, count: Int)
    /// A title must contain something other than spaces.
    ///
    /// ```swift
    /// try session.add("   ")   // throws .emptyTitle
    /// ```
    case emptyTitle
    /// Titles and details are single lines, so that `list` prints one line per item.
    ///
    /// ```swift
    /// try session.add("Buy\nmilk")   // throws .multipleLines
    /// ```
    case multipleLines
    /// `undo` or `redo` while an explicit group is open: the undo manager requires groups to
    /// be closed first.
    ///
    /// ```swift
    /// session.beginGroup()
    /// try session.undo()   // throws .groupOpen
    /// ```
    case groupOpen
    /// ``EditingSession/endGroup()`` without a matching ``EditingSession/beginGroup(named:)``.
    ///
    /// ```swift
    /// try EditingSession().endGroup()   // throws .noGroupOpen
    /// ```
    case noGroupOpen
    /// A title or detail holds a control character (an escape sequence, a bell…), which a
    /// terminal would act on instead of showing; `position` counts characters from 1.
    ///
    /// ```swift
    /// try session.add("\u{1B}[31mRed")   // throws .controlCharacter(0x1B, position: 1)
    /// ```
    case controlCharacter(UInt32, position: Int)
    /// Item `number`, as the list was shown before the line, was removed by an earlier command
    /// of the same line.
    ///
    /// ```swift
    /// // "rm 1; done 1": the second command refers to the item the first removed
    /// ```
    case removedEarlierOnTheLine(number: Int)
    /// `goto` named a step `history` does not show.
    ///
    /// ```swift
    /// EditingSessionError.noSuchStep(number: 9, count: 4).description
    /// // "no step 9; history shows steps 1 to 4 (0: before the first step)"
    /// ```
    case noSuchStep(number: Int, count: Int)

    /// A one-line explanation for the user.
    ///
    /// ```swift
    /// print("error: \(error.description)")
    /// ```
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
            return "item \(number) was removed earlier on this line (numbers refer to the list as it was before the line)"
        case .noSuchStep(let number, let count):
            return count == 0
                ? "no step \(number); the history is empty (0: before the first step)"
                : "no step \(number); history shows steps 1 to \(count) (0: before the first step)"
        case .controlCharacter(let value, let position):
            let hex = String(value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "titles and details cannot contain control characters (\(code) at character \(position))"
        }
    }
}
