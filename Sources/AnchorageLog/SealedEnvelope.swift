import Crypto
import Foundation
import LMDB

/// The envelope a sealed entry (entry version 3) stores as its payload
/// region: what identifies the object and its payload, sealed with
/// AES-256-GCM-SIV (RFC 8452) and bound to the entry's dot.
/// docs/log-format.md specifies it:
///
/// ```
/// offset size field
///   0     1   envelope version: 1
///   1     1   algorithm: 1 = AES-256-GCM-SIV
///   2     2   key version (big-endian)
///   4    12   nonce: random, drawn for this entry
///  16     n   ciphertext of the inner record (n a multiple of 16, at least 32)
///  16+n  16   tag
///
/// inner record: kind (4) ‖ time (8) ‖ object id (16) ‖ payload
///               ‖ 0x80 ‖ zero bytes to a multiple of 16
/// associated data: "anchorage sealed entry" ‖ entry version ‖ operation
///               ‖ origin id (16) ‖ counter (8, big-endian) ‖ key id (16)
/// ```
enum SealedEnvelope {
    static let version: UInt8 = 1
    static let algorithm: UInt8 = 1
    static let headerSize = 16
    static let tagSize = 16
    static let nonceSize = 12
    /// Kind, time and object id.
    static let identitySize = 28
    static let block = 16
    /// The smallest envelope: a delete's (identity and padding, 32 bytes).
    static let minimumSize = headerSize + 32 + tagSize
    static let associatedPrefix = Array("anchorage sealed entry".utf8)

    /// The inner record's size for a payload of `payloadCount` bytes: the
    /// identity, the payload and at least one byte of padding, rounded up
    /// to a multiple of 16.
    static func innerSize(payloadCount: Int) -> Int {
        (identitySize + payloadCount + 1 + block - 1) / block * block
    }

    /// The envelope's size for a payload of `payloadCount` bytes.
    static func size(payloadCount: Int) -> Int {
        headerSize + innerSize(payloadCount: payloadCount) + tagSize
    }

    /// Checks what can be checked without the key: the envelope version,
    /// the algorithm and the size. `nil` when they hold, else the reason.
    static func structuralFault(of region: UnsafeRawBufferPointer) -> String? {
        guard region.count >= minimumSize else {
            return "its sealed envelope has \(region.count) bytes, fewer than the \(minimumSize) of the smallest"
        }
        guard (region.count - headerSize - tagSize) % block == 0 else {
            return
                "its sealed envelope's ciphertext has \(region.count - headerSize - tagSize) bytes, not a multiple of 16"
        }
        guard region[0] == version, region[1] == algorithm else {
            return "its sealed envelope has version \(region[0]) and algorithm \(region[1]); this library knows 1 and 1"
        }
        return nil
    }

    /// The key version an envelope names.
    static func keyVersion(of region: UnsafeRawBufferPointer) -> UInt16 {
        UInt16(region[2]) << 8 | UInt16(region[3])
    }

