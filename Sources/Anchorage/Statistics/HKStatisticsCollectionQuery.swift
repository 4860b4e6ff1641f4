import AnchorageLog
public import AnchorageModel
public import Foundation
import Synchronization

/// Statistics in buckets of equal calendar length, for charts: steps per
/// day, average heart rate per hour (ST-28..43).
///
/// ```swift
/// let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount),
///                                         quantitySamplePredicate: nil, options: .cumulativeSum,
///                                         anchorDate: mondayAt3am, intervalComponents: DateComponents(day: 7))
/// query.initialResultsHandler = { _, collection, error in
///     collection?.enumerateStatistics(from: threeMonthsAgo, to: now) { statistics, _ in
///         print(statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
///     }
/// }
/// store.execute(query)
/// ```
///
/// Buckets tile time from `anchorDate` in both directions (ST-28) on the
/// Gregorian calendar of the components' time zone, else the store's
/// ``HKHealthStore/Configuration/timeZone`` (ST-31). Cumulative samples are
/// prorated across the buckets they overlap (ST-16). With a
/// ``statisticsUpdateHandler`` the query keeps running and reports each
/// committed batch that saved or deleted matching samples (ST-40..43).
/// Invalid options or interval components reach the initial handler as
/// `errorInvalidArgument`.
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    /// The initial handler's type.
    public typealias InitialResultsHandler =
        @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    /// The update handler's type: the changed bucket (when exactly one
    /// changed), and the whole collection as it is now.
    public typealias StatisticsUpdateHandler =
        @Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void
    /// The type of the samples.
    let quantityType: HKQuantityType
    /// What to compute per bucket.
    public let options: HKStatisticsOptions
    /// The start of one bucket; only its phase matters (ST-28).
    public let anchorDate: Date
    /// The length of a bucket (ST-29).
    public let intervalComponents: DateComponents

    private struct Handlers {
        var initial: InitialResultsHandler?
        var update: StatisticsUpdateHandler?
    }
    private let handlers = Mutex(Handlers())

    /// Called once with the whole collection (ST-40). Set it before executing.
    public var initialResultsHandler: InitialResultsHandler? {
        get { handlers.withLock { $0.initial } }
        set {
            guard !lifecycle.hasExecuted else { return }
            handlers.withLock { $0.initial = newValue }
        }
    }

    /// Called after each committed batch that changed matching samples;
    /// without it the query stops after its initial results (ST-40, ST-41).
    public var statisticsUpdateHandler: StatisticsUpdateHandler? {
        get { handlers.withLock { $0.update } }
        set {
            guard !lifecycle.hasExecuted else { return }
            handlers.withLock { $0.update = newValue }
        }
    }

    /// Creates a query; set its handlers, then execute it.
    public init(
        quantityType: HKQuantityType,
        quantitySamplePredicate: NSPredicate?,
        options: HKStatisticsOptions = [],
        anchorDate: Date,
        intervalComponents: DateComponents
    ) {
        self.quantityType = quantityType
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func fail(_ error: HKError) {
        let handlers = handlers.withLock { $0 }
        if let initial = handlers.initial {
            initial(self, nil, error)
        } else {
            handlers.update?(self, nil, nil, error)
        }
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let handlers = handlers.withLock { $0 }
        do {
            try options.validate(for: quantityType)
            let typed = try QueryInputs.predicate(predicate, for: quantityType)
            let grid = try BucketGrid(
                anchor: anchorDate,
                intervalComponents: intervalComponents,
                timeZone: engine.configuration.timeZone
            )
            // Subscribe before the snapshot, so no batch falls between them.
            let batches = handlers.update == nil ? nil : engine.log.committedBatches()
            let (collection, head) = try engine.statisticsCollection(
                of: quantityType,
                predicate: typed,
                options: options,
                grid: grid,
                caller: store.caller
            )
            deliver { handlers.initial?(self, collection, nil) }
            guard let update = handlers.update, let batches else { return }
            try await engine.followStatistics(
                batches,
                from: head,
                initial: collection,
                predicate: typed,
                caller: store.caller,
                lifecycle: lifecycle
            ) { collection, changed in
                deliver { update(self, changed.count == 1 ? changed[0] : nil, collection, nil) }
            }
        } catch {
            let error = HKError.wrapping(error)
            if lifecycle.hasDelivered, let update = handlers.update {
                deliver { update(self, nil, nil, error) }
            } else {
                deliver { fail(error) }
            }
        }
    }
}
