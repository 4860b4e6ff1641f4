public import AnchorageModel
public import Foundation

/// Collects the times of heartbeats and saves them as an
/// ``HKHeartbeatSeriesSample``.
///
/// ```swift
/// let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: start)
/// try await builder.addHeartbeat(at: 0.0, precededByGap: false)
/// try await builder.addHeartbeat(at: 0.82, precededByGap: false)
/// let series = try await builder.finishSeries()
/// ```
///
/// Each beat is given as seconds since `start`, later than the one before
/// (SERIES-2); the series ends at its last beat.
public final class HKHeartbeatSeriesBuilder: HKSeriesBuilder, @unchecked Sendable {
    /// The most beats one series may hold.
    public class var maximumCount: Int { HKHeartbeatSeriesSample.maximumBeats }

    /// When the series starts.
    let start: Date

    /// A builder whose series starts at `start`, saved to `healthStore`,
    /// from `device`.
    public init(healthStore: HKHealthStore, device: HKDevice?, start startDate: Date) {
        self.start = startDate
        super.init(store: healthStore, device: device)
    }

    /// Adds a beat `timeInterval` seconds after the series' start.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument`: SERIES-2 for a time
    ///   that is negative, not finite, or not later than the last beat's, or
    ///   a beat past ``maximumCount``; SERIES-5 once the builder finished or
    ///   was discarded.
    public func addHeartbeat(at timeInterval: TimeInterval, precededByGap: Bool) async throws {
        try add(timeInterval, precededByGap: precededByGap)
    }

    /// Adds a beat and calls `completion` with the outcome.
    public func addHeartbeatWithTimeInterval(
        sinceSeriesStartDate timeInterval: TimeInterval,
        precededByGap: Bool,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        store.complete(completion) { try self.add(timeInterval, precededByGap: precededByGap) }
    }

    /// Adds metadata to the series; later values replace earlier ones.
    public func addMetadata(_ metadata: [String: Any]) async throws {
        try addCheckedMetadata(metadata)
    }

    /// Adds metadata to the series and calls `completion` with the outcome.
    public func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let box = UncheckedBox(metadata)
        store.complete(completion) { try self.addCheckedMetadata(box.value) }
    }

    /// Saves the series.
    ///
    /// - Throws: ``HKError``: `errorInvalidArgument` SERIES-2 when no beat
    ///   was added; the save's errors. The builder keeps its beats after a
    ///   failed finish, so it can be retried.
    public func finishSeries() async throws -> HKHeartbeatSeriesSample {
        let taken = try takeForFinishing()
        do {
            let series = try makeSeries(taken)
            try await store.openEngine().save([series], caller: store.caller)
            settle(saved: true, restoring: taken)
            return series
        } catch {
            settle(saved: false, restoring: taken)
            throw error
        }
    }

    /// Saves the series and calls `completion` with it or the error.
    public func finishSeries(completion: @escaping @Sendable (HKHeartbeatSeriesSample?, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await self.finishSeries(), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    private func add(_ time: TimeInterval, precededByGap: Bool) throws(HKError) {
        guard time.isFinite, time >= 0, start.timeIntervalSinceReferenceDate + time <= .greatestFiniteMagnitude else {
            throw HKError(
                .errorInvalidArgument,
                rule: "SERIES-2",
                "a heartbeat's time must be a time after the series' start"
            )
        }
        try collecting { state throws(HKError) in
            if let last = state.beats.last, time <= last.timeSinceSeriesStart {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "SERIES-2",
                    "heartbeats must be added in time order, each later than the one before"
                )
            }
            guard state.beats.count < HKHeartbeatSeriesSample.maximumBeats else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "SERIES-2",
                    "a heartbeat series may hold at most \(HKHeartbeatSeriesSample.maximumBeats) beats"
                )
            }
            state.beats.append(.init(timeSinceSeriesStart: time, precededByGap: precededByGap))
        }
    }

    private func makeSeries(_ taken: SeriesBuilderState) throws(HKError) -> HKHeartbeatSeriesSample {
        guard let last = taken.beats.last else {
            throw HKError(.errorInvalidArgument, rule: "SERIES-2", "a heartbeat series needs at least one beat")
        }
        return try HKHeartbeatSeriesSample.make(
            points: HKHeartbeatSeriesSample.points(taken.beats),
            SampleFields(
                start: start,
                end: Date(
                    timeIntervalSinceReferenceDate: start.timeIntervalSinceReferenceDate + last.timeSinceSeriesStart
                ),
                uuid: .random(),
                sourceRevision: .local,
                device: device,
                metadata: try HKMetadata(validatingTyped: taken.metadata)
            )
        )
    }
}
