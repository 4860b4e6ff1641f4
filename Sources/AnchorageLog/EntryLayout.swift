import Foundation

/// How a store lays its entries out: format 1's fixed 124-byte header
/// (also the form entries travel in between peers and in exports), or
/// format 2's compact one. docs/log-format.md specifies both.
///
/// ```swift
/// let stored = try layout.decode(seq: seq, bytes: value, origins: origins)
/// let payload = stored.payload(in: value)
/// ```
enum EntryLayout: Sendable, Hashable {
    /// Log format 1, and the exchange form of every entry.
    case exchange
    /// Log format 2: origin numbers, the digest only for purged saves, the
    /// link only at intervals and on the last entry of each transaction.
    case compact

    /// The layout of a store of log format `format`, or `nil` for a format
    /// this library does not know.
    init?(format: UInt32) {
        switch format {
        case 1: self = .exchange
        case 2: self = .compact
        default: return nil
        }
    }

    /// The log format this layout is.
    var format: UInt32 {
        switch self {
        case .exchange: 1
        case .compact: 2
        }
    }

    /// Decodes and checks the structure of the entry stored under `seq`;
    /// `origins` resolves a format-2 origin number. Never traps on
    /// malformed bytes; it checks neither the digest nor the link.
    func decode(
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        origins: OriginTable
    ) throws(LogError) -> StoredEntry {
        switch self {
        case .exchange: try ExchangeLayout.decode(seq: seq, bytes: bytes)
        case .compact: try CompactLayout.decode(seq: seq, bytes: bytes, origin: { origins.id($0) })
        }
    }

    /// The kind of a stored entry (for filtering before decoding), or `nil`
    /// when the bytes are too short to hold one.
    func kind(of bytes: UnsafeRawBufferPointer) -> EntryKind? {
        switch self {
        case .exchange: ExchangeLayout.kind(of: bytes)
        case .compact: CompactLayout.kind(of: bytes)
        }
    }
}

/// What a stored value's first byte must be, and why it is not.
extension EntryLayout {
    /// Reads the operation and entry version bytes shared by both layouts.
    static func versionAndOperation(
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        headerSize: Int,
        operationMask: UInt8 = 0xFF
    ) throws(LogError) -> (UInt8, EntryOperation) {
        guard bytes.count >= headerSize else {
            throw LogError.malformedEntry(seq, "it has \(bytes.count) bytes, fewer than the \(headerSize)-byte header")
        }
        let version = bytes[0]
        guard (EntryFormat.plainVersion...EntryFormat.sealedVersion).contains(version) else {
            throw LogError.malformedEntry(seq, "its entry version \(version) is not 1, 2 or 3")
        }
        guard let operation = EntryOperation(rawValue: bytes[1] & operationMask) else {
            throw LogError.malformedEntry(seq, "its operation code \(bytes[1] & operationMask) is unknown")
        }
        return (version, operation)
    }

    /// Checks the rules that tie the operation, the purged flag, the digest
    /// and the payload region together, the same in both layouts.
    static func checkRegion(
        seq: UInt64,
        _ stored: StoredEntry,
        regionCount: Int
    ) throws(LogError) {
        if stored.version == EntryFormat.sealedVersion {
            try checkSealedRegion(seq: seq, stored, regionCount: regionCount)
            return
        }
        switch stored.operation {
        case .delete:
            guard !stored.isPurged, regionCount == 0, stored.storedDigest ?? .zero == .zero else {
                throw LogError.malformedEntry(seq, "a delete must have no payload, no flags and a zero digest")
            }
        case .save:
            if stored.isPurged {
                guard regionCount == 0, let digest = stored.storedDigest, digest != EntryFormat.emptyPayloadDigest
                else {
                    throw LogError.malformedEntry(seq, "its purged flag contradicts its payload")
                }
            } else if stored.version == EntryFormat.saltedVersion && regionCount < EntrySalt.size {
                throw LogError.malformedEntry(
                    seq,
                    "its payload region has \(regionCount) bytes, fewer than the \(EntrySalt.size)-byte salt of version 2"
                )
            }
        }
    }
}

extension EntryLayout {
    /// The rules of a sealed entry (version 3): its kind, time and object
    /// id are zero; a save's region (unless purged) and a delete's are an
    /// envelope whose structure holds; a purged save has no region and a
    /// digest that is not of no bytes.
    static func checkSealedRegion(seq: UInt64, _ stored: StoredEntry, regionCount: Int) throws(LogError) {
        guard stored.kind.rawValue == 0, stored.timestamp == 0, stored.id.isZero else {
            throw LogError.malformedEntry(seq, "a sealed entry must have zero kind, time and object id in its header")
        }
        if stored.isPurged {
            guard stored.operation == .save, regionCount == 0, let digest = stored.storedDigest,
                digest != EntryFormat.emptyPayloadDigest
            else {
                throw LogError.malformedEntry(seq, "its purged flag contradicts its payload")
            }
        } else if regionCount < SealedEnvelope.minimumSize {
            throw LogError.malformedEntry(
                seq,
                "its sealed envelope has \(regionCount) bytes, fewer than the \(SealedEnvelope.minimumSize) of the smallest"
            )
        }
    }
}

/// A store's layout and its origin numbers as of one transaction: all it
/// takes to decode that transaction's entries.
struct EntryDecoder: Sendable {
    let layout: EntryLayout
    let origins: OriginTable
    /// Opens sealed entries; `nil` for a store that is not sealed or is
    /// read without its key (whose sealed entries stay unopened).
    var sealer: EntrySealer?

    init(layout: EntryLayout, origins: OriginTable, sealer: EntrySealer? = nil) {
        self.layout = layout
        self.origins = origins
        self.sealer = sealer
    }

    /// Decodes and checks the structure of the entry stored under `seq`.
    @inline(__always)
    func decode(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> StoredEntry {
        try layout.decode(seq: seq, bytes: bytes, origins: origins)
    }
}

/// Where a layout keeps the fields both layouts store the same way.
struct SharedFieldOffsets {
    let kind: Int
    let time: Int
    let id: Int

    /// Reads the kind, time and object id.
    @inline(__always)
    func load(from bytes: UnsafeRawBufferPointer) -> (kind: EntryKind, time: Int64, id: UUID) {
        (
            EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kind, as: UInt32.self))),
            Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: time, as: Int64.self)),
            UUID(loadingFrom: bytes, at: id)
        )
    }

    /// Writes the header's version, operation, kind, time and object id.
    func store(_ header: EntryFormat.Header, into buffer: UnsafeMutableRawBufferPointer) {
        buffer[0] = header.version
        buffer[1] = header.operation.rawValue
        buffer.storeBytes(of: header.kind.rawValue.bigEndian, toByteOffset: kind, as: UInt32.self)
        buffer.storeBytes(of: header.timestamp.bigEndian, toByteOffset: time, as: Int64.self)
        header.id.store(into: buffer, at: id)
    }
}
