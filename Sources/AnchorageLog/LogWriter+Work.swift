import Foundation
import LMDB
import Logging

/// The work the writer does inside a commit's transaction: appending
/// events, applying a peer's entries, purging, and projecting each entry.
extension LogWriter {
    func perform(
        _ work: WriteWork,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> WriteOutcome {
        switch work {
        case .append(let events):
            return .appended(try append(events, state: &state, context: context, in: txn))
        case .apply(let entries, let checkpoint, let from):
            if let from, let checkpoint { try checkContinuity(from: from, checkpoint: checkpoint, in: txn) }
            return .applied(try apply(entries, checkpoint: checkpoint, state: &state, context: context, in: txn))
        case .rebuildProjections(let progress):
            return .rebuilt(
                entries: try ProjectionReplay.rebuild(
                    projections,
                    databases: databases,
                    decoder: EntryDecoder(layout: identity.layout, origins: state.origins, sealer: sealer),
                    in: txn,
                    progress: progress
                )
            )
        case .checkProjections:
            let before = try projections.map { try ProjectionReplay.digests(of: $0, in: txn) }
            _ = try ProjectionReplay.rebuild(
                projections,
                databases: databases,
                decoder: EntryDecoder(layout: identity.layout, origins: state.origins, sealer: sealer),
                in: txn
            )
            for (projection, stored) in zip(projections, before) {
                let replayed = try ProjectionReplay.digests(of: projection, in: txn)
                for (database, (was, now)) in zip(projection.databases, zip(stored, replayed)) where was != now {
                    throw ProjectionCheckResult(
                        disagreement: EventLog.ProjectionDisagreement(
                            projection: projection.name,
                            database: database.name ?? "(unnamed)"
                        )
                    )
                }
            }
            // Undo the replay: the transaction is rolled back.
            throw ProjectionCheckResult(disagreement: nil)
        case .purge(let seqs):
            return .purged(try purge(seqs, state: state, in: txn))
        case .setCursors(let changes):
            for (name, value) in changes {
                if let value {
                    try txn.put(value, forKey: Array(name.utf8), in: databases.cursors)
                } else {
                    _ = try txn.removeValue(forKey: Array(name.utf8), in: databases.cursors)
                }
            }
            return .cursorsSet
        case .appendLocal(let batch):
            return .localAppended(try batch.store(in: databases, txn: txn))
        }
    }

    func append(
        _ prepared: PreparedEvents,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> [Anchor] {
        let input = try prepared.precondition?(txn) ?? nil
        let first = state.head + 1
        var stored: [LogEntry] = []
        stored.reserveCapacity(projections.isEmpty ? 0 : prepared.events.count)
        if let sealer {
            try appendSealed(prepared, sealer: sealer, state: &state, collecting: &stored, in: txn)
            try project(stored, input: input, context: context, in: txn)
            return (first...state.head).map(anchor)
        }
        let version = prepared.salts == nil ? EntryFormat.plainVersion : EntryFormat.saltedVersion
        for (index, (event, digest)) in zip(prepared.events, prepared.digests).enumerated() {
            state.ownCounter += 1
            let isSave = event.operation == .save
            try store(
                EntryFormat.Header(
                    version: version,
                    operation: event.operation,
                    kind: event.kind,
                    dot: Dot(origin: identity.originID, counter: state.ownCounter),
                    timestamp: prepared.timestamp,
                    id: event.id,
                    payloadDigest: digest,
                    isPurged: false
                ),
                salt: isSave ? prepared.salts?[index] : nil,
                payload: isSave ? EntryPayload(event.payload) : nil,
                state: &state,
                collecting: &stored,
                in: txn
            )
        }
        try project(stored, input: input, context: context, in: txn)
        return (first...state.head).map(anchor)
    }

    /// Stores a batch of events as sealed entries: each sealed, once its
    /// dot is known, with the nonce drawn for it (its salt).
    private func appendSealed(
        _ prepared: PreparedEvents,
        sealer: EntrySealer,
        state: inout WriterState,
        collecting stored: inout [LogEntry],
        in txn: borrowing WriteTransaction
    ) throws {
        guard let nonces = prepared.salts else { preconditionFailure("a sealed append draws a nonce per entry") }
        for (index, event) in prepared.events.enumerated() {
            state.ownCounter += 1
            let dot = Dot(origin: identity.originID, counter: state.ownCounter)
            let isSave = event.operation == .save
            let envelope = event.payload.withUnsafeBytes { payload in
                sealer.seal(
                    operation: event.operation,
                    dot: dot,
                    kind: event.kind,
                    timestamp: prepared.timestamp,
                    id: event.id,
                    payload: isSave ? payload : nil,
                    nonce: nonces[index]
                )
            }
            let region = EntryPayload(envelope)
            try store(
                EntryFormat.Header(
                    version: EntryFormat.sealedVersion,
                    operation: event.operation,
                    kind: EntryKind(rawValue: 0),
                    dot: dot,
                    timestamp: 0,
                    id: .zero,
                    payloadDigest: EntryDigest.of(envelope),
                    isPurged: false
                ),
                salt: nil,
                payload: region,
                opened: (event.kind, prepared.timestamp, event.id, isSave ? EntryPayload(event.payload) : nil),
                state: &state,
                collecting: &stored,
                in: txn
            )
        }
    }

    /// Rewrites each save at `seqs` without its payload region, flagged
    /// purged: the payload and its salt are gone, the digest and the
    /// entry's link stay, so the chain still verifies. Deletes, purged
    /// saves and saves with nothing stored are left as they are.
    func purge(_ seqs: [UInt64], state: WriterState, in txn: borrowing WriteTransaction) throws -> Int {
        let decoder = EntryDecoder(layout: identity.layout, origins: state.origins)
        var purged = 0
        for seq in seqs {
            let rewritten = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value -> [UInt8]? in
                let stored = try decoder.decode(seq: seq, bytes: value)
                // An empty version-1 payload has nothing to erase (and its
                // digest, of no bytes, could not mark a purge).
                guard stored.operation == .save, stored.hasRegion, value.count > stored.regionStart else { return nil }
                var header = stored.header(in: value)
                header.isPurged = true
                let nothing = UnsafeRawBufferPointer(start: nil, count: 0)
                switch identity.layout {
                case .exchange:
                    var bytes = [UInt8](repeating: 0, count: ExchangeLayout.headerSize)
                    bytes.withUnsafeMutableBytes { buffer in
                        ExchangeLayout.write(
                            header,
                            link: stored.storedLink ?? .zero,
                            salt: nil,
                            payload: nil,
                            into: buffer
                        )
                    }
                    return bytes
                case .compact:
                    guard let number = CompactLayout.originNumber(of: value) else { return nil }
                    return CompactLayout.encode(header, originNumber: number, link: stored.storedLink, region: nothing)
                }
            }
            guard let bytes = rewritten ?? nil else { continue }
            try txn.put(bytes, forKey: seq.bigEndianBytes, in: databases.log)
            purged += 1
        }
        return purged
    }

    /// Refuses a batch that does not start where this log's checkpoint for
    /// the peer ends: a delayed, repeated or reordered batch, whose
    /// checkpoint would skip entries between the two.
    func checkContinuity(from: UInt64, checkpoint: Anchor, in txn: borrowing WriteTransaction) throws {
        let stored =
            try txn.withValue(forKey: checkpoint.storeID.uuid.bytes, in: databases.checkpoints) { value in
                value.count == 16
                    && UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                        == checkpoint.incarnation
                    ? UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) : 0
            } ?? 0
        guard stored == from else {
            throw LogError(
                .checkpointMoved,
                "the batch from peer \(checkpoint.storeID) starts after its entry \(from), but this log has applied "
                    + "its entries up to \(stored); pull again from there"
            )
        }
    }

