import CoreLocation
import Foundation

/// A route's location in JSON (docs/json-format.md): a place and time, with
/// the optional fields CoreLocation gives (unknown ones −1).
///
/// ```json
/// {"timestamp": "2026-09-16T18:15:01Z", "latitude": 61.2176, "longitude": -149.8997, "altitude": 31.5,
///  "horizontalAccuracy": 4.2, "verticalAccuracy": 3.1, "course": 92.5, "speed": 3.1}
/// ```
package struct LocationJSON: Codable, Sendable {
    package var location: CLLocation

    package init(_ location: CLLocation) {
        self.location = location
    }

    enum CodingKeys: String, CodingKey {
        case timestamp, latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy
        case course, courseAccuracy, speed, speedAccuracy
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601.format(location.timestamp), forKey: .timestamp)
        try container.encode(location.coordinate.latitude, forKey: .latitude)
        try container.encode(location.coordinate.longitude, forKey: .longitude)
        try container.encode(location.altitude, forKey: .altitude)
        try container.encode(location.horizontalAccuracy, forKey: .horizontalAccuracy)
        try container.encode(location.verticalAccuracy, forKey: .verticalAccuracy)
        try container.encode(location.course, forKey: .course)
        try container.encode(location.courseAccuracy, forKey: .courseAccuracy)
        try container.encode(location.speed, forKey: .speed)
        try container.encode(location.speedAccuracy, forKey: .speedAccuracy)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys, _ fallback: Double) throws -> Double {
            try container.decodeIfPresent(Double.self, forKey: key) ?? fallback
        }
        location = CLLocation(
            coordinate: CLLocationCoordinate2D(
                latitude: try container.decode(Double.self, forKey: .latitude),
                longitude: try container.decode(Double.self, forKey: .longitude)
            ),
            altitude: try optional(.altitude, 0),
            horizontalAccuracy: try optional(.horizontalAccuracy, 0),
            verticalAccuracy: try optional(.verticalAccuracy, -1),
            course: try optional(.course, -1),
            courseAccuracy: try optional(.courseAccuracy, -1),
            speed: try optional(.speed, -1),
            speedAccuracy: try optional(.speedAccuracy, -1),
            timestamp: try JSONDates.decode(container, .timestamp)
        )
    }
}

/// One heartbeat in JSON: seconds since the series' start and whether a
/// gap in measurement came before it.
///
/// ```json
/// {"timeSinceSeriesStart": 0.81, "precededByGap": false}
/// ```
package struct BeatJSON: Codable, Sendable {
    package var timeSinceSeriesStart: Double
    package var precededByGap: Bool

    package init(_ beat: HKHeartbeatSeriesSample.Beat) {
        timeSinceSeriesStart = beat.timeSinceSeriesStart
        precededByGap = beat.precededByGap
    }

    package var beat: HKHeartbeatSeriesSample.Beat {
        HKHeartbeatSeriesSample.Beat(timeSinceSeriesStart: timeSinceSeriesStart, precededByGap: precededByGap)
    }
}

extension HealthObject {
    /// How many points a series in JSON input may list before its rules
    /// are checked: the larger of the kinds' limits.
    package static let maximumPoints = max(
        HKWorkoutRoute.maximumLocations,
        HKHeartbeatSeriesSample.maximumBeats,
        HKElectrocardiogram.maximumMeasurements
    )

    /// Writes a series sample's count and, when the object carries them,
    /// its points.
    package static func encodeSeries(
        _ series: HKSeriesSample,
        into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        try container.encode(series.count, forKey: .count)
        guard let points = series.points else { return }
        switch series {
        case is HKWorkoutRoute:
            try container.encode(
                HKWorkoutRoute.locations(points, in: 0..<points.count).map(LocationJSON.init),
                forKey: .locations
            )
        case is HKHeartbeatSeriesSample:
            try container.encode(
                (0..<points.count).map { BeatJSON(HKHeartbeatSeriesSample.beat(points, at: $0)) },
                forKey: .heartbeats
            )
        default:
            break
        }
    }

