public import Anchorage
import Foundation

/// What the HTTP API and the command line read of series data: a
/// workout's routes with their locations, an electrocardiogram's voltages,
/// a heartbeat series' beats. One use case, several front ends.
///
/// ```swift
/// let tracks = try await SeriesReads.routes(ofWorkout: workoutID, in: store)
/// let gpx = RouteDocument.gpx(tracks)
/// ```
public enum SeriesReads {
    /// One route and its locations, in time order.
    public struct Track: Sendable {
        public let route: HKWorkoutRoute
        public let locations: [CLLocation]
    }

    /// Why a read found nothing.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The routes associated with the workout `workout`, oldest first,
    /// each with its locations.
    ///
    /// - Throws: ``NotFound`` when the store holds no such workout the
    ///   caller may read; the store's ``HKError``s.
    public static func routes(ofWorkout workout: UUID, in store: HKHealthStore) async throws -> [Track] {
        let workouts = try await HKSampleQueryDescriptor(
            predicates: [.workout(HKQuery.predicateForObject(with: workout))],
            sortDescriptors: []
        ).result(for: store)
        guard let found = workouts.first else { throw NotFound(description: "no workout \(workout.uuidString)") }
        let routes = try await HKSampleQueryDescriptor(
            predicates: [.workoutRoute(HKQuery.predicateForObjects(from: found))],
            sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
        var tracks: [Track] = []
        for route in routes {
            var locations: [CLLocation] = []
            locations.reserveCapacity(route.count)
            for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: store) {
                locations.append(location)
            }
            tracks.append(Track(route: route, locations: locations))
        }
        return tracks
    }

    /// The electrocardiogram `id` and its measurements, in time order.
    public static func electrocardiogram(
        _ id: UUID,
        in store: HKHealthStore
    ) async throws -> (HKElectrocardiogram, [HKElectrocardiogram.VoltageMeasurement]) {
        let found = try await HKSampleQueryDescriptor(
            predicates: [.electrocardiogram(HKQuery.predicateForObject(with: id))],
            sortDescriptors: []
        ).result(for: store)
        guard let ecg = found.first else { throw NotFound(description: "no electrocardiogram \(id.uuidString)") }
        var measurements: [HKElectrocardiogram.VoltageMeasurement] = []
        measurements.reserveCapacity(ecg.numberOfVoltageMeasurements)
        for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {
            measurements.append(measurement)
        }
        return (ecg, measurements)
    }

    /// The heartbeat series `id` and its beats, in time order.
    public static func heartbeats(
        _ id: UUID,
        in store: HKHealthStore
    ) async throws -> (HKHeartbeatSeriesSample, [HKHeartbeatSeriesQueryDescriptor.Heartbeat]) {
        let found = try await HKSampleQueryDescriptor(
            predicates: [.heartbeatSeries(HKQuery.predicateForObject(with: id))],
            sortDescriptors: []
        ).result(for: store)
        guard let series = found.first else { throw NotFound(description: "no heartbeat series \(id.uuidString)") }
        var beats: [HKHeartbeatSeriesQueryDescriptor.Heartbeat] = []
        beats.reserveCapacity(series.count)
        for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) { beats.append(beat) }
        return (series, beats)
    }
}
