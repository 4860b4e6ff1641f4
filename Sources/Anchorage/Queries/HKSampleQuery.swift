public import AnchorageModel
public import Foundation

/// A snapshot of the samples of one type matching a predicate (SQ-1..3).
///
/// ```swift
/// let lastWeek = HKQuery.predicateForSamples(withStart: weekAgo, end: now)
/// let query = HKSampleQuery(sampleType: HKQuantityType(.heartRate), predicate: lastWeek,
///                           limit: 100, sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]) {
///     _, samples, error in
///     …
/// }
/// store.execute(query)
/// ```
///
/// Sort descriptors apply before the limit; without them samples come in
/// anchor (insertion) order, and ties keep anchor order (SQ-3).
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    /// The most samples returned; ``HKObjectQueryNoLimit`` for all (SQ-2).
    public let limit: Int
    /// The order of the results.
    public let sortDescriptors: [NSSortDescriptor]?
    /// The query descriptors of a query over several types, else `nil`.
    public let queryDescriptors: [HKQueryDescriptor]?
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    /// Creates a query; execute it with ``HKHealthStore/execute(_:)``.
    public init(
        sampleType: HKSampleType,
        predicate: NSPredicate?,
        limit: Int,
        sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.queryDescriptors = nil
        self.resultsHandler = resultsHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// Creates a query for the samples that match any of the descriptors,
    /// in anchor order.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor],
        limit: Int,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.init(queryDescriptors: queryDescriptors, limit: limit, sorts: nil, resultsHandler: resultsHandler)
    }

    /// Creates a query for the samples that match any of the descriptors,
    /// sorted.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor],
        limit: Int,
        sortDescriptors: [NSSortDescriptor],
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.init(
            queryDescriptors: queryDescriptors,
            limit: limit,
            sorts: sortDescriptors,
            resultsHandler: resultsHandler
        )
    }

    private init(
        queryDescriptors: [HKQueryDescriptor],
        limit: Int,
        sorts: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sorts
        self.queryDescriptors = queryDescriptors
        self.resultsHandler = resultsHandler
        super.init(objectType: nil, predicate: nil)
    }

    override func fail(_ error: HKError) {
        resultsHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        answer(self, resultsHandler) {
            let targets = try HKQueryDescriptor.targets(queryDescriptors, or: sampleType, predicate: predicate)
            let limit = try QueryInputs.limit(limit)
            let sorts = try QueryInputs.sortDescriptors(sortDescriptors)
            return try engine.sortedSamples(of: targets, sorts: sorts, limit: limit, caller: store.caller)
        }
    }
}
