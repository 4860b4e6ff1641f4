/// A sample holding one value of a category type (OBJ-13).
///
/// ```swift
/// let night = HKCategorySample(
///     type: HKCategoryType(.sleepAnalysis),
///     value: HKCategoryValueSleepAnalysis.asleepCore.rawValue,
///     start: start, end: end)
/// ```
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// The value; its meaning depends on the type.
    public let value: Int

    package init(type: HKCategoryType, value: Int, fields: consuming SampleFields) {
        self.value = value
        super.init(sampleType: type, fields: fields)
    }

    /// The sample's category type.
    public var categoryType: HKCategoryType { sampleType as! HKCategoryType }

    /// Creates a sample; stops the program on invalid arguments.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: nil)
    }

    /// Creates a sample with metadata; stops the program on invalid arguments.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date, metadata: [String: Any]?) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: metadata)
    }

    /// Creates a sample with a device and metadata; stops the program on
    /// invalid arguments.
    public convenience init(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = SampleFields.newOrStop(start: start, end: end, device: device, metadata: metadata) {
            fields throws(HKError) in
            try Self.check(type: type, value: value, fields)
        }
        self.init(type: type, value: value, fields: fields)
    }

    /// Creates a sample, throwing when an argument is invalid.
    ///
    /// - Throws: ``HKError``: `OBJ-7` (dates), `OBJ-13` (a value the type
    ///   does not allow, a menstrual-flow sample without
    ///   `HKMetadataKeyMenstrualCycleStart`), or a metadata rule.
    public static func validated(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        device: HKDevice? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKCategorySample {
        try make(type: type, value: value, .new(start: start, end: end, device: device, metadata: metadata))
    }

    /// The one checked door every category sample is built through.
    package static func make(
        type: HKCategoryType,
        value: Int,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKCategorySample {
        try check(type: type, value: value, fields)
        return HKCategorySample(type: type, value: value, fields: fields)
    }

    /// The rules a category sample's fields must keep (OBJ-7, OBJ-13).
    package static func check(type: HKCategoryType, value: Int, _ fields: borrowing SampleFields) throws(HKError) {
        try fields.checkInterval()
        try checkValue(type: type, value: value)
        try checkRequiredMetadata(type: type, metadata: fields.metadata)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKCategorySample(type: categoryType, value: value, fields: fields)
    }

    /// The value must be one the type allows (OBJ-13).
    package static func checkValue(type: HKCategoryType, value: Int) throws(HKError) {
        guard type.legalValues.contains(value) else {
            throw .invalid(
                "OBJ-13",
                "\(value) is not a value of \(type.identifier); allowed are \(type.legalValues.lowerBound)…\(type.legalValues.upperBound)"
            )
        }
    }

    /// Menstrual flow needs HKMetadataKeyMenstrualCycleStart as a Boolean (OBJ-13).
    package static func checkRequiredMetadata(type: HKCategoryType, metadata: HKMetadata) throws(HKError) {
        if type.identifier == HKCategoryTypeIdentifier.menstrualFlow.rawValue {
            guard case .bool? = metadata[HKMetadataKeyMenstrualCycleStart] else {
                throw .invalid("OBJ-13", "menstrualFlow samples need HKMetadataKeyMenstrualCycleStart as a Boolean")
            }
        }
    }
}