    func apply(
        _ entries: [LogEntry],
        checkpoint: Anchor?,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> ApplyResult {
        var applied = 0
        var stored: [LogEntry] = []
        // The counter of the origin of the entries being read: a batch is
        // mostly runs of one origin, so the version vector is looked up and
        // written once per run rather than per entry.
        var run: (origin: StoreID, counter: UInt64)?
        func record(_ run: (origin: StoreID, counter: UInt64)?) {
            guard let run else { return }
            if run.origin == identity.originID {
                state.ownCounter = run.counter
            } else {
                state.versionVector[run.origin] = run.counter
            }
        }
        for entry in entries {
            let origin = entry.dot.origin
            if run?.origin != origin {
                record(run)
                run = (origin, state.counter(of: origin, own: identity.originID))
            }
            let known = run!.counter
            if entry.dot.counter <= known { continue }
            guard entry.dot.counter == known + 1 else {
                throw LogError(
                    .originGap,
                    "entry \(entry.dot) cannot be applied: this log holds \(origin)'s entries up to \(known) only; "
                        + "apply the missing ones first",
                    seq: entry.seq
                )
            }
            run!.counter = entry.dot.counter
            try store(
                entry.header,
                salt: entry.salt,
                payload: entry.isSealed ? entry.envelope : entry.payload,
                opened: entry.isSealed && entry.isOpened ? (entry.kind, entry.timestamp, entry.id, entry.payload) : nil,
                state: &state,
                collecting: &stored,
                in: txn
            )
            applied += 1
        }
        record(run)
        try project(stored, input: nil, context: context, in: txn)
        if let checkpoint {
            var value = checkpoint.incarnation.bigEndianBytes
            value += checkpoint.seq.bigEndianBytes
            try txn.put(value, forKey: checkpoint.storeID.uuid.bytes, in: databases.checkpoints)
        }
        return ApplyResult(applied: applied, skipped: entries.count - applied, head: anchor(state.head))
    }

    /// Runs every projection on a batch's stored entries, in the order of
    /// what they consume, with the batch's input from its precondition.
    func project(
        _ entries: [LogEntry],
        input: (any Sendable)?,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws {
        guard !entries.isEmpty else { return }
        context.beginBatch(input: input)
        for projection in projections {
            try projection.apply(entries, context: context, in: txn)
        }
    }

    /// Appends one entry at `state.head + 1` and links it; collects the
    /// entry for the projections when there are any. Format 2 stores the
    /// link at intervals; ``linkHead(_:in:)`` adds it to the last entry of
    /// the transaction.
    func store(
        _ header: EntryFormat.Header,
        salt: EntrySalt?,
        payload: EntryPayload?,
        opened: (kind: EntryKind, timestamp: Int64, id: UUID, payload: EntryPayload?)? = nil,
        state: inout WriterState,
        collecting entries: inout [LogEntry],
        in txn: borrowing WriteTransaction
    ) throws {
        let seq = state.head + 1
        let link = EntryFormat.link(previous: state.lastLink, header: header)
        let regionCount = (payload?.count ?? 0) + (salt == nil ? 0 : EntrySalt.size)
        switch identity.layout {
        case .exchange:
            try put(seq: seq, count: ExchangeLayout.size(regionCount: regionCount), in: txn) { buffer in
                Self.withPayload(payload) {
                    ExchangeLayout.write(header, link: link, salt: salt, payload: $0, into: buffer)
                }
            }
            state.headLinked = true
        case .compact:
            try CompactLayout.checkCounter(header.dot, seq: seq)
            let number = try state.origins.number(registering: header.dot.origin, in: originNumbers, txn: txn)
            let storesLink = seq % CompactLayout.linkInterval == 0
            try put(
                seq: seq,
                count: CompactLayout.size(
                    version: header.version,
                    isPurged: header.isPurged,
                    hasLink: storesLink,
                    regionCount: regionCount
                ),
                in: txn
            ) { buffer in
                Self.withPayload(payload) {
                    CompactLayout.write(
                        header,
                        originNumber: number,
                        link: storesLink ? link : nil,
                        salt: salt,
                        payload: $0,
                        into: buffer
                    )
                }
            }
            state.headLinked = storesLink
        }
        state.head = seq
        state.lastLink = link
        guard !projections.isEmpty else { return }
        // Projections read what a sealed entry's envelope holds; a purged
        // sealed save from a peer has none left, and reaches them unopened
        // (kind 0, no payload), as a replay reads it.
        if header.version == EntryFormat.sealedVersion, let opened {
            entries.append(
                LogEntry(
                    seq: seq,
                    dot: header.dot,
                    timestamp: opened.timestamp,
                    operation: header.operation,
                    kind: opened.kind,
                    id: opened.id,
                    payload: opened.payload,
                    version: header.version,
                    salt: nil,
                    storedDigest: header.payloadDigest,
                    link: link,
                    envelope: payload
                )
            )
            return
        }
        entries.append(
            LogEntry(
                seq: seq,
                dot: header.dot,
                timestamp: header.timestamp,
                operation: header.operation,
                kind: header.kind,
                id: header.id,
                payload: payload,
                version: header.version,
                salt: salt,
                storedDigest: header.payloadDigest,
                link: link,
                isOpened: header.version != EntryFormat.sealedVersion
            )
        )
    }

    /// Calls `body` with the payload's bytes, or `nil`.
    private static func withPayload<R>(_ payload: EntryPayload?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let payload else { return body(nil) }
        return payload.withUnsafeBytes { body($0) }
    }

    /// The `origin-numbers` database (format 2 stores always have one).
    private var originNumbers: Database {
        get throws {
            guard let database = databases.originNumbers else {
                throw LogError(.unsupportedFormat, "the store has no origin-numbers database")
            }
            return database
        }
    }

    /// Writes `count` bytes under `seq`, at the end of the log, filled by `fill`.
    func put(
        seq: UInt64,
        count: Int,
        in txn: borrowing WriteTransaction,
        _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws {
        try withUnsafeBytes(of: seq.bigEndian) { key in
            try txn.put(reservingCount: count, forKey: key, in: databases.log, options: .append) { buffer in
                fill(buffer)
            }
        }
    }

    /// Stores the link of the transaction's last entry with it (format 2),
    /// so the log's last entry always carries one.
    func linkHead(_ state: inout WriterState, in txn: borrowing WriteTransaction) throws {
        guard identity.layout == .compact, !state.headLinked, state.head > 0 else { return }
        let seq = state.head
        let decoder = EntryDecoder(layout: .compact, origins: state.origins)
        let bytes = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value -> [UInt8]? in
            let stored = try decoder.decode(seq: seq, bytes: value)
            return CompactLayout.originNumber(of: value).map { number in
                CompactLayout.encode(
                    stored.header(in: value),
                    originNumber: number,
                    link: state.lastLink,
                    region: UnsafeRawBufferPointer(rebasing: value[stored.regionStart...])
                )
            }
        }
        guard let bytes = bytes ?? nil else { throw LogError.malformedEntry(seq, "it is missing from the log") }
        try txn.put(bytes, forKey: seq.bigEndianBytes, in: databases.log)
        state.headLinked = true
    }

    /// Writes the version-vector rows that changed during the group.
    func saveVersionVector(
        _ working: WriterState,
        comparedWith start: WriterState,
        in txn: borrowing WriteTransaction
    ) throws {
        if working.ownCounter != start.ownCounter {
            try txn.put(working.ownCounter.bigEndianBytes, forKey: identity.originID.uuid.bytes, in: databases.origins)
        }
        for (origin, counter) in working.versionVector where start.versionVector[origin] != counter {
            try txn.put(counter.bigEndianBytes, forKey: origin.uuid.bytes, in: databases.origins)
        }
    }
}
