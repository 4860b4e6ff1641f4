import Foundation

/// Log format 2's entry layout: a 43-byte header, the digest only for a
/// purged save, the link only where one is stored, then the payload region.
///
/// ```
/// offset size field
///   0     1   entry version: 1 (written before format 2) or 2 (salted payload region)
///   1     1   operation: 1 save, 2 delete
///   2     1   flags: bit 0 = payload purged, bit 1 = link stored; other bits zero
///   3     4   kind (big-endian)
///   7     4   origin number (big-endian): the row of `origin-numbers` naming the origin id
///  11     8   origin counter (big-endian)
///  19     8   time, ns since 1970 (big-endian, signed)
///  27    16   object id (UUID bytes)
///  43    32   payload digest, only when purged
///   …    32   link, only when bit 1 is set
///   …     *   payload region: the rest of the value
/// ```
///
/// The link is stored on every entry whose `seq` is a multiple of
/// ``linkInterval`` and on the last entry of every write transaction, so
/// the log's last entry always has one; the others are recomputed from the
/// one before (at most ``linkInterval`` − 1 entries back).
enum CompactLayout {
    static let headerSize = 43
    static let flagsOffset = 2
    static let kindOffset = 3
    static let originOffset = 7
    static let counterOffset = 11
    static let timeOffset = 19
    static let idOffset = 27

    static let purgedFlag: UInt8 = 1
    static let linkFlag: UInt8 = 2

    static let fields = SharedFieldOffsets(kind: kindOffset, counter: counterOffset, time: timeOffset, id: idOffset)

    /// Entries whose `seq` is a multiple of this store their link.
    static let linkInterval: UInt64 = 64

    /// Decodes and checks an entry in format 2's layout.
    static func decode(
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        origins: OriginTable
    ) throws(LogError) -> StoredEntry {
        let (version, operation) = try EntryLayout.versionAndOperation(seq: seq, bytes: bytes, headerSize: headerSize)
        let flags = bytes[flagsOffset]
        guard flags & ~(purgedFlag | linkFlag) == 0 else {
            throw LogError.malformedEntry(seq, "its flag byte \(flags) is not valid")
        }
        let number = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: originOffset, as: UInt32.self))
        guard let origin = origins.id(number) else {
            throw LogError.malformedEntry(seq, "its origin number \(number) names no origin")
        }
        let isPurged = flags & purgedFlag != 0
        let hasLink = flags & linkFlag != 0
        var offset = headerSize
        let extra = (isPurged ? 32 : 0) + (hasLink ? 32 : 0)
        guard bytes.count >= headerSize + extra else {
            throw LogError.malformedEntry(seq, "it has \(bytes.count) bytes, too few for the digest or link it flags")
        }
        var storedDigest: EntryDigest?
        if isPurged {
            storedDigest = EntryDigest(loadingFrom: bytes, at: offset)
            offset += 32
        }
        var storedLink: EntryDigest?
        if hasLink {
            storedLink = EntryDigest(loadingFrom: bytes, at: offset)
            offset += 32
        }
        let shared = fields.load(from: bytes)
        let stored = StoredEntry(
            version: version,
            operation: operation,
            kind: shared.kind,
            dot: Dot(origin: origin, counter: shared.counter),
            timestamp: shared.time,
            id: shared.id,
            isPurged: isPurged,
            storedDigest: storedDigest,
            storedLink: storedLink,
            regionStart: offset
        )
        try EntryLayout.checkRegion(seq: seq, stored, regionCount: bytes.count - offset)
        return stored
    }

    /// The kind of a stored entry, or `nil` when too short.
    static func kind(of bytes: UnsafeRawBufferPointer) -> EntryKind? {
        guard bytes.count >= headerSize else { return nil }
        return EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self)))
    }

    /// The stored size of an entry.
    static func size(isPurged: Bool, hasLink: Bool, regionCount: Int) -> Int {
        headerSize + (isPurged ? 32 : 0) + (hasLink ? 32 : 0) + regionCount
    }

    /// Writes an entry into `buffer`, which has exactly ``size(isPurged:hasLink:regionCount:)`` bytes.
    static func write(
        _ header: EntryFormat.Header,
        originNumber: UInt32,
        link: EntryDigest?,
        salt: EntrySalt?,
        payload: UnsafeRawBufferPointer?,
        into buffer: UnsafeMutableRawBufferPointer
    ) {
        fields.store(header, into: buffer)
        buffer[flagsOffset] = (header.isPurged ? purgedFlag : 0) | (link == nil ? 0 : linkFlag)
        buffer.storeBytes(of: originNumber.bigEndian, toByteOffset: originOffset, as: UInt32.self)
        var offset = headerSize
        if header.isPurged {
            header.payloadDigest.store(into: buffer, at: offset)
            offset += 32
        }
        if let link {
            link.store(into: buffer, at: offset)
            offset += 32
        }
        if let salt {
            salt.store(into: buffer, at: offset)
            offset += EntrySalt.size
        }
        if let payload, payload.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + payload.count]).copyMemory(from: payload)
        }
    }
}
