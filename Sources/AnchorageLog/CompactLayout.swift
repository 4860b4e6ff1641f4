import Foundation

/// Log format 2's entry layout: a 40-byte header, the digest only for a
/// purged save, the link only where one is stored, then the payload region.
///
/// ```
/// offset size field
///   0     1   entry version: 1 (written before format 2) or 2 (salted payload region)
///   1     1   operation and flags: bits 0–1 = operation (1 save, 2 delete),
///             bit 2 = payload purged, bit 3 = link stored; bits 4–7 zero
///   2     4   kind (big-endian)
///   6     4   origin number (big-endian): the row of `origin-numbers` naming the origin id
///  10     6   origin counter (big-endian, 48 bits)
///  16     8   time, ns since 1970 (big-endian, signed)
///  24    16   object id (UUID bytes)
///  40    32   payload digest, only when purged
///   …    32   link, only when bit 3 is set
///   …     *   payload region: the rest of the value
/// ```
///
/// A sealed entry (version 3) leaves out the kind, time and object id,
/// which its envelope holds: its header is the first 12 bytes, and the
/// digest, the link and the region follow them.
///
/// The link is stored on every entry whose `seq` is a multiple of
/// ``linkInterval`` and on the last entry of every write transaction, so
/// the log's last entry always has one; the others are recomputed from the
/// one before (at most ``linkInterval`` − 1 entries back).
enum CompactLayout {
    static let headerSize = 40
    /// The header of a sealed entry: version, operation, origin number, counter.
    static let sealedHeaderSize = 12
    static let kindOffset = 2
    static let originOffset = 6
    static let counterOffset = 10
    /// Where a sealed entry, which has no kind, keeps its origin number.
    static let sealedOriginOffset = 2

    /// Where the origin number lies in an entry of entry version `version`;
    /// the 6-byte counter follows it.
    @inline(__always)
    static func originOffset(version: UInt8) -> Int {
        version == EntryFormat.sealedVersion ? sealedOriginOffset : originOffset
    }
    static let timeOffset = 16
    static let idOffset = 24

    static let operationMask: UInt8 = 3
    static let purgedFlag: UInt8 = 4
    static let linkFlag: UInt8 = 8

    /// The largest origin counter the 48-bit field holds.
    static let maximumCounter: UInt64 = 1 << 48 - 1

    static let fields = SharedFieldOffsets(kind: kindOffset, time: timeOffset, id: idOffset)

    /// Entries whose `seq` is a multiple of this store their link.
    static let linkInterval: UInt64 = 64

    /// Decodes and checks an entry in format 2's layout; `origin` gives the
    /// origin id of a number, `nil` for a number that names none.
    static func decode(
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        origin: (UInt32) -> StoreID?
    ) throws(LogError) -> StoredEntry {
        let (version, operation) = try EntryLayout.versionAndOperation(
            seq: seq,
            bytes: bytes,
            headerSize: sealedHeaderSize,
            operationMask: operationMask
        )
        let sealed = version == EntryFormat.sealedVersion
        let header = sealed ? sealedHeaderSize : headerSize
        guard bytes.count >= header else {
            throw LogError.malformedEntry(seq, "it has \(bytes.count) bytes, fewer than the \(header)-byte header")
        }
        let flags = bytes[1]
        guard flags & ~(operationMask | purgedFlag | linkFlag) == 0 else {
            throw LogError.malformedEntry(seq, "its operation and flag byte \(flags) is not valid")
        }
        let origins = originOffset(version: version)
        let number = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: origins, as: UInt32.self))
        guard let origin = origin(number) else {
            throw LogError.malformedEntry(seq, "its origin number \(number) names no origin")
        }
        let isPurged = flags & purgedFlag != 0
        let hasLink = flags & linkFlag != 0
        var offset = header
        let extra = (isPurged ? 32 : 0) + (hasLink ? 32 : 0)
        guard bytes.count >= header + extra else {
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
        let shared = sealed ? (kind: EntryKind(rawValue: 0), time: Int64(0), id: UUID.zero) : fields.load(from: bytes)
        let stored = StoredEntry(
            version: version,
            operation: operation,
            kind: shared.kind,
            dot: Dot(origin: origin, counter: counter(at: bytes, offset: origins + 4)),
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

    /// Refuses a dot whose counter the 48-bit field cannot hold (2⁴⁸ − 1
    /// entries from one origin: 281 trillion).
    static func checkCounter(_ dot: Dot, seq: UInt64) throws(LogError) {
        guard dot.counter <= maximumCounter else {
            throw LogError(
                .invalidEvent,
                "entry \(dot) has an origin counter above 2⁴⁸ − 1, more than log format 2 stores",
                seq: seq
            )
        }
    }

    /// The 48-bit origin counter.
    @inline(__always)
    static func counter(at bytes: UnsafeRawBufferPointer, offset: Int = counterOffset) -> UInt64 {
        UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) << 32
            | UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 2, as: UInt32.self)))
    }

    /// The origin number of a stored entry, or `nil` when too short.
    static func originNumber(of bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard !bytes.isEmpty, bytes.count >= (bytes[0] == EntryFormat.sealedVersion ? sealedHeaderSize : headerSize)
        else { return nil }
        return UInt32(
            bigEndian: bytes.loadUnaligned(fromByteOffset: originOffset(version: bytes[0]), as: UInt32.self)
        )
    }

    /// The kind of a stored entry, or `nil` when too short.
    static func kind(of bytes: UnsafeRawBufferPointer) -> EntryKind? {
        guard bytes.count >= headerSize, bytes[0] != EntryFormat.sealedVersion else { return nil }
        return EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self)))
    }

    /// The stored size of an entry.
    static func size(version: UInt8, isPurged: Bool, hasLink: Bool, regionCount: Int) -> Int {
        (version == EntryFormat.sealedVersion ? sealedHeaderSize : headerSize) + (isPurged ? 32 : 0)
            + (hasLink ? 32 : 0) + regionCount
    }

    /// The stored bytes of an entry whose payload region (salt included,
    /// empty for a delete or a purged save) is `region`, storing `link`
    /// when given: for rewriting an entry (a purge, the link of a
    /// transaction's last entry, a migration).
    static func encode(
        _ header: EntryFormat.Header,
        originNumber: UInt32,
        link: EntryDigest?,
        region: UnsafeRawBufferPointer
    ) -> [UInt8] {
        var bytes = [UInt8](
            repeating: 0,
            count: size(
                version: header.version,
                isPurged: header.isPurged,
                hasLink: link != nil,
                regionCount: region.count
            )
        )
        bytes.withUnsafeMutableBytes { buffer in
            write(header, originNumber: originNumber, link: link, salt: nil, payload: region, into: buffer)
        }
        return bytes
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
        let sealed = header.version == EntryFormat.sealedVersion
        if sealed {
            buffer[0] = header.version
        } else {
            fields.store(header, into: buffer)
        }
        buffer[1] = header.operation.rawValue | (header.isPurged ? purgedFlag : 0) | (link == nil ? 0 : linkFlag)
        let origins = originOffset(version: header.version)
        buffer.storeBytes(of: originNumber.bigEndian, toByteOffset: origins, as: UInt32.self)
        let counter = header.dot.counter
        buffer.storeBytes(
            of: UInt16(truncatingIfNeeded: counter >> 32).bigEndian,
            toByteOffset: origins + 4,
            as: UInt16.self
        )
        buffer.storeBytes(
            of: UInt32(truncatingIfNeeded: counter).bigEndian,
            toByteOffset: origins + 6,
            as: UInt32.self
        )
        var offset = sealed ? sealedHeaderSize : headerSize
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
