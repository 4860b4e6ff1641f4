/// What a statistics query computes (ST-1..4).
///
/// ```swift
/// let options: HKStatisticsOptions = [.cumulativeSum, .separateBySource]
/// ```
///
/// Discrete options (`discreteAverage`, `discreteMin`, `discreteMax`) are
/// for discrete types, `cumulativeSum` for cumulative ones; `mostRecent`,
/// `duration` and `separateBySource` go with any type. Where HealthKit
/// stops the program on a mismatch, Anchorage reports `errorInvalidArgument`
/// through the query's handler instead.
public struct HKStatisticsOptions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Per-source values besides the merged ones (ST-7..9).
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    /// The average: arithmetic, time-weighted or sound-energy, by the type's style (ST-14).
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    /// The smallest value (ST-13).
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    /// The largest value (ST-13).
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    /// The sum, prorated by time and merged across sources (ST-12, ST-16, ST-24).
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    /// The most recent sample's value and interval (ST-11).
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// The name before iOS 13.
    @available(*, deprecated, renamed: "mostRecent")
    public static let discreteMostRecent = mostRecent
    /// The time covered by the samples, overlaps counted once (ST-10).
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    private static let discreteOnly: HKStatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
    private static let known: HKStatisticsOptions = [
        .separateBySource, .discreteAverage, .discreteMin, .discreteMax, .cumulativeSum, .mostRecent, .duration,
    ]

    /// Checks that these options suit `type` (ST-1, ST-4).
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` (`ST-1`) for a discrete
    ///   option on a cumulative type, `cumulativeSum` on a discrete one, or
    ///   an unknown bit.
    ///
    /// ```swift
    /// try HKStatisticsOptions.cumulativeSum.validate(for: HKQuantityType(.heartRate))   // throws ST-1
    /// ```
    public func validate(for type: HKQuantityType) throws(HKError) {
        guard isSubset(of: Self.known) else {
            throw .invalid("ST-1", "statistics option bits \(rawValue & ~Self.known.rawValue) are unknown")
        }
        guard unsuited(to: type).isEmpty else {
            throw type.aggregationStyle == .cumulative
                ? .invalid(
                    "ST-1",
                    "\(type.identifier) is cumulative: discreteAverage, discreteMin and discreteMax do not apply; "
                        + "use cumulativeSum"
                )
                : .invalid(
                    "ST-1",
                    "\(type.identifier) is discrete: cumulativeSum does not apply; "
                        + "use discreteAverage, discreteMin or discreteMax"
                )
        }
    }

    /// The options among these that do not suit `type` (ST-1): the discrete
    /// ones on a cumulative type, `cumulativeSum` on a discrete one; empty
    /// when they all do. Front ends word the refusal in their own names.
    ///
    /// ```swift
    /// [.discreteMin, .mostRecent].unsuited(to: HKQuantityType(.stepCount))   // .discreteMin
    /// ```
    public func unsuited(to type: HKQuantityType) -> HKStatisticsOptions {
        intersection(type.aggregationStyle == .cumulative ? Self.discreteOnly : .cumulativeSum)
    }

    /// The options of `type`'s own style: `cumulativeSum` for a cumulative
    /// type, the discrete ones for a discrete type (`mostRecent`, `duration`
    /// and `separateBySource` go with any type).
    public static func suited(to type: HKQuantityType) -> HKStatisticsOptions {
        type.aggregationStyle == .cumulative ? .cumulativeSum : discreteOnly
    }
}
