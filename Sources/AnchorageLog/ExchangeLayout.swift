import Foundation

/// Log format 1's entry layout: a fixed 124-byte header, then the payload
/// region. Every entry also travels in this form between peers and in
/// exports, whatever its store's format (the exchange form).
///
/// ```
/// offset size field
///   0     1   entry version: 1, or 2 (salted payload region)
///   1     1   operation: 1 save, 2 delete
///   2     1   flags: bit 0 = payload purged; other bits zero
///   3     1   reserved, zero
///   4     4   kind (big-endian)
///   8    16   origin id
///  24     8   origin counter (big-endian)
///  32     8   time, ns since 1970 (big-endian, signed)
///  40    16   object id (UUID bytes)
///  56     4   payload region length L (big-endian)
///  60    32   payload digest: SHA-256 of the payload region (zero for a delete)
///  92    32   link
/// 124     L   payload region
/// ```
enum ExchangeLayout {
    static let headerSize = 124

    static let flagsOffset = 2
    static let reservedOffset = 3
    static let kindOffset = 4
    static let originOffset = 8
    static let counterOffset = 24
    static let timeOffset = 32
    static let idOffset = 40
    static let lengthOffset = 56
    static let digestOffset = 60
    static let linkOffset = 92

    static let purgedFlag: UInt8 = 1
    static let fields = SharedFieldOffsets(kind: kindOffset, time: timeOffset, id: idOffset)

    /// Decodes and checks an entry in the exchange form.
    static func decode(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> StoredEntry {
        let (version, operation) = try EntryLayout.versionAndOperation(seq: seq, bytes: bytes, headerSize: headerSize)
        guard bytes[flagsOffset] & ~purgedFlag == 0, bytes[reservedOffset] == 0 else {
            throw LogError.malformedEntry(
                seq,
                "its flag bytes \(bytes[flagsOffset]), \(bytes[reservedOffset]) are not valid"
            )
        }
        let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self)))
        guard length == bytes.count - headerSize else {
            throw LogError.malformedEntry(
                seq,
                "it declares \(length) payload bytes but holds \(bytes.count - headerSize)"
            )
        }
        let shared = fields.load(from: bytes)
        let stored = StoredEntry(
            version: version,
            operation: operation,
            kind: shared.kind,
            dot: Dot(
                origin: StoreID(UUID(loadingFrom: bytes, at: originOffset)),
                counter: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: counterOffset, as: UInt64.self))
            ),
            timestamp: shared.time,
            id: shared.id,
            isPurged: bytes[flagsOffset] & purgedFlag != 0,
            storedDigest: EntryDigest(loadingFrom: bytes, at: digestOffset),
            storedLink: EntryDigest(loadingFrom: bytes, at: linkOffset),
            regionStart: headerSize
        )
        try EntryLayout.checkRegion(seq: seq, stored, regionCount: length)
        return stored
    }

    /// The kind of an encoded entry, or `nil` when too short.
    static func kind(of bytes: UnsafeRawBufferPointer) -> EntryKind? {
        guard bytes.count >= headerSize, bytes[0] != EntryFormat.sealedVersion else { return nil }
        return EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self)))
    }

    /// The exchange form's size for a payload region of `regionCount` bytes.
    static func size(regionCount: Int) -> Int { headerSize + regionCount }

    /// Writes an entry in the exchange form into `buffer`, which has
    /// exactly ``size(regionCount:)`` bytes.
    static func write(
        _ header: EntryFormat.Header,
        link: EntryDigest,
        salt: EntrySalt?,
        payload: UnsafeRawBufferPointer?,
        into buffer: UnsafeMutableRawBufferPointer
    ) {
        fields.store(header, into: buffer)
        buffer[flagsOffset] = header.isPurged ? purgedFlag : 0
        buffer[reservedOffset] = 0
        header.dot.origin.uuid.store(into: buffer, at: originOffset)
        buffer.storeBytes(of: header.dot.counter.bigEndian, toByteOffset: counterOffset, as: UInt64.self)
        buffer.storeBytes(
            of: UInt32(buffer.count - headerSize).bigEndian,
            toByteOffset: lengthOffset,
            as: UInt32.self
        )
        header.payloadDigest.store(into: buffer, at: digestOffset)
        link.store(into: buffer, at: linkOffset)
        var offset = headerSize
        if let salt {
            salt.store(into: buffer, at: offset)
            offset += EntrySalt.size
        }
        if let payload, payload.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + payload.count]).copyMemory(from: payload)
        }
    }
}

extension LogEntry {
    /// The entry in its exchange form (docs/log-format.md, format 1's
    /// layout), with `link` as its link: how entries travel between peers
    /// and in `anchorage export`.
    ///
    /// ```swift
    /// let bytes = entry.encoded(link: entry.link(after: previous))
    /// ```
    public func encoded(link: EntryDigest) -> [UInt8] {
        if isSealed {
            let region = envelope ?? []
            var bytes = [UInt8](repeating: 0, count: ExchangeLayout.size(regionCount: region.count))
            bytes.withUnsafeMutableBytes { buffer in
                region.withUnsafeBytes { region in
                    ExchangeLayout.write(header, link: link, salt: nil, payload: region, into: buffer)
                }
            }
            return bytes
        }
        let regionCount = payload.map { $0.count + (salt == nil ? 0 : EntrySalt.size) } ?? 0
        var bytes = [UInt8](repeating: 0, count: ExchangeLayout.size(regionCount: regionCount))
        bytes.withUnsafeMutableBytes { buffer in
            if let payload {
                payload.withUnsafeBytes { payload in
                    ExchangeLayout.write(header, link: link, salt: salt, payload: payload, into: buffer)
                }
            } else {
                ExchangeLayout.write(header, link: link, salt: nil, payload: nil, into: buffer)
            }
        }
        return bytes
    }

    /// Decodes an entry's exchange form, checking its structure.
    ///
    /// ```swift
    /// let entry = try LogEntry(seq: 7, encoded: bytes)
    /// ```
    /// - Throws: ``LogError`` with code ``LogError/Code/malformedEntry``;
    ///   never traps, whatever the bytes.
    public init(seq: UInt64, encoded bytes: [UInt8]) throws(LogError) {
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(LogError) in
                try ExchangeLayout.decode(seq: seq, bytes: buffer).entryWithPayload(seq: seq, in: buffer)
            }
        }
        self = try decoded.get()
    }
}
