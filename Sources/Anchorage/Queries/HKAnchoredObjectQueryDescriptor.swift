import AnchorageLog
import AnchorageModel
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
        try readPage(for: healthStore)
    }

    /// A long-running query: first the changes since ``anchor`` now in the
    /// store, then one element per committed batch that touched the
    /// predicates; it ends when the consuming task is cancelled (AQ-20).
    public func results(for healthStore: HKHealthStore) -> Results {
        Results(follow(healthStore))
    }

    /// The pages of a long-running query.
    public typealias Results = QueryResultSequence<Result>
}

extension HKAnchoredObjectQueryDescriptor: HKAsyncQuery, HKAsyncSequenceQuery {}

extension HKAnchoredObjectQueryDescriptor: ChangeReading {
    static func isEmpty(_ changes: Result) -> Bool { changes.addedSamples.isEmpty && changes.deletedObjects.isEmpty }

    static func none(at anchor: HKQueryAnchor) -> Result {
        Result(addedSamples: [], deletedObjects: [], newAnchor: anchor)
    }

    var readsActivitySummaries: Bool { false }

    func typedPredicates() throws -> [(type: HKSampleType, predicate: ObjectPredicate?)] {
        try predicates.map { predicate in (predicate.sampleType, try predicate.typed.get()) }
    }

    static func result(_ merged: MergedChanges, newAnchor anchor: HKQueryAnchor) -> Result {
        Result(
            addedSamples: merged.added as? [Sample] ?? merged.added.compactMap { $0 as? Sample },
            deletedObjects: merged.deleted,
            newAnchor: anchor
        )
    }
}
