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
    /// The amount.
    public let quantity: HKQuantity
    /// The number of values the sample stands for; always 1 (OBJ-12).
    public let count: Int

    package init(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) {
        self.quantity = quantity
        self.count = 1
        super.init(
            sampleType: type,
            startDate: start,
            endDate: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

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
        let checked: HKMetadata
        do {
            checked = try Self.check(type: type, quantity: quantity, start: start, end: end, metadata: metadata)
        } catch {
            programmerError(error)
        }
        self.init(
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: checked
        )
    }

    /// Creates a sample, throwing when an argument is invalid.
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
        let checked = try check(type: type, quantity: quantity, start: start, end: end, metadata: metadata)
        return HKQuantitySample(
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: checked
        )
    }

    package static func check(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        metadata: [String: Any]?
    ) throws(HKError) -> HKMetadata {
        try checkInterval(start: start, end: end)
        try checkQuantity(type: type, quantity: quantity)
        let checked = try HKMetadata(validating: metadata)
        try checkRequiredMetadata(type: type, metadata: checked)
        return checked
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
public final class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the sample's values.
    public var sumQuantity: HKQuantity { quantity }
}

/// A quantity sample of a discrete type (OBJ-12).
public final class HKDiscreteQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The average of the sample's values.
    public var averageQuantity: HKQuantity { quantity }
    /// The smallest value.
    public var minimumQuantity: HKQuantity { quantity }
    /// The largest value.
    public var maximumQuantity: HKQuantity { quantity }
    /// The latest value.
    public var mostRecentQuantity: HKQuantity { quantity }
    /// The interval of the latest value.
    public var mostRecentQuantityDateInterval: DateInterval { DateInterval(start: startDate, end: endDate) }
}
