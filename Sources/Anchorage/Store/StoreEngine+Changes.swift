import AnchorageLog
import Foundation
import LMDB

/// One change a feed reports, at its position in the log.
enum ChangeItem {
    case added(HKSample)
    case deleted(HKDeletedObject)
    /// A day whose visible activity summary is now this one.
    case summary(HKActivitySummary)
}

/// The changes of several sources merged in anchor order.
struct MergedChanges {
    var items: [(seq: UInt64, item: ChangeItem)]
    /// The position the next page starts after.
    var last: UInt64
}

extension StoreEngine {
    /// The changes of every predicate (and, with `activitySummaries`, the
    /// days whose activity summary changed) after `start` through `upper`,
    /// in anchor order, cut at `limit` items without splitting an entry's
    /// items across pages (AQ-9, AQ-17).
    func mergedChanges(
        of predicates: [(type: HKSampleType, predicate: ObjectPredicate?)],
        activitySummaries: Bool,
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> MergedChanges {
        var items: [(seq: UInt64, item: ChangeItem)] = []
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
                in: txn,
                session: &session
            )
            cutoff = min(cutoff, changes.last)
            for (seq, sample) in zip(changes.sampleSeqs, changes.samples) { items.append((seq, .added(sample))) }
            for (seq, deleted) in zip(changes.deletedSeqs, changes.deleted) { items.append((seq, .deleted(deleted))) }
        }
        if activitySummaries {
            let changes = try activitySummaryChanges(
                after: start,
                through: cutoff,
                limit: limit,
                in: txn,
                session: &session
            )
            cutoff = min(cutoff, changes.last)
            for (seq, summary) in changes.items { items.append((seq, .summary(summary))) }
        }
        // Stable: the items of one entry keep the order their source gave.
        items = items.enumerated().filter { $0.element.seq <= cutoff }
            .sorted { ($0.element.seq, $0.offset) < ($1.element.seq, $1.offset) }.map(\.element)
        var last = cutoff
        if let limit, items.count > limit {
            // The items of the entry at the cut stay together.
            let cut = items[limit - 1].seq
            var end = limit
            while end < items.count, items[end].seq == cut { end += 1 }
            items.removeSubrange(end...)
            last = cut
        }
        return MergedChanges(items: items, last: last)
    }

    /// The days whose visible activity summary was saved after `start`
    /// through `upper`, each with that summary, in log order: a day changed
    /// several times is reported once, at its latest change. Empty for a
    /// caller without read access (AUTH-4).
    func activitySummaryChanges(
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
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
        for seq in seqs {
            guard let record = try activitySummaryRecord(at: seq, in: txn) else { continue }
            items.append((seq, record.summary))
        }
        return (items, full ? seqs[seqs.count - 1] : upper)
    }
}
