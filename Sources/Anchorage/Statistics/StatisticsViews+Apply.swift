import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StatisticsViews: Projection {
    static let projectionName = "statistics-views"
    /// The batches of the transaction being applied, until ``finish(context:in:)``.
    static let pending = ProjectionScratchKey<ViewBatch>(owner: projectionName)
    var name: String { Self.projectionName }
    // 6: samples longer than an hour in `st.long`, by tier, added to the rows when read.
    // 7: sparse roll-ups, a source's rows only beside another source, records without defaults.
    // (A stale consumer is rebuilt with its producers: the index is rebuilt with them.)
    var version: Int { 7 }
    var databases: [Database] { all }
    /// The index's visibility changes say which samples to add and remove.
    var consumes: [ConsumedOutput] { [HealthIndex.output.consumed] }

    /// Records the batch's quantity samples and priority lists; the buckets
    /// they touch are computed in ``finish(context:in:)``, once per
    /// transaction.
    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        guard let output = context.output(of: HealthIndex.output) else {
            // Every write and every rebuild runs the index first (a stale
            // view is rebuilt with the projections it consumes).
            preconditionFailure("the statistics views ran on a batch the index did not apply")
        }
        try context.withScratch(Self.pending, ViewBatch()) { batch in
            try apply(entries, index: output, batch: &batch, in: txn)
        }
    }

    /// `index`: what the index read, showed and hid in this batch.
    private func apply(
        _ entries: [LogEntry],
        index output: IndexOutput,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        for entry in entries where entry.kind == StoreKind.sourcePriority {
            try applyPriority(entry, batch: &batch, in: txn)
        }
        for save in output.quantitySaves {
            try note(save.source, kind: save.kind, at: save.timestamp, batch: &batch, in: txn)
        }
        for change in output.changes {
            switch change {
            case .shown(let kind, let saveSeq, let sample):
                try add(sample, kind: kind, saveSeq: saveSeq, batch: &batch, in: txn)
            case .hidden(let kind, let saveSeq, let startKey):
                try remove(kind: kind, saveSeq: saveSeq, startKey: startKey, batch: &batch, in: txn)
            }
        }
    }

    /// Numbers a saving source and notes when it first saved the type.
    private func note(
        _ source: HKSource,
        kind: EntryKind,
        at timestamp: Int64,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        _ = try batch.number(of: source, kind: kind, views: self, in: txn)
        try batch.noteSave(kind: kind, bundle: source.bundleIdentifier, at: timestamp, views: self, in: txn)
    }

    /// Computes again every fine bucket the transaction's batches touched,
    /// and the roll-ups above them, once each.
    func finish(context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        try context.withScratch(Self.pending, ViewBatch()) { batch in
            try finish(&batch, in: txn)
            batch = ViewBatch()
        }
    }

    private func finish(_ batch: inout ViewBatch, in txn: borrowing WriteTransaction) throws {
        try batch.flush(into: self, in: txn)
        for (kind, fine) in batch.touched {
            try recompute(
                kind: kind,
                fineBuckets: fine,
                sources: batch.touchedSources[kind] ?? [],
                growing: !batch.shrunk.contains(kind),
                added: batch.added,
                in: txn
            )
        }
        for kind in batch.remerge {
            // A new ranking changes the merged rows (only) wherever the type has data.
            let rest = Set(try existingFineBuckets(of: kind, in: txn)).subtracting(batch.touched[kind] ?? [])
            try recompute(kind: kind, fineBuckets: rest, mergedOnly: true, added: batch.added, in: txn)
        }
    }

    /// Keeps the latest priority list of each type, by origin time then
    /// dot, whatever order peers' lists arrive in.
    private func applyPriority(_ entry: LogEntry, batch: inout ViewBatch, in txn: borrowing WriteTransaction) throws {
        guard let payload = entry.payload,
            let record = payload.withUnsafeBytes({ SourcePriorityRecord.decode($0) })
        else { return }
        let key = record.type.bigEndianBytes
        if let seq = try txn.withValue(forKey: key, in: priorities, { $0.count >= 8 ? $0.uint64(at: 0) : nil }) ?? nil,
            let current = try lookup.entry(at: seq, in: txn), !entry.isLater(than: current)
        {
            return
        }
        try payload.withUnsafeBytes { bytes in
            try txn.put(entry.seq.bigEndianBytes + Array(bytes), forKey: key, in: priorities)
        }
        batch.remerge.insert(EntryKind(rawValue: record.type))
    }

    /// Adds a visible sample to the views: one row, or one per quantity of
    /// a series (listed in `st.series`).
    private func add(
        _ sample: ViewSample,
        kind: EntryKind,
        saveSeq: UInt64,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        let number = try batch.number(of: sample.source, kind: kind, views: self, in: txn)
        guard let parts = sample.parts else {
            try addRow(
                start: sample.start,
                end: sample.end,
                value: sample.value,
                source: number,
                userEntered: sample.userEntered,
                kind: kind,
                saveSeq: saveSeq,
                batch: &batch,
                in: txn
            )
            return
        }
        var starts: [UInt8] = []
        starts.reserveCapacity(parts.count * 8)
        for part in parts {
            try addRow(
                start: part.start,
                end: part.end,
                value: part.value,
                source: number,
                userEntered: sample.userEntered,
                kind: kind,
                saveSeq: saveSeq,
                batch: &batch,
                in: txn
            )
            starts += part.start.bitPattern.bigEndianBytes
        }
        guard let series else { preconditionFailure("a writer opens every database of the views") }
        try txn.put(starts, forKey: Self.sampleKey(kind: kind, start: sample.start, seq: saveSeq), in: series)
    }

    /// Stores one row of a sample (or of one quantity of a series) and
    /// notes the fine buckets it touches.
    private func addRow(
        start: Double,
        end: Double,
        value: Double,
        source number: UInt32,
        userEntered: Bool,
        kind: EntryKind,
        saveSeq: UInt64,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        let row = ViewSampleRow(end: end, value: value, source: number, userEntered: userEntered)
        // A long sample touches no bucket row: its cost does not grow with its span.
        guard !Self.isLong(start: start, end: end) else {
            try row.withBytes { value in
                try Self.withLongKey(kind: kind, tier: LongTier.of(seconds: end - start), start: start, seq: saveSeq) {
                    try txn.put(value, forKey: $0, in: long)
                }
            }
            return
        }
        let startKey = IndexKey.date(Date(timeIntervalSinceReferenceDate: start))
        try row.withBytes { value in
            try IndexKey.withKindKey(kind, startKey, saveSeq) { key in
                try txn.put(value, forKey: key, in: samples)
            }
        }
        if samples.isSealed { batch.noteAdded(row, at: .init(kind: kind.rawValue, start: startKey, seq: saveSeq)) }
        batch.noteDuration(end - start, kind: kind)
        batch.touch(kind, source: number, ViewLevel.fineBuckets(start: start, end: end))
    }

    /// Removes a sample that stopped being visible, if the views hold it:
    /// its row, or each of its quantities' rows.
    private func remove(
        kind: EntryKind,
        saveSeq: UInt64,
        startKey: UInt64,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        let start = IndexKey.seconds(fromDateKey: startKey)
        let key = Self.sampleKey(kind: kind, start: start, seq: saveSeq)
        let parts = try series.flatMap { series in
            try txn.withValue(forKey: key, in: series) { bytes in
                (0..<bytes.count / 8).map { Double(bitPattern: bytes.uint64(at: $0 * 8)) }
            }
        }
        guard let parts, let series else {
            try removeRow(kind: kind, start: start, saveSeq: saveSeq, batch: &batch, in: txn)
            return
        }
        _ = try txn.removeValue(forKey: key, in: series)
        for part in parts {
            try removeRow(kind: kind, start: part, saveSeq: saveSeq, batch: &batch, in: txn)
        }
    }

    private func removeRow(
        kind: EntryKind,
        start: Double,
        saveSeq: UInt64,
        batch: inout ViewBatch,
        in txn: borrowing WriteTransaction
    ) throws {
        let key = Self.sampleKey(kind: kind, start: start, seq: saveSeq)
        guard let row = try txn.withValue(forKey: key, in: samples, { ViewSampleRow($0) }) ?? nil else {
            try removeLong(kind: kind, start: start, seq: saveSeq, in: txn)
            return
        }
        _ = try txn.removeValue(forKey: key, in: samples)
        batch.noteRemoval(kind)
        batch.touch(kind, source: row.source, ViewLevel.fineBuckets(start: start, end: row.end))
    }

    /// The fine buckets where `kind` has data (its merged fine rows).
    private func existingFineBuckets(of kind: EntryKind, in txn: borrowing WriteTransaction) throws -> [Int64] {
        var found: [Int64] = []
        let prefix = kind.rawValue.bigEndianBytes + Self.merged.bigEndianBytes + [0]
        try txn.withCursor(on: buckets) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.count == 17, key.starts(with: prefix) else { return false }
                found.append(ViewLevel.bucket(ofKey: key))
                return true
            }
        }
        return found
    }

    /// Computes again the fine rows of `fineBuckets`, merged and for
    /// `sources` (every source when `nil`; none with `mergedOnly`), then the
    /// roll-ups above them, level by level. A source's rows depend on its
    /// own samples, and on whether another source has any in the bucket
    /// (docs/store-format.md, "One source"), so a batch recomputes those of
    /// the sources it touched and of those sharing a bucket with them.
    ///
    /// `growing`: the batch only added samples of `kind`. A bucket's data
    /// then only grew: a row it does not keep now, it did not keep before
    /// (a roll-up over one fine bucket, a source's row where one source
    /// has data), so such rows are not removed — on a backfill, where most
    /// samples land in buckets of their own, that is a third of the
    /// B-tree searches of the views.
    func recompute(
        kind: EntryKind,
        fineBuckets: Set<Int64>,
        sources: Set<UInt32>? = nil,
        mergedOnly: Bool = false,
        growing: Bool = false,
        added: [ViewSampleRow.Key: ViewSampleRow] = [:],
        in txn: borrowing WriteTransaction
    ) throws {
        guard !fineBuckets.isEmpty else { return }
        let table = try sourceTable(of: kind, in: txn)
        let ranking = try ranking(of: kind, in: txn)
        let longest = try longest(of: kind, in: txn)
        let touchedSources = mergedOnly ? [] : table.keys.filter { sources?.contains($0) ?? true }.sorted()
        let context = RollUpContext(
            kind: kind,
            style: (TypeCatalog.sampleType(forKindCode: kind.rawValue) as? HKQuantityType)?.aggregationStyle,
            table: table.keys.sorted(),
            touched: touchedSources,
            mergedOnly: mergedOnly,
            growing: growing
        )
        let known = NumberedSources(table, ranking: ranking)
        var touched = Set(fineBuckets)
        // The samples of every touched fine bucket, read in a few scans.
        let found = try samples(
            of: kind,
            inFineBuckets: touched,
            sources: known,
            longest: longest,
            added: added,
            in: txn
        )
        for level in 0..<ViewLevel.lengths.count {
            var parents = Set<Int64>()
            for bucket in touched.sorted() {
                if level == 0 {
                    try recomputeFine(bucket: bucket, found: found[bucket] ?? [], context: context, in: txn)
                } else {
                    try rollUp(level: level, bucket: bucket, context: context, in: txn)
                }
                if level + 1 < ViewLevel.lengths.count {
                    let start = bucket * ViewLevel.lengths[level]
                    parents.insert(Int64((Double(start) / Double(ViewLevel.lengths[level + 1])).rounded(.down)))
                }
            }
            touched = parents
        }
    }

    /// What every bucket of one ``recompute(kind:fineBuckets:sources:mergedOnly:growing:added:in:)`` shares.
    private struct RollUpContext {
        var kind: EntryKind
        /// What the rows keep (``ViewRecord/withBytes(merged:style:_:)``).
        var style: HKQuantityAggregationStyle?
        /// Every source of the kind, by number.
        var table: [UInt32]
        /// The sources whose samples changed.
        var touched: [UInt32]
        var mergedOnly: Bool
        /// Samples were only added (``recompute(kind:fineBuckets:sources:mergedOnly:growing:added:in:)``).
        var growing: Bool

        /// Whether the source rows of a bucket whose merged record is now
        /// `merged` are all absent and stay so: it has at most one source,
        /// and, its data having only grown, had at most that one before.
        func keepsNoSourceRows(_ merged: ViewRecord?) -> Bool {
            growing && (merged.map { $0.sole != 0 } ?? true)
        }
    }

    /// The merged row of a fine bucket and, where it has samples of
    /// several sources, a row for each of them.
    private func recomputeFine(
        bucket: Int64,
        found: [StatisticsSample],
        context: RollUpContext,
        in txn: borrowing WriteTransaction
    ) throws {
        let kind = context.kind
        let window = ViewLevel.window(level: 0, bucket: bucket)
        // A merged sum and sound levels only for the styles that store them
        // (``ViewRecord/withBytes(merged:style:_:)``): the bytes are the same.
        let sums = context.style == nil || context.style == .cumulative
        let levels = context.style == nil || context.style == .discreteEquivalentContinuousLevel
        let merged = ViewRecord(
            found,
            in: window,
            mergedSum: sums ? ReferenceStatistics.mergedSum(found, in: window) : nil,
            levels: levels
        )
        try ViewLevel.withKey(kind: kind, source: Self.merged, level: 0, bucket: bucket) { key in
            try store(merged, merged: true, style: context.style, forKey: key, in: txn)
        }
        guard !context.mergedOnly, !context.keepsNoSourceRows(merged) else { return }
        // Rows may change for the touched sources and for those with samples here.
        var numbers = Set(context.touched)
        for sample in found { numbers.insert(sample.source) }
        for number in numbers.sorted() {
            let record =
                merged?.sole == 0 ? ViewRecord(found.filter { $0.source == number }, in: window, levels: levels) : nil
            try ViewLevel.withKey(kind: kind, source: number, level: 0, bucket: bucket) { key in
                try store(record, merged: false, style: context.style, forKey: key, in: txn)
            }
        }
    }

    /// Combines the children of a roll-up bucket. The merged record is kept
    /// as a row only when at least two fine buckets under it hold data: with
    /// one, its record is that fine bucket's, which readers take instead
    /// (docs/store-format.md, "Sparse roll-ups"). Sources have rows only
    /// where the bucket has several.
    private func rollUp(
        level: Int,
        bucket: Int64,
        context: RollUpContext,
        in txn: borrowing WriteTransaction
    ) throws {
        let kind = context.kind
        let ratio = ViewLevel.lengths[level] / ViewLevel.lengths[level - 1]
        let first = bucket * ratio
        let children = Array(first..<(first + ratio))
        let (pieces, rows) = try recordsCountingRows(
            kind: kind,
            source: Self.merged,
            level: level - 1,
            wanted: children,
            in: txn
        )
        // In time order: a missing child counts as an empty piece (it ends
        // what was carried).
        let merged = ViewRecord.combine(pieces)
        // Two fine buckets with data or more: two children with data, or a
        // roll-up's own row among them.
        let keeps = pieces.lazy.filter { $0 != nil }.count > 1 || (level - 1 > 0 && rows > 0)
        // Not kept now and only grown: it had no row before either.
        if keeps || !context.growing {
            try ViewLevel.withKey(kind: kind, source: Self.merged, level: level, bucket: bucket) { key in
                try store(
                    keeps ? merged : nil,
                    merged: true,
                    style: context.style,
                    forKey: key,
                    in: txn
                )
            }
        }
        guard !context.mergedOnly, !context.keepsNoSourceRows(merged) else { return }
        // Rows may change for the touched sources and for those with samples
        // here: the children's only sources, or, under a child with several,
        // any source.
        var numbers = Set(context.touched)
        for piece in pieces {
            guard let sole = piece?.sole else { continue }
            if sole == 0 {
                numbers.formUnion(context.table)
                break
            }
            numbers.insert(sole)
        }
        for number in numbers.sorted() {
            var record: ViewRecord?
            if merged?.sole == 0 {
                record = ViewRecord.combine(
                    try sourceRecords(
                        kind: kind,
                        source: number,
                        level: level - 1,
                        wanted: children,
                        merged: pieces,
                        in: txn
                    )
                )
            }
            try ViewLevel.withKey(kind: kind, source: number, level: level, bucket: bucket) { key in
                try store(record, merged: false, style: context.style, forKey: key, in: txn)
            }
        }
    }

    private func store(
        _ record: ViewRecord?,
        merged: Bool,
        style: HKQuantityAggregationStyle?,
        forKey key: UnsafeRawBufferPointer,
        in txn: borrowing WriteTransaction
    ) throws {
        if let record {
            try record.withBytes(merged: merged, style: style) { try txn.put($0, forKey: key, in: buckets) }
        } else {
            _ = try txn.removeValue(forKey: key, in: buckets)
        }
    }
}
