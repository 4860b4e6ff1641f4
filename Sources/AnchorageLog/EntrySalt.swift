#if canImport(Glibc)
import Glibc
#endif

/// The 16 random bytes an entry of version 2 stores in front of its payload.
///
/// The payload digest, and so the hash chain, covers the salt. When the
/// payload is purged the salt goes with it, so what remains (the digest)
/// cannot be used to confirm a guess of the payload's contents: a guess
/// would also have to guess 128 random bits.
///
/// ```swift
/// let salts = EntrySalt.random(count: events.count)
/// ```
public struct EntrySalt: Hashable, Sendable {
    private var words: (UInt64, UInt64)

    /// The salt's size in bytes.
    public static let size = 16

    /// Reads 16 bytes at `offset`.
    init(loadingFrom buffer: UnsafeRawBufferPointer, at offset: Int) {
        words = (
            buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        )
    }

    /// Writes the 16 bytes at `offset`.
    func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        withUnsafeBytes(of: words) { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + 16]).copyMemory(from: source)
        }
    }

    public static func == (lhs: EntrySalt, rhs: EntrySalt) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }

    /// Calls `body` with the 16 bytes, without copying them.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words, body)
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
