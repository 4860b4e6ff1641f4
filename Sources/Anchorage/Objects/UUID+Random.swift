import Foundation

extension UUID {
    /// A random (version 4) uuid from the system's secure generator.
    ///
    /// Foundation's `UUID()` opens, reads and closes `/dev/urandom` for each
    /// uuid on Linux: several system calls for every sample created. This
    /// draws the same 122 random bits from `SystemRandomNumberGenerator`
    /// (the `getrandom` call) instead.
    static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            buffer.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }
}
