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

    package init(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) {
        self.value = value
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
        let checked: HKMetadata
        do {
            checked = try Self.check(type: type, value: value, start: start, end: end, metadata: metadata)
        } catch {
            programmerError(error)
        }
        self.init(
            type: type,
            value: value,
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
        let checked = try check(type: type, value: value, start: start, end: end, metadata: metadata)
        return HKCategorySample(
            type: type,
            value: value,
            start: start,
            end: end,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: checked
        )
    }

    package static func check(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        metadata: [String: Any]?
    ) throws(HKError) -> HKMetadata {
        try checkInterval(start: start, end: end)
        try checkValue(type: type, value: value)
        let checked = try HKMetadata(validating: metadata)
        try checkRequiredMetadata(type: type, metadata: checked)
        return checked
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
