import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The statistics views: per quantity type and source, aggregate buckets
/// of 15 minutes with roll-ups of 1 hour, 4 hours, 1 day and 7 days, plus
/// the same for all sources merged by priority; and what merging needs,
/// each type's source priority and each source's first save. A projection
/// of the log, kept current in the write transaction of every batch and
/// rebuilt exactly by replaying it (docs/store-format.md).
///
/// | database | key | value |
/// | --- | --- | --- |
/// | `st.samples` | kind ‖ start ‖ seq | ``ViewSampleRow`` (samples up to ``longSample`` long) |
/// | `st.long` | kind ‖ tier ‖ start ‖ seq | ``ViewSampleRow`` (longer samples, by ``LongTier``) |
/// | `st.sources` | kind ‖ 0 ‖ bundle id / kind ‖ 1 ‖ number | number / bundle id ‖ 0 ‖ name |
/// | `st.kinds` | kind | next source number ‖ longest sample (seconds) |
/// | `st.buckets` | kind ‖ source number (0: merged) ‖ level ‖ bucket | ``ViewRecord`` (where it adds something) |
/// | `st.priorities` | kind | seq of the entry holding the priority list ‖ its payload |
/// | `st.first-seen` | kind ‖ bundle id | origin time (ns since 1970) of the earliest save |
/// | `st.series` | kind ‖ start ‖ seq of a sample of several quantities | the start of each of its quantities |
///
/// A sample of several quantities (SERIES-6) is kept as its quantities: one
/// `st.samples` (or `st.long`) row for each, keyed by the quantity's start
/// and the sample's seq, as HealthKit's statistics split a series into its
/// quantities. `st.series` lists them, so hiding the sample removes each.
///
/// A sample longer than ``longSample`` is kept in `st.long` and out of the
/// bucket rows, so that what a sample costs to write and to store does not
/// depend on its span: one row, whether it lasts two hours or ten years.
/// Reading, ``buckets(_:of:grid:options:in:)`` adds the long samples
/// reaching each query bucket to what the rows hold (or, where a merged sum
/// or a covered duration needs every sample at once, computes the pieces
/// they reach from the samples).
///
/// Rows are only kept where they add something: an all-sources roll-up
/// over a single fine bucket with data is that fine bucket's record, and a
/// source alone in a bucket is its all-sources record (``ViewRecord/sole``);
/// a record's bytes leave out what equals its default or what the type's
/// style never reads (``ViewRecord/withBytes(merged:style:_:)``).
///
/// Every bucket row is computed afresh from the samples it covers whenever
/// one of them changes (never by adding and subtracting), so it is a pure
/// function of the visible samples and the ranking, and a rebuild gives the
/// same bytes. The views consume what the index (``HealthIndex``, applied
/// first in the same transaction) publishes for each batch: which samples
/// became visible or hidden. They never read the index's databases; rebuilt
/// after a change of their version, they are rebuilt with the index.
struct StatisticsViews: Sendable {
    let samples: Database
    let long: Database
    let sources: Database
    let kinds: Database
    let buckets: Database
    let priorities: Database
    let firstSeen: Database
    /// `nil` only to a reader of a store no writer of this version has
    /// opened yet: it holds no sample of several quantities.
    let series: Database?
    /// The log's entries, for the rule deciding between priority lists.
    let lookup: EntryLookup
    let writer = ViewsWriterContext()

    /// The source number of every source's merged row.
    static let merged: UInt32 = 0

    init(in txn: borrowing DatabaseOpener) throws {
        samples = try txn.openStoreDatabase("st.samples", keys: .kindFirst)
        long = try txn.openStoreDatabase("st.long", keys: .kindFirst)
        sources = try txn.openStoreDatabase("st.sources", keys: ProjectionKeyLayout(.kind, .clear(1), .identifier))
        kinds = try txn.openStoreDatabase("st.kinds", keys: .kindFirst)
        buckets = try txn.openStoreDatabase("st.buckets", keys: .kindFirst)
        priorities = try txn.openStoreDatabase("st.priorities", keys: .kindFirst)
        firstSeen = try txn.openStoreDatabase("st.first-seen", keys: ProjectionKeyLayout(.kind, .identifier))
        series = try txn.projectionDatabase(named: "st.series", keys: .kindFirst)
        lookup = try EntryLookup(in: txn)
    }

