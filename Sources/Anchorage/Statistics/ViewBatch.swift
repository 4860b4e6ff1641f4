import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// What the views gather over one batch before computing buckets: the fine
/// buckets touched per type, the types whose ranking changed, and the
/// per-type state read once and written once.
struct ViewBatch {
    private(set) var touched: [EntryKind: Set<Int64>] = [:]
    /// The sources whose samples the batch added or removed, per type:
    /// only their rows (and the merged ones) change.
    private(set) var touchedSources: [EntryKind: Set<UInt32>] = [:]
    /// Types whose merged rows must all be computed again (ranking changed).
    var remerge: Set<EntryKind> = []
    /// Types the batch removed samples of. In the others, buckets only gain
    /// samples, which lets ``StatisticsViews/recompute(kind:fineBuckets:sources:mergedOnly:growing:added:in:)``
    /// skip removing rows that cannot exist.
    private(set) var shrunk: Set<EntryKind> = []
    private var numbers: [EntryKind: [String: UInt32]] = [:]
    private var kindRows: [EntryKind: (next: UInt32, longest: Double)] = [:]
    private var changedKinds: Set<EntryKind> = []
    private var firstSeen: [[UInt8]: (kind: EntryKind, stored: Int64?, earliest: Int64)] = [:]
    /// The last source numbered and noted: runs of samples from one source
    /// skip the dictionaries.
    private var lastNumber: (kind: EntryKind, bundle: String, number: UInt32)?
    private var lastSeen: (kind: EntryKind, bundle: String, earliest: Int64)?

    /// The `st.samples` rows this batch wrote, by key, when the views are
    /// sealed: buckets are computed again from these without opening them
    /// back (a row the batch removed is no longer found by a scan, so one
    /// left here is never read).
    private(set) var added: [ViewSampleRow.Key: ViewSampleRow] = [:]

    mutating func noteAdded(_ row: ViewSampleRow, at key: ViewSampleRow.Key) {
        added[key] = row
    }

    mutating func touch(_ kind: EntryKind, source: UInt32, _ buckets: some Sequence<Int64>) {
        touched[kind, default: []].formUnion(buckets)
        touchedSources[kind, default: []].insert(source)
    }

    /// Notes that a sample of `kind` left the views.
    mutating func noteRemoval(_ kind: EntryKind) {
        shrunk.insert(kind)
    }

