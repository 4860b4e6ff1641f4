public import Anchorage
import Foundation

/// Routes as the documents map tools read: GPX 1.1 (as the Health app's
/// export writes it: one `trk` per route, `ele`, `time` and the `speed`,
/// `course`, `hAcc`, `vAcc` extensions) and GeoJSON (a `FeatureCollection`
/// with one `LineString` per route, `[longitude, latitude, altitude]`, the
/// times and the rest as per-point arrays in its properties).
///
/// Numbers are written in Swift's shortest exact form and times with as
/// many fractional digits as they need, so a route read back from either
/// document has the very values stored.
///
/// ```swift
/// let gpx = RouteDocument.gpx(try await SeriesReads.routes(ofWorkout: id, in: store))
/// ```
public enum RouteDocument {
    /// The routes as one GPX document.
    public static func gpx(_ tracks: [SeriesReads.Track]) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += #"<gpx version="1.1" creator="Anchorage" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        for track in tracks {
            text += " <trk>\n  <name>\(track.route.uuid.uuidString)</name>\n  <trkseg>\n"
            for location in track.locations {
                text += "   <trkpt lat=\"\(location.coordinate.latitude)\" lon=\"\(location.coordinate.longitude)\">"
                text += "<ele>\(location.altitude)</ele><time>\(ISO8601.format(location.timestamp))</time>"
                text += "<extensions><speed>\(location.speed)</speed><course>\(location.course)</course>"
                text += "<hAcc>\(location.horizontalAccuracy)</hAcc><vAcc>\(location.verticalAccuracy)</vAcc>"
                text += "</extensions></trkpt>\n"
            }
            text += "  </trkseg>\n </trk>\n"
        }
        text += "</gpx>\n"
        return text
    }

    /// The routes as one GeoJSON `FeatureCollection`.
    public static func geoJSON(_ tracks: [SeriesReads.Track]) throws -> [UInt8] {
        let collection = FeatureCollection(
            features: tracks.map { track in
                Feature(
                    id: track.route.uuid.uuidString,
                    geometry: LineString(
                        coordinates: track.locations.map {
                            [$0.coordinate.longitude, $0.coordinate.latitude, $0.altitude]
                        }
                    ),
                    properties: Properties(
                        startDate: ISO8601.format(track.route.startDate),
                        endDate: ISO8601.format(track.route.endDate),
                        times: track.locations.map { ISO8601.format($0.timestamp) },
                        speeds: track.locations.map(\.speed),
                        courses: track.locations.map(\.course),
                        horizontalAccuracies: track.locations.map(\.horizontalAccuracy),
                        verticalAccuracies: track.locations.map(\.verticalAccuracy)
                    )
                )
            }
        )
        return Array(try CanonicalJSON.encoder().encode(collection))
    }

    struct FeatureCollection: Encodable {
        var type = "FeatureCollection"
        var features: [Feature]
    }

    struct Feature: Encodable {
        var type = "Feature"
        var id: String
        var geometry: LineString
        var properties: Properties
    }

    struct LineString: Encodable {
        var type = "LineString"
        var coordinates: [[Double]]
    }

    struct Properties: Encodable {
        var startDate: String
        var endDate: String
        var times: [String]
        var speeds: [Double]
        var courses: [Double]
        var horizontalAccuracies: [Double]
        var verticalAccuracies: [Double]
    }
}

/// An electrocardiogram's voltages as CSV: a header, then one line per
/// measurement — its time since the recording's start in seconds and its
/// voltage on each lead in microvolts, as the Health app's export gives them.
///
/// ```text
/// seconds,appleWatchSimilarToLeadI µV
/// 0,-30.25
/// 0.001953125,-9.94
/// ```
public enum ElectrocardiogramCSV {
    /// The document.
    public static func csv(
        _ ecg: HKElectrocardiogram,
        _ measurements: [HKElectrocardiogram.VoltageMeasurement]
    ) -> String {
        let leads: [HKElectrocardiogram.Lead] = [.appleWatchSimilarToLeadI]
        var text = "seconds," + leads.map { "\(name($0)) µV" }.joined(separator: ",") + "\n"
        for measurement in measurements {
            text += "\(measurement.timeSinceSampleStart)"
            for lead in leads {
                text += ","
                if let volts = measurement.quantity(for: lead) {
                    text += "\(volts.doubleValue(for: .voltUnit(with: .micro)))"
                }
            }
            text += "\n"
        }
        return text
    }

    static func name(_ lead: HKElectrocardiogram.Lead) -> String {
        switch lead {
        case .appleWatchSimilarToLeadI: "appleWatchSimilarToLeadI"
        }
    }
}

/// A heartbeat series' beats as JSON.
///
/// ```json
/// {"uuid":"…","startDate":"2026-01-09T12:20:29Z","heartbeats":[{"timeSinceSeriesStart":1.12,"precededByGap":false}]}
/// ```
public enum HeartbeatDocument {
    struct Document: Encodable {
        var uuid: String
        var startDate: String
        var endDate: String
        var heartbeats: [Beat]
    }

    struct Beat: Encodable {
        var timeSinceSeriesStart: Double
        var precededByGap: Bool
    }

    /// The document.
    public static func json(
        _ series: HKHeartbeatSeriesSample,
        _ beats: [HKHeartbeatSeriesQueryDescriptor.Heartbeat]
    ) throws -> [UInt8] {
        Array(
            try CanonicalJSON.encoder().encode(
                Document(
                    uuid: series.uuid.uuidString,
                    startDate: ISO8601.format(series.startDate),
                    endDate: ISO8601.format(series.endDate),
                    heartbeats: beats.map {
                        Beat(timeSinceSeriesStart: $0.timeIntervalSinceStart, precededByGap: $0.precededByGap)
                    }
                )
            )
        )
    }
}
