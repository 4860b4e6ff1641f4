import Foundation

extension HKQuantitySample {
    /// The one checked door every sample of several quantities is built
    /// through (SERIES-6): the sample's own rules, then its quantities'; its
    /// ``quantity`` is their sum or average in the type's canonical unit.
    package static func makeSeries(
        type: HKQuantityType,
        points: SeriesPoints,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKQuantitySample {
        try fields.checkInterval()
        try QuantitySeries.check(points, start: fields.start, end: fields.end)
        let value = QuantitySeries.aggregate(of: points, cumulative: type.aggregationStyle == .cumulative)
        let quantity = HKQuantity(unit: type.canonicalUnit, doubleValue: value)
        try checkQuantity(type: type, quantity: quantity)
        try checkRequiredMetadata(type: type, metadata: fields.metadata)
        return concrete(type: type, quantity: quantity, series: QuantitySeries(points: points), fields)
    }

    /// A sample of several quantities read without them (a listing): its
    /// stored aggregates must be a series' (SERIES-6).
    package static func makeSeries(
        type: HKQuantityType,
        quantity: HKQuantity,
        series: QuantitySeries,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKQuantitySample {
        try check(type: type, quantity: quantity, fields)
        let start = fields.start.timeIntervalSinceReferenceDate
        let end = fields.end.timeIntervalSinceReferenceDate
        let latest = series.mostRecent
        guard (1...QuantitySeries.maximumQuantities).contains(series.count),
            series.minimum.isFinite, series.maximum.isFinite, series.minimum <= series.maximum,
            latest.value.isFinite, latest.start >= start, latest.start <= latest.end, latest.end <= end
        else {
            throw .invalid("SERIES-6", "the quantity series' summary does not describe quantities within the sample")
        }
        return concrete(type: type, quantity: quantity, series: series, fields)
    }

    /// The quantities this sample stands for, in start order: its series'
    /// (when it carries them), else its one quantity over its interval, in
    /// the type's canonical unit.
    package var canonicalQuantities: [QuantitySeries.Quantity] {
        if let series, series.points != nil { return series.quantities }
        return [
            QuantitySeries.Quantity(
                start: startDate.timeIntervalSinceReferenceDate,
                end: endDate.timeIntervalSinceReferenceDate,
                value: quantity.doubleValue(for: quantityType.canonicalUnit)
            )
        ]
    }
}
