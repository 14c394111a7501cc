import Foundation
import Testing

/// The "Where the sample uses UndoKit" table of TODOKit.md names a file and line for each use
/// of the library; each must hold the API the row names.
@Suite struct TODOKitArticleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyRowOfTheTableNamesALineThatHoldsItsAPI() throws {
        let article = try String(contentsOf: Self.root.appending(path: "Sources/TODOKit/TODOKit.docc/TODOKit.md"), encoding: .utf8)
        let rows = article.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains(".swift:") }
        #expect(rows.count >= 15)
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let api = cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let place = cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: ":")
            let file = Self.root.appending(path: "Sources/TODOKit/" + place[0])
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let number = try #require(Int(place[1]))
            #expect(lines.indices.contains(number - 1) && lines[number - 1].contains(api), "\(row)")
        }
    }
}
