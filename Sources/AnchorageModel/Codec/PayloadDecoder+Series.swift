extension PayloadDecoder {
    /// A workout route after its common fields (kind 5).
    mutating func readRoute(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError)
        -> HKWorkoutRoute
    {
        let (count, points) = try readPoints(
            &reader,
            what: "the route's locations",
            stride: HKWorkoutRoute.stride,
            limit: HKWorkoutRoute.maximumLocations
        )
        guard let points else {
            try fields.checkInterval()
            return HKWorkoutRoute(count: count, points: nil, fields: fields)
        }
        return try HKWorkoutRoute.make(points: points, fields)
    }

    /// A heartbeat series after its common fields (kind 6).
    mutating func readHeartbeats(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError)
        -> HKHeartbeatSeriesSample
    {
        let (count, points) = try readPoints(
            &reader,
            what: "the series' beats",
            stride: HKHeartbeatSeriesSample.stride,
            limit: HKHeartbeatSeriesSample.maximumBeats
        )
        guard let points else {
            try fields.checkInterval()
            return HKHeartbeatSeriesSample(count: count, points: nil, fields: fields)
        }
        return try HKHeartbeatSeriesSample.make(points: points, fields)
    }

    /// A count and that many records of `stride` bytes: copied when the
    /// decoder reads points, else skipped.
    private func readPoints(
        _ reader: inout PayloadReader,
        what: String,
        stride: Int,
        limit: Int
    ) throws(HKError) -> (count: Int, points: SeriesPoints?) {
        let count = try reader.count("the number of points of \(what)", limit: limit)
        let length = count * stride
        guard length <= reader.remaining else { throw PayloadReader.truncated(what) }
        defer { reader.offset += length }
        guard readsSeriesPoints else { return (count, nil) }
        let bytes = Array(UnsafeRawBufferPointer(rebasing: reader.buffer[reader.offset..<reader.offset + length]))
        return (count, SeriesPoints(bytes: bytes, stride: stride))
    }
}
