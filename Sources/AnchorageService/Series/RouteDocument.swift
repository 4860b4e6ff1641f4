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
/// let routes = try await SeriesReads.routes(ofWorkout: id, in: store)
/// try await RouteDocument.write(routes, as: .gpx, from: store) { chunk in try await body.write(chunk) }
/// ```
public enum RouteDocument {
    /// A document's format.
    public enum Format: String, Sendable {
        case gpx, geojson
    }

    /// Writes the routes, read one at a time from `store`, as one document,
    /// in chunks through `emit`.
    public static func write(
        _ routes: [HKWorkoutRoute],
        as format: Format,
        from store: HKHealthStore,
        to emit: SeriesDocumentWriter.Emit
    ) async throws {
        var out = SeriesDocumentWriter()
        switch format {
        case .gpx: try await gpx(routes, store, &out, emit)
        case .geojson: try await geoJSON(routes, store, &out, emit)
        }
        try await out.finish(emit)
    }

    /// One route's locations, in time order: the most a document holds at once.
    private static func locations(_ route: HKWorkoutRoute, _ store: HKHealthStore) async throws -> [CLLocation] {
        var locations: [CLLocation] = []
        locations.reserveCapacity(route.count)
        for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: store) {
            locations.append(location)
        }
        return locations
    }

    private static func gpx(
        _ routes: [HKWorkoutRoute],
        _ store: HKHealthStore,
        _ out: inout SeriesDocumentWriter,
        _ emit: SeriesDocumentWriter.Emit
    ) async throws {
        try await out.append(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n", emit)
        try await out.append(
            #"<gpx version="1.1" creator="Anchorage" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n",
            emit
        )
        for route in routes {
            try await out.append(" <trk>\n  <name>\(route.uuid.uuidString)</name>\n  <trkseg>\n", emit)
            for location in try await locations(route, store) {
                var text = "   <trkpt lat=\"\(location.coordinate.latitude)\" lon=\"\(location.coordinate.longitude)\">"
                text += "<ele>\(location.altitude)</ele><time>\(ISO8601.format(location.timestamp))</time>"
                text += "<extensions><speed>\(location.speed)</speed><course>\(location.course)</course>"
                text += "<hAcc>\(location.horizontalAccuracy)</hAcc><vAcc>\(location.verticalAccuracy)</vAcc>"
                text += "</extensions></trkpt>\n"
                try await out.append(text, emit)
            }
            try await out.append("  </trkseg>\n </trk>\n", emit)
        }
        try await out.append("</gpx>\n", emit)
    }

    /// A `FeatureCollection` with its keys in sorted order, as the API's
    /// canonical JSON writes objects; each array is written in pieces.
    private static func geoJSON(
        _ routes: [HKWorkoutRoute],
        _ store: HKHealthStore,
        _ out: inout SeriesDocumentWriter,
        _ emit: SeriesDocumentWriter.Emit
    ) async throws {
        let encoder = CanonicalJSON.encoder()
        func json(_ value: some Encodable) throws -> Data { try encoder.encode(value) }
        /// `values` as a JSON array, encoded 4,096 at a time.
        func array<T: Encodable>(_ values: [T], _ out: inout SeriesDocumentWriter) async throws {
            try await out.append("[", emit)
            var start = 0
            while start < values.count {
                let end = min(start + 4_096, values.count)
                let piece = try json(Array(values[start..<end]))
                if start > 0 { try await out.append(",", emit) }
                try await out.append(piece.dropFirst().dropLast(), emit)
                start = end
            }
            try await out.append("]", emit)
        }
        try await out.append(#"{"features":["#, emit)
        for (index, route) in routes.enumerated() {
            let locations = try await locations(route, store)
            try await out.append((index > 0 ? "," : "") + #"{"geometry":{"coordinates":"#, emit)
            try await array(locations.map { [$0.coordinate.longitude, $0.coordinate.latitude, $0.altitude] }, &out)
            try await out.append(#","type":"LineString"},"id":"#, emit)
            try await out.append(try json(route.uuid.uuidString), emit)
            try await out.append(#","properties":{"courses":"#, emit)
            try await array(locations.map(\.course), &out)
            try await out.append(#","endDate":"#, emit)
            try await out.append(try json(ISO8601.format(route.endDate)), emit)
            try await out.append(#","horizontalAccuracies":"#, emit)
            try await array(locations.map(\.horizontalAccuracy), &out)
            try await out.append(#","speeds":"#, emit)
            try await array(locations.map(\.speed), &out)
            try await out.append(#","startDate":"#, emit)
            try await out.append(try json(ISO8601.format(route.startDate)), emit)
            try await out.append(#","times":"#, emit)
            try await array(locations.map { ISO8601.format($0.timestamp) }, &out)
            try await out.append(#","verticalAccuracies":"#, emit)
            try await array(locations.map(\.verticalAccuracy), &out)
            try await out.append(#"},"type":"Feature"}"#, emit)
        }
        try await out.append(#"],"type":"FeatureCollection"}"#, emit)
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
    /// Writes the document, reading the voltages as it goes, in chunks
    /// through `emit`.
    public static func write(
        _ ecg: HKElectrocardiogram,
        from store: HKHealthStore,
        to emit: SeriesDocumentWriter.Emit
    ) async throws {
        var out = SeriesDocumentWriter()
        let leads: [HKElectrocardiogram.Lead] = [.appleWatchSimilarToLeadI]
        try await out.append("seconds," + leads.map { "\(name($0)) µV" }.joined(separator: ",") + "\n", emit)
        for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {
            var text = "\(measurement.timeSinceSampleStart)"
            for lead in leads {
                text += ","
                if let volts = measurement.quantity(for: lead) {
                    text += "\(volts.doubleValue(for: .voltUnit(with: .micro)))"
                }
            }
            try await out.append(text + "\n", emit)
        }
        try await out.finish(emit)
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
    struct Beat: Encodable {
        var precededByGap: Bool
        var timeSinceSeriesStart: Double
    }

    /// Writes the document, reading the beats as it goes, in chunks
    /// through `emit`; keys in sorted order, as the API's canonical JSON.
    public static func write(
        _ series: HKHeartbeatSeriesSample,
        from store: HKHealthStore,
        to emit: SeriesDocumentWriter.Emit
    ) async throws {
        let encoder = CanonicalJSON.encoder()
        var out = SeriesDocumentWriter()
        try await out.append(#"{"endDate":"#, emit)
        try await out.append(try encoder.encode(ISO8601.format(series.endDate)), emit)
        try await out.append(#","heartbeats":["#, emit)
        var first = true
        for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {
            if !first { try await out.append(",", emit) }
            first = false
            let encoded = try encoder.encode(
                Beat(precededByGap: beat.precededByGap, timeSinceSeriesStart: beat.timeIntervalSinceStart)
            )
            try await out.append(encoded, emit)
        }
        try await out.append(#"],"startDate":"#, emit)
        try await out.append(try encoder.encode(ISO8601.format(series.startDate)), emit)
        try await out.append(#","uuid":"#, emit)
        try await out.append(try encoder.encode(series.uuid.uuidString), emit)
        try await out.append("}", emit)
        try await out.finish(emit)
    }
}
