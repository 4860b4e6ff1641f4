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
        let opened = try sealer.open(envelope, operation: stored.operation, dot: stored.dot, seq: seq)
        let result = LogEntry(opened: opened, sealed: entry)
        return try opened.payload.withUnsafeBytes { payload in
            try body(result, stored.operation == .save ? payload : nil)
        }
    }
}

extension LogEntry {
    /// A sealed entry with what its envelope holds: kind, time, object id;
    /// the payload is attached by the caller.
    init(opened: OpenedEntry, sealed entry: LogEntry) {
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
