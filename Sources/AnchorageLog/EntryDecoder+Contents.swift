import Foundation

extension EntryDecoder {
    /// Calls `body` with the entry stored under `seq` as its readers see
    /// it, and its payload in place: an entry of version 1 or 2 as stored; a
    /// sealed one opened with the store's key (its payload then lives in a
    /// buffer of its own), or, read without the key, unopened and with no
    /// payload. `withDigest` computes the payload digest when the layout
    /// does not store it.
    ///
    /// - Throws: ``LogError`` `malformedEntry` for an envelope that does not
    ///   open, `keyUnavailable` for one sealed under a version of the key
    ///   this store was not given.
    func withContents<R>(
        of stored: StoredEntry,
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        withDigest: Bool = false,
        _ body: (LogEntry, UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        let entry = withDigest ? stored.entryWithDigest(seq: seq, in: bytes) : stored.entry(seq: seq, in: bytes)
        guard stored.isSealed, let sealer, let envelope = stored.envelope(in: bytes) else {
            return try body(entry, stored.payload(in: bytes))
        }
        // `body` may throw anything: it runs outside the typed closure.
        var result: Result<R, any Error>?
        try sealer.withOpened(envelope, operation: stored.operation, dot: stored.dot, seq: seq) {
            kind,
            timestamp,
            id,
            payload in
            let opened = LogEntry(opened: (kind, timestamp, id), sealed: entry)
            result = Result { try body(opened, stored.operation == .save ? payload : nil) }
        }
        return try result!.get()
    }
}

extension EntryDecoder {
    /// Calls `body` with the payload of the entry stored under `seq` (a
    /// save's, opened when sealed; `nil` for a delete, a purged save, or a
    /// sealed one read without the key), without building the entry: for
    /// readers that want the payload alone.
    func withPayload<R>(
        of stored: StoredEntry,
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        guard stored.isSealed, let sealer, let envelope = stored.envelope(in: bytes) else {
            return try body(stored.payload(in: bytes))
        }
        var result: Result<R, any Error>?
        try sealer.withOpened(envelope, operation: stored.operation, dot: stored.dot, seq: seq) { _, _, _, payload in
            result = Result { try body(stored.operation == .save ? payload : nil) }
        }
        return try result!.get()
    }
}

extension LogEntry {
    /// A sealed entry with what its envelope holds: kind, time, object id;
    /// the payload is attached by the caller.
    init(opened: OpenedEntry, sealed entry: LogEntry) {
        self.init(opened: (opened.kind, opened.timestamp, opened.id), sealed: entry)
    }

    /// A sealed entry with the kind, time and object id its envelope holds.
    init(opened: (kind: EntryKind, timestamp: Int64, id: UUID), sealed entry: LogEntry) {
        self.init(
            seq: entry.seq,
            dot: entry.dot,
            timestamp: opened.timestamp,
            operation: entry.operation,
            kind: opened.kind,
            id: opened.id,
            payload: nil,
            version: entry.version,
            salt: nil,
            storedDigest: entry.storedDigest,
            link: entry.link,
            envelope: entry.envelope,
            isOpened: true
        )
    }
}
