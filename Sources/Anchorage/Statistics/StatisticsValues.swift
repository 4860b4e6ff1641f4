import Foundation

/// One statistics object's numbers, in the type's canonical unit, each
/// `nil` when its option was not asked for or nothing contributed (ST-3).
struct StatisticsValues: Sendable, Equatable {
    /// The most recent contributing sample (ST-11).
    struct MostRecent: Sendable, Equatable {
        var value: Double
        var start: Double
        var end: Double
    }

    var sum: Double?
    var average: Double?
    var minimum: Double?
    var maximum: Double?
    var mostRecent: MostRecent?
    /// Seconds covered by the contributing samples, overlaps counted once.
    var duration: Double?

    static let empty = StatisticsValues()
}
