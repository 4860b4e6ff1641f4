public import AnchorageModel
import Foundation

/// The quantities of quantity samples, one by one: a sample built with
/// ``HKQuantitySeriesSampleBuilder`` gives each of its quantities, any other
/// its one quantity over its interval. Results come in the order of their
/// start dates, or grouped by sample with
/// ``Options/orderByQuantitySampleStartDate``; values are in the type's
/// canonical unit (SERIES-6).
///
/// ```swift
/// let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: heartRate))
/// for try await result in descriptor.results(for: store) { print(result.dateInterval, result.quantity) }
/// ```
public struct HKQuantitySeriesSampleQueryDescriptor: Sendable, HKAsyncSequenceQuery {
    /// What to include and in which order.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Each result carries the sample its quantity belongs to.
        public static let includeSample = Options(rawValue: 1 << 0)
        /// Results come in the order of their samples' start dates (else in
        /// anchor order).
        public static let orderByQuantitySampleStartDate = Options(rawValue: 1 << 1)
    }

    /// One quantity and the interval it covers.
    public struct Result: Sendable, Hashable {
        public let quantity: HKQuantity
        public let dateInterval: DateInterval
        /// The quantity's sample, with ``Options/includeSample``.
        public let sample: HKQuantitySample?
    }

    /// The samples whose quantities are listed.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    public var options: Options

    /// Creates a descriptor.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: Options = []) {
        self.predicate = predicate
        self.options = options
    }

    /// The quantities, as a sequence that ends after the last.
    public typealias Results = QueryResultSequence<Result>

    /// Starts the query: the quantities are read at the first `next()`
    /// and each result is made when it is asked for.
    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptor = self
        return QueryResultSequence(pulling: {
            let engine = try healthStore.openEngine()
            let target = QueryTarget(
                type: descriptor.predicate.sampleType,
                predicate: try descriptor.predicate.typed.get()
            )
            let found = try engine.quantities(
                of: target,
                bySample: descriptor.options.contains(.orderByQuantitySampleStartDate),
                caller: healthStore.caller
            )
            let includeSample = descriptor.options.contains(.includeSample)
            return (
                found.indices,
                { index in
                    let item = found[index]
                    return Result(
                        quantity: HKQuantity(
                            unit: item.sample.quantityType.canonicalUnit,
                            doubleValue: item.quantity.value
                        ),
                        dateInterval: DateInterval(
                            start: Date(timeIntervalSinceReferenceDate: item.quantity.start),
                            end: Date(timeIntervalSinceReferenceDate: item.quantity.end)
                        ),
                        sample: includeSample ? item.sample : nil
                    )
                }
            )
        })
    }
}
