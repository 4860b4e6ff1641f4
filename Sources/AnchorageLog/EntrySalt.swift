#if canImport(Glibc)
import Glibc
#endif

/// The 12 random bytes an entry of version 2 stores in front of its payload.
///
/// The payload digest, and so the hash chain, covers the salt. When the
/// payload is purged the salt goes with it, so what remains (the digest)
/// cannot be used to confirm a guess of the payload's contents: a guess
/// would also have to guess 96 random bits.
///
/// ```swift
/// let salts = EntrySalt.random(count: events.count)
/// ```
public struct EntrySalt: Hashable, Sendable {
    private var words: (UInt64, UInt32)

    /// The salt's size in bytes.
    public static let size = 12

    /// Reads 12 bytes at `offset`.
    init(loadingFrom buffer: UnsafeRawBufferPointer, at offset: Int) {
        words = (
            buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
        )
    }

    /// Writes the 12 bytes at `offset`.
    func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        buffer.storeBytes(of: words.0, toByteOffset: offset, as: UInt64.self)
        buffer.storeBytes(of: words.1, toByteOffset: offset + 8, as: UInt32.self)
    }

    public static func == (lhs: EntrySalt, rhs: EntrySalt) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }

    /// Calls `body` with the 12 bytes, without copying them.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: Self.size, alignment: 8) { buffer in
            store(into: buffer, at: 0)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// `count` salts from the system's random source, in one call.
    static func random(count: Int) -> [EntrySalt] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count * size)
        // glibc's arc4random_buf: the kernel's random source (getrandom),
        // for the whole batch in one call; it never fails.
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        return bytes.withUnsafeBytes { buffer in
            (0..<count).map { EntrySalt(loadingFrom: buffer, at: $0 * size) }
        }
    }
}
