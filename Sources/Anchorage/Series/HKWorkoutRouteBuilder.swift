public import AnchorageModel
import Foundation

/// Collects a workout's locations and saves them as an ``HKWorkoutRoute``
/// associated with the workout.
///
/// ```swift
/// let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
/// try await builder.insertRouteData(firstLocations)
/// try await builder.insertRouteData(moreLocations)
/// let route = try await builder.finishRoute(with: run, metadata: nil)
/// ```
///
/// Locations may come in any order and in any number of calls; the route
/// holds them in time order (SERIES-1) and spans the first to the last.
public final class HKWorkoutRouteBuilder: HKSeriesBuilder, @unchecked Sendable {
    /// A builder whose route will be saved to `healthStore`, from `device`.
    public init(healthStore: HKHealthStore, device: HKDevice?) {
        super.init(store: healthStore, device: device)
    }

    /// Adds locations to the route.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument`: SERIES-1 for a location
    ///   that is not a place on Earth or has a value that is not finite, or
    ///   one past ``HKWorkoutRoute/maximumLocations``; SERIES-5 once the
    ///   builder finished or was discarded. Nothing is added then.
    public func insertRouteData(_ routeData: [CLLocation]) async throws {
        try insertChecked(routeData)
    }

    /// Adds locations to the route and calls `completion` with the outcome.
    public func insertRouteData(
        _ routeData: [CLLocation],
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let locations = UncheckedBox(routeData)
        store.complete(completion) { try self.insertChecked(locations.value) }
    }

    /// Adds metadata to the route; later values replace earlier ones.
    public func addMetadata(_ metadata: [String: Any]) async throws {
        try addCheckedMetadata(metadata)
    }

    /// Adds metadata to the route and calls `completion` with the outcome.
    public func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let box = UncheckedBox(metadata)
        store.complete(completion) { try self.addCheckedMetadata(box.value) }
    }

    /// Saves the route with `metadata` added and associates it with
    /// `workout`, in one write: the route is saved and linked, or neither.
    ///
    /// - Throws: ``HKError``: `errorInvalidArgument` SERIES-1 when no
    ///   location was added; the save's errors (authorization to share
    ///   workout routes, a workout the store does not hold…). The builder
    ///   keeps its locations after a failed finish, so it can be retried.
    public func finishRoute(with workout: HKWorkout, metadata: [String: Any]?) async throws -> HKWorkoutRoute {
        let extra = try HKMetadata(validating: metadata)
        let taken = try takeForFinishing()
        do {
            let route = try makeRoute(taken, extra: extra)
            try await store.openEngine().save([route], caller: store.caller, linkingTo: .workout(workout.uuid))
            settle(saved: true, restoring: taken)
            return route
        } catch {
            settle(saved: false, restoring: taken)
            throw error
        }
    }

    /// Saves the route and calls `completion` with it or the error.
    public func finishRoute(
        with workout: HKWorkout,
        metadata: [String: Any]?,
        completion: @escaping @Sendable (HKWorkoutRoute?, (any Error)?) -> Void
    ) {
        let box = UncheckedBox(metadata)
        Task {
            do {
                completion(try await self.finishRoute(with: workout, metadata: box.value), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    private func insertChecked(_ locations: [CLLocation]) throws(HKError) {
        for (index, location) in locations.enumerated() {
            try Self.check(location, index: index)
        }
        try collecting { state throws(HKError) in
            guard state.locations.count + locations.count <= HKWorkoutRoute.maximumLocations else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "SERIES-1",
                    "a workout route may hold at most \(HKWorkoutRoute.maximumLocations) locations"
                )
            }
            state.locations += locations
        }
    }

    /// A location the route can hold: finite fields, a place on Earth.
    private static func check(_ location: CLLocation, index: Int) throws(HKError) {
        let values = [
            location.timestamp.timeIntervalSinceReferenceDate, location.altitude, location.horizontalAccuracy,
            location.verticalAccuracy, location.course, location.courseAccuracy, location.speed,
            location.speedAccuracy,
        ]
        guard values.allSatisfy(\.isFinite), CLLocationCoordinate2DIsValid(location.coordinate) else {
            throw HKError(
                .errorInvalidArgument,
                rule: "SERIES-1",
                "location \(index) is not a place on Earth with finite values"
            )
        }
    }

    private func makeRoute(_ taken: SeriesBuilderState, extra: HKMetadata) throws(HKError) -> HKWorkoutRoute {
        guard !taken.locations.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "SERIES-1", "a workout route needs at least one location")
        }
        let sorted = taken.locations.enumerated().sorted { lhs, rhs in
            (lhs.element.timestamp, lhs.offset) < (rhs.element.timestamp, rhs.offset)
        }.map(\.element)
        let metadata = taken.metadata.merging(extra.values) { _, new in new }
        return try HKWorkoutRoute.make(
            points: HKWorkoutRoute.points(sorted),
            SampleFields(
                start: sorted.first!.timestamp,
                end: sorted.last!.timestamp,
                uuid: .random(),
                sourceRevision: .local,
                device: device,
                metadata: try HKMetadata(validatingTyped: metadata)
            )
        )
    }
}
