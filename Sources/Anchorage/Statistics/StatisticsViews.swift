import AnchorageLog
import Foundation
import LMDB

/// What statistics read besides the samples: each quantity type's source
/// priority and each source's first save of the type. A projection of the
/// log, like the index, rebuilt exactly by replaying it.
///
/// | database | key | value |
/// | --- | --- | --- |
/// | `st.priorities` | kind | seq of the entry holding the priority list |
/// | `st.first-seen` | kind ‖ bundle id | origin time (ns since 1970) of the earliest save |
struct StatisticsViews: Sendable {
    let priorities: Database
    let firstSeen: Database
    let writer = ViewsWriterContext()

    init(in txn: borrowing WriteTransaction) throws {
        func open(_ name: String) throws -> Database {
            guard let database = try txn.openDatabase(named: "st." + name) else {
                throw HKError(.errorDatabaseInaccessible, "the store's statistics view \(name) could not be created")
            }
            return database
        }
        priorities = try open("priorities")
        firstSeen = try open("first-seen")
    }

    /// The key of a first-seen row.
    static func sourceKey(kind: EntryKind, bundle: String) -> [UInt8] {
        kind.rawValue.bigEndianBytes + Array(bundle.utf8)
    }

    /// The ranking of `type`'s sources as of `txn`.
    func ranking(
        of type: HKQuantityType,
        log: EventLog,
        in txn: borrowing ReadTransaction
    ) throws -> SourceRanking {
        let kind = EntryKind(rawValue: type.kindCode)
        var priority: [String] = []
        if let seq = try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: priorities, { $0.uint64(at: 0) }) {
            let record = try log.withEntry(at: seq, in: txn) { _, payload -> SourcePriorityRecord? in
                guard let payload else { return nil }
                return SourcePriorityRecord.decode(payload)
            }
            priority = record??.sources ?? []
        }
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
}

extension StatisticsViews: Projection {
    var name: String { "statistics-views" }
    var version: Int { 1 }
    var databases: [Database] { [priorities, firstSeen] }

    func apply(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        try apply([entry], in: txn)
    }

    /// Records priority lists and each source's earliest save; the earliest
    /// time per source is found over the batch and written once.
    func apply(_ entries: [LogEntry], in txn: borrowing WriteTransaction) throws {
        var earliest: [[UInt8]: Int64] = [:]
        for entry in entries {
            if entry.kind == StoreKind.sourcePriority {
                guard let payload = entry.payload,
                    let record = payload.withUnsafeBytes({ SourcePriorityRecord.decode($0) })
                else { continue }
                try txn.put(entry.seq.bigEndianBytes, forKey: record.type.bigEndianBytes, in: priorities)
                continue
            }
            guard entry.operation == .save, StoreKind.isSample(entry.kind),
                TypeCatalog.sampleType(forKindCode: entry.kind.rawValue) is HKQuantityType,
                let payload = entry.payload,
                let bundle = payload.withUnsafeBytes({ writer.sourceBundle(of: $0) })
            else { continue }
            let key = Self.sourceKey(kind: entry.kind, bundle: bundle)
            earliest[key] = min(earliest[key] ?? .max, entry.timestamp)
        }
        for (key, time) in earliest {
            let known = try txn.withValue(forKey: key, in: firstSeen) { Int64(bitPattern: $0.uint64(at: 0)) }
            if known.map({ time < $0 }) ?? true {
                try txn.put(UInt64(bitPattern: time).bigEndianBytes, forKey: key, in: firstSeen)
            }
        }
    }
}

/// The views' state on the log's writer thread: a decoder with its memo.
final class ViewsWriterContext: @unchecked Sendable {
    // @unchecked: used only on the log's writer thread.
    private var decoder = PayloadDecoder()

    /// The bundle identifier of the source of a sample payload.
    func sourceBundle(of bytes: UnsafeRawBufferPointer) -> String? {
        (try? decoder.decode(bytes))?.sourceRevision.source.bundleIdentifier
    }
}
