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

    /// An electrocardiogram after its common fields (kind 7).
    mutating func readElectrocardiogram(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKElectrocardiogram {
        let classificationCode = try reader.varint("the classification")
        let symptomsCode = try reader.varint("the symptoms status")
        guard classificationCode <= 1_000,
            let classification = HKElectrocardiogram.Classification(rawValue: Int(classificationCode)),
            symptomsCode <= 1_000, let symptoms = HKElectrocardiogram.SymptomsStatus(rawValue: Int(symptomsCode))
        else {
            throw .invalid("ECG-1", "the electrocardiogram's classification or symptoms status is unknown")
        }
        let flags = try reader.byte("the electrocardiogram's flags")
        guard flags & ~3 == 0 else {
            throw .invalid("PAYLOAD-2", "the electrocardiogram's flags \(flags) are not valid")
        }
        let rate = flags & 1 != 0 ? try reader.double("the average heart rate") : nil
        let frequency = flags & 2 != 0 ? try reader.double("the sampling frequency") : nil
        let leadCount = try reader.count("the number of leads", limit: 16)
        var leads: [HKElectrocardiogram.Lead] = []
        for _ in 0..<leadCount {
            let code = try reader.varint("a lead")
            guard code <= 1_000, let lead = HKElectrocardiogram.Lead(rawValue: Int(code)) else {
                throw .invalid("ECG-1", "the electrocardiogram names a lead this library does not know")
            }
            leads.append(lead)
        }
        let (count, points) = try readPoints(
            &reader,
            what: "the electrocardiogram's voltages",
            stride: 8 * max(1, leads.count),
            limit: HKElectrocardiogram.maximumMeasurements
        )
        let recording = HKElectrocardiogram.Recording(
            classification: classification,
            symptomsStatus: symptoms,
            averageHeartRate: rate,
            samplingFrequency: frequency,
            leads: leads,
            count: count
        )
        guard let points else {
            try fields.checkInterval()
            try HKElectrocardiogram.check(recording)
            return HKElectrocardiogram(recording, points: nil, fields: fields)
        }
        return try HKElectrocardiogram.make(recording, points: points, fields)
    }

    /// A quantity sample of several quantities after its common fields
    /// (kind 13). With its quantities, the stored quantity and aggregates
    /// must be theirs (SERIES-6).
    mutating func readQuantitySeries(
        _ reader: inout PayloadReader,
        type: HKQuantityType,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKQuantitySample {
        let value = try reader.double("the quantity's value")
        let unit = try readUnit(&reader)
        let count = try reader.count("the number of quantities", limit: QuantitySeries.maximumQuantities)
        let minimum = try reader.double("the series' minimum")
        let maximum = try reader.double("the series' maximum")
        let latest = QuantitySeries.Quantity(
            start: try reader.double("the latest quantity's start"),
            end: try reader.double("the latest quantity's end"),
            value: try reader.double("the latest quantity's value")
        )
        let length = count * QuantitySeries.stride
        guard length <= reader.remaining else { throw PayloadReader.truncated("the series' quantities") }
        defer { reader.offset += length }
        let stored = QuantitySeries(count: count, minimum: minimum, maximum: maximum, mostRecent: latest, points: nil)
        let quantity = HKQuantity(unit: unit, doubleValue: value)
        guard readsSeriesPoints else {
            return try HKQuantitySample.makeSeries(type: type, quantity: quantity, series: stored, fields)
        }
        let bytes = Array(UnsafeRawBufferPointer(rebasing: reader.buffer[reader.offset..<reader.offset + length]))
        let sample = try HKQuantitySample.makeSeries(
            type: type,
            points: SeriesPoints(bytes: bytes, stride: QuantitySeries.stride),
            fields
        )
        guard let series = sample.series, series.count == count, series.minimum == minimum,
            series.maximum == maximum, series.mostRecent == latest, sample.quantity == quantity
        else {
            throw .invalid("SERIES-6", "the quantity series' stored summary does not match its quantities")
        }
        return sample
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
