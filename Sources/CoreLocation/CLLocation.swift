// CoreLocation is not on Linux. HealthKit's workout routes are made of
// `CLLocation`s, so this module gives the part of CoreLocation that
// HealthKit's API names — the location, its coordinate and their unit
// aliases — under CoreLocation's own names: a port keeps `import
// CoreLocation` and its route code unchanged. Only what a location holds is
// here; there is no location manager.

public import Foundation

/// A latitude or longitude in degrees (WGS 84).
public typealias CLLocationDegrees = Double
/// A distance in meters.
public typealias CLLocationDistance = Double
/// An accuracy in meters; negative when it is not known.
public typealias CLLocationAccuracy = Double
/// A direction in degrees from true north; negative when it is not known.
public typealias CLLocationDirection = Double
/// The accuracy of a direction in degrees; negative when it is not known.
public typealias CLLocationDirectionAccuracy = Double
/// A speed in meters per second; negative when it is not known.
public typealias CLLocationSpeed = Double
/// The accuracy of a speed in meters per second; negative when it is not known.
public typealias CLLocationSpeedAccuracy = Double

/// A latitude and longitude.
///
/// ```swift
/// let harbour = CLLocationCoordinate2D(latitude: 61.2176, longitude: -149.8997)
/// ```
public struct CLLocationCoordinate2D: Sendable, Hashable {
    /// Degrees north of the equator (−90…90).
    public var latitude: CLLocationDegrees
    /// Degrees east of the prime meridian (−180…180).
    public var longitude: CLLocationDegrees

    /// The coordinate at 0° N, 0° E.
    public init() {
        self.init(latitude: 0, longitude: 0)
    }

    /// A coordinate.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Whether `coordinate` is a place on Earth: latitude within ±90°,
/// longitude within ±180°.
///
/// ```swift
/// CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 91, longitude: 0))   // false
/// ```
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90.0...90.0).contains(coordinate.latitude) && (-180.0...180.0).contains(coordinate.longitude)
}

/// A coordinate; the same as ``CLLocationCoordinate2D/init(latitude:longitude:)``.
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees,
    _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// An invalid coordinate, for "no location".
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// A place and when it was measured, with the measurement's accuracy, the
/// direction and the speed of travel: the points of a workout route.
///
/// ```swift
/// let point = CLLocation(coordinate: CLLocationCoordinate2D(latitude: 61.2176, longitude: -149.8997),
///                        altitude: 31, horizontalAccuracy: 5, verticalAccuracy: 3,
///                        course: 90, speed: 3.2, timestamp: Date())
/// ```
///
/// Locations are immutable; two are equal when every field is.
public final class CLLocation: Hashable, Sendable, CustomStringConvertible {
    /// Where, in degrees.
    public let coordinate: CLLocationCoordinate2D
    /// Meters above sea level.
    public let altitude: CLLocationDistance
    /// Meters above the WGS 84 ellipsoid; equal to ``altitude`` here, where
    /// no geoid model is applied.
    public var ellipsoidalAltitude: CLLocationDistance { altitude }
    /// The radius of uncertainty of ``coordinate`` in meters; negative when
    /// the coordinate is not valid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// The uncertainty of ``altitude`` in meters; negative when it is not valid.
    public let verticalAccuracy: CLLocationAccuracy
    /// The direction of travel in degrees from true north; negative when unknown.
    public let course: CLLocationDirection
    /// The uncertainty of ``course`` in degrees; negative when unknown.
    public let courseAccuracy: CLLocationDirectionAccuracy
    /// The speed in meters per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// The uncertainty of ``speed`` in meters per second; negative when unknown.
    public let speedAccuracy: CLLocationSpeedAccuracy
    /// When the location was measured.
    public let timestamp: Date

    /// A location at `latitude`, `longitude`, measured now, with an exact
    /// coordinate and nothing else known.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: 0,
            horizontalAccuracy: 0,
            verticalAccuracy: -1,
            timestamp: Date()
        )
    }

    /// A location without course or speed.
    public convenience init(
        coordinate: CLLocationCoordinate2D,
        altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy,
        timestamp: Date
    ) {
        self.init(
            coordinate: coordinate,
            altitude: altitude,
            horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy,
            course: -1,
            courseAccuracy: -1,
            speed: -1,
            speedAccuracy: -1,
            timestamp: timestamp
        )
    }

    /// A location with course and speed, their accuracies unknown.
    public convenience init(
        coordinate: CLLocationCoordinate2D,
        altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection,
        speed: CLLocationSpeed,
        timestamp: Date
    ) {
        self.init(
            coordinate: coordinate,
            altitude: altitude,
            horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy,
            course: course,
            courseAccuracy: -1,
            speed: speed,
            speedAccuracy: -1,
            timestamp: timestamp
        )
    }

    /// A location with every field given.
    public init(
        coordinate: CLLocationCoordinate2D,
        altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection,
        courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy,
        timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = hAccuracy
        self.verticalAccuracy = vAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// The great-circle distance to `location` in meters, on a sphere of
    /// Earth's mean radius (CoreLocation measures on the ellipsoid; the two
    /// differ by at most about 0.5 %).
    ///
    /// ```swift
    /// let meters = start.distance(from: finish)
    /// ```
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let lat1 = coordinate.latitude * radians
        let lat2 = location.coordinate.latitude * radians
        let dLat = lat2 - lat1
        let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    public var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m @ \(timestamp)"
    }

    public static func == (lhs: CLLocation, rhs: CLLocation) -> Bool {
        lhs.coordinate == rhs.coordinate && lhs.altitude.bitPattern == rhs.altitude.bitPattern
            && lhs.horizontalAccuracy.bitPattern == rhs.horizontalAccuracy.bitPattern
            && lhs.verticalAccuracy.bitPattern == rhs.verticalAccuracy.bitPattern
            && lhs.course.bitPattern == rhs.course.bitPattern
            && lhs.courseAccuracy.bitPattern == rhs.courseAccuracy.bitPattern
            && lhs.speed.bitPattern == rhs.speed.bitPattern
            && lhs.speedAccuracy.bitPattern == rhs.speedAccuracy.bitPattern && lhs.timestamp == rhs.timestamp
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(coordinate)
        hasher.combine(timestamp)
    }
}
