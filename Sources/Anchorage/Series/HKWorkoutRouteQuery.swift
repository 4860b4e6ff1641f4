public import AnchorageModel
import Foundation

/// Reads a workout route's locations, in time order, in batches.
///
/// ```swift
/// let query = HKWorkoutRouteQuery(route: route) { _, locations, done, error in
///     track.append(contentsOf: locations ?? [])
///     if done { draw(track) }
/// }
/// store.execute(query)
/// ```
///
/// The handler is called once per batch of up to ``batchSize`` locations,
/// the last call with `done` true (once, with no locations, for a route or
/// interval without any); on an error it is called once with the error and
/// `done` true. A route that is not in the store, or that the app may not
/// read, is `errorNoData` (SERIES-4).
public final class HKWorkoutRouteQuery: HKQuery, @unchecked Sendable {
    /// What the query calls with each batch.
    public typealias DataHandler = @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void

    /// The most locations one call of the handler gets.
    public static let batchSize = 1_024

    private let route: HKWorkoutRoute
    private let dateInterval: DateInterval?
    private let dataHandler: DataHandler

    /// A query for every location of `workoutRoute`.
    public init(route workoutRoute: HKWorkoutRoute, dataHandler: @escaping DataHandler) {
        self.route = workoutRoute
        self.dateInterval = nil
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
    }

    /// A query for the locations of `workoutRoute` measured within
    /// `dateInterval` (its ends included).
    public init(route workoutRoute: HKWorkoutRoute, dateInterval: DateInterval, dataHandler: @escaping DataHandler) {
        self.route = workoutRoute
        self.dateInterval = dateInterval
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
    }

    override func fail(_ error: HKError) {
        dataHandler(self, nil, true, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let points: SeriesPoints
        do {
            let stored = try engine.seriesSample(route.uuid, type: TypeCatalog.workoutRoute, caller: store.caller)
            points = stored.points
        } catch {
            deliver { fail(error) }
            return
        }
        let range = dateInterval.map { HKWorkoutRoute.range(of: points, within: $0) } ?? 0..<points.count
        var start = range.lowerBound
        repeat {
            if lifecycle.isStopped { return }
            let end = min(start + Self.batchSize, range.upperBound)
            let batch = HKWorkoutRoute.locations(points, in: start..<end)
            let done = end == range.upperBound
            deliver { dataHandler(self, batch, done, nil) }
            start = end
        } while start < range.upperBound
    }
}

/// Reads a workout route's locations as an asynchronous sequence, in time
/// order.
///
/// ```swift
/// for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: store) {
///     print(location.coordinate)
/// }
/// ```
public struct HKWorkoutRouteQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    /// The route whose locations are read.
    public var workoutRoute: HKWorkoutRoute
    /// Only locations measured within it, when set.
    public var dateInterval: DateInterval?

    /// A descriptor for every location of `workoutRoute`.
    public init(_ workoutRoute: HKWorkoutRoute) {
        self.workoutRoute = workoutRoute
    }

    /// A descriptor for the locations of `workoutRoute` within `dateInterval`.
    public init(_ workoutRoute: HKWorkoutRoute, dateInterval: DateInterval) {
        self.workoutRoute = workoutRoute
        self.dateInterval = dateInterval
    }

    /// The locations, as a sequence that ends after the last.
    public typealias Results = QueryResultSequence<CLLocation>

    /// Starts reading.
    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptor = self
        return SeriesStream.make { () throws in
            let stored = try healthStore.openEngine().seriesSample(
                descriptor.workoutRoute.uuid,
                type: TypeCatalog.workoutRoute,
                caller: healthStore.caller
            )
            let points = stored.points
            let range = descriptor.dateInterval.map { HKWorkoutRoute.range(of: points, within: $0) } ?? 0..<points.count
            return (range, { HKWorkoutRoute.location(points, at: $0) })
        }
    }
}
