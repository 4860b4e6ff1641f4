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
    /// The type of the samples.
    public let sampleType: HKSampleType
    /// The predicate, if any.
    public let predicate: NSPredicate?
    /// The most samples returned; ``HKObjectQueryNoLimit`` for all (SQ-2).
    public let limit: Int
    /// The order of the results.
    public let sortDescriptors: [NSSortDescriptor]?
    private let sorts: [SampleSortDescriptor]?
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    /// Creates a query; execute it with ``HKHealthStore/execute(_:)``.
    public init(
        sampleType: HKSampleType,
        predicate: NSPredicate?,
        limit: Int,
        sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.sampleType = sampleType
        self.predicate = predicate
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.sorts = nil
        self.resultsHandler = resultsHandler
    }

    /// Creates a query sorted by Swift sort descriptors.
    public init(
        sampleType: HKSampleType,
        predicate: NSPredicate?,
        limit: Int,
        sortedBy sorts: [SampleSortDescriptor],
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.sampleType = sampleType
        self.predicate = predicate
        self.limit = limit
        self.sortDescriptors = nil
        self.sorts = sorts
        self.resultsHandler = resultsHandler
    }

    override func fail(_ error: HKError) {
        resultsHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        do {
            let typed = try QueryInputs.predicate(predicate, for: sampleType)
            let limit = try QueryInputs.limit(limit)
            let sorts = try sorts ?? QueryInputs.sortDescriptors(sortDescriptors)
            let samples = try engine.sortedSamples(
                of: sampleType,
                predicate: typed,
                sorts: sorts,
                limit: limit,
                caller: store.caller
            )
            deliver { resultsHandler(self, samples, nil) }
        } catch {
            deliver { resultsHandler(self, nil, HKError.wrapping(error)) }
        }
    }
}

extension StoreEngine {
    /// The matching samples, sorted, then limited (SQ-3).
    func sortedSamples(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        sorts: [SampleSortDescriptor],
        limit: Int?,
        caller: Caller
    ) throws(HKError) -> [HKSample] {
        let samples = try read { txn in
            var session = ReadSession(caller: caller)
            return try matchingSamples(of: type, predicate: predicate, in: txn, session: &session)
        }
        let sorted = SampleSortDescriptor.sort(samples, by: sorts)
        guard let limit, sorted.count > limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
