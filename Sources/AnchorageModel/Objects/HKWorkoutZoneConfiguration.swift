import Foundation

/// One zone of a workout zone configuration: its zero-based index, lowest
/// first, and its bounds (`nil`: unbounded on that side).
public struct HKWorkoutZone: Sendable, Hashable {
    /// The zone's zero-based index in its configuration, lowest first.
    public let index: Int
    /// The zone's lower bound (included); `nil` for the first zone.
    public let minimum: HKQuantity?
    /// The zone's upper bound (excluded); `nil` for the last zone.
    public let maximum: HKQuantity?

    package init(index: Int, minimum: HKQuantity?, maximum: HKQuantity?) {
        self.index = index
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Whether `quantity` falls in the zone: at or above
    /// the minimum, below the maximum.
    package func contains(_ quantity: HKQuantity) -> Bool {
        if let minimum, quantity.compare(minimum) == .orderedAscending { return false }
        if let maximum, quantity.compare(maximum) != .orderedAscending { return false }
        return true
    }
}

/// Heart rate or cycling power zones: contiguous, non-overlapping ranges
/// from the boundaries between them (WZ-1).
///
/// ```swift
/// let zones = try HKWorkoutZoneConfiguration(
///     quantityType: HKQuantityType(.heartRate),
///     zoneBoundaries: [120, 140, 160, 175].map { HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: $0) }
/// )
/// zones.zones.count   // 5: below 120, 120–140, 140–160, 160–175, 175 and above
/// ```
public struct HKWorkoutZoneConfiguration: Sendable, Hashable {
    /// Where a configuration came from.
    ///
    /// HealthKit documents three origins (the system, the person in Health
    /// Settings, an app) but names only `.app`, the source of the
    /// configurations apps make; Anchorage has only configurations apps
    /// make, so `.app` is its only case.
    public enum Source: Sendable, Hashable {
        /// An app made the configuration.
        case app
    }

    /// The quantity type the zones apply to: heart rate or cycling power.
    public var quantityType: HKQuantityType { type }
    /// The zones, lowest first.
    public let zones: [HKWorkoutZone]
    /// Where the configuration came from.
    public let source: Source

    private let type: HKQuantityType

    /// The most boundaries a configuration takes.
    package static let maximumBoundaries = 32

    /// A configuration whose zones are split at `zoneBoundaries`, the upper
    /// bounds of each zone but the last, lowest first: the first zone has no
    /// lower bound, the last no upper bound (one more zone than
    /// boundaries). Its source is ``Source/app``.
    ///
    /// - Throws: ``HKError`` `WZ-1` (`errorInvalidArgument`) when the type
    ///   is not heart rate or cycling power, there are no boundaries or more
    ///   than 32, or a boundary is in a unit of another kind, not finite, or
    ///   not above the one before.
    public init(quantityType: HKQuantityType, zoneBoundaries: [HKQuantity]) throws {
        try self.init(checking: quantityType, zoneBoundaries)
    }

    private init(checking quantityType: HKQuantityType, _ boundaries: [HKQuantity]) throws(HKError) {
        let supported: Set<HKQuantityTypeIdentifier> = [.heartRate, .cyclingPower]
        guard supported.contains(HKQuantityTypeIdentifier(rawValue: quantityType.identifier)) else {
            throw .invalid(
                "WZ-1",
                "workout zones exist for heart rate and cycling power, not \(quantityType.identifier)"
            )
        }
        guard !boundaries.isEmpty, boundaries.count <= Self.maximumBoundaries else {
            throw .invalid("WZ-1", "a zone configuration has 1 to \(Self.maximumBoundaries) boundaries")
        }
        for (index, boundary) in boundaries.enumerated() {
            guard quantityType.is(compatibleWith: boundary.unit) else {
                throw .invalid("WZ-1", "zone boundary \(index + 1) is not in a unit of \(quantityType.identifier)")
            }
            guard boundary.value.isFinite else {
                throw .invalid("WZ-1", "zone boundary \(index + 1) is not a finite amount")
            }
            if index > 0, boundaries[index - 1].compare(boundary) != .orderedAscending {
                throw .invalid("WZ-1", "zone boundary \(index + 1) is not above the one before it")
            }
        }
        var zones: [HKWorkoutZone] = []
        for index in 0...boundaries.count {
            zones.append(
                HKWorkoutZone(
                    index: index,
                    minimum: index == 0 ? nil : boundaries[index - 1],
                    maximum: index == boundaries.count ? nil : boundaries[index]
                )
            )
        }
        self.type = quantityType
        self.zones = zones
        self.source = .app
    }

    /// The zone `quantity` falls in.
    package func zone(of quantity: HKQuantity) -> HKWorkoutZone? {
        zones.first { $0.contains(quantity) }
    }
}

/// The time a workout spent in each zone of a configuration.
public struct HKWorkoutZoneGroup: Sendable, Hashable {
    /// The zones.
    public let configuration: HKWorkoutZoneConfiguration
    /// The time in each zone, in the zones' order.
    public let zoneDurations: [HKWorkoutZoneDuration]

    package init(configuration: HKWorkoutZoneConfiguration, zoneDurations: [HKWorkoutZoneDuration]) {
        self.configuration = configuration
        self.zoneDurations = zoneDurations
    }
}

/// The time spent in one zone.
public struct HKWorkoutZoneDuration: Sendable, Hashable {
    /// The zone.
    public let zone: HKWorkoutZone
    /// The seconds spent in it.
    public let duration: TimeInterval

    package init(zone: HKWorkoutZone, duration: TimeInterval) {
        self.zone = zone
        self.duration = duration
    }
}
