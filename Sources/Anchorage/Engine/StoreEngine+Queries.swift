import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The changes an anchored query reports for one range of the log.
struct AnchoredChanges {
    var samples: [HKSample] = []
    var deleted: [HKDeletedObject] = []
    /// The position of each sample and deletion, for merging several
    /// queries' changes in anchor order.
    var sampleSeqs: [UInt64] = []
    var deletedSeqs: [UInt64] = []
    /// The start and end of each deleted sample whose save is known, for
    /// statistics updates.
    var deletedSpans: [(start: Date, end: Date)] = []
    /// The position the next page starts after (AQ-9, AQ-10).
    var last: UInt64

    var isEmpty: Bool { samples.isEmpty && deleted.isEmpty }

    /// Keeps only the last report of each object: an object shown and then
    /// hidden again within the range (a replacement on another peer won
    /// after all) is reported only as deleted, and one hidden and then shown
    /// only as added (AQ-12), so consumers that apply deletions and
    /// additions in either order end right.
    func coalesced() -> AnchoredChanges {
        guard !samples.isEmpty, !deleted.isEmpty else { return self }
        var lastDeleted: [UUID: UInt64] = [:]
        for (object, seq) in zip(deleted, deletedSeqs) { lastDeleted[object.uuid] = seq }
        var lastAdded: [UUID: UInt64] = [:]
        for (sample, seq) in zip(samples, sampleSeqs) where lastDeleted[sample.uuid] != nil {
            lastAdded[sample.uuid] = seq
        }
        guard !lastAdded.isEmpty else { return self }
        var result = self
        let keptSamples = zip(samples, sampleSeqs).filter { sample, seq in (lastDeleted[sample.uuid] ?? 0) < seq }
        result.samples = keptSamples.map(\.0)
        result.sampleSeqs = keptSamples.map(\.1)
        // Spans stay: they only widen the buckets a statistics update reads.
        let keptDeleted = zip(deleted, deletedSeqs).filter { object, seq in (lastAdded[object.uuid] ?? 0) < seq }
        result.deleted = keptDeleted.map(\.0)
        result.deletedSeqs = keptDeleted.map(\.1)
        return result
    }
}

