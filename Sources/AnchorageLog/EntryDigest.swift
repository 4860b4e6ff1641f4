import Crypto

/// A SHA-256 value: a payload digest or a hash-chain link.
///
/// Held inline (no allocation), compared and hashed as four words.
public struct EntryDigest: Hashable, Sendable, CustomStringConvertible {
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of nothing: 32 zero bytes. Delete entries carry it, and the
    /// chain starts from it.
    public static let zero = EntryDigest(words: (0, 0, 0, 0))

    private init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// Reads 32 bytes at `offset`.
    init(loadingFrom buffer: UnsafeRawBufferPointer, at offset: Int) {
        words = (
            buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
        )
    }

    /// Reads a digest from exactly 32 bytes; `nil` for any other count.
    ///
    /// ```swift
    /// let link = EntryDigest(bytes: received[12..<44])
    /// ```
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 32 else { return nil }
        self.init(loadingFrom: bytes, at: 0)
    }

    /// Wraps a SHA-256 result.
    init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes { EntryDigest(loadingFrom: $0, at: 0) }
    }

    /// The 32 bytes, in order.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: words) { Array($0) }
    }

    /// Writes the 32 bytes at `offset`.
    func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        withUnsafeBytes(of: words) { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + 32]).copyMemory(from: source)
        }
    }

    /// Calls `body` with the 32 bytes, in order, without copying them.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words, body)
    }

    /// The digest of `payload`.
    public static func of(_ payload: [UInt8]) -> EntryDigest {
        EntryDigest(SHA256.hash(data: payload))
    }

    /// The digest of `payload`.
    public static func of(_ payload: EntryPayload) -> EntryDigest {
        payload.withUnsafeBytes { of($0) }
    }

    /// The digest of `payload`.
    static func of(_ payload: UnsafeRawBufferPointer) -> EntryDigest {
        var hasher = SHA256()
        hasher.update(bufferPointer: payload)
        return EntryDigest(hasher.finalize())
    }

    /// Lowercase hex.
    public var description: String {
        let bytes = bytes
        return String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = Self.hexDigits[Int(byte >> 4)]
                output[2 * index + 1] = Self.hexDigits[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func == (lhs: EntryDigest, rhs: EntryDigest) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
