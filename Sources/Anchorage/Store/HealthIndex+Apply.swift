import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension HealthIndex: Projection {
    static let projectionName = "healthkit-index"
    /// What the index hands the statistics views for each batch.
    static let output = ProjectionOutputKey<IndexOutput>(producer: projectionName)
    var name: String { Self.projectionName }
    // 7: a copy of the shown save with a smaller dot takes its place (conflicts weigh the smallest dot).
    var version: Int { 7 }
    var databases: [Database] { all }

    /// Applies a batch; per-source counts and per-kind durations are summed
    /// over the batch and written once (the result does not depend on how
    /// entries are grouped into batches). Entries the index does not
    /// understand (unknown kinds, payloads it cannot decode) are left out
    /// rather than failing the batch, so a log written by a newer version
    /// still opens. The samples the batch showed and hid are published for
    /// the statistics views (``IndexOutput``).
    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        let strict = context.input is NewObjectsOnly
        var aggregates = BatchAggregates()
        for entry in entries { try apply(entry, strict: strict, aggregates: &aggregates, in: txn) }
        try aggregates.flush(into: self, in: txn)
        context.publish(aggregates.output, for: Self.output)
    }

    /// A setting whose latest entry wins, by origin time then dot, on every
    /// peer: the index keeps the position of that entry under `key`.
    private func applySetting(_ entry: LogEntry, key: [UInt8], in txn: borrowing WriteTransaction) throws {
        if let current = try settingEntry(key, in: txn), !entry.isLater(than: current) { return }
        try txn.put(entry.seq.bigEndianBytes, forKey: key, in: settings)
    }

    private func apply(
        _ entry: LogEntry,
        strict: Bool,
        aggregates: inout BatchAggregates,
        in txn: borrowing WriteTransaction
    ) throws {
        switch entry.kind {
        case StoreKind.authorization:
            try applyAuthorization(entry, in: txn)
        case StoreKind.characteristics:
            try applySetting(entry, key: Self.characteristicsSetting, in: txn)
        case StoreKind.preferredUnits:
            try applySetting(entry, key: Self.preferredUnitsSetting, in: txn)
        case StoreKind.link:
            try applyLink(entry, in: txn)
        case StoreKind.effort:
            try applyEffort(entry, in: txn)
        case StoreKind.activitySummary:
            try applyActivitySummary(entry, in: txn)
        case StoreKind.userAnnotatedMedication:
            try applyMedication(entry, in: txn)
        case StoreKind.fleetEpoch:
            try applyEpoch(entry, in: txn)
        default:
            guard StoreKind.isSample(entry.kind) else { return }
            let row: SeqRow
            if entry.operation == .save {
                let outcome = try applySave(entry, aggregates: &aggregates, in: txn)
                if outcome.known, strict, entry.dot.origin == writer.localOrigin {
                    // A local save of a taken id: the call fails whole (OBJ-32).
                    throw DuplicateObject(id: entry.id)
                }
                row = outcome.row
            } else {
                row = try applyDelete(entry, aggregates: &aggregates, in: txn)
            }
            try row.withBytes { value in
                try IndexKey.withKindKey(entry.kind, entry.seq) { key in
                    try put(value, forKey: key, in: typeSeq, txn: txn)
                }
            }
        }
    }

    /// Stores a row of an index whose new keys mostly sort last (type/time
    /// and type/seq of the kind being written): appended when it does,
    /// inserted in place otherwise.
    func put(
        _ value: UnsafeRawBufferPointer,
        forKey key: UnsafeRawBufferPointer,
        in database: Database,
        txn: borrowing WriteTransaction
    ) throws {
        if try txn.insert(value, forKey: key, in: database, atEnd: true) { return }
        try txn.put(value, forKey: key, in: database)
    }

    func record(_ id: UUID, in txn: borrowing some ReadableTransaction & ~Copyable) throws -> ObjectRecord? {
        try txn.withValue(forKey: id.indexBytes, in: objects) { ObjectRecord($0) } ?? nil
    }

    /// Removes every correlation and workout link and every effort relation
    /// of a deleted object, in both directions (OBJ-25, OBJ-36).
    func unlink(_ id: UUID, in txn: borrowing WriteTransaction) throws {
        if let correlation = try txn.withValue(forKey: id.indexBytes, in: memberOf, { UUID(indexBytes: $0) }) ?? nil {
            _ = try txn.removeValue(forKey: id.indexBytes, in: memberOf)
            _ = try txn.removeValue(forKey: IndexKey.pair(correlation, id), in: members)
        }
        for member in try pairs(startingWith: id, in: members, txn: txn) {
            _ = try txn.removeValue(forKey: IndexKey.pair(id, member), in: members)
            _ = try txn.removeValue(forKey: member.indexBytes, in: memberOf)
        }
        // Workout links and effort relations, kept in both directions.
        let directions = [
            (sampleWorkouts, workoutSamples), (workoutSamples, sampleWorkouts), (sampleEfforts, efforts),
            (efforts, sampleEfforts),
        ]
        for (forward, backward) in directions {
            for other in try pairs(startingWith: id, in: forward, txn: txn) {
                _ = try txn.removeValue(forKey: IndexKey.pair(id, other), in: forward)
                _ = try txn.removeValue(forKey: IndexKey.pair(other, id), in: backward)
            }
        }
    }

    /// The second uuids of the pair rows whose first uuid is `first`.
    func pairs(
        startingWith first: UUID,
        in database: Database,
        txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [UUID] {
        let prefix = first.indexBytes
        var found: [UUID] = []
        try txn.withCursor(on: database) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.count == 32, key.starts(with: prefix) else { return false }
                if let second = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: key[16...])) { found.append(second) }
                return true
            }
        }
        return found
    }

    // MARK: Links and grants

    private func applyLink(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard let payload = entry.payload, let link = payload.withUnsafeBytes({ LinkRecord($0) }) else { return }
        guard let container = try record(link.container, in: txn), container.isLive else { return }
        for member in link.members {
            switch link.role {
            case .correlation:
                try join(member: member, correlation: link.container, in: txn)
            case .workout:
                guard try record(member, in: txn)?.isLive == true else { continue }
                try txn.put([], forKey: IndexKey.pair(link.container, member), in: workoutSamples)
                try txn.put([], forKey: IndexKey.pair(member, link.container), in: sampleWorkouts)
            }
        }
    }

    /// An effort relation: the latest entry about the pair wins, by origin
    /// time then dot. A pair whose workout or sample is known to be deleted
    /// is left out (deleting either removed the pair's row); one whose
    /// objects have not arrived yet is kept, so the result does not depend
    /// on the order entries arrive in.
    private func applyEffort(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard let payload = entry.payload, let effort = payload.withUnsafeBytes({ EffortRecord($0) }) else { return }
        for id in [effort.workout, effort.sample] {
            if let record = try record(id, in: txn), !record.isLive { return }
        }
        let key = IndexKey.pair(effort.workout, effort.sample)
        if let seq = try txn.withValue(forKey: key, in: efforts, { $0.uint64(at: 0) }),
            let current = try lookup.entry(at: seq, in: txn), !entry.isLater(than: current)
        {
            return
        }
        try txn.put(entry.seq.bigEndianBytes + effort.state, forKey: key, in: efforts)
        try txn.put([], forKey: IndexKey.pair(effort.sample, effort.workout), in: sampleEfforts)
    }

    /// The relation of `sample` to `workout` as an effort score, or `nil`
    /// when the pair is not related.
    func effortRelation(
        of sample: UUID,
        to workout: UUID,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> EffortRelation? {
        try txn.withValue(forKey: IndexKey.pair(workout, sample), in: efforts) { value in
            guard value.count >= 9, value[8] == 1 else { return nil }
            guard value.count == 25 else { return EffortRelation(activity: nil) }
            return EffortRelation(activity: UUID(indexBytes: UnsafeRawBufferPointer(rebasing: value[9..<25])))
        } ?? nil
    }

    private func applyAuthorization(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard let payload = entry.payload,
            let record = payload.withUnsafeBytes({ AuthorizationRecord.decode($0) })
        else { return }
        for decision in record.decisions {
            guard let type = HKObjectType.type(forIdentifier: decision.type) else { continue }
            let key = Self.grantKey(record.principal, kind: EntryKind(rawValue: type.kindCode), access: decision.access)
            let existing = try txn.withValue(forKey: key, in: grants) { value in
                (status: value.first, seq: value.count >= 9 ? value.uint64(at: 1) : 0)
            }
            if let existing {
                // A request never undoes a decision; of two decisions the
                // latest wins, by origin time then dot, on every peer.
                if decision.status == .requested { continue }
                if existing.status != AuthorizationRecord.Status.requested.rawValue,
                    let current = try lookup.entry(at: existing.seq, in: txn), !entry.isLater(than: current)
                {
                    continue
                }
            }
            try txn.put([decision.status.rawValue] + entry.seq.bigEndianBytes, forKey: key, in: grants)
        }
    }
}

