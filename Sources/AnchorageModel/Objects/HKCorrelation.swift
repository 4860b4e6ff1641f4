/// A sample grouping quantity and category samples: a blood-pressure
/// reading or a food (OBJ-15).
///
/// ```swift
/// let pressure = HKCorrelation(
///     type: HKCorrelationType(.bloodPressure),
///     start: now, end: now,
///     objects: [systolicSample, diastolicSample])
/// ```
public final class HKCorrelation: HKSample, @unchecked Sendable {
    /// The samples the correlation groups.
    public let objects: Set<HKSample>

    package init(type: HKCorrelationType, objects: Set<HKSample>, fields: consuming SampleFields) {
        self.objects = objects
        super.init(sampleType: type, fields: fields)
    }

    /// The correlation's type.
    public var correlationType: HKCorrelationType { sampleType as! HKCorrelationType }

    /// The grouped samples of `objectType` (OBJ-15).
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        objects.filter { $0.sampleType == objectType }
    }

    /// Creates a correlation; stops the program on invalid arguments.
    public convenience init(type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>) {
        self.init(type: type, start: start, end: end, objects: objects, device: nil, metadata: nil)
    }

    /// Creates a correlation with metadata; stops the program on invalid arguments.
    public convenience init(
        type: HKCorrelationType,
        start: Date,
        end: Date,
        objects: Set<HKSample>,
        metadata: [String: Any]?
    ) {
        self.init(type: type, start: start, end: end, objects: objects, device: nil, metadata: metadata)
    }

    /// Creates a correlation with a device and metadata; stops the program
    /// on invalid arguments.
    public convenience init(
        type: HKCorrelationType,
        start: Date,
        end: Date,
        objects: Set<HKSample>,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = SampleFields.newOrStop(start: start, end: end, device: device, metadata: metadata) {
            fields throws(HKError) in
            try Self.check(type: type, objects: objects, fields)
        }
        self.init(type: type, objects: objects, fields: fields)
    }

    /// Creates a correlation, throwing when an argument is invalid.
    ///
    /// - Throws: ``HKError``: `OBJ-7` (dates), `OBJ-16` (a blood pressure
    ///   that is not exactly one systolic and one diastolic sample), `OBJ-17`
    ///   (a food without samples or with non-nutrition samples), `OBJ-18` (a
    ///   nested correlation or workout), or a metadata rule.
    public static func validated(
        type: HKCorrelationType,
        start: Date,
        end: Date,
        objects: Set<HKSample>,
        device: HKDevice? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKCorrelation {
        try make(type: type, objects: objects, .new(start: start, end: end, device: device, metadata: metadata))
    }

    /// The one checked door every correlation is built through.
    package static func make(
        type: HKCorrelationType,
        objects: Set<HKSample>,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKCorrelation {
        try check(type: type, objects: objects, fields)
        return HKCorrelation(type: type, objects: objects, fields: fields)
    }

    /// The rules a correlation's fields must keep (OBJ-7, OBJ-16..18).
    package static func check(
        type: HKCorrelationType,
        objects: Set<HKSample>,
        _ fields: borrowing SampleFields
    ) throws(HKError) {
        try fields.checkInterval()
        try checkMembers(type: type, objects: objects)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        with(fields, objects: objects)
    }

    /// The same correlation with other members (restamped, or only the
    /// visible ones), unchecked.
    package func with(_ fields: consuming SampleFields, objects: Set<HKSample>) -> HKCorrelation {
        HKCorrelation(type: correlationType, objects: objects, fields: fields)
    }

    /// The membership rules of OBJ-16..18.
    package static func checkMembers(type: HKCorrelationType, objects: Set<HKSample>) throws(HKError) {
        for object in objects where !(object is HKQuantitySample || object is HKCategorySample) {
            throw .invalid(
                "OBJ-18",
                "a correlation may contain only quantity and category samples, not \(object.sampleType)"
            )
        }
        switch type.correlationIdentifier {
        case .bloodPressure:
            let identifiers = objects.map(\.sampleType.identifier).sorted()
            let expected = [
                HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue,
                HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue,
            ]
            guard identifiers == expected else {
                throw .invalid(
                    "OBJ-16",
                    "a blood pressure correlation holds exactly one systolic and one diastolic sample, not \(objects.count) samples of \(Set(identifiers).sorted())"
                )
            }
        case .food:
            guard !objects.isEmpty else {
                throw .invalid("OBJ-17", "a food correlation needs at least one nutrition sample")
            }
            for object in objects where !object.sampleType.identifier.hasPrefix("HKQuantityTypeIdentifierDietary") {
                throw .invalid(
                    "OBJ-17",
                    "a food correlation may contain only dietary quantity samples, not \(object.sampleType)"
                )
            }
        default:
            throw .invalid("OBJ-15", "\(type.identifier) is not a correlation type")
        }
    }
}
