import Anchorage
import Foundation

extension ExportObjects {
    /// A `VisionPrescription` element (`type="HKVisionPrescriptionTypeGlasses"
    /// dateIssued= expirationDate= brand=`) with its `RightEye`/`LeftEye`
    /// children (`sphere="-1.25" sphereUnit="D"`, and likewise cylinder,
    /// axis, add power, distances, base curve and diameter, each with its
    /// unit) as a glasses or contacts prescription; one without eyes is an
    /// image-only prescription (its `Attachment` is not in the export).
    mutating func visionPrescription(_ element: ExportElement) throws(Rejection) -> HKVisionPrescription {
        let type: HKVisionPrescriptionType
        switch element[.type] {
        case "HKVisionPrescriptionTypeGlasses": type = .glasses
        case "HKVisionPrescriptionTypeContacts": type = .contacts
        default: throw Rejection(reason: "a vision prescription of an unknown type (VISION-1)")
        }
        guard let issued = element.bytes(.dateIssued).flatMap(ExportDate.parse) else {
            throw Rejection(reason: "a vision prescription without a readable date issued (VISION-1)")
        }
        let expiration = element.bytes(.expirationDate).flatMap(ExportDate.parse)
        let right = try element.children(.rightEye).first.map(Self.lens)
        let left = try element.children(.leftEye).first.map(Self.lens)
        let storedClass: UInt8 = right == nil && left == nil ? 0 : type == .glasses ? 1 : 2
        do {
            let fields = try SampleFields.given(
                issued,
                expiration ?? issued,
                identifier(of: element, numbered: true),
                source(element),
                device(element),
                Self.metadata(element)
            )
            return try HKVisionPrescription.make(
                class: storedClass,
                type: type,
                expiration: expiration,
                right: right,
                left: left,
                brand: storedClass == 2 ? (element[.brand] ?? "") : nil,
                fields
            )
        } catch {
            throw Rejection(reason: Self.reason(error))
        }
    }

    /// An eye's values: each attribute a number, with `<name>Unit` when given.
    private static func lens(_ element: ExportElement) throws(Rejection) -> LensValues {
        var values: [String: String] = [:]
        for name in element.attributeNames { values[element.batch.names[name]] = element[name] }
        func value(_ name: String, _ unit: HKUnit) throws(Rejection) -> Double? {
            guard let text = values[name] else { return nil }
            guard let number = ExportNumber.parse(ArraySlice(text.utf8)) else {
                throw Rejection(reason: "a lens value that is not a number (VISION-1)")
            }
            guard let unitText = values[name + "Unit"] else { return number }
            guard let given = try? HKUnit.parse(unitText), given.isCompatible(with: unit),
                let converted = given.convert(number, to: unit)
            else { throw Rejection(reason: "a lens value in a unit that does not suit it (VISION-1)") }
            return converted
        }
        let millimeter = HKUnit.meterUnit(with: .milli)
        var lens = LensValues(sphere: try value("sphere", .diopter()) ?? 0)
        lens.cylinder = try value("cylinder", .diopter())
        lens.axis = try value("axis", .degreeAngle())
        lens.addPower = try value("addPower", .diopter())
        lens.vertexDistance = try value("vertexDistance", millimeter)
        lens.farPupillaryDistance = try value("farPupillaryDistance", millimeter)
        lens.nearPupillaryDistance = try value("nearPupillaryDistance", millimeter)
        lens.baseCurve = try value("baseCurve", millimeter)
        lens.diameter = try value("diameter", millimeter)
        return lens
    }
}