/// A sample related as effort to a workout: to one of its activities, or
/// to the whole workout when `activity` is `nil`.
struct EffortRelation: Hashable, Sendable {
    var activity: UUID?
}

/// Per-batch sums of the small aggregate tables, written once per batch.
/// What the index gathers while it applies one batch: counts and longest
/// durations written once at the end, the visibility changes it publishes,
/// and the numbering of rows for other objects.
struct BatchAggregates {
    /// The quantity saves read and the samples shown and hid, in order.
    var output = IndexOutput()
    /// The last rows written for other objects at one seq (see ``SeqRow``).
    var consequence: (seq: UInt64, count: UInt8) = (0, 0)

    struct SourceKey: Hashable {
        var kind: EntryKind
        var bundle: String
    }

    /// The last source counted, kept outside the dictionary: a batch is
    /// usually one app's samples of one type.
    private var current: (key: SourceKey, delta: Int, name: String?)?
    private var currentLongest: (kind: EntryKind, duration: Double)?

    /// Live-sample count changes and the latest name seen, by kind and source.
    var sources: [SourceKey: (delta: Int, name: String?)] = [:]
    /// The longest sample duration seen, by kind.
    var longest: [EntryKind: Double] = [:]

    mutating func noteDuration(_ duration: Double, kind: EntryKind) {
        if let known = currentLongest, known.kind == kind {
            if duration > known.duration { currentLongest = (kind, duration) }
            return
        }
        settleLongest()
        currentLongest = (kind, max(duration, longest[kind] ?? 0))
    }

