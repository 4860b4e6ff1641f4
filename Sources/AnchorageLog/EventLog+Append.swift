import AnchorageCore
import Foundation

extension EventLog {
    /// Appends `events` as one all-or-nothing batch and returns the anchor of
    /// each, in order, once they are durable.
    ///
    /// Concurrent calls are group-committed: their batches share one write
    /// transaction and one fsync, and each caller resumes after the commit.
    /// If a projection throws for an entry of this batch, nothing of the
    /// batch is stored and the error is rethrown; other callers' batches in
    /// the same commit are unaffected.
    ///
    /// ```swift
    /// let anchors = try await log.append([
    ///     .save(id: sampleID, kind: 1, payload: encoded),
    ///     .delete(id: replacedID, kind: 1),
    /// ])
    /// ```
    ///
    /// Cancellation is checked before the batch is queued; once queued, the
    /// batch commits and `append` returns its anchors.
    ///
    /// - Throws: ``LogError`` (``LogError/Code/invalidEvent`` for a payload
    ///   over 64 MiB, ``LogError/Code/closed``), what a projection throws, or
    ///   `LMDBError` when storage fails (disk full, I/O) — in every case
    ///   nothing of the batch was stored.
    @discardableResult
    public func append(_ events: [LogEvent]) async throws -> [Anchor] {
        try await append(events, precondition: nil)
    }

    /// Appends `events` as one batch if `precondition` does not throw.
    ///
    /// `precondition` runs on the writer thread inside the write
    /// transaction, just before the batch's entries are stored, and sees
    /// every batch committed before it (and the projections' state after
    /// them). Throwing rejects this batch alone, with nothing stored. Use it
    /// for checks that must be atomic with the append, such as "this id is
    /// not taken yet"; keep it short, since appends wait while it runs.
    ///
    /// ```swift
    /// try await log.append(events) { txn in
    ///     if try txn.contains(key: id.bytes, in: objects) { throw Conflict() }
    /// }
    /// ```
    @discardableResult
    public func append(_ events: [LogEvent], precondition: AppendPrecondition?) async throws -> [Anchor] {
        guard !events.isEmpty else { return [] }
        try Task.checkCancellation()
        let timestamp = Self.nanoseconds(configuration.clock.date())
        var bytes = 0
        for event in events {
            guard event.payload.count <= EntryFormat.maximumPayloadSize else {
                throw LogError(
                    .invalidEvent,
                    "the payload of \(event.id) has \(event.payload.count) bytes; the limit is \(EntryFormat.maximumPayloadSize)"
                )
            }
            bytes += event.payload.count
        }
        if case .keyless(let id) = sealing {
            throw LogError(
                .keyUnavailable,
                "the store at \(directory.path) is sealed under data key \(id) and was opened without it; it cannot "
                    + "seal new entries"
            )
        }
        let salts = layout == .compact ? EntrySalt.random(count: events.count) : nil
        // A sealed entry's digest covers its envelope, which the writer
        // seals once the entry's dot is known.
        let digests = sealing.isSealed ? [] : await Self.payloadDigests(of: events, salts: salts)
        let prepared = PreparedEvents(
            events: events,
            digests: digests,
            salts: salts,
            timestamp: timestamp,
            precondition: precondition
        )
        let outcome = try await writing().submit(.append(prepared), entryCount: events.count, byteCount: bytes)
        guard case .appended(let anchors) = outcome else { preconditionFailure("append produced \(outcome)") }
        return anchors
    }

    /// The payload digest of each event: SHA-256 of its salt (when the
    /// store salts) and payload. Large batches are hashed on several
    /// cores, so hashing does not stretch a single caller's wait.
    static func payloadDigests(of events: [LogEvent], salts: [EntrySalt]?) async -> [EntryDigest] {
        await inChunks(events.count) { range in
            range.map { index in
                let event = events[index]
                guard event.operation == .save else { return .zero }
                return event.payload.withUnsafeBytes { EntryFormat.digest(salt: salts?[index], payload: $0) }
            }
        }
    }

    /// `transform` of `0..<count`, in order: in chunks of 256 on several
    /// cores when there are many, else at once on the caller's task.
    static func inChunks<T: Sendable, E: Error>(
        _ count: Int,
        _ transform: @escaping @Sendable (Range<Int>) throws(E) -> [T]
    ) async throws(E) -> [T] {
        let chunkSize = 256
        guard count >= 2 * chunkSize else { return try transform(0..<count) }
        let chunks = stride(from: 0, to: count, by: chunkSize).map { $0..<min($0 + chunkSize, count) }
        let parts = await withTaskGroup(of: (Int, Result<[T], E>).self) { group in
            for (index, range) in chunks.enumerated().dropFirst() {
                group.addTask { (index, Result { () throws(E) in try transform(range) }) }
            }
            var parts = [Result<[T], E>](repeating: .success([]), count: chunks.count)
            parts[0] = Result { () throws(E) in try transform(chunks[0]) }
            for await (index, part) in group { parts[index] = part }
            return parts
        }
        var all: [T] = []
        all.reserveCapacity(count)
        for part in parts { all += try part.get() }
        return all
    }

