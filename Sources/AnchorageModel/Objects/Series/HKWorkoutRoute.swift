import CoreLocation
import Foundation

/// The path of a workout: a series of locations in time order (SERIES-1).
///
/// Build one with ``HKWorkoutRouteBuilder`` and read its locations with
/// ``HKWorkoutRouteQuery``:
///
/// ```swift
/// let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
/// try await builder.insertRouteData(locations)
/// let route = try await builder.finishRoute(with: run, metadata: nil)
/// ```
public final class HKWorkoutRoute: HKSeriesSample, @unchecked Sendable {
    /// The most locations one route may hold: 36 hours at one a second.
    public static let maximumLocations = 131_072

    /// The size of one stored location: ten doubles (docs/payload-format.md).
    package static let stride = 80

    package init(count: Int, points: SeriesPoints?, fields: consuming SampleFields) {
        super.init(sampleType: TypeCatalog.workoutRoute, count: count, points: points, fields: fields)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKWorkoutRoute(count: count, points: points, fields: fields)
    }

    /// The one checked door every route with its points is built through:
    /// locations in time order within the sample's interval, each a place
    /// on Earth with finite fields (SERIES-1).
    package static func make(points: SeriesPoints, _ fields: consuming SampleFields) throws(HKError) -> HKWorkoutRoute {
        try fields.checkInterval()
        try check(points, start: fields.start, end: fields.end)
        return HKWorkoutRoute(count: points.count, points: points, fields: fields)
    }

    /// One location's stored fields, for readers that make many without a
    /// `CLLocation` object each (the importer's GPX reader).
    package struct Location: Sendable {
        package var timestamp: Double
        package var latitude: Double
        package var longitude: Double
        package var altitude: Double
        package var horizontalAccuracy: Double
        package var verticalAccuracy: Double
        package var course: Double
        package var courseAccuracy: Double
        package var speed: Double
        package var speedAccuracy: Double

        package init(
            timestamp: Double,
            latitude: Double,
            longitude: Double,
            altitude: Double,
            horizontalAccuracy: Double,
            verticalAccuracy: Double,
            course: Double,
            courseAccuracy: Double,
            speed: Double,
            speedAccuracy: Double
        ) {
            self.timestamp = timestamp
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
            self.course = course
            self.courseAccuracy = courseAccuracy
            self.speed = speed
            self.speedAccuracy = speedAccuracy
        }

        package init(_ location: CLLocation) {
            self.init(
                timestamp: location.timestamp.timeIntervalSinceReferenceDate,
                latitude: location.coordinate.latitude,
                longitude: location.coordinate.longitude,
                altitude: location.altitude,
                horizontalAccuracy: location.horizontalAccuracy,
                verticalAccuracy: location.verticalAccuracy,
                course: location.course,
                courseAccuracy: location.courseAccuracy,
                speed: location.speed,
                speedAccuracy: location.speedAccuracy
            )
        }
    }

    /// The stored form of `locations`, in the order given.
    package static func points(_ locations: [Location]) -> SeriesPoints {
        SeriesPoints(stride: stride, count: locations.count) { writer, index in
            let location = locations[index]
            writer.double(location.timestamp)
            writer.double(location.latitude)
            writer.double(location.longitude)
            writer.double(location.altitude)
            writer.double(location.horizontalAccuracy)
            writer.double(location.verticalAccuracy)
            writer.double(location.course)
            writer.double(location.courseAccuracy)
            writer.double(location.speed)
            writer.double(location.speedAccuracy)
        }
    }

    /// The stored form of `locations`, in the order given.
    package static func points(_ locations: [CLLocation]) -> SeriesPoints {
        points(locations.map(Location.init))
    }

    /// The location at `index` of `points`.
    package static func location(_ points: SeriesPoints, at index: Int) -> CLLocation {
        CLLocation(
            coordinate: CLLocationCoordinate2D(
                latitude: points.double(index, field: 1),
                longitude: points.double(index, field: 2)
            ),
            altitude: points.double(index, field: 3),
            horizontalAccuracy: points.double(index, field: 4),
            verticalAccuracy: points.double(index, field: 5),
            course: points.double(index, field: 6),
            courseAccuracy: points.double(index, field: 7),
            speed: points.double(index, field: 8),
            speedAccuracy: points.double(index, field: 9),
            timestamp: Date(timeIntervalSinceReferenceDate: points.double(index, field: 0))
        )
    }

    /// The locations at `range` of `points`.
    package static func locations(_ points: SeriesPoints, in range: Range<Int>) -> [CLLocation] {
        range.map { location(points, at: $0) }
    }

    /// The indexes of the locations measured within `interval` (ends included).
    package static func range(of points: SeriesPoints, within interval: DateInterval) -> Range<Int> {
        let all = 0..<points.count
        let first = points.firstIndex(field: 0, atLeast: interval.start.timeIntervalSinceReferenceDate, in: all)
        let end = interval.end.timeIntervalSinceReferenceDate
        let last = points.firstIndex(field: 0, atLeast: end.nextUp, in: first..<points.count)
        return first..<last
    }

    /// SERIES-1: at least one location and at most ``maximumLocations``,
    /// every field finite, coordinates on Earth, timestamps not decreasing
    /// and within `start…end`.
    package static func check(_ points: SeriesPoints, start: Date, end: Date) throws(HKError) {
        guard points.stride == stride else {
            throw .invalid("PAYLOAD-2", "a route's locations are \(stride) bytes each")
        }
        guard points.count > 0 else { throw .invalid("SERIES-1", "a workout route needs at least one location") }
        guard points.count <= maximumLocations else {
            throw .invalid("SERIES-1", "a workout route may hold at most \(maximumLocations) locations")
        }
        let lower = start.timeIntervalSinceReferenceDate
        let upper = end.timeIntervalSinceReferenceDate
        var previous = -Double.infinity
        for index in 0..<points.count {
            for field in 0..<10 where !points.double(index, field: field).isFinite {
                throw .invalid("SERIES-1", "location \(index) of the route has a value that is not a finite number")
            }
            let coordinate = CLLocationCoordinate2D(
                latitude: points.double(index, field: 1),
                longitude: points.double(index, field: 2)
            )
            guard CLLocationCoordinate2DIsValid(coordinate) else {
                throw .invalid("SERIES-1", "location \(index) of the route is not a place on Earth")
            }
            let time = points.double(index, field: 0)
            guard time >= previous else {
                throw .invalid("SERIES-1", "location \(index) of the route is earlier than the one before it")
            }
            guard time >= lower, time <= upper else {
                throw .invalid("SERIES-1", "location \(index) of the route is outside the route's start and end dates")
            }
            previous = time
        }
    }
}
