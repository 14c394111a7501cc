@testable import UndoKit

// Views of a stack's entries that only tests read.

extension StackEntries {
    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }
    var last: UndoStack.Entry? { isEmpty ? nil : self[count - 1] }
}

extension UndoStack.Entry {
    /// The command of a step recorded by `perform(_:on:)`; `nil` for group marks and closures.
    var commandEntry: CommandEntry? {
        switch self {
        case .action(_, let owner, _), .singleton(_, let owner, _):
            owner.isCommand ? unsafeDowncast(owner, to: CommandEntry.self) : nil
        case .begin, .end:
            nil
        }
    }
}
