import Foundation
import Testing
@testable import TODOKit

@Suite struct UUIDParsingTests {
    @Test(arguments: [
        "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10", "0f1d6a4e-5b0a-4c47-9d43-2c1e2e7b9a10", "00000000-0000-0000-0000-000000000000",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "", "0F1D6A4E5B0A4C479D432C1E2E7B9A10", "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A1",
        "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A100", "0F1D6A4E-5B0A-4C47-9D43_2C1E2E7B9A10", "0G1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10",
        "{0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10}", " 0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A10", "0F1D6A4E-5B0A-4C47-9D43-2C1E2E7B9A1é",
    ])
    func parsingAgreesWithFoundation(text: String) {
        #expect(UUID(parsing: text) == UUID(uuidString: text))
    }

    @Test func randomIdentitiesRoundTrip() {
        for _ in 0..<500 {
            let id = UUID()
            #expect(UUID(parsing: id.uuidString) == id)
            #expect(UUID(parsing: id.uuidString.lowercased()) == id)
        }
    }
}
