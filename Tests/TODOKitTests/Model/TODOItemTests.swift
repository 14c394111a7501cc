import Foundation
import Testing
@testable import TODOKit

@Suite struct TODOItemTests {
    @Test func newItemsAreNotDoneMediumPriorityWithoutDetail() {
        let item = TODOItem(title: "Buy milk")
        #expect(item.title == "Buy milk")
        #expect(item.detail == "")
        #expect(!item.isDone)
        #expect(item.priority == .medium)
    }

    @Test func everyNewItemGetsItsOwnIdentity() {
        #expect(TODOItem(title: "Buy milk").id != TODOItem(title: "Buy milk").id)
    }

    @Test func encodesEveryFieldUnderItsFileFormatName() throws {
        let id = try #require(UUID(uuidString: "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10"))
        let item = TODOItem(id: id, title: "Pay rent", detail: "by Friday", isDone: true, priority: .high)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(item), as: UTF8.self)
        #expect(json == #"{"detail":"by Friday","id":"0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10","isDone":true,"priority":"high","title":"Pay rent"}"#)
        #expect(try JSONDecoder().decode(TODOItem.self, from: Data(json.utf8)) == item)
    }

    @Test(arguments: [
        (TODOItem.Priority.low, "low"),
        (.medium, "medium"),
        (.high, "high"),
    ])
    func prioritiesAreStoredByName(priority: TODOItem.Priority, name: String) {
        #expect(priority.rawValue == name)
        #expect(TODOItem.Priority(rawValue: name) == priority)
    }

    @Test func prioritiesOrderFromLowToHigh() {
        #expect(TODOItem.Priority.allCases.shuffled().sorted() == [.low, .medium, .high])
        #expect(TODOItem.Priority.low < .high)
        #expect(!(TODOItem.Priority.high < .medium))
    }
}
