import AnchorageLog
public import AnchorageModel
import Foundation

/// The async form of ``HKStatisticsQuery`` (ST-44).
///
/// ```swift
/// let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)),
///                                              options: .cumulativeSum)
/// let total = try await descriptor.result(for: store)?.sumQuantity()
/// ```
public struct HKStatisticsQueryDescriptor: Sendable, HKAsyncQuery {
    /// The type and the predicate the samples must match.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// What to compute.
    public var options: HKStatisticsOptions

    /// Creates a descriptor.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions) {
        self.predicate = predicate
        self.options = options
    }

    /// The statistics of the matching samples; `nil` when none matches.
    ///
    /// - Throws: ``HKError``: `errorInvalidArgument` for options that do not
    ///   suit the type (ST-1) or a predicate that cannot be used.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        try await statistics(for: healthStore, fromViews: true)
    }

    /// The statistics computed from the matching samples, never from the
    /// views: the baseline the benchmarks measure the views against.
    @_spi(Benchmarks) public func referenceResult(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        try await statistics(for: healthStore, fromViews: false)
    }

    private func statistics(for healthStore: HKHealthStore, fromViews: Bool) async throws -> HKStatistics? {
        let engine = try await healthStore.openEngine()
        let type = try predicate.quantityType()
        try options.validate(for: type)
        let typed = try predicate.typed.get()
        let caller = healthStore.caller
        return fromViews
            ? try engine.statistics(of: type, predicate: typed, options: options, caller: caller)
            : try engine.referenceStatistics(of: type, predicate: typed, options: options, caller: caller)
    }
}

/// The async form of ``HKStatisticsCollectionQuery`` (ST-44).
///
/// ```swift
/// let descriptor = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: steps),
///                                                        options: .cumulativeSum, anchorDate: midnight,
///                                                        intervalComponents: DateComponents(day: 1))
/// let days = try await descriptor.result(for: store)
/// for try await update in descriptor.results(for: store) { … }   // long-running
/// ```
public struct HKStatisticsCollectionQueryDescriptor: Sendable, HKAsyncQuery, HKAsyncSequenceQuery {
    /// What ``results(for:)`` yields.
    public struct Result: Sendable {
        /// The collection as of this update.
        public let statisticsCollection: HKStatisticsCollection
        /// The buckets that changed since the previous element; `nil` for
        /// the first (ST-42).
        public let updatedStatistics: [HKStatistics]?
    }

    /// The type and the predicate the samples must match.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// What to compute per bucket.
    public var options: HKStatisticsOptions
    /// The start of one bucket.
    public var anchorDate: Date
    /// The length of a bucket.
    public var intervalComponents: DateComponents

    /// Creates a descriptor.
    public init(
        predicate: HKSamplePredicate<HKQuantitySample>,
        options: HKStatisticsOptions,
        anchorDate: Date,
        intervalComponents: DateComponents
    ) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// The collection as the store holds it now.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for options that do not
    ///   suit the type (ST-1) or invalid interval components (ST-35).
    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        let (engine, type, grid) = try prepare(healthStore)
        return try engine.statisticsCollection(
            of: type,
            predicate: try predicate.typed.get(),
            options: options,
            grid: grid,
            caller: healthStore.caller
        ).collection
    }

    /// The collection now, then again after each committed batch that
    /// changed matching samples, with the changed buckets; ends when the
    /// iterating task is cancelled.
    public func results(for healthStore: HKHealthStore) -> Results {
        Results(stream(for: healthStore))
    }

    /// The collections and changed buckets of a long-running query.
    public typealias Results = QueryResultSequence<Result>

    private func stream(for healthStore: HKHealthStore) -> AsyncThrowingStream<Result, any Error> {
        let descriptor = self
        return followingStream(of: Result.self) { continuation in
            let (engine, type, grid) = try descriptor.prepare(healthStore)
            let typed = try descriptor.predicate.typed.get()
            let batches = engine.log.committedBatches()
            let (collection, head) = try engine.statisticsCollection(
                of: type,
                predicate: typed,
                options: descriptor.options,
                grid: grid,
                caller: healthStore.caller
            )
            continuation.yield(Result(statisticsCollection: collection, updatedStatistics: nil))
            try await engine.followStatistics(
                batches,
                from: head,
                initial: collection,
                predicate: typed,
                caller: healthStore.caller,
                lifecycle: QueryLifecycle()
            ) { collection, changed in
                continuation.yield(Result(statisticsCollection: collection, updatedStatistics: changed))
            }
        }
    }

    private func prepare(_ healthStore: HKHealthStore) throws(HKError) -> (StoreEngine, HKQuantityType, BucketGrid) {
        let engine = try healthStore.openEngine()
        let type = try predicate.quantityType()
        try options.validate(for: type)
        let grid = try BucketGrid(
            anchor: anchorDate,
            intervalComponents: intervalComponents,
            timeZone: engine.configuration.timeZone
        )
        return (engine, type, grid)
    }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    /// The predicate's quantity type (ST-2).
    func quantityType() throws(HKError) -> HKQuantityType {
        guard let type = sampleType as? HKQuantityType else {
            throw .invalid("ST-2", "statistics need a quantity type; \(sampleType.identifier) is not one")
        }
        return type
    }
}