extension StoreEngine {
    /// The visible samples of `type` matching `predicate` that the caller may
    /// read, in anchor order (SQ-1, SQ-3, AUTH-4).
    func matchingSamples(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [HKSample] {
        try matchingSamplesWithSeqs(of: type, predicate: predicate, in: txn, session: &session).map(\.sample)
    }

    /// ``matchingSamples(of:predicate:in:session:)`` with each sample's
    /// position in the log.
    func matchingSamplesWithSeqs(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [(seq: UInt64, sample: HKSample)] {
        let scope = type is HKCorrelationType ? ReadScope.all : try scope(for: type, in: txn, session: &session)
        guard scope.admitsAnything else { return [] }
        let earliest = configuration.earliestPermittedSampleDate
        var decoded: [(seq: UInt64, sample: HKSample)] = []
        let seqs = try candidates(kind: EntryKind(rawValue: type.kindCode), predicate: predicate, in: txn)
        decoded.reserveCapacity(seqs.count)
        try log.withPayloads(at: seqs, in: txn) { position, payload in
            guard let payload, let sample = try? session.decoder.decode(payload) as? HKSample,
                scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                sample.endDate >= earliest
            else { return }
            decoded.append((seqs[position], sample))
        }
        var samples: [(seq: UInt64, sample: HKSample)] = []
        samples.reserveCapacity(decoded.count)
        for (seq, sample) in decoded {
            guard let shown = try presented(sample, in: txn, session: &session) else { continue }
            samples.append((seq, shown))
        }
        guard let predicate, predicate != .constant(true) else { return samples }
        let context = try context(for: predicate, samples: samples.map(\.sample), in: txn)
        return samples.filter { predicate.evaluate($0.sample, context: context) }
    }

    /// The samples saved and objects deleted after `start`, up to `upper`,
    /// at most `limit` items in anchor order (AQ-3, AQ-6..13). Reads only the
    /// type/seq rows of `type`.
    func anchoredChanges(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        covered: [StoreID: UInt64]? = nil,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> AnchoredChanges {
        var changes = AnchoredChanges(last: max(start, upper))
        guard start < upper else { return changes }
        let scope = type is HKCorrelationType ? ReadScope.all : try scope(for: type, in: txn, session: &session)
        guard scope.admitsAnything else { return changes }
        let kind = EntryKind(rawValue: type.kindCode)
        let predicate = predicate == .constant(true) ? nil : predicate
        // Rows are read and decoded a chunk at a time, so a small page of a
        // long history decodes only about what it returns.
        let chunk = min(max(limit ?? 4_096, 64), 4_096)
        var from = IndexKey.kindKey(kind, start + 1)
        var count = 0
        while true {
            let rows = try typeSeqRows(kind: kind, from: from, through: upper, max: chunk, in: txn)
            guard let lastRow = rows.last else { break }
            let objects = try decodedObjects(of: rows, in: txn, session: &session)
            // Entries a consumer resuming from a vector has seen on another copy.
            let seen = try covered.map { try log.covered(rows.map(\.seq), by: $0, in: txn) } ?? []
            for (index, (seq, _, row)) in rows.enumerated() where row.status.isReported && !seen.contains(seq) {
                // A full page ends at its last item, so the next page resumes
                // right after it (AQ-9); the rows of one entry stay together.
                if let limit, count >= limit, seq != changes.last { return changes.coalesced() }
                if row.status == .visibleSave || row.status == .revealedSave {
                    guard let sample = objects[index],
                        scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                        try matches(sample, predicate, in: txn),
                        let shown = try presented(sample, in: txn, session: &session)
                    else { continue }
                    changes.samples.append(shown)
                    changes.sampleSeqs.append(seq)
                } else if row.savedAt != 0 {
                    guard let sample = objects[index],
                        scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                        predicate?.evaluate(sample) ?? true
                    else { continue }
                    changes.deleted.append(HKDeletedObject(deleting: sample))
                    changes.deletedSeqs.append(seq)
                    changes.deletedSpans.append((sample.startDate, sample.endDate))
                } else {
                    guard predicate == nil, scope.everything else { continue }
                    changes.deleted.append(HKDeletedObject(uuid: row.id, metadata: HKMetadata(values: [:])))
                    changes.deletedSeqs.append(seq)
                }
                count += 1
                changes.last = seq
            }
            guard rows.count == chunk else { break }
            // The smallest key after the last one read.
            from = IndexKey.kindKey(kind, lastRow.seq) + (lastRow.sub.map { [$0, 0] } ?? [0])
        }
        changes.last = upper
        return changes.coalesced()
    }

    /// Up to `max` rows of the type/seq index of `kind` from key `from`
    /// through seq `upper` (every status): an entry's own row (kind ‖ seq,
    /// `sub` nil) and the rows of what it did to other objects (kind ‖ seq
    /// ‖ n, `sub` n).
    private func typeSeqRows(
        kind: EntryKind,
        from: [UInt8],
        through upper: UInt64,
        max: Int,
        in txn: borrowing ReadTransaction
    ) throws -> [(seq: UInt64, sub: UInt8?, row: SeqRow)] {
        let prefix = kind.rawValue.bigEndianBytes
        var rows: [(seq: UInt64, sub: UInt8?, row: SeqRow)] = []
        defer { counters.count(rows.count) }
        try txn.withCursor(on: index.typeSeq) { cursor in
            try cursor.scan(from: from) { key, value in
                guard rows.count < max, key.count == 12 || key.count == 13, key.starts(with: prefix) else {
                    return false
                }
                let seq = key.uint64(at: 4)
                guard seq <= upper else { return false }
                guard let row = SeqRow(value) else {
                    throw HKError(
                        .errorDatabaseInaccessible,
                        "the store's type/seq index is damaged at entry \(seq); rebuild it with HKHealthStore.rebuildIndices()"
                    )
                }
                rows.append((seq, key.count == 13 ? key[12] : nil, row))
                return true
            }
        }
        return rows
    }

    /// The object each reported row needs, decoded: the saved sample of a
    /// visible save, the deleted object of a delete (for its predicate match
    /// and sync metadata). Payloads are read with one cursor, in log order.
    private func decodedObjects(
        of rows: [(seq: UInt64, sub: UInt8?, row: SeqRow)],
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [HKSample?] {
        let needed = rows.map { row -> UInt64 in
            switch row.row.status {
            case .visibleSave: row.seq
            case .delete, .revealedSave: row.row.savedAt
            case .hiddenSave, .ignoredDelete: 0
            }
        }
        var objects = [HKSample?](repeating: nil, count: rows.count)
        let order = needed.indices.filter { needed[$0] != 0 }.sorted { needed[$0] < needed[$1] }
        try log.withPayloads(at: order.map { needed[$0] }, in: txn) { position, payload in
            guard let payload else { return }
            objects[order[position]] = try? session.decoder.decode(payload) as? HKSample
        }
        return objects
    }

    /// Whether `sample` matches `predicate`, answering membership questions
    /// from the indices.
    private func matches(
        _ sample: HKSample,
        _ predicate: ObjectPredicate?,
        in txn: borrowing ReadTransaction
    ) throws
        -> Bool
    {
        guard let predicate else { return true }
        return predicate.evaluate(sample, context: try context(for: predicate, samples: [sample], in: txn))
    }

    /// The sources of the caller-readable samples of `type` matching
    /// `predicate` (SRC-1, SRC-2).
    func sources(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> Set<HKSource> {
        let scope = type is HKCorrelationType ? ReadScope.all : try scope(for: type, in: txn, session: &session)
        if predicate == nil && scope.everything && !(type is HKCorrelationType) {
            var sources = Set<HKSource>()
            let prefix = type.kindCode.bigEndianBytes
            try txn.withCursor(on: index.sources) { cursor in
                try cursor.scan(from: prefix) { key, value in
                    guard key.starts(with: prefix) else { return false }
                    let bundle = String(decoding: UnsafeRawBufferPointer(rebasing: key[4...]), as: UTF8.self)
                    let name = String(decoding: UnsafeRawBufferPointer(rebasing: value[8...]), as: UTF8.self)
                    sources.insert(HKSource(name: name, bundleIdentifier: bundle))
                    return true
                }
            }
            counters.count(sources.count)
            return sources
        }
        let samples = try matchingSamples(of: type, predicate: predicate, in: txn, session: &session)
        return Set(samples.map(\.sourceRevision.source))
    }

    /// The correlations of `type` matching `predicate` whose visible members
    /// satisfy `samplePredicates` (CQ-2..5).
    func correlations(
        of type: HKCorrelationType,
        predicate: ObjectPredicate?,
        samplePredicates: [(type: HKSampleType, predicate: ObjectPredicate)],
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [HKCorrelation] {
        let correlations = try matchingSamples(of: type, predicate: predicate, in: txn, session: &session)
            .compactMap { $0 as? HKCorrelation }
        return try correlations.filter { correlation in
            for (memberType, memberPredicate) in samplePredicates {
                let members = Array(correlation.objects(for: memberType))
                guard !members.isEmpty else { return false }
                let context = try context(for: memberPredicate, samples: members, in: txn)
                guard members.allSatisfy({ memberPredicate.evaluate($0, context: context) }) else { return false }
            }
            return true
        }
    }
}
