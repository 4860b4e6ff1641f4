/// The payload bytes of an entry, read back from the log.
///
/// A collection of bytes indexed from 0, like an array. Entries read in one
/// page share one buffer, so reading a page costs one allocation rather than
/// one per entry; keeping any one payload keeps that page's buffer alive.
///
/// ```swift
/// if let payload = entry.payload {
///     let bytes = Array(payload)            // a copy, if you need [UInt8]
///     payload.withUnsafeBytes { decode($0) } // or decode in place
/// }
/// ```
///
/// Its description shows the size, never the contents: payloads are
/// health data.
public struct EntryPayload: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    @usableFromInline let storage: [UInt8]
    @usableFromInline let offset: Int
    /// The number of bytes.
    public let count: Int

    /// Wraps `bytes` (no copy).
    public init(_ bytes: [UInt8]) {
        self.storage = bytes
        self.offset = 0
        self.count = bytes.count
    }

    /// A payload of the given bytes.
    public init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }

    /// The bytes `range` of a shared buffer.
    init(storage: [UInt8], range: Range<Int>) {
        self.storage = storage
        self.offset = range.lowerBound
        self.count = range.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inlinable
    /// The byte at `position`, from 0.
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "payload index out of range")
        return storage[offset + position]
    }

    /// Calls `body` with the bytes, without copying them.
    ///
    /// - Warning: The buffer must not be used after `body` returns.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
        }
    }

    public var description: String { "\(count) bytes" }

    public static func == (lhs: EntryPayload, rhs: EntryPayload) -> Bool {
        lhs.count == rhs.count
            && lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
