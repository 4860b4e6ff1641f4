import AnchorageLog
import Foundation
import LMDB

/// The async form of an anchored query (AQ-18..21).
///
/// ```swift
/// let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: saved)
/// let page = try await descriptor.result(for: store)              // once
/// for try await update in descriptor.results(for: store) { … }    // long-running
/// ```
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: Sendable {
    /// What one call or update reports (AQ-19).
    public struct Result: Sendable {
        /// Samples saved since the anchor, in anchor order.
        public let addedSamples: [Sample]
        /// Objects deleted since the anchor.
        public let deletedObjects: [HKDeletedObject]
        /// Where the next query resumes.
        public let newAnchor: HKQueryAnchor
    }

    /// What to match; the anchor is shared (AQ-17).
    public var predicates: [HKSamplePredicate<Sample>]
    /// Where to start; `nil` for the beginning.
    public var anchor: HKQueryAnchor?
    /// The most items of ``result(for:)``; `nil` for all (AQ-18).
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// The changes since ``anchor``, at most ``limit`` items (AQ-19). Page
    /// with the returned anchor until a page has neither samples nor
    /// deletions (AQ-21).
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let engine = try healthStore.openEngine()
        if let limit, limit <= 0 {
            throw HKError(.errorInvalidArgument, rule: "AQ-18", "the limit is \(limit); use nil or a positive number")
        }
        let start = try anchor?.position(in: engine) ?? 0
        return try engine.read { txn in
            let upper = try engine.head(in: txn)
            if start > upper { return Result(addedSamples: [], deletedObjects: [], newAnchor: anchor!) }
            return try changes(engine, caller: healthStore.caller, after: start, through: upper, limit: limit, in: txn)
        }
    }

    /// A long-running query: first the changes since ``anchor`` now in the
    /// store, then one element per committed batch that touched the
    /// predicates; it ends when the consuming task is cancelled (AQ-20).
    public func results(for healthStore: HKHealthStore) -> AsyncThrowingStream<Result, any Error> {
        let descriptor = self
        return followingStream(of: Result.self) { continuation in
            let engine = try healthStore.openEngine()
            let batches = engine.log.committedBatches()
            let start = try descriptor.anchor?.position(in: engine) ?? 0
            var delivered = start
            let first = try engine.read { txn in
                let upper = try engine.head(in: txn)
                delivered = max(start, upper)
                return try descriptor.changes(
                    engine,
                    caller: healthStore.caller,
                    after: start,
                    through: upper,
                    limit: nil,
                    in: txn
                )
            }
            continuation.yield(first)
            for await batch in batches {
                try Task.checkCancellation()
                guard batch.last.seq > delivered else { continue }
                let after = delivered
                let result = try engine.read { txn in
                    try descriptor.changes(
                        engine,
                        caller: healthStore.caller,
                        after: after,
                        through: batch.last.seq,
                        limit: nil,
                        in: txn
                    )
                }
                delivered = batch.last.seq
                if !result.addedSamples.isEmpty || !result.deletedObjects.isEmpty { continuation.yield(result) }
            }
        }
    }

    /// The merged changes of every predicate in anchor order, cut at `limit`.
    private func changes(
        _ engine: StoreEngine,
        caller: Caller,
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        in txn: borrowing ReadTransaction
    ) throws -> Result {
        var session = ReadSession(caller: caller)
        if predicates.count == 1, let predicate = predicates.first {
            // One predicate: its changes are already in anchor order.
            let changes = try engine.anchoredChanges(
                of: predicate.sampleType,
                predicate: try predicate.typed.get(),
                after: start,
                through: upper,
                limit: limit,
                in: txn,
                session: &session
            )
            let samples = changes.samples as? [Sample] ?? changes.samples.compactMap { $0 as? Sample }
            return Result(
                addedSamples: samples,
                deletedObjects: changes.deleted,
                newAnchor: engine.queryAnchor(changes.last)
            )
        }
        var items: [(seq: UInt64, sample: Sample?, deleted: HKDeletedObject?)] = []
        // A predicate whose page was full stopped at `cutoff`; nothing after
        // it may be reported, or its later items would be skipped (AQ-9).
        // Later predicates read no further than the cutoff so far.
        var cutoff = upper
        for predicate in predicates {
            let typed = try predicate.typed.get()
            let changes = try engine.anchoredChanges(
                of: predicate.sampleType,
                predicate: typed,
                after: start,
                through: cutoff,
                limit: limit,
                in: txn,
                session: &session
            )
            cutoff = min(cutoff, changes.last)
            for (seq, sample) in zip(changes.sampleSeqs, changes.samples) {
                if let sample = sample as? Sample { items.append((seq, sample, nil)) }
            }
            for (seq, deleted) in zip(changes.deletedSeqs, changes.deleted) { items.append((seq, nil, deleted)) }
        }
        items = items.filter { $0.seq <= cutoff }.sorted { $0.seq < $1.seq }
        var last = cutoff
        if let limit, items.count > limit {
            items = Array(items.prefix(limit))
            last = items.last?.seq ?? start
        }
        return Result(
            addedSamples: items.compactMap(\.sample),
            deletedObjects: items.compactMap(\.deleted),
            newAnchor: engine.queryAnchor(last)
        )
    }
}
