import Foundation

/// A vision prescription: issued on a date, expiring on another. This class
/// alone is a prescription kept as an image or document; its subclasses
/// carry each eye's lens values (VISION-1).
///
/// ```swift
/// let glasses = HKGlassesPrescription(
///     rightEyeSpecification: HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -1.25), …),
///     leftEyeSpecification: nil, dateIssued: issued, expirationDate: expires, device: nil, metadata: nil)
/// ```
///
/// HealthKit asks for each prescription's own read permission
/// (`requestPerObjectReadAuthorization`); here a store's authorization
/// policy grants reading vision prescriptions as a type.
public class HKVisionPrescription: HKSample, @unchecked Sendable {
    /// Glasses or contacts.
    public let prescriptionType: HKVisionPrescriptionType
    /// When the prescription was issued.
    public var dateIssued: Date { startDate }
    /// When it expires, if it does.
    public let expirationDate: Date?

    /// The stored form's class: 0 an image-only prescription, 1 glasses, 2 contacts.
    package var storedClass: UInt8 { 0 }

    package init(type: HKVisionPrescriptionType, expiration: Date?, fields: consuming SampleFields) {
        self.prescriptionType = type
        self.expirationDate = expiration
        super.init(sampleType: TypeCatalog.visionPrescription, fields: fields)
    }

    /// A prescription kept as an image or document; stops the program on
    /// invalid arguments, as HealthKit does.
    public convenience init(
        type: HKVisionPrescriptionType,
        dateIssued: Date,
        expirationDate: Date?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = Self.newFields(dateIssued, expirationDate, device, metadata)
        self.init(type: type, expiration: expirationDate, fields: fields)
    }

    /// The fields of a new prescription: issued at its start, ending at its
    /// expiration (or its issue); stops the program on invalid arguments.
    package static func newFields(
        _ dateIssued: Date,
        _ expirationDate: Date?,
        _ device: HKDevice?,
        _ metadata: [String: Any]?
    ) -> SampleFields {
        SampleFields.newOrStop(start: dateIssued, end: expirationDate ?? dateIssued, device: device, metadata: metadata)
        {
            fields throws(HKError) in try fields.checkInterval()
        }
    }

    /// The one checked door every prescription is built through: the end
    /// date is the expiration date, or the issue date when there is none.
    package static func make(
        class storedClass: UInt8,
        type: HKVisionPrescriptionType,
        expiration: Date?,
        right: LensValues?,
        left: LensValues?,
        brand: String?,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKVisionPrescription {
        try fields.checkInterval()
        guard fields.end == (expiration ?? fields.start) else {
            throw .invalid("VISION-1", "a prescription ends on its expiration date, or on its issue date without one")
        }
        try right?.check()
        try left?.check()
        switch storedClass {
        case 0:
            guard right == nil, left == nil, brand == nil else {
                throw .invalid("VISION-1", "an image-only prescription has no lens values")
            }
            return HKVisionPrescription(type: type, expiration: expiration, fields: fields)
        case 1:
            guard type == .glasses, brand == nil else {
                throw .invalid("VISION-1", "a glasses prescription is of type glasses, without a brand")
            }
            return HKGlassesPrescription(
                right: right.map(HKGlassesLensSpecification.init(values:)),
                left: left.map(HKGlassesLensSpecification.init(values:)),
                expiration: expiration,
                fields: fields
            )
        case 2:
            guard type == .contacts, let brand, brand.utf8.count <= 1_000 else {
                throw .invalid("VISION-1", "a contacts prescription is of type contacts, with a brand")
            }
            return HKContactsPrescription(
                right: right.map(HKContactsLensSpecification.init(values:)),
                left: left.map(HKContactsLensSpecification.init(values:)),
                brand: brand,
                expiration: expiration,
                fields: fields
            )
        default:
            throw .invalid("PAYLOAD-2", "a vision prescription's class is unknown")
        }
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKVisionPrescription(type: prescriptionType, expiration: expirationDate, fields: fields)
    }

    /// Each eye's lens values and the brand, for the stored forms.
    package var lenses: (right: LensValues?, left: LensValues?, brand: String?) { (nil, nil, nil) }
}

/// A prescription for glasses: each eye's lens.
public final class HKGlassesPrescription: HKVisionPrescription, @unchecked Sendable {
    /// The right eye's lens.
    public let rightEye: HKGlassesLensSpecification?
    /// The left eye's lens.
    public let leftEye: HKGlassesLensSpecification?

    package init(
        right: HKGlassesLensSpecification?,
        left: HKGlassesLensSpecification?,
        expiration: Date?,
        fields: consuming SampleFields
    ) {
        rightEye = right
        leftEye = left
        super.init(type: .glasses, expiration: expiration, fields: fields)
    }

    /// A glasses prescription; stops the program on invalid arguments.
    public convenience init(
        rightEyeSpecification: HKGlassesLensSpecification?,
        leftEyeSpecification: HKGlassesLensSpecification?,
        dateIssued: Date,
        expirationDate: Date?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = Self.newFields(dateIssued, expirationDate, device, metadata)
        self.init(right: rightEyeSpecification, left: leftEyeSpecification, expiration: expirationDate, fields: fields)
    }

    package override var storedClass: UInt8 { 1 }
    package override var lenses: (right: LensValues?, left: LensValues?, brand: String?) {
        (rightEye?.values, leftEye?.values, nil)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKGlassesPrescription(right: rightEye, left: leftEye, expiration: expirationDate, fields: fields)
    }
}

/// A prescription for contact lenses: each eye's lens and the brand.
public final class HKContactsPrescription: HKVisionPrescription, @unchecked Sendable {
    /// The right eye's lens.
    public let rightEye: HKContactsLensSpecification?
    /// The left eye's lens.
    public let leftEye: HKContactsLensSpecification?
    /// The lenses' brand.
    public let brand: String

    package init(
        right: HKContactsLensSpecification?,
        left: HKContactsLensSpecification?,
        brand: String,
        expiration: Date?,
        fields: consuming SampleFields
    ) {
        rightEye = right
        leftEye = left
        self.brand = brand
        super.init(type: .contacts, expiration: expiration, fields: fields)
    }

    /// A contacts prescription; stops the program on invalid arguments.
    public convenience init(
        rightEyeSpecification: HKContactsLensSpecification?,
        leftEyeSpecification: HKContactsLensSpecification?,
        brand: String,
        dateIssued: Date,
        expirationDate: Date?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = SampleFields.newOrStop(
            start: dateIssued,
            end: expirationDate ?? dateIssued,
            device: device,
            metadata: metadata
        ) { fields throws(HKError) in
            try fields.checkInterval()
            guard brand.utf8.count <= 1_000 else { throw .invalid("VISION-1", "a brand is at most 1,000 bytes") }
        }
        self.init(
            right: rightEyeSpecification,
            left: leftEyeSpecification,
            brand: brand,
            expiration: expirationDate,
            fields: fields
        )
    }

    package override var storedClass: UInt8 { 2 }
    package override var lenses: (right: LensValues?, left: LensValues?, brand: String?) {
        (rightEye?.values, leftEye?.values, brand)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKContactsPrescription(right: rightEye, left: leftEye, brand: brand, expiration: expirationDate, fields: fields)
    }
}
