/// A sample holding one quantity of a quantity type (OBJ-10).
///
/// ```swift
/// let steps = HKQuantitySample(
///     type: HKQuantityType(.stepCount),
///     quantity: HKQuantity(unit: .count(), doubleValue: 1_200),
///     start: start, end: end)
/// ```
///
/// The initializers stop the program on invalid arguments, as HealthKit's
/// do; ``validated(type:quantity:start:end:device:metadata:)`` throws instead.
/// Samples read from a store are ``HKCumulativeQuantitySample`` or
/// ``HKDiscreteQuantitySample`` according to the type's aggregation style
/// (OBJ-12).
public class HKQuantitySample: HKSample, @unchecked Sendable {
    /// The amount: for a sample of several quantities (``count`` above 1),
    /// their sum for a cumulative type and their average for a discrete one.
    public let quantity: HKQuantity
    /// The quantities of a sample built as a series
    /// (`HKQuantitySeriesSampleBuilder`, SERIES-6); `nil` for a sample of
    /// one quantity over its whole interval.
    package let series: QuantitySeries?

    /// The number of quantities the sample stands for: 1, or more for one
    /// built with `HKQuantitySeriesSampleBuilder` (read them with
    /// `HKQuantitySeriesSampleQuery`).
    public var count: Int { series?.count ?? 1 }

    @inline(__always)
    package init(type: HKQuantityType, quantity: HKQuantity, fields: consuming SampleFields) {
        self.quantity = quantity
        self.series = nil
        super.init(sampleType: type, fields: fields)
    }

    package init(type: HKQuantityType, quantity: HKQuantity, series: QuantitySeries?, fields: consuming SampleFields) {
        self.quantity = quantity
        self.series = series
        super.init(sampleType: type, fields: fields)
    }

    package override var seriesPoints: SeriesPoints? { series?.points }
    package override var lacksSeriesPoints: Bool { series != nil && series?.points == nil }

    /// The sample's quantity type.
    public var quantityType: HKQuantityType { sampleType as! HKQuantityType }