    /// `entries` with every save's payload digest computed and kept
    /// (``LogEntry/withPayloadDigest()``), on the caller's task and, for a
    /// large batch, on several cores, so that the writer only links them;
    /// an entry that came with a digest is checked against its payload.
    ///
    /// - Throws: ``LogError`` `invalidEvent` for a payload that does not
    ///   match the digest it came with.
    static func digested(_ entries: [LogEntry], sealer: EntrySealer? = nil) async throws(LogError) -> [LogEntry] {
        try await inChunks(entries.count) { range throws(LogError) in
            try range.map { index throws(LogError) in
                var entry = entries[index]
                if entry.isSealed { return try sealedDigested(entry, sealer: sealer) }
                guard entry.operation == .save, let payload = entry.payload else { return entry }
                let digest = payload.withUnsafeBytes { EntryFormat.digest(salt: entry.salt, payload: $0) }
                if let stored = entry.storedDigest, stored != digest {
                    throw LogError(
                        .invalidEvent,
                        "entry \(entry.dot) is damaged: its payload does not match its digest",
                        seq: entry.seq
                    )
                }
                entry.storedDigest = digest
                return entry
            }
        }
    }

    /// Applies entries received from a peer, keeping their dots, and records
    /// `checkpoint` (the peer's anchor after these entries) in the same
    /// transaction.
    ///
    /// Entries whose dot the version vector already covers are skipped, so
    /// re-sending a batch, or receiving an entry again through a third
    /// peer, changes nothing. Each origin's entries must arrive in counter
    /// order without gaps (as any peer's log hands them out); an entry that
    /// skips counters fails the batch with ``LogError/Code/originGap``.
    ///
    /// ```swift
    /// let page = try peer.entries(after: log.checkpoint(for: peer.storeID), limit: 1_000)
    /// let result = try await log.apply(page.entries, checkpoint: page.next)
    /// ```
    ///
    /// - Throws: ``LogError`` (``LogError/Code/invalidEvent`` when a payload
    ///   does not match its digest, ``LogError/Code/originGap``), or what a
    ///   projection or the storage throws; nothing of the batch is applied.
    @discardableResult
    public func apply(_ entries: [LogEntry], checkpoint: Anchor? = nil) async throws -> ApplyResult {
        try await apply(entries, checkpoint: checkpoint, from: nil)
    }

    /// Applies a peer's batch that starts after the peer's entry `from`
    /// (0: the beginning) and records `checkpoint`, in one transaction, if
    /// this log's checkpoint for that peer ends at `from` (one of another
    /// incarnation counts as 0).
    ///
    /// A batch that arrives late, twice or out of order fails with
    /// ``LogError/Code/checkpointMoved`` and changes nothing, so no entry
    /// between the stored checkpoint and the batch is ever skipped.
    ///
    /// ```swift
    /// let since = try log.checkpoint(for: peer.storeID).map(\.seq) ?? 0
    /// let page = try peer.entries(after: peer.anchor(since), limit: 1_000)
    /// try await log.apply(page.entries, from: since, checkpoint: page.next)
    /// ```
    @discardableResult
    public func apply(_ entries: [LogEntry], from: UInt64, checkpoint: Anchor) async throws -> ApplyResult {
        try await apply(entries, checkpoint: checkpoint, from: Optional(from))
    }

    private func apply(_ entries: [LogEntry], checkpoint: Anchor?, from: UInt64?) async throws -> ApplyResult {
        try Task.checkCancellation()
        var bytes = 0
        for entry in entries {
            guard let payload = entry.payload else { continue }
            guard payload.count <= EntryFormat.maximumPayloadSize else {
                throw LogError(
                    .invalidEvent,
                    "entry \(entry.dot) has a payload of \(payload.count) bytes; a log entry holds at most \(EntryFormat.maximumPayloadSize)",
                    seq: entry.seq
                )
            }
            bytes += payload.count
        }
        try checkSealing(of: entries)
        let entries = try await Self.digested(entries, sealer: sealing.sealer)
        let outcome = try await writing().submit(
            .apply(entries, checkpoint: checkpoint, from: from),
            entryCount: entries.count,
            byteCount: bytes
        )
        guard case .applied(let result) = outcome else { preconditionFailure("apply produced \(outcome)") }
        return result
    }

    /// Empties every projection's databases and replays the whole log into
    /// them, in one transaction; returns the number of entries replayed.
    ///
    /// Appends wait while it runs. Use it after a suspected bug in a
    /// projection; a changed ``Projection/version`` triggers it on open.
    @discardableResult
    public func rebuildProjections(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Int {
        let outcome = try await writing().submit(.rebuildProjections(progress: progress), entryCount: 0, byteCount: 0)
        guard case .rebuilt(let count) = outcome else { preconditionFailure("rebuild produced \(outcome)") }
        return count
    }

    /// Nanoseconds since 1970, clamped to the range of `Int64`.
    static func nanoseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000_000_000).rounded()
        guard value.isFinite else { return 0 }
        return Int64(exactly: value) ?? (value < 0 ? .min : .max)
    }
}
