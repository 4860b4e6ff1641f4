public import AnchorageModel
import Foundation

/// Reads a heartbeat series' beats in time order, one handler call per beat.
///
/// ```swift
/// let query = HKHeartbeatSeriesQuery(heartbeatSeries: series) { _, time, precededByGap, done, error in
///     beats.append(time)
///     if done { analyse(beats) }
/// }
/// store.execute(query)
/// ```
///
/// The last beat's call has `done` true; on an error the handler is called
/// once with the error and `done` true. A series that is not in the store,
/// or that the app may not read, is `errorNoData` (SERIES-4).
public final class HKHeartbeatSeriesQuery: HKQuery, @unchecked Sendable {
    /// What the query calls with each beat: seconds since the series'
    /// start, whether a gap preceded it, whether it is the last.
    public typealias DataHandler = @Sendable (HKHeartbeatSeriesQuery, TimeInterval, Bool, Bool, (any Error)?) -> Void

    private let series: HKHeartbeatSeriesSample
    private let dataHandler: DataHandler

    /// A query for every beat of `heartbeatSeries`.
    public init(heartbeatSeries: HKHeartbeatSeriesSample, dataHandler: @escaping DataHandler) {
        self.series = heartbeatSeries
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.heartbeat(), predicate: nil)
    }

    override func fail(_ error: HKError) {
        dataHandler(self, 0, false, true, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let points: SeriesPoints
        do {
            let stored = try engine.seriesSample(series.uuid, type: TypeCatalog.heartbeatSeries, caller: store.caller)
            points = stored.points
        } catch {
            deliver { fail(error) }
            return
        }
        for index in 0..<points.count {
            if lifecycle.isStopped { return }
            let beat = HKHeartbeatSeriesSample.beat(points, at: index)
            let done = index == points.count - 1
            deliver { dataHandler(self, beat.timeSinceSeriesStart, beat.precededByGap, done, nil) }
        }
    }
}

/// Reads a heartbeat series' beats as an asynchronous sequence.
///
/// ```swift
/// for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {
///     print(beat.timeIntervalSinceStart, beat.precededByGap)
/// }
/// ```
public struct HKHeartbeatSeriesQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    /// One beat.
    public struct Heartbeat: Sendable, Hashable {
        /// Seconds since the series' start.
        public let timeIntervalSinceStart: TimeInterval
        /// Whether the measurement had a gap before this beat.
        public let precededByGap: Bool
    }

    /// The series whose beats are read.
    public var sample: HKHeartbeatSeriesSample

    /// A descriptor for every beat of `sample`.
    public init(_ sample: HKHeartbeatSeriesSample) {
        self.sample = sample
    }

    /// The beats, as a sequence that ends after the last.
    public typealias Results = QueryResultSequence<Heartbeat>

    /// Starts reading.
    public func results(for healthStore: HKHealthStore) -> Results {
        let id = sample.uuid
        return SeriesStream.make { () throws in
            let stored = try healthStore.openEngine().seriesSample(
                id,
                type: TypeCatalog.heartbeatSeries,
                caller: healthStore.caller
            )
            let points = stored.points
            return (
                0..<points.count,
                { index in
                    let beat = HKHeartbeatSeriesSample.beat(points, at: index)
                    return Heartbeat(
                        timeIntervalSinceStart: beat.timeSinceSeriesStart,
                        precededByGap: beat.precededByGap
                    )
                }
            )
        }
    }
}
