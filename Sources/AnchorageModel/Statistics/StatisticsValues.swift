import Foundation

/// One statistics object's numbers, in the type's canonical unit, each
/// `nil` when its option was not asked for or nothing contributed (ST-3).
package struct StatisticsValues: Sendable, Equatable {
    /// The most recent contributing sample (ST-11).
    package struct MostRecent: Sendable, Equatable {
        package var value: Double
        package var start: Double
        package var end: Double

        package init(value: Double, start: Double, end: Double) {
            self.value = value
            self.start = start
            self.end = end
        }
    }

    package var sum: Double?
    package var average: Double?
    package var minimum: Double?
    package var maximum: Double?
    package var mostRecent: MostRecent?
    /// Seconds covered by the contributing samples, overlaps counted once.
    package var duration: Double?

    package init(
        sum: Double? = nil,
        average: Double? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        mostRecent: MostRecent? = nil,
        duration: Double? = nil
    ) {
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.duration = duration
    }

    package static let empty = StatisticsValues()
}
