import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The merge rules of sample saves and deletes. They make the visible state
/// a function of the *set* of entries a store holds, so that peers which
/// received the same entries in different orders show the same objects:
///
/// - a delete wins over every save of the same id, and a save of a deleted
///   id stays invisible (a 2P-set);
/// - of two different saves of one id (a bug or a forgery), the one with
///   the smaller dot wins; the other is recorded in `hk.conflicts`;
/// - of the live objects sharing a source and sync identifier, the one with
///   the highest version is visible, ties going to the smaller dot (OBJ-33
///   applied to concurrent replacements on two peers); the others are
///   superseded, and the next one becomes visible if the winner is deleted.
///
/// Whatever an entry does to objects other than its own is reported in the
/// type/seq index at its position (see ``SeqRow``). Each object has one
/// reported row at a time (``ObjectRecord/reportedSeq``): a new report of
/// it (shown, or no longer shown) turns the previous one into a row that
/// is not reported. So a feed read from the start reports every object
/// once — added if it is visible, deleted otherwise, on every peer that
/// holds the same entries — and a feed read from an anchor reports what
/// changed since, once.
extension HealthIndex {
    /// What a save did: its type/seq row, and whether the id was known.
    struct SaveOutcome {
        var row: SeqRow
        var known: Bool
    }

    /// A save being indexed: its entry, what the index reads of the sample
    /// it holds, the object's new row and, for a sample with a sync
    /// identifier, its rank.
    private struct Arrival {
        let entry: LogEntry
        let sample: SampleSummary
        let record: ObjectRecord
        let rank: SyncRank?
    }

    /// Where an object ranks among those sharing its sync identifier.
    struct SyncRank {
        var version: Double
        var dot: Dot

        func outranks(_ other: SyncRank) -> Bool {
            version != other.version ? version > other.version : dot < other.dot
        }
    }