    /// The number of `source` among `kind`'s sources, given on first sight.
    mutating func number(
        of source: HKSource,
        kind: EntryKind,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws -> UInt32 {
        if let last = lastNumber, last.kind == kind, last.bundle == source.bundleIdentifier { return last.number }
        let number = try lookUpNumber(of: source, kind: kind, views: views, in: txn)
        lastNumber = (kind, source.bundleIdentifier, number)
        return number
    }

    private mutating func lookUpNumber(
        of source: HKSource,
        kind: EntryKind,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws -> UInt32 {
        if numbers[kind] == nil { numbers[kind] = try Self.loadNumbers(kind, views: views, in: txn) }
        if let known = numbers[kind]?[source.bundleIdentifier] { return known }
        var row = try kindRow(kind, views: views, in: txn)
        let number = row.next
        row.next += 1
        kindRows[kind] = row
        changedKinds.insert(kind)
        numbers[kind]?[source.bundleIdentifier] = number
        let bundle = Array(source.bundleIdentifier.utf8)
        try txn.put(
            number.bigEndianBytes,
            forKey: StatisticsViews.sourceNumberKey(kind: kind, bundle: source.bundleIdentifier),
            in: views.sources
        )
        try txn.put(
            bundle + [0] + Array(source.name.utf8),
            forKey: StatisticsViews.sourceNameKey(kind: kind, number: number),
            in: views.sources
        )
        return number
    }

    /// Notes a save of `kind` from `bundle` at origin time `time`.
    mutating func noteSave(
        kind: EntryKind,
        bundle: String,
        at time: Int64,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws {
        if let last = lastSeen, last.kind == kind, last.bundle == bundle, time >= last.earliest { return }
        let key = StatisticsViews.firstSeenKey(kind: kind, bundle: bundle)
        if let known = firstSeen[key] {
            let earliest = min(known.earliest, time)
            firstSeen[key]?.earliest = earliest
            lastSeen = (kind, bundle, earliest)
            return
        }
        let stored = try txn.withValue(forKey: key, in: views.firstSeen) { Int64(bitPattern: $0.uint64(at: 0)) }
        firstSeen[key] = (kind, stored, min(stored ?? .max, time))
        lastSeen = (kind, bundle, min(stored ?? .max, time))
    }

    /// Notes a sample of `seconds` (the longest bounds index scans).
    mutating func noteDuration(_ seconds: Double, kind: EntryKind) {
        let row = kindRows[kind] ?? (0, 0)
        guard seconds > row.longest else { return }
        kindRows[kind] = (row.next, seconds)
        changedKinds.insert(kind)
    }

    /// Writes first saves and per-type rows. A source whose first save moved
    /// earlier may change the ranking of its type's sources: the merged rows
    /// are computed again only where it did (with one source, or the source
    /// still between the same neighbours, no bucket's merged values change).
    mutating func flush(into views: StatisticsViews, in txn: borrowing WriteTransaction) throws {
        var before: [EntryKind: StatisticsViews.NumberedSources] = [:]
        for seen in firstSeen.values where seen.stored != nil && seen.stored != seen.earliest {
            if before[seen.kind] == nil { before[seen.kind] = try views.numberedSources(of: seen.kind, in: txn) }
        }
        for (key, seen) in firstSeen where seen.stored != seen.earliest {
            try txn.put(UInt64(bitPattern: seen.earliest).bigEndianBytes, forKey: key, in: views.firstSeen)
        }
        for (kind, ranks) in before where try views.numberedSources(of: kind, in: txn) != ranks {
            remerge.insert(kind)
        }
        for kind in changedKinds {
            let stored = try Self.loadKindRow(kind, views: views, in: txn)
            let row = kindRows[kind]!
            let next = max(row.next, stored.next)
            let longest = max(row.longest, stored.longest)
            try txn.put(
                next.bigEndianBytes + longest.bitPattern.bigEndianBytes,
                forKey: kind.rawValue.bigEndianBytes,
                in: views.kinds
            )
        }
    }

    private mutating func kindRow(
        _ kind: EntryKind,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws -> (next: UInt32, longest: Double) {
        if let row = kindRows[kind], row.next > 0 { return row }
        var stored = try Self.loadKindRow(kind, views: views, in: txn)
        stored.longest = max(stored.longest, kindRows[kind]?.longest ?? 0)
        kindRows[kind] = stored
        return stored
    }

    private static func loadKindRow(
        _ kind: EntryKind,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws -> (next: UInt32, longest: Double) {
        try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: views.kinds) { value in
            (
                UInt32(bigEndian: value.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                Double(bitPattern: value.uint64(at: 4))
            )
        } ?? (1, 0)
    }

    private static func loadNumbers(
        _ kind: EntryKind,
        views: StatisticsViews,
        in txn: borrowing WriteTransaction
    ) throws -> [String: UInt32] {
        var numbers: [String: UInt32] = [:]
        let prefix = kind.rawValue.bigEndianBytes + [0]
        try txn.withCursor(on: views.sources) { cursor in
            try cursor.scan(from: prefix) { key, value in
                guard key.starts(with: prefix), value.count == 4 else { return false }
                let bundle = String(decoding: UnsafeRawBufferPointer(rebasing: key[5...]), as: UTF8.self)
                numbers[bundle] = UInt32(bigEndian: value.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
                return true
            }
        }
        return numbers
    }
}
