/// Sorts by a sample's start date (OBJ-8).
public let HKSampleSortIdentifierStartDate = "startDate"
/// Sorts by a sample's end date.
public let HKSampleSortIdentifierEndDate = "endDate"
/// Sorts workouts by duration.
public let HKWorkoutSortIdentifierDuration = "duration"
/// Sorts workouts by total distance.
public let HKWorkoutSortIdentifierTotalDistance = "totalDistance"
/// Sorts workouts by total energy burned.
public let HKWorkoutSortIdentifierTotalEnergyBurned = "totalEnergyBurned"
/// Sorts workouts by total swimming strokes.
public let HKWorkoutSortIdentifierTotalSwimmingStrokeCount = "totalSwimmingStrokeCount"
/// Sorts workouts by total flights climbed.
public let HKWorkoutSortIdentifierTotalFlightsClimbed = "totalFlightsClimbed"

/// A sort order for samples: one of HealthKit's sort keys and a direction.
///
/// HealthKit code passes `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`;
/// it converts with ``init(_:)``. Swift code can build one directly:
///
/// ```swift
/// let newestFirst = SampleSortDescriptor(.startDate, ascending: false)
/// let sorted = SampleSortDescriptor.sort(samples, by: [newestFirst])
/// ```
public struct SampleSortDescriptor: Sendable, Hashable, Codable {
    /// What to sort by (OBJ-8).
    public enum Key: String, Sendable, Hashable, Codable, CaseIterable {
        case startDate, endDate, duration, totalDistance, totalEnergyBurned, totalSwimmingStrokeCount,
            totalFlightsClimbed
    }

    /// What to sort by.
    public var key: Key
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Sorts by `key`.
    public init(_ key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// The descriptor HealthKit code built with `NSSortDescriptor(key:ascending:)`.
    ///
    /// - Throws: ``HKError`` (`OBJ-8`) for a key that is not a HealthKit sort identifier.
    public init(_ descriptor: NSSortDescriptor) throws(HKError) {
        guard let key = SortKeyPaths.key(for: descriptor.keyPath) else {
            throw .invalid(
                "OBJ-8",
                "sort descriptors must use a HealthKit sort identifier (HKSampleSortIdentifierStartDate…)"
            )
        }
        self.init(key, ascending: descriptor.ascending)
    }

    /// Orders `a` before `b`, `b` before `a`, or neither (a tie).
    package func order(_ a: HKSample, _ b: HKSample) -> ComparisonResult {
        let result: ComparisonResult =
            switch key {
            case .startDate: Self.compare(a.startDate, b.startDate)
            case .endDate: Self.compare(a.endDate, b.endDate)
            default: Self.compare(Self.workoutValue(a, key), Self.workoutValue(b, key))
            }
        guard ascending else {
            switch result {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        }
        return result
    }

    /// A workout's value for a workout key in base units; samples that are
    /// not workouts, and missing totals, sort first.
    private static func workoutValue(_ sample: HKSample, _ key: Key) -> Double {
        guard let workout = sample as? HKWorkout else { return -.infinity }
        switch key {
        case .duration: return workout.duration
        case .totalDistance:
            return workout.totalDistance?.unit.convert(workout.totalDistance!.value, to: .meter()) ?? -.infinity
        case .totalEnergyBurned:
            return workout.totalEnergyBurned?.unit.convert(workout.totalEnergyBurned!.value, to: .kilocalorie())
                ?? -.infinity
        case .totalSwimmingStrokeCount:
            return workout.totalSwimmingStrokeCount?.unit.convert(workout.totalSwimmingStrokeCount!.value, to: .count())
                ?? -.infinity
        case .totalFlightsClimbed:
            return workout.totalFlightsClimbed?.unit.convert(workout.totalFlightsClimbed!.value, to: .count())
                ?? -.infinity
        case .startDate, .endDate: return 0
        }
    }

    private static func compare<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    /// Sorts `samples` by `descriptors`; ties keep their order in `samples`,
    /// which the store gives in anchor order (SQ-3), so the result is
    /// deterministic.
    public static func sort<S: HKSample>(_ samples: [S], by descriptors: [SampleSortDescriptor]) -> [S] {
        guard !descriptors.isEmpty else { return samples }
        return samples.enumerated().sorted { lhs, rhs in
            for descriptor in descriptors {
                switch descriptor.order(lhs.element, rhs.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// The key paths that stand for HealthKit's sort identifiers inside an
/// `NSSortDescriptor` (swift-corelibs-foundation sorts by key path only).
package enum SortKeyPaths {
    package static func key(for path: AnyKeyPath) -> SampleSortDescriptor.Key? {
        switch path {
        case \HKSample.startDate: .startDate
        case \HKSample.endDate: .endDate
        case \HKWorkout.duration: .duration
        case \HKWorkout.sortKeyTotalDistance: .totalDistance
        case \HKWorkout.sortKeyTotalEnergyBurned: .totalEnergyBurned
        case \HKWorkout.sortKeyTotalSwimmingStrokeCount: .totalSwimmingStrokeCount
        case \HKWorkout.sortKeyTotalFlightsClimbed: .totalFlightsClimbed
        default: nil
        }
    }
}

extension HKWorkout {
    package var sortKeyTotalDistance: Double { totalDistance.map { $0.doubleValue(for: .meter()) } ?? -.infinity }
    package var sortKeyTotalEnergyBurned: Double {
        totalEnergyBurned.map { $0.doubleValue(for: .kilocalorie()) } ?? -.infinity
    }
    package var sortKeyTotalSwimmingStrokeCount: Double {
        totalSwimmingStrokeCount.map { $0.doubleValue(for: .count()) } ?? -.infinity
    }
    package var sortKeyTotalFlightsClimbed: Double {
        totalFlightsClimbed.map { $0.doubleValue(for: .count()) } ?? -.infinity
    }
}

extension HKSample {
    /// Stands for a sort key HealthKit does not have, so the query can
    /// report it.
    package var sortKeyUnknown: Double { 0 }
}

extension NSSortDescriptor {
    /// HealthKit's `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`.
    ///
    /// swift-corelibs-foundation sorts by key path only; this initializer
    /// maps HealthKit's sort identifiers to the key paths Anchorage's queries
    /// understand. An unknown key is reported when the query runs (`OBJ-8`).
    @_disfavoredOverload
    public convenience init(key: String, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
        case HKWorkoutSortIdentifierDuration: self.init(keyPath: \HKWorkout.duration, ascending: ascending)
        case HKWorkoutSortIdentifierTotalDistance:
            self.init(keyPath: \HKWorkout.sortKeyTotalDistance, ascending: ascending)
        case HKWorkoutSortIdentifierTotalEnergyBurned:
            self.init(keyPath: \HKWorkout.sortKeyTotalEnergyBurned, ascending: ascending)
        case HKWorkoutSortIdentifierTotalSwimmingStrokeCount:
            self.init(keyPath: \HKWorkout.sortKeyTotalSwimmingStrokeCount, ascending: ascending)
        case HKWorkoutSortIdentifierTotalFlightsClimbed:
            self.init(keyPath: \HKWorkout.sortKeyTotalFlightsClimbed, ascending: ascending)
        default: self.init(keyPath: \HKSample.sortKeyUnknown, ascending: ascending)
        }
    }
}