    mutating func count(kind: EntryKind, bundle: String, name: String?, by delta: Int) {
        if var entry = current, entry.key.kind == kind, entry.key.bundle == bundle {
            entry.delta += delta
            if let name { entry.name = name }
            current = entry
            return
        }
        settleSource()
        let key = SourceKey(kind: kind, bundle: bundle)
        let stored = sources.removeValue(forKey: key) ?? (0, nil)
        current = (key, stored.delta + delta, name ?? stored.name)
    }

    private mutating func settleSource() {
        guard let entry = current else { return }
        sources[entry.key] = (entry.delta, entry.name)
        current = nil
    }

    private mutating func settleLongest() {
        guard let entry = currentLongest else { return }
        longest[entry.kind] = entry.duration
        currentLongest = nil
    }

    /// Writes the sums: counts that reach zero remove their row.
    mutating func flush(into index: HealthIndex, in txn: borrowing WriteTransaction) throws {
        settleSource()
        settleLongest()
        for (kind, duration) in longest {
            let key = kind.rawValue.bigEndianBytes
            let stored =
                try txn.withValue(forKey: key, in: index.kindStats) { Double(bitPattern: $0.uint64(at: 0)) } ?? 0
            if duration > stored {
                try txn.put(duration.bitPattern.bigEndianBytes, forKey: key, in: index.kindStats)
            }
        }
        for (key, change) in sources where change.delta != 0 || change.name != nil {
            let rowKey = HealthIndex.sourceKey(kind: key.kind, bundle: key.bundle)
            let stored = try txn.withValue(forKey: rowKey, in: index.sources) { value in
                (
                    count: Int(value.uint64(at: 0)),
                    name: String(decoding: UnsafeRawBufferPointer(rebasing: value[8...]), as: UTF8.self)
                )
            }
            let count = (stored?.count ?? 0) + change.delta
            if count <= 0 {
                _ = try txn.removeValue(forKey: rowKey, in: index.sources)
            } else {
                var value = UInt64(count).bigEndianBytes
                value.append(contentsOf: (change.name ?? stored?.name ?? key.bundle).utf8)
                try txn.put(value, forKey: rowKey, in: index.sources)
            }
        }
    }
}
