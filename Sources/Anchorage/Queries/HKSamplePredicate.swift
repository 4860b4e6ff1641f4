public import AnchorageModel
public import Foundation

/// A sample type and a predicate, typed by the sample class the descriptor
/// queries return (SQ-4, AQ-18).
///
/// ```swift
/// let steps = HKSamplePredicate.quantitySample(type: HKQuantityType(.stepCount))
/// ```
public struct HKSamplePredicate<Sample: HKSample>: Sendable, Hashable {
    /// The queried type.
    public let sampleType: HKSampleType
    /// The predicate, as given.
    nonisolated(unsafe) public let nsPredicate: NSPredicate?
    /// The typed predicate, or the error converting the `NSPredicate` gave.
    let typed: Result<ObjectPredicate?, HKError>

    init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.nsPredicate = predicate
        self.typed = Result { () throws(HKError) in try QueryInputs.predicate(predicate, for: sampleType) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sampleType == rhs.sampleType && lhs.nsPredicate == rhs.nsPredicate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sampleType)
        hasher.combine(nsPredicate)
    }

    /// Samples of any type.
    public static func sample(
        type sampleType: HKSampleType,
        predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKSample> {
        HKSamplePredicate<HKSample>(sampleType: sampleType, predicate: predicate)
    }

    /// Quantity samples.
    public static func quantitySample(
        type quantityType: HKQuantityType,
        predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKQuantitySample> {
        HKSamplePredicate<HKQuantitySample>(sampleType: quantityType, predicate: predicate)
    }

    /// Category samples.
    public static func categorySample(
        type categoryType: HKCategoryType,
        predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKCategorySample> {
        HKSamplePredicate<HKCategorySample>(sampleType: categoryType, predicate: predicate)
    }

    /// Correlations.
    public static func correlation(
        type correlationType: HKCorrelationType,
        predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKCorrelation> {
        HKSamplePredicate<HKCorrelation>(sampleType: correlationType, predicate: predicate)
    }

    /// Workouts.
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
        HKSamplePredicate<HKWorkout>(sampleType: TypeCatalog.workout, predicate: predicate)
    }

    /// Workout routes; read their locations with ``HKWorkoutRouteQueryDescriptor``.
    public static func workoutRoute(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkoutRoute> {
        HKSamplePredicate<HKWorkoutRoute>(sampleType: TypeCatalog.workoutRoute, predicate: predicate)
    }

    /// Clinical records of `clinicalType`.
    public static func clinicalRecord(
        type clinicalType: HKClinicalType,
        predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKClinicalRecord> {
        HKSamplePredicate<HKClinicalRecord>(sampleType: clinicalType, predicate: predicate)
    }

    /// Vision prescriptions.
    public static func visionPrescription(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKVisionPrescription> {
        HKSamplePredicate<HKVisionPrescription>(sampleType: TypeCatalog.visionPrescription, predicate: predicate)
    }

    /// States of mind.
    public static func stateOfMind(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKStateOfMind> {
        HKSamplePredicate<HKStateOfMind>(sampleType: TypeCatalog.stateOfMind, predicate: predicate)
    }

    /// GAD-7 anxiety assessments.
    public static func gad7Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKGAD7Assessment> {
        HKSamplePredicate<HKGAD7Assessment>(sampleType: TypeCatalog.scoredAssessmentTypes[.GAD7]!, predicate: predicate)
    }

    /// PHQ-9 depression assessments.
    public static func phq9Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKPHQ9Assessment> {
        HKSamplePredicate<HKPHQ9Assessment>(sampleType: TypeCatalog.scoredAssessmentTypes[.PHQ9]!, predicate: predicate)
    }

    /// Audiograms.
    public static func audiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKAudiogramSample> {
        HKSamplePredicate<HKAudiogramSample>(sampleType: TypeCatalog.audiogram, predicate: predicate)
    }

    /// Electrocardiograms; read their voltages with ``HKElectrocardiogramQueryDescriptor``.
    public static func electrocardiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKElectrocardiogram> {
        HKSamplePredicate<HKElectrocardiogram>(sampleType: TypeCatalog.electrocardiogram, predicate: predicate)
    }

    /// Heartbeat series; read their beats with ``HKHeartbeatSeriesQueryDescriptor``.
    public static func heartbeatSeries(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKHeartbeatSeriesSample> {
        HKSamplePredicate<HKHeartbeatSeriesSample>(sampleType: TypeCatalog.heartbeatSeries, predicate: predicate)
    }
}

/// The async form of a sample query (SQ-4): the union of several
/// (type, predicate) pairs, sorted, then limited.
///
/// ```swift
/// let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)],
///                                          sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
///                                          limit: 10)
/// let latest = try await descriptor.result(for: store)
/// ```
public struct HKSampleQueryDescriptor<Sample: HKSample>: Sendable {
    /// What to match.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order of the results; samples that compare equal keep anchor order.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// The most results; `nil` for all.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }
}

extension HKSampleQueryDescriptor: HKAsyncQuery {
    /// Runs the query once.
    ///
    /// - Throws: ``HKError`` for a bad predicate or limit, missing read
    ///   authorization, or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let engine = try await healthStore.openEngine()
        if let limit, limit < 0 {
            throw HKError(.errorInvalidArgument, rule: "SQ-2", "the limit is \(limit); use nil or a positive number")
        }
        var targets: [QueryTarget] = []
        for predicate in predicates {
            targets.append(QueryTarget(type: predicate.sampleType, predicate: try predicate.typed.get()))
        }
        let samples = try engine.sortedSamples(of: targets, sorts: [], limit: nil, caller: healthStore.caller)
            .compactMap { $0 as? Sample }
        // Swift's sort is stable: equal samples keep anchor order (SQ-3).
        let sorted = sortDescriptors.isEmpty ? samples : samples.sorted(using: sortDescriptors)
        guard let limit, limit > 0, sorted.count > limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
