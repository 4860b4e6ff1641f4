import Foundation

/// The quantities a quantity sample stands for when it was built as a
/// series (its ``HKQuantitySample/count`` may then be above one): each
/// quantity's interval and value, in the type's canonical unit, and the
/// aggregates HealthKit's discrete samples expose (SERIES-6).
///
/// The quantities are fixed-size records (start, end, value: three
/// little-endian doubles, reference-date seconds and canonical units), the
/// same bytes in memory, in the payload (kind 13) and on every peer. The
/// aggregates are stored beside them, so a sample listed without its
/// quantities still answers `minimumQuantity` and the rest.
///
/// ```swift
/// let series = QuantitySeries(quantities: [.init(start: 0, end: 60, value: 72), .init(start: 60, end: 120, value: 75)])
/// series.count         // 2
/// series.maximum       // 75
/// ```
package struct QuantitySeries: Sendable, Hashable {
    /// The most quantities one sample holds; a builder with more saves
    /// several samples.
    package static let maximumQuantities = 65_536
    /// The size of one stored quantity: start, end and value.
    package static let stride = 24

    /// One quantity: its interval in reference-date seconds and its value
    /// in the type's canonical unit.
    package struct Quantity: Sendable, Hashable {
        package var start: Double
        package var end: Double
        package var value: Double

        package init(start: Double, end: Double, value: Double) {
            self.start = start
            self.end = end
            self.value = value
        }
    }

    /// How many quantities the series holds.
    package let count: Int
    package let minimum: Double
    package let maximum: Double
    /// The value and interval of the quantity that starts last.
    package let mostRecent: Quantity
    /// The quantities, in start order, when this object carries them.
    package let points: SeriesPoints?

    /// A series read without its quantities, from its stored aggregates.
    package init(count: Int, minimum: Double, maximum: Double, mostRecent: Quantity, points: SeriesPoints?) {
        self.count = count
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.points = points
    }

    /// The series of `quantities`, which are in start order (at least one).
    package init(quantities: [Quantity]) {
        precondition(!quantities.isEmpty, "a quantity series holds at least one quantity")
        let points = SeriesPoints(stride: Self.stride, count: quantities.count) { writer, index in
            writer.double(quantities[index].start)
            writer.double(quantities[index].end)
            writer.double(quantities[index].value)
        }
        self.init(points: points)
    }

    /// The series of stored quantities, its aggregates computed from them.
    package init(points: SeriesPoints) {
        var minimum = Double.infinity
        var maximum = -Double.infinity
        for index in 0..<points.count {
            let value = points.double(index, field: 2)
            minimum = min(minimum, value)
            maximum = max(maximum, value)
        }
        self.init(
            count: points.count,
            minimum: minimum,
            maximum: maximum,
            mostRecent: Self.quantity(points, at: points.count - 1),
            points: points
        )
    }

    /// The quantity at `index` of `points`.
    package static func quantity(_ points: SeriesPoints, at index: Int) -> Quantity {
        Quantity(
            start: points.double(index, field: 0),
            end: points.double(index, field: 1),
            value: points.double(index, field: 2)
        )
    }

    /// The quantities, in start order; empty when the object lacks them.
    package var quantities: [Quantity] {
        guard let points else { return [] }
        return (0..<points.count).map { Self.quantity(points, at: $0) }
    }

    /// The value a sample of the series shows as its ``HKQuantitySample/quantity``:
    /// the sum for a cumulative type, the arithmetic mean for a discrete
    /// one (HealthKit: "sum for cumulative, average for discrete").
    package static func aggregate(of points: SeriesPoints, cumulative: Bool) -> Double {
        var sum = 0.0
        for index in 0..<points.count { sum += points.double(index, field: 2) }
        return cumulative ? sum : sum / Double(points.count)
    }

    /// SERIES-6: one to ``maximumQuantities`` quantities, each with a finite
    /// value, an interval inside `start ... end`, and a start later than the
    /// one before.
    package static func check(_ points: SeriesPoints, start: Date, end: Date) throws(HKError) {
        guard points.stride == stride else {
            throw .invalid("PAYLOAD-2", "a quantity series' quantities are \(stride) bytes each")
        }
        guard points.count > 0 else { throw .invalid("SERIES-6", "a quantity series needs at least one quantity") }
        guard points.count <= maximumQuantities else {
            throw .invalid("SERIES-6", "a quantity series may hold at most \(maximumQuantities) quantities")
        }
        let lower = start.timeIntervalSinceReferenceDate
        let upper = end.timeIntervalSinceReferenceDate
        var previous = -Double.infinity
        for index in 0..<points.count {
            let quantity = Self.quantity(points, at: index)
            guard quantity.value.isFinite else {
                throw .invalid("SERIES-6", "quantity \(index) of the series is not a finite number")
            }
            guard quantity.start.isFinite, quantity.end.isFinite, quantity.start <= quantity.end,
                quantity.start >= lower, quantity.end <= upper
            else {
                throw .invalid("SERIES-6", "quantity \(index) of the series does not lie within the sample's dates")
            }
            guard quantity.start > previous else {
                throw .invalid("SERIES-6", "quantity \(index) of the series does not start after the one before it")
            }
            previous = quantity.start
        }
    }
}
