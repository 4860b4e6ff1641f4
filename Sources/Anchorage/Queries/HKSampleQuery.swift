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
        do {
            let targets = try HKQueryDescriptor.targets(queryDescriptors, or: sampleType, predicate: predicate)
            let limit = try QueryInputs.limit(limit)
            let sorts = try QueryInputs.sortDescriptors(sortDescriptors)
            let samples = try engine.sortedSamples(of: targets, sorts: sorts, limit: limit, caller: store.caller)
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
        try sortedSamples(
            of: [QueryTarget(type: type, predicate: predicate)],
            sorts: sorts,
            limit: limit,
            caller: caller
        )
    }

    /// The samples matching any target, each once, in anchor order within
    /// a target and targets in order; then sorted and limited (SQ-3, SQ-4).
    func sortedSamples(
        of targets: [QueryTarget],
        sorts: [SampleSortDescriptor],
        limit: Int?,
        caller: Caller
    ) throws(HKError) -> [HKSample] {
        let samples = try read { txn in
            var session = ReadSession(caller: caller)
            guard targets.count > 1 else {
                guard let target = targets.first else { return [HKSample]() }
                return try matchingSamples(of: target.type, predicate: target.predicate, in: txn, session: &session)
            }
            var seen = Set<UUID>()
            var all: [HKSample] = []
            for target in targets {
                for sample in try matchingSamples(
                    of: target.type,
                    predicate: target.predicate,
                    in: txn,
                    session: &session
                )
                where seen.insert(sample.uuid).inserted {
                    all.append(sample)
                }
            }
            return all
        }
        let sorted = SampleSortDescriptor.sort(samples, by: sorts)
        guard let limit, sorted.count > limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
