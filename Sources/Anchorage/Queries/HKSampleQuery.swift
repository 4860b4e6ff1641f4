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
    private let resultsHandler: ResultsHandler

    /// What the query calls with the samples found, or with the error.
    public typealias ResultsHandler = @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    /// Creates a query; execute it with ``HKHealthStore/execute(_:)``.
    public convenience init(
        sampleType: HKSampleType,
        predicate: NSPredicate?,
        limit: Int,
        sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping ResultsHandler
    ) {
        self.init(sampleType, predicate, nil, limit: limit, sorts: sortDescriptors, resultsHandler: resultsHandler)
    }

    /// Creates a query for the samples that match any of the descriptors,
    /// in anchor order.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor],
        limit: Int,
        resultsHandler: @escaping ResultsHandler
    ) {
        self.init(nil, nil, queryDescriptors, limit: limit, sorts: nil, resultsHandler: resultsHandler)
    }

    /// Creates a query for the samples that match any of the descriptors,
    /// sorted.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor],
        limit: Int,
        sortDescriptors: [NSSortDescriptor],
        resultsHandler: @escaping ResultsHandler
    ) {
        self.init(nil, nil, queryDescriptors, limit: limit, sorts: sortDescriptors, resultsHandler: resultsHandler)
    }

    /// One type and predicate, or several descriptors.
    private init(
        _ type: HKSampleType?,
        _ predicate: NSPredicate?,
        _ descriptors: [HKQueryDescriptor]?,
        limit: Int,
        sorts: [NSSortDescriptor]?,
        resultsHandler: @escaping ResultsHandler
    ) {
        self.limit = limit
        self.sortDescriptors = sorts
        self.queryDescriptors = descriptors
        self.resultsHandler = resultsHandler
        super.init(objectType: type, predicate: predicate)
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
