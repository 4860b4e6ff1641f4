public import AnchorageModel
public import Foundation

/// The statistics of every sample of a quantity type that matches a
/// predicate (ST-1..27).
///
/// ```swift
/// let today = HKQuery.predicateForSamples(withStart: midnight, end: nil)
/// let query = HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: today,
///                               options: .cumulativeSum) { _, statistics, error in
///     print(statistics?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
/// }
/// store.execute(query)
/// ```
///
/// The statistics span the matching samples, from the earliest start to the
/// latest end, and count cumulative samples in full, not clipped to the
/// predicate (ST-6, ST-21). When nothing matches the handler gets
/// `errorNoData`, as in HealthKit. Options that do not suit the type give
/// `errorInvalidArgument` (HealthKit stops the program there).
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    /// The handler's type.
    public typealias CompletionHandler = @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

    /// The type of the samples.
    let quantityType: HKQuantityType
    /// What to compute.
    public let options: HKStatisticsOptions
    private let completionHandler: CompletionHandler

    /// Creates a query; execute it with ``HKHealthStore/execute(_:)``.
    public init(
        quantityType: HKQuantityType,
        quantitySamplePredicate: NSPredicate?,
        options: HKStatisticsOptions = [],
        completionHandler handler: @escaping CompletionHandler
    ) {
        self.quantityType = quantityType
        self.options = options
        self.completionHandler = handler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func fail(_ error: HKError) {
        completionHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        answer(self, completionHandler) {
            try options.validate(for: quantityType)
            let typed = try QueryInputs.predicate(predicate, for: quantityType)
            guard
                let statistics = try engine.statistics(
                    of: quantityType,
                    predicate: typed,
                    options: options,
                    caller: store.caller
                )
            else {
                throw HKError(.errorNoData, "no data available for the specified predicate")
            }
            return statistics
        }
    }
}
