import AnchorageLog
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
    /// The position the next page starts after (AQ-9, AQ-10).
    var last: UInt64

    var isEmpty: Bool { samples.isEmpty && deleted.isEmpty }
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
        let scope = type is HKCorrelationType ? ReadScope.all : try scope(for: type, in: txn, session: &session)
        guard scope.admitsAnything else { return [] }
        let earliest = configuration.earliestPermittedSampleDate
        var samples: [HKSample] = []
        for seq in try candidates(kind: EntryKind(rawValue: type.kindCode), predicate: predicate, in: txn) {
            guard let sample = try sample(atSeq: seq, in: txn, session: &session),
                scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                sample.endDate >= earliest,
                let shown = try presented(sample, in: txn, session: &session)
            else { continue }
            samples.append(shown)
        }
        guard let predicate, predicate != .constant(true) else { return samples }
        let context = try context(for: predicate, samples: samples, in: txn)
        return samples.filter { predicate.evaluate($0, context: context) }
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
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> AnchoredChanges {
        var changes = AnchoredChanges(last: max(start, upper))
        guard start < upper else { return changes }
        let scope = type is HKCorrelationType ? ReadScope.all : try scope(for: type, in: txn, session: &session)
        guard scope.admitsAnything else { return changes }
        let kind = EntryKind(rawValue: type.kindCode)
        let prefix = kind.rawValue.bigEndianBytes
        var rows: [(seq: UInt64, row: SeqRow)] = []
        try txn.withCursor(on: index.typeSeq) { cursor in
            try cursor.scan(from: IndexKey.kindKey(kind, start + 1)) { key, value in
                guard key.count == 12, key.starts(with: prefix) else { return false }
                let seq = key.uint64(at: 4)
                guard seq <= upper else { return false }
                counters.count()
                if let row = SeqRow(value), row.status == .visibleSave || row.status == .delete {
                    rows.append((seq, row))
                }
                return true
            }
        }
        let predicate = predicate == .constant(true) ? nil : predicate
        var count = 0
        for (seq, row) in rows {
            // A full page ends at its last item, so the next page resumes
            // right after it (AQ-9).
            if let limit, count == limit { return changes }
            if row.status == .visibleSave {
                guard let sample = try sample(atSeq: seq, in: txn, session: &session),
                    scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                    try matches(sample, predicate, in: txn),
                    let shown = try presented(sample, in: txn, session: &session)
                else { continue }
                changes.samples.append(shown)
                changes.sampleSeqs.append(seq)
            } else if row.savedAt != 0 {
                guard let sample = try sample(atSeq: row.savedAt, in: txn, session: &session),
                    scope.admits(source: sample.sourceRevision.source.bundleIdentifier),
                    predicate?.evaluate(sample) ?? true
                else { continue }
                changes.deleted.append(HKDeletedObject(deleting: sample))
                changes.deletedSeqs.append(seq)
            } else {
                guard predicate == nil, scope.everything else { continue }
                changes.deleted.append(HKDeletedObject(uuid: row.id, metadata: HKMetadata(values: [:])))
                changes.deletedSeqs.append(seq)
            }
            count += 1
            changes.last = seq
        }
        changes.last = upper
        return changes
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
                    counters.count()
                    let bundle = String(decoding: UnsafeRawBufferPointer(rebasing: key[4...]), as: UTF8.self)
                    let name = String(decoding: UnsafeRawBufferPointer(rebasing: value[8...]), as: UTF8.self)
                    sources.insert(HKSource(name: name, bundleIdentifier: bundle))
                    return true
                }
            }
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
