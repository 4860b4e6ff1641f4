import Foundation

/// A lens in JSON: powers in diopters, the axis in degrees, distances in
/// millimetres; a prism in prism diopters and degrees.
///
/// ```json
/// {"sphere": -1.25, "cylinder": -0.5, "axis": 90, "prism": {"amount": 1, "angle": 90, "verticalAmount": 1,
///  "horizontalAmount": 0, "verticalBase": 1, "horizontalBase": 0, "eye": 2}}
/// ```
package struct LensJSON: Codable, Sendable {
    struct Prism: Codable, Sendable {
        var amount: Double
        var angle: Double
        var verticalAmount: Double
        var horizontalAmount: Double
        var verticalBase: Int
        var horizontalBase: Int
        var eye: Int
    }

    var sphere: Double
    var cylinder: Double?
    var axis: Double?
    var addPower: Double?
    var vertexDistance: Double?
    var farPupillaryDistance: Double?
    var nearPupillaryDistance: Double?
    var baseCurve: Double?
    var diameter: Double?
    var prism: Prism?

    package init(_ lens: LensValues) {
        sphere = lens.sphere
        cylinder = lens.cylinder
        axis = lens.axis
        addPower = lens.addPower
        vertexDistance = lens.vertexDistance
        farPupillaryDistance = lens.farPupillaryDistance
        nearPupillaryDistance = lens.nearPupillaryDistance
        baseCurve = lens.baseCurve
        diameter = lens.diameter
        prism = lens.prism.map {
            Prism(
                amount: $0.magnitude,
                angle: $0.degrees,
                verticalAmount: $0.vertical,
                horizontalAmount: $0.horizontal,
                verticalBase: $0.verticalBase.rawValue,
                horizontalBase: $0.horizontalBase.rawValue,
                eye: $0.eye.rawValue
            )
        }
    }

    package func values() throws -> LensValues {
        var lens = LensValues(sphere: sphere)
        lens.cylinder = cylinder
        lens.axis = axis
        lens.addPower = addPower
        lens.vertexDistance = vertexDistance
        lens.farPupillaryDistance = farPupillaryDistance
        lens.nearPupillaryDistance = nearPupillaryDistance
        lens.baseCurve = baseCurve
        lens.diameter = diameter
        if let prism {
            guard let verticalBase = HKPrismBase(rawValue: prism.verticalBase),
                let horizontalBase = HKPrismBase(rawValue: prism.horizontalBase),
                let eye = HKVisionEye(rawValue: prism.eye)
            else { throw HKError.invalid("VISION-1", "a prism's base or eye is unknown") }
            for value in [prism.verticalAmount, prism.horizontalAmount]
            where !(value.isFinite && value >= 0 && value <= 50) {
                throw HKError.invalid("VISION-1", "a prism's components must be within 0…50 prism diopters")
            }
            lens.prism = HKVisionPrism(
                magnitude: prism.amount,
                degrees: prism.angle,
                vertical: prism.verticalAmount,
                horizontal: prism.horizontalAmount,
                verticalBase: verticalBase,
                horizontalBase: horizontalBase,
                eye: eye
            )
        }
        return lens
    }
}

extension HealthObject {
    /// The stored classes' names in JSON.
    static let prescriptionForms = ["image", "glasses", "contacts"]

    package static func encodeVision(
        _ prescription: HKVisionPrescription,
        into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        let (right, left, brand) = prescription.lenses
        try container.encode(prescription.prescriptionType.rawValue, forKey: .prescriptionType)
        try container.encode(prescriptionForms[Int(prescription.storedClass)], forKey: .form)
        try container.encodeIfPresent(prescription.expirationDate.map(ISO8601.format), forKey: .expirationDate)
        try container.encodeIfPresent(right.map(LensJSON.init), forKey: .rightEye)
        try container.encodeIfPresent(left.map(LensJSON.init), forKey: .leftEye)
        try container.encodeIfPresent(brand, forKey: .brand)
    }

    package static func decodeVision(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKVisionPrescription {
        guard let type = HKVisionPrescriptionType(rawValue: try container.decode(UInt.self, forKey: .prescriptionType))
        else { throw HKError.invalid("VISION-1", "the prescription's type is unknown") }
        let form = try container.decodeIfPresent(String.self, forKey: .form) ?? "image"
        guard let storedClass = prescriptionForms.firstIndex(of: form) else {
            throw HKError.invalid("VISION-1", "a prescription's form is image, glasses or contacts")
        }
        return try HKVisionPrescription.make(
            class: UInt8(storedClass),
            type: type,
            expiration: try JSONDates.decodeIfPresent(container, .expirationDate),
            right: try container.decodeIfPresent(LensJSON.self, forKey: .rightEye)?.values(),
            left: try container.decodeIfPresent(LensJSON.self, forKey: .leftEye)?.values(),
            brand: try container.decodeIfPresent(String.self, forKey: .brand),
            fields
        )
    }
}
