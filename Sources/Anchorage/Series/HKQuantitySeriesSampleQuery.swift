public import AnchorageModel
public import Foundation
import Synchronization

/// Reads the individual quantities of quantity samples, one handler call
/// per quantity, including those of samples built with
/// ``HKQuantitySeriesSampleBuilder`` (whose ``HKQuantitySample/count`` is
/// above 1).
///
/// ```swift
/// let query = HKQuantitySeriesSampleQuery(quantityType: HKQuantityType(.heartRate), predicate: nil) {
///     _, quantity, interval, _, done, error in
///     if let quantity, let interval { print(interval.start, quantity) }
///     if done { print("finished") }
/// }
/// store.execute(query)
/// ```
///
/// Quantities come in the order of their start dates; with
/// ``orderByQuantitySampleStartDate`` they are grouped by sample, samples
/// in start-date order. The last call has `done` true; a query that finds
/// nothing calls the handler once, with `done` true and no quantity. Values
/// are in the type's canonical unit (SERIES-6).
public final class HKQuantitySeriesSampleQuery: HKQuery, @unchecked Sendable {
    /// What the query calls with each quantity, its interval, its sample
    /// (with ``includeSample``), whether it is the last, or the error.
    public typealias QuantityHandler =
        @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, DateInterval?, HKQuantitySample?, Bool, (any Error)?) ->
        Void

    private let options = QueryOptionsBox()
    private let quantityHandler: QuantityHandler

    /// Whether each call carries the quantity's sample; set before the
    /// query is executed (later changes are ignored).
    public var includeSample: Bool {
        get { options.value.includeSample }
        set { options.set { $0.includeSample = newValue } }
    }

    /// Whether quantities are grouped by sample, samples in start-date
    /// order; set before the query is executed.
    public var orderByQuantitySampleStartDate: Bool {
        get { options.value.bySample }
        set { options.set { $0.bySample = newValue } }
    }

    /// A query for the quantities of the samples of `quantityType` that
    /// match `predicate`.
    public init(quantityType: HKQuantityType, predicate: NSPredicate?, quantityHandler: @escaping QuantityHandler) {
        self.quantityHandler = quantityHandler
        super.init(objectType: quantityType, predicate: predicate)
    }

    /// A query for the quantities of one sample; its handler gets each
    /// quantity's start date.
    @available(*, deprecated, message: "use init(quantityType:predicate:quantityHandler:)")
    public convenience init(
        sample quantitySample: HKQuantitySample,
        quantityHandler:
            @escaping @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, Date?, Bool, (any Error)?) ->
            Void
    ) {
        self.init(
            quantityType: quantitySample.quantityType,
            predicate: HKQuery.predicateForObject(with: quantitySample.uuid)
        ) { query, quantity, interval, _, done, error in
            quantityHandler(query, quantity, interval?.start, done, error)
        }
    }

    override func fail(_ error: HKError) {
        quantityHandler(self, nil, nil, nil, true, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let chosen = options.freeze()
        let found: [(quantity: QuantitySeries.Quantity, sample: HKQuantitySample)]
        do {
            let targets = try HKQueryDescriptor.targets(nil, or: sampleType, predicate: predicate)
            found = try engine.quantities(of: targets[0], bySample: chosen.bySample, caller: store.caller)
        } catch {
            deliver { fail(error) }
            return
        }
        guard !found.isEmpty else {
            deliver { quantityHandler(self, nil, nil, nil, true, nil) }
            return
        }
        for (index, item) in found.enumerated() {
            if lifecycle.isStopped { return }
            let unit = item.sample.quantityType.canonicalUnit
            let interval = DateInterval(
                start: Date(timeIntervalSinceReferenceDate: item.quantity.start),
                end: Date(timeIntervalSinceReferenceDate: item.quantity.end)
            )
            let done = index == found.count - 1
            deliver {
                quantityHandler(
                    self,
                    HKQuantity(unit: unit, doubleValue: item.quantity.value),
                    interval,
                    chosen.includeSample ? item.sample : nil,
                    done,
                    nil
                )
            }
        }
    }
}

/// The options of a quantity series query, fixed when it starts.
final class QueryOptionsBox: Sendable {
    struct Options: Sendable { var includeSample = false, bySample = false, frozen = false }
    private let options = Mutex(Options())

    var value: Options { options.withLock { $0 } }

    func set(_ change: (inout Options) -> Void) {
        options.withLock { if !$0.frozen { change(&$0) } }
    }

    func freeze() -> Options {
        options.withLock {
            $0.frozen = true
            return $0
        }
    }
}
