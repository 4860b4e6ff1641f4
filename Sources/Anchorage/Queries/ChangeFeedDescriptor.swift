import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Everything saved or deleted since an anchor, activity summaries
/// included, in one anchor order: what `GET /v1/changes` and `anchorage
/// changes` report. (An Anchorage addition: HealthKit's anchored query
/// reports samples only, and ``HKAnchoredObjectQueryDescriptor`` still
/// does.)
///
/// Samples and deletions follow the anchored query's rules (AQ-3..21). An
/// activity summary is reported as the day's summary now: a day changed
/// several times since the anchor is reported once, and a consumer that
/// keeps one summary per day and replaces it with each report ends equal
/// to the store.
///
/// ```swift
/// let feed = ChangeFeedDescriptor(predicates: [.quantitySample(type: steps)], activitySummaries: true, anchor: saved)
/// let page = try await feed.result(for: store)
/// for summary in page.activitySummaries { days[summary.dateComponents(for: calendar)] = summary }
/// saved = page.newAnchor
/// ```
public struct ChangeFeedDescriptor: Sendable {
    /// What one call or update reports.
    public struct Result: Sendable {
        /// Samples saved since the anchor, in anchor order.
        public let addedSamples: [HKSample]
        /// Objects deleted since the anchor.
        public let deletedObjects: [HKDeletedObject]
        /// The days whose activity summary changed since the anchor, each
        /// with its summary now, in anchor order.
        public let activitySummaries: [HKActivitySummary]
        /// Where the next call resumes.
        public let newAnchor: HKQueryAnchor

        /// How many changes the result holds.
        public var count: Int { addedSamples.count + deletedObjects.count + activitySummaries.count }
    }

    /// The samples to report; the anchor is shared.
    public var predicates: [HKSamplePredicate<HKSample>]
    /// Whether activity summaries are reported too.
    public var activitySummaries: Bool
    /// Where to start; `nil` for the beginning.
    public var anchor: HKQueryAnchor?
    /// The most changes of ``result(for:)``; `nil` for all. The changes of
    /// one log entry are never split, so a page can hold a few more.
    public var limit: Int?

    /// Creates a descriptor.
    public init(
        predicates: [HKSamplePredicate<HKSample>],
        activitySummaries: Bool = false,
        anchor: HKQueryAnchor?,
        limit: Int? = nil
    ) {
        self.predicates = predicates
        self.activitySummaries = activitySummaries
        self.anchor = anchor
        self.limit = limit
    }

    /// The changes since ``anchor``, at most about ``limit``. Page with the
    /// returned anchor until a page is empty.
    ///
    /// - Throws: ``HKError``: `errorInvalidArgument` for a limit below 1 or
    ///   an anchor of another store; `errorAuthorizationNotDetermined` for
    ///   an app that never asked to read a type named (AUTH-7).
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        try readPage(for: healthStore)
    }

    /// First the changes since ``anchor`` now in the store, then one
    /// element per committed batch that brought a change; it ends when the
    /// consuming task is cancelled.
    public func results(for healthStore: HKHealthStore) -> AsyncThrowingStream<Result, any Error> {
        follow(healthStore)
    }
}

extension ChangeFeedDescriptor: ChangeReading {
    static func isEmpty(_ changes: Result) -> Bool { changes.count == 0 }

    static func none(at anchor: HKQueryAnchor) -> Result {
        Result(addedSamples: [], deletedObjects: [], activitySummaries: [], newAnchor: anchor)
    }

    var readsActivitySummaries: Bool { activitySummaries }

    func typedPredicates() throws -> [(type: HKSampleType, predicate: ObjectPredicate?)] {
        try predicates.map { predicate in (predicate.sampleType, try predicate.typed.get()) }
    }

    static func result(_ merged: MergedChanges, newAnchor anchor: HKQueryAnchor) -> Result {
        Result(
            addedSamples: merged.added,
            deletedObjects: merged.deleted,
            activitySummaries: merged.summaries,
            newAnchor: anchor
        )
    }
}
