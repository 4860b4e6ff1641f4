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
                entries: try ProjectionReplay.rebuild(projections, databases: databases, in: txn, progress: progress)
            )
        case .checkProjections:
            let before = try projections.map { try ProjectionReplay.digests(of: $0, in: txn) }
            _ = try ProjectionReplay.rebuild(projections, databases: databases, in: txn)
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
            return .purged(try purge(seqs, in: txn))
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
        for (event, digest) in zip(prepared.events, prepared.digests) {
            state.ownCounter += 1
            try store(
                EntryFormat.Header(
                    operation: event.operation,
                    kind: event.kind,
                    dot: Dot(origin: identity.originID, counter: state.ownCounter),
                    timestamp: prepared.timestamp,
                    id: event.id,
                    payloadDigest: digest,
                    storedPayloadLength: event.payload.count,
                    isPurged: false
                ),
                payload: event.operation == .save ? EntryPayload(event.payload) : nil,
                state: &state,
                collecting: &stored,
                in: txn
            )
        }
        try project(stored, input: input, context: context, in: txn)
        return (first...state.head).map(anchor)
    }

    /// Rewrites each save at `seqs` as its header alone, flagged purged:
    /// the payload is gone, its digest and the entry's link stay, so the
    /// chain still verifies. Deletes and purged saves are left as they are.
    func purge(_ seqs: [UInt64], in txn: borrowing WriteTransaction) throws -> Int {
        var purged = 0
        for seq in seqs {
            let header = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value -> [UInt8]? in
                let (operation, isPurged) = try EntryFormat.checkedOperation(seq: seq, bytes: value)
                guard operation == .save, !isPurged else { return nil }
                var header = Array(value[0..<EntryFormat.headerSize])
                header[EntryFormat.flagsOffset] |= EntryFormat.purgedFlag
                header.replaceSubrange(
                    EntryFormat.lengthOffset..<EntryFormat.lengthOffset + 4,
                    with: [0, 0, 0, 0]
                )
                return header
            }
            guard let header = header ?? nil else { continue }
            try txn.put(header, forKey: seq.bigEndianBytes, in: databases.log)
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
        for entry in entries {
            let origin = entry.dot.origin
            let known = state.counter(of: origin, own: identity.originID)
            if entry.dot.counter <= known { continue }
            guard entry.dot.counter == known + 1 else {
                throw LogError(
                    .originGap,
                    "entry \(entry.dot) cannot be applied: this log holds \(origin)'s entries up to \(known) only; "
                        + "apply the missing ones first",
                    seq: entry.seq
                )
            }
            if origin == identity.originID {
                state.ownCounter = entry.dot.counter
            } else {
                state.versionVector[origin] = entry.dot.counter
            }
            try store(
                EntryFormat.Header(
                    operation: entry.operation,
                    kind: entry.kind,
                    dot: entry.dot,
                    timestamp: entry.timestamp,
                    id: entry.id,
                    payloadDigest: entry.payloadDigest,
                    storedPayloadLength: entry.payload?.count ?? 0,
                    isPurged: entry.isPurged
                ),
                payload: entry.payload,
                state: &state,
                collecting: &stored,
                in: txn
            )
            applied += 1
        }
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
    /// entry for the projections when there are any.
    func store(
        _ header: EntryFormat.Header,
        payload: EntryPayload?,
        state: inout WriterState,
        collecting entries: inout [LogEntry],
        in txn: borrowing WriteTransaction
    ) throws {
        let seq = state.head + 1
        let previous = state.lastLink
        let payloadBytes = payload ?? EntryPayload([])
        let link = try withUnsafeTemporaryAllocation(byteCount: EntryFormat.headerSize, alignment: 8) { encoded in
            EntryFormat.writeHeader(header, into: encoded)
            let link = EntryFormat.link(previous: previous, entry: UnsafeRawBufferPointer(encoded))
            link.store(into: encoded, at: EntryFormat.linkOffset)
            try put(seq: seq, header: UnsafeRawBufferPointer(encoded), payload: payloadBytes, in: txn)
            return link
        }
        state.head = seq
        state.lastLink = link
        guard !projections.isEmpty else { return }
        entries.append(
            LogEntry(
                seq: seq,
                dot: header.dot,
                timestamp: header.timestamp,
                operation: header.operation,
                kind: header.kind,
                id: header.id,
                payload: payload,
                payloadDigest: header.payloadDigest,
                link: link
            )
        )
    }

    /// Writes an encoded header and its payload under `seq`, in place.
    func put(
        seq: UInt64,
        header: UnsafeRawBufferPointer,
        payload: EntryPayload,
        in txn: borrowing WriteTransaction
    ) throws {
        try payload.withUnsafeBytes { payload in
            try withUnsafeBytes(of: seq.bigEndian) { key in
                try txn.put(
                    reservingCount: header.count + payload.count,
                    forKey: key,
                    in: databases.log,
                    options: .append
                ) { buffer in
                    buffer.copyMemory(from: header)
                    UnsafeMutableRawBufferPointer(rebasing: buffer[header.count...]).copyMemory(from: payload)
                }
            }
        }
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