    /// Every database, in a fixed order.
    var all: [Database] {
        [samples, long, sources, kinds, buckets, priorities, firstSeen] + (series.map { [$0] } ?? [])
    }

    /// The longest span, in seconds, of a sample kept in the bucket rows (an
    /// hour: at most 5 fine buckets); longer ones go to `st.long`.
    static let longSample: Double = 3_600

    /// Whether a sample from `start` to `end` is kept out of the bucket rows.
    static func isLong(start: Double, end: Double) -> Bool { end - start > longSample }

    // MARK: Keys

    static func firstSeenKey(kind: EntryKind, bundle: String) -> [UInt8] {
        kind.rawValue.bigEndianBytes + Array(bundle.utf8)
    }

    static func sourceNumberKey(kind: EntryKind, bundle: String) -> [UInt8] {
        kind.rawValue.bigEndianBytes + [0] + Array(bundle.utf8)
    }

    static func sourceNameKey(kind: EntryKind, number: UInt32) -> [UInt8] {
        kind.rawValue.bigEndianBytes + [1] + number.bigEndianBytes
    }

    static func sampleKey(kind: EntryKind, start: Double, seq: UInt64) -> [UInt8] {
        IndexKey.kindKey(kind, IndexKey.date(Date(timeIntervalSinceReferenceDate: start)), seq)
    }

    // MARK: Reading

    /// The ranking of `type`'s sources as of `txn`.
    func ranking(
        of kind: EntryKind,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> SourceRanking {
        let record = try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: priorities) { value in
            value.count > 8 ? SourcePriorityRecord.decode(UnsafeRawBufferPointer(rebasing: value[8...])) : nil
        }
        let priority = record??.sources ?? []
        var firstSeen: [String: Int64] = [:]
        let prefix = kind.rawValue.bigEndianBytes
        try txn.withCursor(on: self.firstSeen) { cursor in
            try cursor.scan(from: prefix) { key, value in
                guard key.starts(with: prefix), value.count == 8 else { return false }
                let bundle = String(decoding: UnsafeRawBufferPointer(rebasing: key[4...]), as: UTF8.self)
                firstSeen[bundle] = Int64(bitPattern: value.uint64(at: 0))
                return true
            }
        }
        return SourceRanking(priority: priority, firstSeen: firstSeen)
    }

    /// The sources of `kind` by number.
    func sourceTable(
        of kind: EntryKind,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [UInt32: HKSource] {
        var table: [UInt32: HKSource] = [:]
        let prefix = kind.rawValue.bigEndianBytes + [1]
        try txn.withCursor(on: sources) { cursor in
            try cursor.scan(from: prefix) { key, value in
                guard key.count == 9, key.starts(with: prefix) else { return false }
                let number = UInt32(bigEndian: key.loadUnaligned(fromByteOffset: 5, as: UInt32.self))
                let parts = value.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
                let bundle = String(decoding: parts[0], as: UTF8.self)
                let name = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : bundle
                table[number] = HKSource(name: name, bundleIdentifier: bundle)
                return true
            }
        }
        return table
    }

    /// The longest sample of `kind` in the views, in seconds.
    func longest(of kind: EntryKind, in txn: borrowing some ReadableTransaction & ~Copyable) throws -> Double {
        try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: kinds) { Double(bitPattern: $0.uint64(at: 4)) } ?? 0
    }

    /// A type's sources by number, with their ranks, looked up once: a
    /// rank is the source's position among the type's distinct ranks
    /// (``StatisticsSample/rank``), hand-entered samples first.
    struct NumberedSources: Equatable {
        private var ranks: [UInt32?] = []
        private let handEntered: UInt32

        init(_ table: [UInt32: HKSource], ranking: SourceRanking) {
            let numbers = Array(table.keys)
            let positions = SourceRanking.positions(
                of: [ranking.rank(bundle: "", userEntered: true)]
                    + numbers.map { ranking.rank(bundle: table[$0]!.bundleIdentifier, userEntered: false) }
            )
            handEntered = positions[0]
            ranks = Array(repeating: nil, count: Int(numbers.max() ?? 0) + 1)
            for (number, position) in zip(numbers, positions.dropFirst()) { ranks[Int(number)] = position }
        }

        func rank(_ number: UInt32, userEntered: Bool) -> UInt32 {
            if userEntered { return handEntered }
            return Int(number) < ranks.count ? ranks[Int(number)] ?? handEntered : handEntered
        }
    }