    /// Indexes a save.
    func applySave(
        _ entry: LogEntry,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws -> SaveOutcome {
        guard let payload = entry.payload,
            let sample = payload.withUnsafeBytes({ writer.summary($0) }),
            sample.uuid == entry.id, sample.kindCode == entry.kind.rawValue
        else {
            // Undecodable (or purged): indexed as unknown.
            return SaveOutcome(row: SeqRow(status: .hiddenSave, id: entry.id), known: false)
        }
        let source = sample.source
        if sample.quantity != nil {
            aggregates.output.quantitySaves.append((entry.kind, source, entry.timestamp))
        }
        let sync = sample.sync
        let record = ObjectRecord(
            state: sync == nil ? .live : .superseded,
            kind: entry.kind,
            saveSeq: entry.seq,
            deleteSeq: 0,
            startKey: IndexKey.date(sample.start),
            endKey: IndexKey.date(sample.end),
            source: source.bundleIdentifier,
            syncKey: sync.map { Self.syncKey(source: source.bundleIdentifier, identifier: $0.identifier) } ?? [],
            // The entry's own row reports it: added, or deleted when outranked.
            reportedSeq: entry.seq
        )
        // One search both checks that the id is new and stores its row;
        // time-ordered uuids usually go at the end, without a search.
        let stored = try record.withBytes { value in
            try withUnsafeBytes(of: entry.id.uuid) { key in
                try txn.insert(value, forKey: key, in: objects, atEnd: true)
                    || txn.insert(value, forKey: key, in: objects)
            }
        }
        let arrival = Arrival(
            entry: entry,
            sample: sample,
            record: record,
            rank: sync.map { SyncRank(version: $0.version, dot: entry.dot) }
        )
        guard stored else {
            return SaveOutcome(row: try resolveSecondSave(arrival, aggregates: &aggregates, in: txn), known: true)
        }
        let visible = try admit(arrival, aggregates: &aggregates, in: txn)
        // Outranked on arrival: reported as deleted, as on the peers where it
        // was shown first.
        let row =
            visible
            ? SeqRow(status: .visibleSave, id: entry.id) : SeqRow(status: .delete, id: entry.id, savedAt: entry.seq)
        return SaveOutcome(row: row, known: false)
    }

    /// Whether `entry` saves the same contents as `earlier`, whose payload
    /// is `payload`: the same bytes, whatever salts the two entries' stored
    /// payloads have (format 2 salts each save, so equal contents no
    /// longer give equal digests). A purged earlier save is compared by
    /// digest, which matches only an entry stored with the same salt.
    static func isCopy(_ entry: LogEntry, of earlier: LogEntry, payload: UnsafeRawBufferPointer?) -> Bool {
        guard let payload, let mine = entry.payload else { return earlier.payloadDigest == entry.payloadDigest }
        return mine.withUnsafeBytes { $0.elementsEqual(payload) }
    }

    /// A save of an id the index already holds: of two different saves, the
    /// smaller dot wins. A copy of the save shown (the same export imported
    /// on two peers) shows nothing new, but with a smaller dot it takes the
    /// shown one's place: the object then stands for the smallest dot of its
    /// contents, so that a different save arriving later is weighed against
    /// that one, as on a peer where the copies arrived the other way round.
    /// Returns the entry's own row.
    private func resolveSecondSave(
        _ arrival: Arrival,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws -> SeqRow {
        let (entry, record) = (arrival.entry, arrival.record)
        let unchanged = SeqRow(status: .hiddenSave, id: entry.id)
        guard let existing = try self.record(entry.id, in: txn), existing.state != .deleted, existing.saveSeq != 0,
            let (earlier, copy) = try lookup.withEntry(
                at: existing.saveSeq,
                in: txn,
                { earlier, payload in
                    (earlier, Self.isCopy(entry, of: earlier, payload: payload))
                }
            )
        else { return unchanged }
        guard entry.dot < earlier.dot else {
            if !copy { try noteConflict(entry.id, loser: entry.seq, winner: earlier.seq, in: txn) }
            return unchanged
        }
        if !copy { try noteConflict(entry.id, loser: earlier.seq, winner: entry.seq, in: txn) }
        let wasVisible = existing.isLive
        try retire(entry.id, existing, at: entry.seq, reporting: false, aggregates: &aggregates, in: txn)
        try txn.put(record.bytes, forKey: entry.id.indexBytes, in: objects)
        let visible = try admit(arrival, aggregates: &aggregates, in: txn)
        if !visible && !wasVisible {
            // Reported as deleted already: the report stays where it is.
            var kept = try self.record(entry.id, in: txn) ?? record
            kept.reportedSeq = existing.reportedSeq
            kept.reportedSub = existing.reportedSub
            try txn.put(kept.bytes, forKey: entry.id.indexBytes, in: objects)
            return unchanged
        }
        // The entry's own row reports the object now.
        try unreport(existing, in: txn)
        return visible
            ? SeqRow(status: .visibleSave, id: entry.id)
            : SeqRow(status: .delete, id: entry.id, savedAt: existing.saveSeq)
    }

    /// Records that two different saves of `id` were seen.
    private func noteConflict(_ id: UUID, loser: UInt64, winner: UInt64, in txn: borrowing WriteTransaction) throws {
        try txn.put(winner.bigEndianBytes, forKey: id.indexBytes + loser.bigEndianBytes, in: conflicts)
    }

    /// Makes a newly stored object visible unless an object of its sync
    /// identifier outranks it; returns whether it is visible.
    private func admit(
        _ arrival: Arrival,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws -> Bool {
        let (id, record, sample) = (arrival.entry.id, arrival.record, arrival.sample)
        guard let rank = arrival.rank, !record.syncKey.isEmpty else {
            try show(id, record, sample: sample, aggregates: &aggregates, in: txn)
            return true
        }
        try txn.put(Self.candidateValue(rank), forKey: record.syncKey + id.indexBytes, in: syncCandidates)
        if let holder = try visibleHolder(of: record.syncKey, in: txn), holder.id != id {
            guard rank.outranks(holder.rank) else { return false }
            try conceal(holder.id, at: arrival.entry.seq, reporting: true, aggregates: &aggregates, in: txn)
        }
        var live = record
        live.state = .live
        try txn.put(live.bytes, forKey: id.indexBytes, in: objects)
        try show(id, live, sample: sample, aggregates: &aggregates, in: txn)
        return true
    }

    /// Applies a delete; returns its type/seq row.
    func applyDelete(
        _ entry: LogEntry,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws -> SeqRow {
        guard let known = try record(entry.id, in: txn) else {
            let tombstone = ObjectRecord(
                state: .deleted,
                kind: entry.kind,
                saveSeq: 0,
                deleteSeq: entry.seq,
                startKey: 0,
                endKey: 0,
                source: "",
                reportedSeq: entry.seq
            )
            try txn.put(tombstone.bytes, forKey: entry.id.indexBytes, in: objects)
            return SeqRow(status: .delete, id: entry.id, savedAt: 0)
        }
        guard known.state != .deleted else { return SeqRow(status: .ignoredDelete, id: entry.id) }
        try retire(entry.id, known, at: entry.seq, reporting: false, aggregates: &aggregates, in: txn)
        var record = try self.record(entry.id, in: txn) ?? known
        record.state = .deleted
        record.deleteSeq = entry.seq
        // A superseded object was reported deleted when it lost: that report stays.
        if known.isLive {
            try unreport(record, in: txn)
            record.reportedSeq = entry.seq
            record.reportedSub = 0
        }
        try txn.put(record.bytes, forKey: entry.id.indexBytes, in: objects)
        try unlink(entry.id, in: txn)
        return known.isLive
            ? SeqRow(status: .delete, id: entry.id, savedAt: known.saveSeq)
            : SeqRow(status: .ignoredDelete, id: entry.id)
    }

    // MARK: Visibility

    /// Takes an object out of the running: it was deleted, or another save
    /// of its id won. When it was the visible one of its sync identifier,
    /// the next candidate becomes visible.
    private func retire(
        _ id: UUID,
        _ record: ObjectRecord,
        at seq: UInt64,
        reporting: Bool,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        if !record.syncKey.isEmpty {
            _ = try txn.removeValue(forKey: record.syncKey + id.indexBytes, in: syncCandidates)
        }
        guard record.isLive else { return }
        try conceal(id, at: seq, reporting: reporting, aggregates: &aggregates, in: txn)
        guard !record.syncKey.isEmpty, let next = try bestCandidate(of: record.syncKey, in: txn) else { return }
        try reveal(next, at: seq, aggregates: &aggregates, in: txn)
    }

    /// Adds a live object to the indices the queries read.
    private func show(
        _ id: UUID,
        _ record: ObjectRecord,
        sample: SampleSummary,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        // A sealed store keeps no end date here (a date as a value): its
        // readers take every row the tiers bound, and the sample, opened
        // anyway, says whether it ends in range.
        try withUnsafeBytes(of: record.endKey.bigEndian) { end in
            let value = typeTime.isSealed ? UnsafeRawBufferPointer(rebasing: end[0..<0]) : end
            let tier = DurationTier.of(start: record.startKey, end: record.endKey)
            try IndexKey.withTimeKey(record.kind, tier, record.startKey, record.saveSeq) { key in
                try put(value, forKey: key, in: typeTime, txn: txn)
            }
        }
        let source = sample.source
        let start = sample.start.timeIntervalSinceReferenceDate
        let end = sample.end.timeIntervalSinceReferenceDate
        aggregates.noteDuration(end - start, kind: record.kind)
        aggregates.count(kind: record.kind, bundle: source.bundleIdentifier, name: source.name, by: 1)
        // Only a sample with a sync key has sync metadata worth reading.
        if !record.syncKey.isEmpty, let sync = sample.sync {
            try txn.put(id.indexBytes + sync.version.bitPattern.bigEndianBytes, forKey: record.syncKey, in: syncIDs)
        }
        if let quantity = sample.quantity {
            let shown = ViewSample(
                source: source,
                start: start,
                end: end,
                quantity: quantity,
                parts: sample.seriesQuantities
            )
            aggregates.output.changes.append(.shown(kind: record.kind, saveSeq: record.saveSeq, sample: shown))
        } else {
            for member in sample.members {
                try join(member: member, correlation: id, in: txn)
            }
        }
    }

    /// Makes a superseded object visible again, reported at `seq`.
    private func reveal(
        _ id: UUID,
        at seq: UInt64,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        guard var record = try record(id, in: txn), record.state == .superseded,
            let sample = try lookup.withEntry(
                at: record.saveSeq,
                in: txn,
                { _, payload in
                    payload.flatMap { writer.summary($0) }
                }
            ) ?? nil
        else { return }
        record.state = .live
        try report(.revealedSave, id, of: &record, at: seq, aggregates: &aggregates, in: txn)
        try txn.put(record.bytes, forKey: id.indexBytes, in: objects)
        try show(id, record, sample: sample, aggregates: &aggregates, in: txn)
    }

    /// Hides a visible object: it is superseded (or about to be deleted).
    /// `reporting` writes its disappearance at `seq`; a delete reports it
    /// in its own row instead.
    private func conceal(
        _ id: UUID,
        at seq: UInt64,
        reporting: Bool,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        guard var record = try record(id, in: txn), record.isLive else { return }
        record.state = .superseded
        if reporting {
            try report(.delete, id, of: &record, at: seq, aggregates: &aggregates, in: txn)
        }
        try txn.put(record.bytes, forKey: id.indexBytes, in: objects)
        let tier = DurationTier.of(start: record.startKey, end: record.endKey)
        _ = try IndexKey.withTimeKey(record.kind, tier, record.startKey, record.saveSeq) { key in
            try txn.removeValue(forKey: key, in: typeTime)
        }
        aggregates.count(kind: record.kind, bundle: record.source, name: nil, by: -1)
        if !record.syncKey.isEmpty {
            let points = try txn.withValue(forKey: record.syncKey, in: syncIDs) { UUID(indexBytes: $0) == id } ?? false
            if points { _ = try txn.removeValue(forKey: record.syncKey, in: syncIDs) }
        }
        aggregates.output.changes.append(.hidden(kind: record.kind, saveSeq: record.saveSeq, startKey: record.startKey))
    }

    /// Reports another object at `seq` (a row kind ‖ seq ‖ n, numbered
    /// within the batch: an entry's rows are all written while it is
    /// applied, so a replay numbers them the same), in place of its
    /// previous report. The caller stores `record`.
    private func report(
        _ status: SeqRow.Status,
        _ id: UUID,
        of record: inout ObjectRecord,
        at seq: UInt64,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        if aggregates.consequence.seq != seq { aggregates.consequence = (seq, 0) }
        guard aggregates.consequence.count < .max else {
            throw HKError(.errorDatabaseInaccessible, "entry \(seq) changes the visibility of too many objects")
        }
        aggregates.consequence.count += 1
        try unreport(record, in: txn)
        record.reportedSeq = seq
        record.reportedSub = aggregates.consequence.count
        let row = SeqRow(status: status, id: id, savedAt: record.saveSeq)
        try txn.put(row.bytes, forKey: IndexKey.kindKey(record.kind, seq) + [aggregates.consequence.count], in: typeSeq)
    }

    /// Turns the object's current report into a row that is not reported.
    private func unreport(_ record: ObjectRecord, in txn: borrowing WriteTransaction) throws {
        guard record.reportedSeq != 0 else { return }
        var key = IndexKey.kindKey(record.kind, record.reportedSeq)
        if record.reportedSub != 0 { key.append(record.reportedSub) }
        guard let row = try txn.withValue(forKey: key, in: typeSeq, { SeqRow($0) }) ?? nil, row.status.isReported
        else { return }
        let quiet = SeqRow(status: row.status == .delete ? .ignoredDelete : .hiddenSave, id: row.id)
        try txn.put(quiet.bytes, forKey: key, in: typeSeq)
    }

    // MARK: Sync identifiers

    /// The visible object of a sync identifier and its rank.
    private func visibleHolder(
        of syncKey: [UInt8],
        in txn: borrowing WriteTransaction
    ) throws -> (id: UUID, rank: SyncRank)? {
        guard let id = try txn.withValue(forKey: syncKey, in: syncIDs, { UUID(indexBytes: $0) }) ?? nil,
            let rank = try txn.withValue(forKey: syncKey + id.indexBytes, in: syncCandidates, { Self.rank(from: $0) })
                ?? nil
        else { return nil }
        return (id, rank)
    }

    /// The highest-ranked remaining candidate of a sync identifier.
    private func bestCandidate(of syncKey: [UInt8], in txn: borrowing WriteTransaction) throws -> UUID? {
        var best: (id: UUID, rank: SyncRank)?
        try txn.withCursor(on: syncCandidates) { cursor in
            try cursor.scan(from: syncKey) { key, value in
                guard key.count == 48, key.starts(with: syncKey) else { return false }
                if let id = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: key[32...])),
                    let rank = Self.rank(from: value),
                    best.map({ rank.outranks($0.rank) }) ?? true
                {
                    best = (id, rank)
                }
                return true
            }
        }
        return best?.id
    }

    /// A candidate row: version (IEEE bits) ‖ origin ‖ counter.
    private static func candidateValue(_ rank: SyncRank) -> [UInt8] {
        rank.version.bitPattern.bigEndianBytes + rank.dot.origin.uuid.indexBytes + rank.dot.counter.bigEndianBytes
    }

    private static func rank(from value: UnsafeRawBufferPointer) -> SyncRank? {
        guard value.count == 32, let origin = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: value[8..<24])) else {
            return nil
        }
        return SyncRank(
            version: Double(bitPattern: value.uint64(at: 0)),
            dot: Dot(origin: StoreID(origin), counter: value.uint64(at: 24))
        )
    }

    // MARK: Correlations

    /// Makes `member` a member of `correlation` when both are live and the
    /// member belongs to no other correlation (OBJ-19).
    func join(member: UUID, correlation: UUID, in txn: borrowing WriteTransaction) throws {
        guard try record(member, in: txn)?.isLive == true, try record(correlation, in: txn)?.isLive == true,
            try !txn.contains(key: member.indexBytes, in: memberOf)
        else { return }
        try txn.put(correlation.indexBytes, forKey: member.indexBytes, in: memberOf)
        try txn.put([], forKey: IndexKey.pair(correlation, member), in: members)
    }
}
