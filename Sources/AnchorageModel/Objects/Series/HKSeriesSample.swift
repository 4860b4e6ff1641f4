/// A sample whose value is a series of points: a workout route's
/// locations or a heartbeat series' beats.
///
/// The points are not properties of the sample: read them with the kind's
/// query (``HKWorkoutRouteQuery``, ``HKHeartbeatSeriesQuery``), which
/// delivers them in batches. A sample read from a store carries only its
/// ``count``.
///
/// ```swift
/// let routes = try await HKSampleQueryDescriptor(predicates: [.workoutRoute()], sortDescriptors: []).result(for: store)
/// print(routes.first?.count ?? 0)     // locations in the first route
/// ```
public class HKSeriesSample: HKSample, @unchecked Sendable {
    /// How many points the series holds.
    public let count: Int
    /// The points, when this object carries them (also as
    /// ``HKSample/seriesPoints``): made by a builder or
    /// decoded for replication and export. `nil` on samples a query read,
    /// whose points stay in the store until a series query asks.
    package let points: SeriesPoints?

    package override var seriesPoints: SeriesPoints? { points }
    package override var lacksSeriesPoints: Bool { points == nil }

    package init(sampleType: HKSampleType, count: Int, points: SeriesPoints?, fields: consuming SampleFields) {
        self.count = count
        self.points = points
        super.init(sampleType: sampleType, fields: fields)
    }
}