    /// `kind`'s sources by number with their ranks, as stored now.
    func numberedSources(
        of kind: EntryKind,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws
        -> NumberedSources
    {
        NumberedSources(try sourceTable(of: kind, in: txn), ranking: try ranking(of: kind, in: txn))
    }

    /// The samples of `kind` whose interval reaches into `window`, ranked;
    /// rows found in `added` (what the writer's batch wrote) are taken from
    /// there instead of being read (and, sealed, opened) again.
    func samples(
        of kind: EntryKind,
        overlapping window: StatisticsWindow,
        sources known: NumberedSources,
        longest: Double,
        added: [ViewSampleRow.Key: ViewSampleRow] = [:],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [StatisticsSample] {
        var found: [StatisticsSample] = []
        let from = Self.sampleKey(kind: kind, start: window.start - longest, seq: 0)
        let limit = IndexKey.date(Date(timeIntervalSinceReferenceDate: window.end))
        try txn.withCursor(on: samples) { cursor in
            try cursor.scanKeys(from: from) { key, value in
                guard key.count == 20, key.uint32(at: 0) == kind.rawValue, key.uint64(at: 4) < limit else {
                    return false
                }
                let memo =
                    added.isEmpty
                    ? nil : added[.init(kind: kind.rawValue, start: key.uint64(at: 4), seq: key.uint64(at: 12))]
                guard let row = try memo ?? value.withBytes({ ViewSampleRow($0) }) else { return false }
                let sample = StatisticsSample(
                    start: IndexKey.seconds(fromDateKey: key.uint64(at: 4)),
                    end: row.end,
                    value: row.value,
                    seq: key.uint64(at: 12),
                    source: row.source,
                    rank: known.rank(row.source, userEntered: row.userEntered)
                )
                if window.contains(sample) { found.append(sample) }
                return true
            }
        }
        return found
    }
}

extension StatisticsViews {
    /// Touched buckets closer than this share one scan.
    static let scanGap: Int64 = 16

    /// The samples of `kind` in each of `buckets` (fine buckets), as
    /// ``samples(of:overlapping:sources:longest:in:)`` finds them for each
    /// one, in the same order; read with one scan per run of nearby
    /// buckets instead of one per bucket.
    func samples(
        of kind: EntryKind,
        inFineBuckets buckets: Set<Int64>,
        sources known: NumberedSources,
        longest: Double,
        added: [ViewSampleRow.Key: ViewSampleRow] = [:],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [Int64: [StatisticsSample]] {
        var runs: [(first: Int64, last: Int64)] = []
        for bucket in buckets.sorted() {
            if let last = runs.last?.last, bucket - last <= Self.scanGap {
                runs[runs.count - 1].last = bucket
            } else {
                runs.append((bucket, bucket))
            }
        }
        var found: [Int64: [StatisticsSample]] = [:]
        for run in runs {
            let window = StatisticsWindow(
                start: ViewLevel.window(level: 0, bucket: run.first).start,
                end: ViewLevel.window(level: 0, bucket: run.last).end,
                closed: false
            )
            for sample in try samples(
                of: kind,
                overlapping: window,
                sources: known,
                longest: longest,
                added: added,
                in: txn
            ) {
                // Only neighbours of the buckets its ends fall in can hold it.
                let first = Int64((sample.start / Double(ViewLevel.fine)).rounded(.down)) - 1
                let last = Int64((sample.end / Double(ViewLevel.fine)).rounded(.down)) + 1
                let lower = max(first, run.first)
                let upper = min(last, run.last)
                guard lower <= upper else { continue }
                for bucket in lower...upper
                where buckets.contains(bucket) && ViewLevel.window(level: 0, bucket: bucket).contains(sample) {
                    found[bucket, default: []].append(sample)
                }
            }
        }
        return found
    }
}

/// The views' memo on the log's writer thread: a decoder that keeps the
/// last source revision and unit between entries (a cache: it never
/// changes what is decoded).
final class ViewsWriterContext: @unchecked Sendable {
    // @unchecked: used only on the log's writer thread.
    private var decoder = IndexWriterContext.countingDecoder()

    func decode(_ bytes: UnsafeRawBufferPointer) -> HKQuantitySample? {
        (try? decoder.decode(bytes)) as? HKQuantitySample
    }
}