    /// Reads a route: its locations are required, in time order.
    package static func decodeRoute(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKWorkoutRoute {
        let locations = try container.decode(BoundedArray<LocationJSON>.self, forKey: .locations).elements
        return try HKWorkoutRoute.make(points: HKWorkoutRoute.points(locations.map(\.location)), fields)
    }

    /// Reads a heartbeat series: its beats are required.
    package static func decodeHeartbeats(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKHeartbeatSeriesSample {
        let beats = try container.decode(BoundedArray<BeatJSON>.self, forKey: .heartbeats).elements
        return try HKHeartbeatSeriesSample.make(points: HKHeartbeatSeriesSample.points(beats.map(\.beat)), fields)
    }
}

/// A JSON array read element by element that stops with an error past
/// ``HealthObject/maximumPoints`` elements, before holding more.
package struct BoundedArray<Element: Codable & Sendable>: Codable, Sendable {
    package var elements: [Element] = []

    package init(_ elements: [Element]) {
        self.elements = elements
    }

    package func encode(to encoder: any Encoder) throws {
        try elements.encode(to: encoder)
    }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            guard elements.count < HealthObject.maximumPoints else {
                throw HKError.invalid("PAYLOAD-3", "a series may list at most \(HealthObject.maximumPoints) points")
            }
            elements.append(try container.decode(Element.self))
        }
    }
}

/// One lead's voltages in an electrocardiogram's JSON form, in volts.
///
/// ```json
/// {"lead": 1, "volts": [0.000012, 0.000015]}
/// ```
package struct LeadJSON: Codable, Sendable {
    package var lead: Int
    package var volts: BoundedArray<Double>

    package init(lead: Int, volts: [Double]) {
        self.lead = lead
        self.volts = BoundedArray(volts)
    }
}

extension HealthObject {
    /// Writes an electrocardiogram's fields and, when the object carries
    /// them, its voltages.
    package static func encodeElectrocardiogram(
        _ ecg: HKElectrocardiogram,
        into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        try container.encode(ecg.classification.rawValue, forKey: .classification)
        try container.encode(ecg.symptomsStatus.rawValue, forKey: .symptomsStatus)
        try container.encodeIfPresent(ecg.averageHeartRate, forKey: .averageHeartRate)
        try container.encodeIfPresent(ecg.samplingFrequency, forKey: .samplingFrequency)
        try container.encode(ecg.numberOfVoltageMeasurements, forKey: .count)
        guard let points = ecg.points else { return }
        let leads = ecg.leads.enumerated().map { position, lead in
            LeadJSON(lead: lead.rawValue, volts: (0..<points.count).map { points.double($0, field: position) })
        }
        try container.encode(leads, forKey: .voltages)
    }

    /// Reads an electrocardiogram: its voltages are required (an empty
    /// list for a recording without any).
    package static func decodeElectrocardiogram(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKElectrocardiogram {
        let classificationCode = try container.decode(Int.self, forKey: .classification)
        let symptomsCode = try container.decode(Int.self, forKey: .symptomsStatus)
        guard let classification = HKElectrocardiogram.Classification(rawValue: classificationCode),
            let symptoms = HKElectrocardiogram.SymptomsStatus(rawValue: symptomsCode)
        else {
            throw HKError.invalid("ECG-1", "the electrocardiogram's classification or symptoms status is unknown")
        }
        let leads = try container.decode([LeadJSON].self, forKey: .voltages)
        guard leads.count <= 16 else { throw HKError.invalid("ECG-1", "an electrocardiogram has at most 16 leads") }
        var voltages: [HKElectrocardiogram.Lead: [Double]] = [:]
        for item in leads {
            guard let lead = HKElectrocardiogram.Lead(rawValue: item.lead), voltages[lead] == nil else {
                throw HKError.invalid("ECG-1", "the electrocardiogram names an unknown lead or one lead twice")
            }
            voltages[lead] = item.volts.elements
        }
        return try HKElectrocardiogram.stored(
            start: fields.start,
            end: fields.end,
            classification: classification,
            symptomsStatus: symptoms,
            averageHeartRate: try container.decodeIfPresent(HKQuantity.self, forKey: .averageHeartRate),
            samplingFrequency: try container.decodeIfPresent(HKQuantity.self, forKey: .samplingFrequency),
            voltages: voltages,
            uuid: fields.uuid,
            sourceRevision: fields.sourceRevision,
            device: fields.device,
            metadata: fields.metadata.values
        )
    }
}
