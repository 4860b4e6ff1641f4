import Crypto
import LMDB

/// Rebuilds projections by replaying the log into their emptied databases.
enum ProjectionReplay {
    /// Entries handed to the projections at once during a replay.
    static let chunkSize = 1_024

    /// Empties every database of `projections` and applies each entry of the
    /// log to them in order; returns the number of entries replayed.
    static func rebuild(
        _ projections: [any Projection],
        databases: LogDatabases,
        decoder: EntryDecoder,
        in txn: borrowing WriteTransaction,
        progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        for projection in projections {
            for database in projection.databases { try txn.removeAll(in: database) }
        }
        return try apply(projections, after: 0, databases: databases, decoder: decoder, in: txn, progress: progress)
    }

    /// Applies each entry of the log after `seq` to `projections`, in
    /// order and in chunks; returns the number of entries applied.
    static func apply(
        _ projections: [any Projection],
        after seq: UInt64,
        databases: LogDatabases,
        decoder: EntryDecoder,
        in txn: borrowing WriteTransaction,
        progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        guard !projections.isEmpty else { return 0 }
        let context = ProjectionContext()
        var count = 0
        var chunk = Chunk()
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan(from: (seq + 1).bigEndianBytes) { key, value in
                guard let seq = UInt64(bigEndianBytes: key) else {
                    throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes; keys are 8 bytes")
                }
                let stored = try decoder.decode(seq: seq, bytes: value)
                try decoder.withContents(of: stored, seq: seq, bytes: value) { entry, payload in
                    chunk.append(entry, payload: payload)
                }
                if chunk.entries.count == chunkSize {
                    try project(chunk.take(), into: projections, context: context, in: txn)
                }
                count += 1
                if count % 65_536 == 0 { progress?(count) }
                return true
            }
        }
        if !chunk.entries.isEmpty { try project(chunk.take(), into: projections, context: context, in: txn) }
        return count
    }

    /// Entries read for one hand-over, their payloads copied into one
    /// shared buffer (one allocation per chunk rather than per entry).
    private struct Chunk {
        var entries: [LogEntry] = []
        var storage: [UInt8] = []
        var ranges: [(index: Int, range: Range<Int>)] = []

        mutating func append(_ entry: LogEntry, payload: UnsafeRawBufferPointer?) {
            if let payload {
                ranges.append((entries.count, storage.count..<storage.count + payload.count))
                storage.append(contentsOf: payload)
            }
            entries.append(entry)
        }

        /// The entries with their payloads; leaves the chunk empty.
        mutating func take() -> [LogEntry] {
            var taken = entries
            let (storage, ranges) = (self.storage, self.ranges)
            self = Chunk()  // first, so that `taken` is the only owner of its buffer
            for (index, range) in ranges { taken[index].payload = EntryPayload(storage: storage, range: range) }
            self.entries.reserveCapacity(chunkSize)
            self.storage.reserveCapacity(storage.count)
            return taken
        }
    }

    /// Applies one chunk to every projection, then finishes them.
    private static func project(
        _ chunk: [LogEntry],
        into projections: [any Projection],
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws {
        context.beginBatch(input: nil)
        for projection in projections {
            try projection.apply(chunk, context: context, in: txn)
        }
        for projection in projections { try projection.finish(context: context, in: txn) }
    }

    /// A SHA-256 of each of the projection's databases: every key and value,
    /// with their lengths, in key order.
    static func digests(of projection: any Projection, in txn: borrowing WriteTransaction) throws -> [EntryDigest] {
        try projection.databases.map { database in
            var hasher = FramedHasher()
            try txn.withCursor(on: database) { cursor in
                try cursor.scan { key, value in
                    hasher.add(key)
                    hasher.add(value)
                    return true
                }
            }
            return EntryDigest(hasher.finalize())
        }
    }

    /// SHA-256 over length-prefixed byte strings, fed to the hash a buffer
    /// at a time: a projection holds millions of short rows, and one
    /// hash update per row (four with the lengths) cost more than the
    /// hashing itself.
    private struct FramedHasher {
        private var hasher = SHA256()
        private var buffer: [UInt8] = []
        private static let flushAt = 64 << 10

        init() { buffer.reserveCapacity(Self.flushAt + 1_024) }

        /// Adds `bytes` after its length (4 bytes, big-endian).
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            let count = UInt32(bytes.count)
            buffer.append(UInt8(truncatingIfNeeded: count >> 24))
            buffer.append(UInt8(truncatingIfNeeded: count >> 16))
            buffer.append(UInt8(truncatingIfNeeded: count >> 8))
            buffer.append(UInt8(truncatingIfNeeded: count))
            if bytes.count > Self.flushAt {
                flush()
                hasher.update(bufferPointer: bytes)
                return
            }
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.flushAt { flush() }
        }

        private mutating func flush() {
            buffer.withUnsafeBytes { hasher.update(bufferPointer: $0) }
            buffer.removeAll(keepingCapacity: true)
        }

        consuming func finalize() -> SHA256.Digest {
            flush()
            return hasher.finalize()
        }
    }
}

/// How ``EventLog/checkProjections()`` returns from the transaction it
/// rolls back.
struct ProjectionCheckResult: Error {
    let disagreement: EventLog.ProjectionDisagreement?
}
