import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The changes of several sources (sample predicates, activity summaries)
/// after an anchor, each kind in anchor order.
struct MergedChanges {
    var added: [HKSample] = []
    var deleted: [HKDeletedObject] = []
    /// The days whose activity summary changed, each with its summary now.
    var summaries: [HKActivitySummary] = []
    /// The position the next page starts after.
    var last: UInt64
}

extension StoreEngine {
    /// The changes of every predicate (and, with `activitySummaries`, the
    /// days whose activity summary changed) after `start` through `upper`,
    /// in anchor order, cut at `limit` items without splitting an entry's
    /// items across pages (AQ-8, AQ-9, AQ-17). One source's changes come
    /// cut and in order already; several are merged by position.
    func mergedChanges(
        of predicates: [(type: HKSampleType, predicate: ObjectPredicate?)],
        activitySummaries: Bool,
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        covered: [StoreID: UInt64]? = nil,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> MergedChanges {
        var added: [(seq: UInt64, sample: HKSample)] = []
        var deleted: [(seq: UInt64, object: HKDeletedObject)] = []
        var summaries: [(seq: UInt64, summary: HKActivitySummary)] = []
        // A source whose page was full stopped at `cutoff`; nothing after it
        // may be reported, or its later items would be skipped (AQ-9).
        // Later sources read no further than the cutoff so far.
        var cutoff = upper
        for (type, predicate) in predicates {
            let changes = try anchoredChanges(
                of: type,
                predicate: predicate,
                after: start,
                through: cutoff,
                limit: limit,
                covered: covered,
                in: txn,
                session: &session
            )
            cutoff = min(cutoff, changes.last)
            added += zip(changes.sampleSeqs, changes.samples).map { ($0, $1) }
            deleted += zip(changes.deletedSeqs, changes.deleted).map { ($0, $1) }
        }
        if activitySummaries {
            let changes = try activitySummaryChanges(
                after: start,
                through: cutoff,
                limit: limit,
                covered: covered,
                in: txn,
                session: &session
            )
            cutoff = min(cutoff, changes.last)
            summaries = changes.items
        }
        guard predicates.count + (activitySummaries ? 1 : 0) > 1 else {
            return MergedChanges(
                added: added.map(\.sample),
                deleted: deleted.map(\.object),
                summaries: summaries.map(\.summary),
                last: cutoff
            )
        }
        // The position of the limit-th item: the items of that entry stay together.
        var last = cutoff
        let seqs = (added.map(\.seq) + deleted.map(\.seq) + summaries.map(\.seq)).filter { $0 <= cutoff }.sorted()
        if let limit, seqs.count > limit { last = seqs[limit - 1] }
        // Sorting by position alone is stable here: Swift's sort is, and one
        // source lists an entry's items together.
        return MergedChanges(
            added: added.filter { $0.seq <= last }.sorted { $0.seq < $1.seq }.map(\.sample),
            deleted: deleted.filter { $0.seq <= last }.sorted { $0.seq < $1.seq }.map(\.object),
            summaries: summaries.filter { $0.seq <= last }.map(\.summary),
            last: last
        )
    }

    /// The days whose visible activity summary was saved after `start`
    /// through `upper`, each with that summary, in log order: a day changed
    /// several times is reported once, at its latest change. Empty for a
    /// caller without read access (AUTH-4).
    func activitySummaryChanges(
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        covered: [StoreID: UInt64]? = nil,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> (items: [(seq: UInt64, summary: HKActivitySummary)], last: UInt64) {
        guard start < upper else { return ([], max(start, upper)) }
        guard try scope(for: TypeCatalog.activitySummary, in: txn, session: &session).everything else {
            return ([], upper)
        }
        let prefix = HealthIndex.activitySeqPrefix
        var seqs: [UInt64] = []
        var full = false
        try txn.withCursor(on: index.settings) { cursor in
            try cursor.scan(from: HealthIndex.activitySeqKey(start + 1)) { key, _ in
                guard key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
                let seq = key.uint64(at: prefix.count)
                guard seq <= upper else { return false }
                if let limit, seqs.count >= limit {
                    full = true
                    return false
                }
                seqs.append(seq)
                return true
            }
        }
        counters.count(seqs.count)
        var items: [(seq: UInt64, summary: HKActivitySummary)] = []
        let seen = try covered.map { try log.covered(seqs, by: $0, in: txn) } ?? []
        for seq in seqs where !seen.contains(seq) {
            guard let record = try activitySummaryRecord(at: seq, in: txn) else { continue }
            items.append((seq, record.summary))
        }
        return (items, full ? seqs[seqs.count - 1] : upper)
    }
}
