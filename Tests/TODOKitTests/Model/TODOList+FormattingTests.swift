import Testing
import TODOKit

@Suite struct TODOListFormattingTests {
    @Test(arguments: [
        (TODOItem(title: "Buy milk"), "1. [ ] Buy milk"),
        (TODOItem(title: "Buy milk", isDone: true), "1. [x] Buy milk"),
        (TODOItem(title: "Buy milk", priority: .high), "1. [ ] Buy milk  (high priority)"),
        (TODOItem(title: "Buy milk", priority: .low), "1. [ ] Buy milk  (low priority)"),
        (TODOItem(title: "Buy milk", detail: "2 litres"), "1. [ ] Buy milk  — 2 litres"),
        (TODOItem(title: "Buy milk", detail: "2 litres", isDone: true, priority: .high), "1. [x] Buy milk  (high priority)  — 2 litres"),
    ])
    func itemLines(item: TODOItem, expected: String) {
        let list: TODOList = [item]
        #expect(list.line(at: 0) == expected)
        #expect(list.lines == [expected])
    }

    @Test func linesAreNumberedFromOne() {
        let list: TODOList = [TODOItem(title: "Buy milk"), TODOItem(title: "Buy eggs", isDone: true)]
        #expect(list.lines == ["1. [ ] Buy milk", "2. [x] Buy eggs"])
    }

    @Test func anEmptyListSaysSo() {
        #expect(TODOList().lines == ["(empty)"])
    }
}
