import Foundation

extension HKSampleType {
    /// Whether samples of this type have a longest allowed time between
    /// their start and end dates: `false` for every type here.
    ///
    /// Apple's documentation gives these properties but not which types
    /// HealthKit restricts, so Anchorage restricts none. A sample of any span
    /// costs about the same to write and to store (a sample over a day is
    /// kept out of the statistics views' rows, docs/store-format.md).
    ///
    /// ```swift
    /// if type.isMaximumDurationRestricted { end = min(end, start + type.maximumAllowedDuration) }
    /// ```
    public var isMaximumDurationRestricted: Bool { false }

    /// The longest allowed span of a sample of this type, in seconds;
    /// unbounded (`.infinity`) for every type here, where HealthKit raises an
    /// exception for a type without a restriction.
    public var maximumAllowedDuration: TimeInterval { .infinity }

    /// Whether samples of this type have a shortest allowed span: `false`
    /// for every type here.
    public var isMinimumDurationRestricted: Bool { false }

    /// The shortest allowed span of a sample of this type, in seconds: 0.
    public var minimumAllowedDuration: TimeInterval { 0 }
}
