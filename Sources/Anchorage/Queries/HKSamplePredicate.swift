public import Foundation

/// A sample type and a predicate, typed by the sample class the descriptor
/// queries return (SQ-4, AQ-18).
///
/// ```swift
/// let steps = HKSamplePredicate.quantitySample(type: HKQuantityType(.stepCount))
/// ```
public struct HKSamplePredicate<Sample: HKSample>: Sendable {
    /// The queried type.
    public let sampleType: HKSampleType
    /// The typed predicate, or the error converting the `NSPredicate` gave.
    let typed: Result<ObjectPredicate?, HKError>

    init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.typed = Result { () throws(HKError) in try QueryInputs.predicate(predicate, for: sampleType) }
    }

    /// Samples of any type.
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample>
    where Sample == HKSample {
        HKSamplePredicate<HKSample>(sampleType: type, predicate: predicate)
    }

    /// Quantity samples.
    public static func quantitySample(
        type: HKQuantityType,
        predicate: NSPredicate? = nil
    )
        -> HKSamplePredicate<HKQuantitySample> where Sample == HKQuantitySample
    {
        HKSamplePredicate<HKQuantitySample>(sampleType: type, predicate: predicate)
    }

    /// Category samples.
    public static func categorySample(
        type: HKCategoryType,
        predicate: NSPredicate? = nil
    )
        -> HKSamplePredicate<HKCategorySample> where Sample == HKCategorySample
    {
        HKSamplePredicate<HKCategorySample>(sampleType: type, predicate: predicate)
    }

    /// Correlations.
    public static func correlation(
        type: HKCorrelationType,
        predicate: NSPredicate? = nil
    )
        -> HKSamplePredicate<HKCorrelation> where Sample == HKCorrelation
    {
        HKSamplePredicate<HKCorrelation>(sampleType: type, predicate: predicate)
    }

    /// Workouts.
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout>
    where Sample == HKWorkout {
        HKSamplePredicate<HKWorkout>(sampleType: TypeCatalog.workout, predicate: predicate)
    }
}

/// The async form of a sample query (SQ-4): the union of several
/// (type, predicate) pairs, sorted, then limited.
///
/// ```swift
/// let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)],
///                                          sortDescriptors: [SampleSortDescriptor(.startDate, ascending: false)],
///                                          limit: 10)
/// let latest = try await descriptor.result(for: store)
/// ```
public struct HKSampleQueryDescriptor<Sample: HKSample>: Sendable {
    /// What to match.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order of the results.
    public var sortDescriptors: [SampleSortDescriptor]
    /// The most results; `nil` for all.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SampleSortDescriptor], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Runs the query once.
    ///
    /// - Throws: ``HKError`` for a bad predicate or limit, missing read
    ///   authorization, or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let engine = try healthStore.openEngine()
        if let limit, limit < 0 {
            throw HKError(.errorInvalidArgument, rule: "SQ-2", "the limit is \(limit); use nil or a positive number")
        }
        var seen = Set<UUID>()
        var all: [(seq: Int, sample: Sample)] = []
        for predicate in predicates {
            let typed = try predicate.typed.get()
            let samples = try engine.sortedSamples(
                of: predicate.sampleType,
                predicate: typed,
                sorts: [],
                limit: nil,
                caller: healthStore.caller
            )
            for sample in samples where seen.insert(sample.uuid).inserted {
                if let sample = sample as? Sample { all.append((all.count, sample)) }
            }
        }
        let sorted = SampleSortDescriptor.sort(all.map(\.sample), by: sortDescriptors)
        guard let limit, limit > 0, sorted.count > limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
