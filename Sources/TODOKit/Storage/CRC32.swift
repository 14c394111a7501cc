/// The CRC-32 checksum of zlib, gzip and PNG (IEEE 802.3 polynomial, reflected), which makes
/// each journal line self-checking.
///
/// A torn or bit-flipped line fails the check, so the loader can tell a line it may trust from
/// one it must not: any single burst error up to 32 bits is caught, and a random line passes
/// with probability 2⁻³².
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8))   // 0xCBF43926, the standard check value
/// ```
enum CRC32 {
    /// The checksum of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// One entry per byte value: the checksum contribution of that byte, computed once.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}