extension HKStatisticsCollectionQueryDescriptor {
    /// The collection computed by the reference evaluator alone, from every
    /// matching sample, without the views: what benchmarks compare the
    /// views against.
    @_spi(Benchmarks) public func referenceResult(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection
    {
        let (engine, type, grid) = try prepare(healthStore)
        let (samples, _) = try engine.statisticsSamples(
            of: type,
            predicate: try predicate.typed.get(),
            caller: healthStore.caller
        )
        let buckets = ReferenceStatistics.collection(samples, grid: grid, type: type, options: options)
        return HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets)
    }
}

extension HKStatisticsCollectionQueryDescriptor {
    /// The number of buckets from the one containing `startDate` through the
    /// one containing `endDate`: those `enumerateStatistics(from:to:with:)`
    /// visits (ST-38).
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for options that do not
    ///   suit the type (ST-1) or invalid interval components (ST-35).
    package func bucketCount(for healthStore: HKHealthStore, from startDate: Date, to endDate: Date) throws -> Int {
        let (_, _, grid) = try prepare(healthStore)
        let first = grid.index(containing: startDate)
        let last = grid.index(containing: endDate)
        return last < first ? 0 : last - first + 1
    }

    /// The collection with only the buckets from the one containing
    /// `startDate` through the one containing `endDate` computed: what
    /// `enumerateStatistics(from:to:with:)` over the same dates reports, at
    /// a cost bounded by those buckets and the samples reaching them. Other
    /// buckets read as empty. `readable: false` gives the collection of an
    /// empty store (a type the caller may not read answers like one without
    /// data, AUTH-4).
    ///
    /// ```swift
    /// let count = try descriptor.bucketCount(for: store, from: start, to: end)   // check a cap first
    /// let collection = try await descriptor.result(for: store, from: start, to: end)
    /// collection.enumerateStatistics(from: start, to: end) { statistics, _ in … }
    /// ```
    package func result(
        for healthStore: HKHealthStore,
        from startDate: Date,
        to endDate: Date,
        readable: Bool = true
    ) async throws -> HKStatisticsCollection {
        try computedResult(for: healthStore, from: startDate, to: endDate, readable: readable)
    }

    /// ``result(for:from:to:readable:)`` computed on the calling thread, for
    /// callers that run it on a thread of their own (a node computes wide
    /// requests off the cooperative pool).
    package func computedResult(
        for healthStore: HKHealthStore,
        from startDate: Date,
        to endDate: Date,
        readable: Bool = true
    ) throws -> HKStatisticsCollection {
        let (engine, type, grid) = try prepare(healthStore)
        let first = grid.index(containing: startDate)
        let last = grid.index(containing: endDate)
        var buckets: [Int: HKStatistics] = [:]
        if readable && first <= last {
            buckets = try engine.statisticsBuckets(
                Array(first...last),
                of: type,
                predicate: try predicate.typed.get(),
                options: options,
                grid: grid,
                caller: healthStore.caller
            )
        }
        return HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets)
    }
}
