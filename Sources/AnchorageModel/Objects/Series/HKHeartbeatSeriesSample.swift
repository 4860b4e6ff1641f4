import Foundation

/// The times of a series of heartbeats, each as seconds since the series'
/// start, with whether a gap in measurement came before it (SERIES-2).
///
/// Build one with `HKHeartbeatSeriesBuilder` and read its beats with
/// `HKHeartbeatSeriesQuery`:
///
/// ```swift
/// let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: start)
/// try await builder.addHeartbeat(at: 0.81, precededByGap: false)
/// let series = try await builder.finishSeries()
/// ```
public final class HKHeartbeatSeriesSample: HKSeriesSample, @unchecked Sendable {
    /// The most beats one series may hold.
    package static let maximumBeats = 131_072

    /// The size of one stored beat: its time (a double) and the gap flag.
    package static let stride = 9

    package init(count: Int, points: SeriesPoints?, fields: consuming SampleFields) {
        super.init(sampleType: TypeCatalog.heartbeatSeries, count: count, points: points, fields: fields)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKHeartbeatSeriesSample(count: count, points: points, fields: fields)
    }

    /// The one checked door every heartbeat series with its beats is built
    /// through (SERIES-2).
    package static func make(
        points: SeriesPoints,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKHeartbeatSeriesSample {
        try fields.checkInterval()
        try check(points, start: fields.start, end: fields.end)
        return HKHeartbeatSeriesSample(count: points.count, points: points, fields: fields)
    }

    /// One beat: seconds since the series' start, and whether the
    /// measurement had a gap before it.
    package struct Beat: Sendable, Hashable {
        package var timeSinceSeriesStart: TimeInterval
        package var precededByGap: Bool

        package init(timeSinceSeriesStart: TimeInterval, precededByGap: Bool) {
            self.timeSinceSeriesStart = timeSinceSeriesStart
            self.precededByGap = precededByGap
        }
    }

    /// The stored form of `beats`.
    package static func points(_ beats: [Beat]) -> SeriesPoints {
        SeriesPoints(stride: stride, count: beats.count) { writer, index in
            writer.double(beats[index].timeSinceSeriesStart)
            writer.byte(beats[index].precededByGap ? 1 : 0)
        }
    }

    /// The beat at `index` of `points`.
    package static func beat(_ points: SeriesPoints, at index: Int) -> Beat {
        Beat(timeSinceSeriesStart: points.double(index, field: 0), precededByGap: points.byte(index, offset: 8) != 0)
    }

    /// SERIES-2: at least one beat and at most ``maximumBeats``; each time
    /// finite, not negative, later than the one before, and within the
    /// sample's interval; the gap flag 0 or 1.
    package static func check(_ points: SeriesPoints, start: Date, end: Date) throws(HKError) {
        guard points.stride == stride else {
            throw .invalid("PAYLOAD-2", "a heartbeat series' beats are \(stride) bytes each")
        }
        guard points.count > 0 else { throw .invalid("SERIES-2", "a heartbeat series needs at least one beat") }
        guard points.count <= maximumBeats else {
            throw .invalid("SERIES-2", "a heartbeat series may hold at most \(maximumBeats) beats")
        }
        let origin = start.timeIntervalSinceReferenceDate
        let last = end.timeIntervalSinceReferenceDate
        var previous = -Double.infinity
        for index in 0..<points.count {
            let time = points.double(index, field: 0)
            guard time.isFinite, time >= 0 else {
                throw .invalid("SERIES-2", "beat \(index) of the series is not a time after the series' start")
            }
            guard time > previous else {
                throw .invalid("SERIES-2", "beat \(index) of the series is not later than the one before it")
            }
            guard origin + time <= last else {
                throw .invalid("SERIES-2", "beat \(index) of the series is after the series' end date")
            }
            guard points.byte(index, offset: 8) <= 1 else {
                throw .invalid("PAYLOAD-2", "beat \(index) of the series has a gap flag that is not 0 or 1")
            }
            previous = time
        }
    }
}
