public import Anchorage
import Foundation

/// What the HTTP API and the command line read of series data: a
/// workout's routes, an electrocardiogram, a heartbeat series — the samples,
/// whose points the documents (``RouteDocument``, ``ElectrocardiogramCSV``,
/// ``HeartbeatDocument``) read one series at a time as they write. One use
/// case, several front ends.
///
/// ```swift
/// let routes = try await SeriesReads.routes(ofWorkout: workoutID, in: store)
/// try await RouteDocument.write(routes, as: .gpx, from: store) { chunk in print(chunk.count) }
/// ```
public enum SeriesReads {
    /// Why a read found nothing.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The routes associated with the workout `workout`, oldest first.
    ///
    /// - Throws: ``NotFound`` when the store holds no such workout the
    ///   caller may read; the store's ``HKError``s.
    public static func routes(ofWorkout workout: UUID, in store: HKHealthStore) async throws -> [HKWorkoutRoute] {
        let workouts = try await HKSampleQueryDescriptor(
            predicates: [.workout(HKQuery.predicateForObject(with: workout))],
            sortDescriptors: []
        ).result(for: store)
        guard let found = workouts.first else { throw NotFound(description: "no workout \(workout.uuidString)") }
        return try await HKSampleQueryDescriptor(
            predicates: [.workoutRoute(HKQuery.predicateForObjects(from: found))],
            sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
    }

    /// The electrocardiogram `id`.
    public static func electrocardiogram(_ id: UUID, in store: HKHealthStore) async throws -> HKElectrocardiogram {
        let found = try await HKSampleQueryDescriptor(
            predicates: [.electrocardiogram(HKQuery.predicateForObject(with: id))],
            sortDescriptors: []
        ).result(for: store)
        guard let ecg = found.first else { throw NotFound(description: "no electrocardiogram \(id.uuidString)") }
        return ecg
    }

    /// The heartbeat series `id`.
    public static func heartbeats(_ id: UUID, in store: HKHealthStore) async throws -> HKHeartbeatSeriesSample {
        let found = try await HKSampleQueryDescriptor(
            predicates: [.heartbeatSeries(HKQuery.predicateForObject(with: id))],
            sortDescriptors: []
        ).result(for: store)
        guard let series = found.first else { throw NotFound(description: "no heartbeat series \(id.uuidString)") }
        return series
    }
}
