import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// What a read needs besides the transaction: the caller, a decoder that
/// remembers the last revision and unit, and the scopes already computed.
///
/// The decoder leaves series samples' points in the store: a query lists
/// a route or heartbeat series with its count, and a series query reads
/// its points (``StoreEngine/seriesSample(_:type:caller:)``).
struct ReadSession {
    let caller: Caller
    var decoder = PayloadDecoder()
    var scopes: [UInt32: ReadScope] = [:]

    init(caller: Caller) {
        self.caller = caller
        decoder.readsSeriesPoints = false
    }
}

extension StoreEngine {
    /// Runs `body` in one read transaction with a new session for `caller`.
    ///
    /// ```swift
    /// let sources = try engine.read(as: caller) { txn, session in
    ///     try engine.sources(of: type, predicate: nil, in: txn, session: &session)
    /// }
    /// ```
    func read<R>(
        as caller: Caller,
        _ body: (borrowing ReadTransaction, inout ReadSession) throws -> R
    ) throws(HKError) -> R {
        try read { txn in
            var session = ReadSession(caller: caller)
            return try body(txn, &session)
        }
    }

    /// The object saved by the entry at `seq`, decoded; `nil` when the entry
    /// is not a decodable sample save (purged, or written by a newer version).
    func sample(
        atSeq seq: UInt64,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> HKSample? {
        try log.withEntry(at: seq, in: txn) { _, payload in
            guard let payload else { return nil }
            return try? session.decoder.decode(payload) as? HKSample
        } ?? nil
    }

    /// The scope of `type` for the session's caller, computed once per read.
    func scope(
        for type: HKObjectType,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> ReadScope {
        if let known = session.scopes[type.kindCode] { return known }
        let scope = try readScope(for: type, caller: session.caller, in: txn)
        session.scopes[type.kindCode] = scope
        return scope
    }

    /// The scope of a member type, where "never requested" hides the member
    /// instead of failing the query (CQ-4).
    func memberScope(
        for type: HKObjectType,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> ReadScope {
        do {
            return try scope(for: type, in: txn, session: &session)
        } catch let error as HKError where error.code == .errorAuthorizationNotDetermined {
            session.scopes[type.kindCode] = .nothing
            return .nothing
        }
    }

    /// `sample` as the caller may see it: a correlation carries only its
    /// visible, readable members (AQ-14, CQ-4, OBJ-36), and is hidden from an
    /// app that can read none of them. Other samples are returned as they are.
    func presented(
        _ sample: HKSample,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> HKSample? {
        guard sample is HKCorrelation else { return sample }
        var members = Set<HKSample>()
        for member in try index.pairs(startingWith: sample.uuid, in: index.members, txn: txn) {
            guard let record = try index.record(member, in: txn), record.isLive,
                let type = TypeCatalog.byKindCode[record.kind.rawValue],
                try memberScope(for: type, in: txn, session: &session).admits(source: record.source),
                let object = try self.sample(atSeq: record.saveSeq, in: txn, session: &session)
            else { continue }
            members.insert(object)
        }
        if !session.caller.isOwner && members.isEmpty { return nil }
        return sample.withMembers(members)
    }

    /// The sequence numbers of the live samples of `kind` that may match
    /// `predicate`, in anchor order, found through the type/time index: a
    /// date-bounded predicate reads only the rows in its range (plus, for
    /// overlap predicates, each duration tier's longest duration before it).
    func candidates(
        kind: EntryKind,
        predicate: ObjectPredicate?,
        in txn: borrowing ReadTransaction
    ) throws -> [UInt64] {
        if let ids = predicate?.requiredUUIDs {
            var seqs: [UInt64] = []
            counters.count(ids.count)
            for id in ids {
                if let record = try index.record(id, in: txn), record.isLive, record.kind == kind {
                    seqs.append(record.saveSeq)
                }
            }
            return seqs.sorted()
        }
        let bounds = predicate?.timeBounds ?? .unbounded
        let lower = bounds.startFrom.map(IndexKey.date) ?? IndexKey.minimumDate
        let longest =
            try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: index.kindStats) {
                Double(bitPattern: $0.uint64(at: 0))
            } ?? 0
        let upper = bounds.startBefore.map(IndexKey.date)
        let endFrom = bounds.endFrom.map(IndexKey.date)
        let endBefore = bounds.endBefore.map(IndexKey.date)
        var seqs: [UInt64] = []
        var rowsRead = 0
        defer { counters.count(rowsRead) }
        try txn.withCursor(on: index.typeTime) { cursor in
            for tier in 0..<DurationTier.count {
                // An overlap bound starts each tier's scan its longest duration early.
                var from = lower
                if let end = bounds.endFrom {
                    let reach = tier < DurationTier.bounds.count ? min(DurationTier.bounds[tier], longest) : longest
                    from = max(from, IndexKey.date(end.addingTimeInterval(-reach)))
                }
                try IndexKey.withTimeKey(kind, UInt8(tier), from) { start in
                    try cursor.scan(from: start) { key, value in
                        guard key.count == 21, key.uint32(at: 0) == kind.rawValue, key[4] == UInt8(tier) else {
                            return false
                        }
                        rowsRead += 1
                        let start = key.uint64(at: 5)
                        if let upper, start >= upper { return false }
                        // A sealed store's rows hold no end: the caller's
                        // predicate decides on the sample.
                        if value.count >= 8 {
                            let end = value.uint64(at: 0)
                            if let endFrom, end < endFrom { return true }
                            if let endBefore, end >= endBefore { return true }
                        }
                        seqs.append(key.uint64(at: 13))
                        return true
                    }
                }
            }
        }
        seqs.sort()
        return seqs
    }

    /// A predicate context answering membership questions for `samples`
    /// from the indices (OBJ-20, OBJ-24).
    func context(
        for predicate: ObjectPredicate?,
        samples: [HKSample],
        in txn: borrowing ReadTransaction
    ) throws -> PredicateContext {
        guard let predicate, predicate.needsStoreContext else { return .none }
        var members = Set<UUID>()
        for sample in samples where try txn.contains(key: sample.uuid.indexBytes, in: index.memberOf) {
            members.insert(sample.uuid)
        }
        var associations = Set<[UUID]>()
        for workout in predicate.workouts {
            for sample in try index.pairs(startingWith: workout, in: index.workoutSamples, txn: txn) {
                associations.insert([sample, workout])
            }
        }
        // Effort relations of the samples at hand, by (sample, workout).
        var efforts: [[UUID]: EffortRelation] = [:]
        for workout in Set(predicate.effortWorkouts) {
            for sample in samples {
                if let relation = try index.effortRelation(of: sample.uuid, to: workout, in: txn) {
                    efforts[[sample.uuid, workout]] = relation
                }
            }
        }
        let memberSet = members
        let associationSet = associations
        let effortMap = efforts
        return PredicateContext(
            isCorrelationMember: { memberSet.contains($0) },
            isAssociated: { associationSet.contains([$0, $1]) },
            isEffortRelated: { sample, workout, activity in
                guard let relation = effortMap[[sample, workout]] else { return false }
                return activity == nil || relation.activity == activity
            }
        )
    }
}

extension ObjectPredicate {
    /// The uuids a match must have, when the predicate pins them
    /// (`uuidIn`, alone or in an AND).
    var requiredUUIDs: Set<UUID>? {
        switch self {
        case .uuidIn(let ids): return ids
        case .and(let parts):
            return parts.lazy.compactMap(\.requiredUUIDs).first
        default: return nil
        }
    }

    /// Whether evaluating needs the store's membership knowledge.
    var needsStoreContext: Bool {
        switch self {
        case .noCorrelation, .inWorkout, .effortRelated: return true
        case .and(let parts), .or(let parts): return parts.contains { $0.needsStoreContext }
        case .not(let part): return part.needsStoreContext
        default: return false
        }
    }

    /// The workouts named by `effortRelated` predicates.
    var effortWorkouts: [UUID] {
        switch self {
        case .effortRelated(let workout, _): return [workout]
        case .and(let parts), .or(let parts): return parts.flatMap(\.effortWorkouts)
        case .not(let part): return part.effortWorkouts
        default: return []
        }
    }

    /// The workouts named by `inWorkout` predicates.
    var workouts: [UUID] {
        switch self {
        case .inWorkout(let id): return [id]
        case .and(let parts), .or(let parts): return parts.flatMap(\.workouts)
        case .not(let part): return part.workouts
        default: return []
        }
    }
}
