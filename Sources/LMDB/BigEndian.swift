extension FixedWidthInteger {
    /// The integer's bytes, most significant first: the key encoding under
    /// which LMDB's byte order equals numeric order (for unsigned integers).
    ///
    /// ```swift
    /// try txn.put(value, forKey: seq.bigEndianBytes, in: log, options: .append)
    /// ```
    @inlinable
    public var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: bigEndian) { Array($0) }
    }

    /// Reads a big-endian integer from exactly `MemoryLayout<Self>.size`
    /// bytes; `nil` for any other count.
    @inlinable
    public init?(bigEndianBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == MemoryLayout<Self>.size else { return nil }
        self.init(bigEndian: bytes.loadUnaligned(as: Self.self))
    }

    /// Reads a big-endian integer from exactly `MemoryLayout<Self>.size`
    /// bytes; `nil` for any other count.
    @inlinable
    public init?(bigEndianBytes bytes: [UInt8]) {
        guard let value = bytes.withUnsafeBytes({ Self(bigEndianBytes: $0) }) else { return nil }
        self = value
    }
}