    /// Creates a sample; stops the program on invalid arguments.
    public convenience init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: nil)
    }

    /// Creates a sample with metadata; stops the program on invalid arguments.
    public convenience init(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        metadata: [String: Any]?
    ) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: metadata)
    }

    /// Creates a sample with a device and metadata; stops the program on
    /// invalid arguments.
    public convenience init(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = SampleFields.newOrStop(start: start, end: end, device: device, metadata: metadata) {
            fields throws(HKError) in
            try Self.check(type: type, quantity: quantity, fields)
        }
        self.init(type: type, quantity: quantity, fields: fields)
    }

    /// Creates a sample, throwing when an argument is invalid; it is a
    /// ``HKCumulativeQuantitySample`` or ``HKDiscreteQuantitySample`` as the
    /// type's aggregation style says (OBJ-12).
    ///
    /// - Throws: ``HKError`` naming the rule: `OBJ-7` (dates), `OBJ-10`
    ///   (unit not compatible with the type, value not finite), `OBJ-4`,
    ///   `OBJ-6`, `OBJ-33` (metadata).
    public static func validated(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        device: HKDevice? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKQuantitySample {
        try make(type: type, quantity: quantity, .new(start: start, end: end, device: device, metadata: metadata))
    }

    /// The one checked door every quantity sample is built through: the
    /// rules of OBJ-7, OBJ-10 and OBJ-4, then the concrete class the type's
    /// aggregation style calls for (OBJ-12).
    package static func make(
        type: HKQuantityType,
        quantity: HKQuantity,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKQuantitySample {
        try check(type: type, quantity: quantity, fields)
        return concrete(type: type, quantity: quantity, fields)
    }

    /// The rules a quantity sample's fields must keep.
    package static func check(
        type: HKQuantityType,
        quantity: HKQuantity,
        _ fields: borrowing SampleFields
    ) throws(HKError) {
        try fields.checkInterval()
        try checkQuantity(type: type, quantity: quantity)
        try checkRequiredMetadata(type: type, metadata: fields.metadata)
    }

    /// The sample of the concrete class `type`'s aggregation style calls for
    /// (OBJ-12), from fields the caller has already checked.
    @inline(__always)
    package static func concrete(
        type: HKQuantityType,
        quantity: HKQuantity,
        _ fields: consuming SampleFields
    ) -> HKQuantitySample {
        if type.aggregationStyle == .cumulative {
            return HKCumulativeQuantitySample(type: type, quantity: quantity, fields: consume fields)
        }
        return HKDiscreteQuantitySample(type: type, quantity: quantity, fields: consume fields)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        guard let series else { return Self.concrete(type: quantityType, quantity: quantity, fields) }
        return Self.concrete(type: quantityType, quantity: quantity, series: series, fields)
    }

    /// The sample of the concrete class for `type` holding `series`.
    package static func concrete(
        type: HKQuantityType,
        quantity: HKQuantity,
        series: QuantitySeries,
        _ fields: consuming SampleFields
    ) -> HKQuantitySample {
        if type.aggregationStyle == .cumulative {
            return HKCumulativeQuantitySample(type: type, quantity: quantity, series: series, fields: fields)
        }
        return HKDiscreteQuantitySample(type: type, quantity: quantity, series: series, fields: fields)
    }

    /// The quantity's unit must suit the type and its value be finite (OBJ-10, UNIT-19).
    package static func checkQuantity(type: HKQuantityType, quantity: HKQuantity) throws(HKError) {
        guard type.is(compatibleWith: quantity.unit) else {
            throw .invalid(
                "OBJ-10",
                "\(type.identifier) does not accept the unit \(quantity.unit.unitString); use one compatible with \(type.canonicalUnit.unitString)"
            )
        }
        guard quantity.value.isFinite else {
            throw .invalid("OBJ-10", "a \(type.identifier) sample's value must be a finite number")
        }
    }

    /// Insulin deliveries must say why (HKMetadataKeyInsulinDeliveryReason).
    package static func checkRequiredMetadata(type: HKQuantityType, metadata: HKMetadata) throws(HKError) {
        if type.kindCode == TypeCatalog.insulinDeliveryCode {
            guard let reason = metadata[HKMetadataKeyInsulinDeliveryReason]?.number, reason == 1 || reason == 2 else {
                throw .invalid(
                    "OBJ-4",
                    "insulinDelivery samples need HKMetadataKeyInsulinDeliveryReason (1 basal, 2 bolus)"
                )
            }
        }
    }
}

/// A quantity sample of a cumulative type (OBJ-12).
public class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the sample's values.
    public var sumQuantity: HKQuantity { quantity }
}

/// HealthKit's iOS 12 class for cumulative samples of several quantities,
/// declared so that code naming it compiles. Anchorage never makes one: as
/// on iOS 13 and later, such a sample is an ``HKCumulativeQuantitySample``
/// whose ``HKQuantitySample/count`` is above 1.
public final class HKCumulativeQuantitySeriesSample: HKCumulativeQuantitySample, @unchecked Sendable {
    /// The sum of the sample's quantities.
    @available(*, deprecated, message: "use sumQuantity")
    public var sum: HKQuantity { sumQuantity }
}

/// A quantity sample of a discrete type (OBJ-12).
public final class HKDiscreteQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The average of the sample's values.
    public var averageQuantity: HKQuantity { quantity }
    /// The smallest value.
    public var minimumQuantity: HKQuantity { series.map { canonical($0.minimum) } ?? quantity }
    /// The largest value.
    public var maximumQuantity: HKQuantity { series.map { canonical($0.maximum) } ?? quantity }
    /// The value that starts last.
    public var mostRecentQuantity: HKQuantity { series.map { canonical($0.mostRecent.value) } ?? quantity }
    /// The interval of the value that starts last.
    public var mostRecentQuantityDateInterval: DateInterval {
        guard let latest = series?.mostRecent else { return DateInterval(start: startDate, end: endDate) }
        return DateInterval(
            start: Date(timeIntervalSinceReferenceDate: latest.start),
            end: Date(timeIntervalSinceReferenceDate: latest.end)
        )
    }

    private func canonical(_ value: Double) -> HKQuantity {
        HKQuantity(unit: quantityType.canonicalUnit, doubleValue: value)
    }
}