    /// Calls `body` with the associated data that binds an envelope to its
    /// entry, built on the stack.
    static func withAssociatedData<R, E: Error>(
        operation: EntryOperation,
        dot: Dot,
        keyID: KeyID,
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let count = associatedPrefix.count + 2 + 16 + 8 + 16
        return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { buffer throws(E) -> R in
            associatedPrefix.withUnsafeBytes { buffer.copyMemory(from: $0) }
            var offset = associatedPrefix.count
            buffer[offset] = EntryFormat.sealedVersion
            buffer[offset + 1] = operation.rawValue
            offset += 2
            dot.origin.uuid.store(into: buffer, at: offset)
            buffer.storeBytes(of: dot.counter.bigEndian, toByteOffset: offset + 16, as: UInt64.self)
            keyID.uuid.store(into: buffer, at: offset + 24)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Writes the inner record into `buffer`, which has exactly
    /// ``innerSize(payloadCount:)`` bytes.
    static func writeInner(
        kind: EntryKind,
        timestamp: Int64,
        id: UUID,
        payload: UnsafeRawBufferPointer?,
        into buffer: UnsafeMutableRawBufferPointer
    ) {
        let payloadCount = payload?.count ?? 0
        buffer.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 0, as: UInt32.self)
        buffer.storeBytes(of: timestamp.bigEndian, toByteOffset: 4, as: Int64.self)
        id.store(into: buffer, at: 12)
        if let payload, payloadCount > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[identitySize..<identitySize + payloadCount])
                .copyMemory(from: payload)
        }
        buffer[identitySize + payloadCount] = 0x80
        UnsafeMutableRawBufferPointer(rebasing: buffer[(identitySize + payloadCount + 1)...])
            .initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// Reads an opened inner record; `nil` when its padding is not valid.
    static func parseInner(_ inner: UnsafeRawBufferPointer) -> (EntryKind, Int64, UUID, Range<Int>)? {
        guard inner.count >= identitySize + 1, inner.count % block == 0 else { return nil }
        var end = inner.count - 1
        while end >= identitySize, inner[end] == 0 { end -= 1 }
        guard end >= identitySize, inner[end] == 0x80, inner.count - end <= block else { return nil }
        return (
            EntryKind(rawValue: UInt32(bigEndian: inner.loadUnaligned(fromByteOffset: 0, as: UInt32.self))),
            Int64(bigEndian: inner.loadUnaligned(fromByteOffset: 4, as: Int64.self)),
            UUID(loadingFrom: inner, at: 12),
            identitySize..<end
        )
    }
}

/// What a sealed entry holds, opened.
struct OpenedEntry {
    var kind: EntryKind
    var timestamp: Int64
    var id: UUID
    /// The payload (empty for a delete).
    var payload: [UInt8]
}

/// A store's data key, ready to seal and open entries: its log subkey for
/// every version it was given, and the version new entries are sealed
/// under (the highest).
///
/// ```swift
/// let sealer = try EntrySealer(keys: [key])
/// let envelope = try sealer.seal(operation: .save, dot: dot, kind: 1, timestamp: now, id: id, payload: bytes, nonce: salt)
/// ```
final class EntrySealer: Sendable {
    let keyID: KeyID
    /// The version new entries are sealed under.
    let currentVersion: UInt16
    /// The log subkey of each version, ready to seal and open.
    let logKeys: [UInt16: SIVKey]
    /// The key check of each version (what `meta/sealing` records).
    let checks: [UInt16: [UInt8]]
    /// What seals the projections: the current version's projection keys.
    let projections: ProjectionCipher
    /// The current version's log subkey (most entries are sealed under it).
    private let currentKey: SIVKey

    /// A sealer for `keys`: versions of one key id.
    ///
    /// - Throws: ``LogError`` `invalidArgument` for no key, keys of several
    ///   ids, or one version given twice.
    init(keys: [DataKey]) throws(LogError) {
        guard let first = keys.first else {
            throw LogError(.invalidArgument, "sealing needs at least one data key")
        }
        guard keys.allSatisfy({ $0.id == first.id }) else {
            throw LogError(.invalidArgument, "the data keys given for one store have different key ids")
        }
        guard Set(keys.map(\.version)).count == keys.count else {
            throw LogError(.invalidArgument, "a data key version is given twice")
        }
        keyID = first.id
        currentVersion = keys.map(\.version).max()!
        var logKeys: [UInt16: SIVKey] = [:]
        var checks: [UInt16: [UInt8]] = [:]
        for key in keys {
            let logKey = key.subkey(.log)
            logKeys[key.version] = SIVKey(logKey)
            checks[key.version] = DataKey.check(logKey: logKey)
        }
        self.logKeys = logKeys
        self.checks = checks
        let current = currentVersion
        projections = ProjectionCipher(key: keys.first { $0.version == current }!)
        currentKey = logKeys[current]!
    }

