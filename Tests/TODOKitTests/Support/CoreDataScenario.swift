import Testing
import TODOKit

/// The create, update and delete scenarios of the Core Data TODO article: each starts from a
/// loaded list (no undo history), makes one change, and is checked after the change, after
/// undo and after redo.
enum CoreDataScenario: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case create, update, delete

    static let milk = TODOItem(title: "Buy milk")
    static let eggs = TODOItem(title: "Buy eggs")

    var testDescription: String { rawValue }

    var start: TODOList {
        switch self {
        case .create: [Self.milk]
        case .update, .delete: [Self.milk, Self.eggs]
        }
    }

    /// The list once the change is made. Created items get a fresh identity, so `create`
    /// compares titles and checks the identity separately.
    func isChanged(_ list: TODOList) -> Bool {
        switch self {
        case .create:
            list.items.map(\.title) == ["Buy milk", "Buy pears"] && list.items[0] == Self.milk
        case .update:
            list == [Self.milk, TODOItem(id: Self.eggs.id, title: "Buy eggs", isDone: true)]
        case .delete:
            list == [Self.eggs]
        }
    }

    /// The change as a REPL command.
    var command: String {
        switch self {
        case .create: "add Buy pears"
        case .update: "done 2"
        case .delete: "rm 1"
        }
    }

    var actionName: String {
        switch self {
        case .create: "Add \"Buy pears\""
        case .update: "Mark \"Buy eggs\" Done"
        case .delete: "Remove \"Buy milk\""
        }
    }

    func perform(on session: EditingSession) throws {
        switch self {
        case .create: try session.add("Buy pears")
        case .update: try session.setDone(true, at: 1)
        case .delete: try session.remove(at: 0)
        }
    }
}
