import Testing
@testable import TODOKit

@Suite struct CRC32Tests {
    @Test(arguments: [
        ("123456789", 0xCBF4_3926 as UInt32),   // the standard check value
        ("", 0),
        ("a", 0xE8B7_BE43),
        ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
    ])
    func checksumsMatchZlib(text: String, checksum: UInt32) {
        #expect(CRC32.checksum(Array(text.utf8)) == checksum)
    }
}