    /// Seals an entry's identity and payload into an envelope under the
    /// current version, with `nonce` (12 random bytes drawn for it).
    func seal(
        operation: EntryOperation,
        dot: Dot,
        kind: EntryKind,
        timestamp: Int64,
        id: UUID,
        payload: UnsafeRawBufferPointer?,
        nonce: EntrySalt
    ) -> [UInt8] {
        let innerCount = SealedEnvelope.innerSize(payloadCount: payload?.count ?? 0)
        let key = currentKey
        let version = currentVersion
        return [UInt8](unsafeUninitializedCapacity: SealedEnvelope.headerSize + innerCount + SealedEnvelope.tagSize) {
            buffer,
            count in
            let envelope = UnsafeMutableRawBufferPointer(buffer)
            envelope[0] = SealedEnvelope.version
            envelope[1] = SealedEnvelope.algorithm
            envelope[2] = UInt8(version >> 8)
            envelope[3] = UInt8(version & 0xFF)
            nonce.withBytes { envelope.baseAddress!.advanced(by: 4).copyMemory(from: $0.baseAddress!, byteCount: 12) }
            withUnsafeTemporaryAllocation(byteCount: innerCount, alignment: 16) { inner in
                defer { inner.initializeMemory(as: UInt8.self, repeating: 0) }
                SealedEnvelope.writeInner(kind: kind, timestamp: timestamp, id: id, payload: payload, into: inner)
                _ = SealedEnvelope.withAssociatedData(operation: operation, dot: dot, keyID: keyID) { associated in
                    key.seal(
                        UnsafeRawBufferPointer(inner),
                        nonce: UnsafeRawBufferPointer(rebasing: envelope[4..<16]),
                        associatedData: associated,
                        into: UnsafeMutableRawBufferPointer(rebasing: envelope[SealedEnvelope.headerSize...])
                    )
                }
            }
            count = buffer.count
        }
    }

    /// Opens the envelope of the entry stored under `seq`.
    ///
    /// - Throws: ``LogError`` `keyUnavailable` when the envelope names a key
    ///   version this sealer was not given; `malformedEntry` when it is
    ///   damaged, or bound to another entry, or sealed under another key.
    func open(
        _ region: UnsafeRawBufferPointer,
        operation: EntryOperation,
        dot: Dot,
        seq: UInt64
    ) throws(LogError) -> OpenedEntry {
        try withOpened(region, operation: operation, dot: dot, seq: seq) { kind, timestamp, id, payload in
            OpenedEntry(kind: kind, timestamp: timestamp, id: id, payload: Array(payload))
        }
    }

    /// Opens the envelope of the entry stored under `seq` and calls `body`
    /// with what it holds, the payload in place (empty for a delete).
    ///
    /// - Throws: as ``open(_:operation:dot:seq:)``, or what `body` throws.
    func withOpened<R>(
        _ region: UnsafeRawBufferPointer,
        operation: EntryOperation,
        dot: Dot,
        seq: UInt64,
        _ body: (EntryKind, Int64, UUID, UnsafeRawBufferPointer) throws(LogError) -> R
    ) throws(LogError) -> R {
        if let fault = SealedEnvelope.structuralFault(of: region) { throw LogError.malformedEntry(seq, fault) }
        let version = SealedEnvelope.keyVersion(of: region)
        guard let key = version == currentVersion ? currentKey : logKeys[version] else {
            throw LogError(
                .keyUnavailable,
                "entry \(seq) is sealed under version \(version) of data key \(keyID), which this store was not given",
                seq: seq
            )
        }
        let sealed = UnsafeRawBufferPointer(rebasing: region[SealedEnvelope.headerSize...])
        let nonce = UnsafeRawBufferPointer(rebasing: region[4..<SealedEnvelope.headerSize])
        return try SealedEnvelope.withAssociatedData(operation: operation, dot: dot, keyID: keyID) {
            associated throws(LogError) -> R in
            try key.withOpened(sealed, nonce: nonce, associatedData: associated) { opened throws(LogError) -> R in
                guard let opened else {
                    throw LogError.malformedEntry(
                        seq,
                        "its sealed envelope does not open: it was changed, belongs to another entry, or was sealed under another key"
                    )
                }
                guard let (kind, timestamp, id, range) = SealedEnvelope.parseInner(opened) else {
                    throw LogError.malformedEntry(
                        seq,
                        "its sealed envelope opens but its inner record is not padded as specified"
                    )
                }
                if operation == .delete, !range.isEmpty {
                    throw LogError.malformedEntry(seq, "its sealed envelope gives a delete a payload")
                }
                return try body(kind, timestamp, id, UnsafeRawBufferPointer(rebasing: opened[range]))
            }
        }
    }
}
