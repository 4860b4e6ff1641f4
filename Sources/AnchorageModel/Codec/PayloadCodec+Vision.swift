extension PayloadCodec {
    /// A vision prescription after its common fields (kind 11).
    package static func writeVision(_ prescription: HKVisionPrescription, into writer: inout PayloadWriter) {
        let (right, left, brand) = prescription.lenses
        writer.byte(prescription.storedClass)
        writer.varint(UInt64(prescription.prescriptionType.rawValue))
        var flags: UInt8 = 0
        if prescription.expirationDate != nil { flags |= 1 }
        if right != nil { flags |= 2 }
        if left != nil { flags |= 4 }
        if brand != nil { flags |= 8 }
        writer.byte(flags)
        if let expiration = prescription.expirationDate { writer.date(expiration) }
        if let right { writeLens(right, into: &writer) }
        if let left { writeLens(left, into: &writer) }
        if let brand { writer.string(brand) }
    }

    /// A lens: the sphere, a mask of the optional values present, each
    /// present one in order, then the prism when bit 9 is set.
    private static func writeLens(_ lens: LensValues, into writer: inout PayloadWriter) {
        writer.double(lens.sphere)
        let optionals = LensValues.optionalFields(lens)
        var mask: UInt64 = 0
        for (index, value) in optionals.enumerated() where value != nil { mask |= 1 << UInt64(index) }
        if lens.prism != nil { mask |= 1 << 9 }
        writer.varint(mask)
        for value in optionals { if let value { writer.double(value) } }
        if let prism = lens.prism {
            writer.double(prism.magnitude)
            writer.double(prism.degrees)
            writer.double(prism.vertical)
            writer.double(prism.horizontal)
            writer.byte(UInt8(prism.verticalBase.rawValue))
            writer.byte(UInt8(prism.horizontalBase.rawValue))
            writer.byte(UInt8(prism.eye.rawValue))
        }
    }
}

extension LensValues {
    /// The optional values in their stored order.
    static func optionalFields(_ lens: LensValues) -> [Double?] {
        [
            lens.cylinder, lens.axis, lens.addPower, lens.vertexDistance, lens.farPupillaryDistance,
            lens.nearPupillaryDistance, lens.baseCurve, lens.diameter,
        ]
    }
}

extension PayloadDecoder {
    /// A vision prescription after its common fields (kind 11).
    mutating func readVision(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError)
        -> HKVisionPrescription
    {
        let storedClass = try reader.byte("the prescription's class")
        let typeCode = try reader.varint("the prescription's type")
        guard typeCode <= 100, let type = HKVisionPrescriptionType(rawValue: UInt(typeCode)) else {
            throw .invalid("VISION-1", "the prescription's type is unknown")
        }
        let flags = try reader.byte("the prescription's flags")
        guard flags & ~15 == 0 else { throw .invalid("PAYLOAD-2", "the prescription's flags are not valid") }
        let expiration = flags & 1 != 0 ? try reader.date("the expiration date") : nil
        let right = flags & 2 != 0 ? try readLens(&reader) : nil
        let left = flags & 4 != 0 ? try readLens(&reader) : nil
        let brand = flags & 8 != 0 ? try reader.string("the brand", limit: 1_000) : nil
        return try HKVisionPrescription.make(
            class: storedClass,
            type: type,
            expiration: expiration,
            right: right,
            left: left,
            brand: brand,
            fields
        )
    }

    private func readLens(_ reader: inout PayloadReader) throws(HKError) -> LensValues {
        var lens = LensValues(sphere: try reader.double("a sphere"))
        let mask = try reader.varint("a lens's mask")
        guard mask < 1 << 10 else { throw .invalid("PAYLOAD-2", "a lens's mask is not valid") }
        var values: [Double?] = []
        for index in 0..<8 { values.append(mask & (1 << UInt64(index)) != 0 ? try reader.double("a lens value") : nil) }
        lens.cylinder = values[0]
        lens.axis = values[1]
        lens.addPower = values[2]
        lens.vertexDistance = values[3]
        lens.farPupillaryDistance = values[4]
        lens.nearPupillaryDistance = values[5]
        lens.baseCurve = values[6]
        lens.diameter = values[7]
        if mask & (1 << 9) != 0 {
            let magnitude = try reader.double("a prism's amount")
            let degrees = try reader.double("a prism's angle")
            let vertical = try reader.double("a prism's vertical amount")
            let horizontal = try reader.double("a prism's horizontal amount")
            guard let verticalBase = HKPrismBase(rawValue: Int(try reader.byte("a prism base"))),
                let horizontalBase = HKPrismBase(rawValue: Int(try reader.byte("a prism base"))),
                let eye = HKVisionEye(rawValue: Int(try reader.byte("a prism's eye")))
            else { throw .invalid("VISION-1", "a prism's base or eye is unknown") }
            for value in [vertical, horizontal] where !(value.isFinite && value >= 0 && value <= 50) {
                throw .invalid("VISION-1", "a prism's components must be within 0…50 prism diopters")
            }
            lens.prism = HKVisionPrism(
                magnitude: magnitude,
                degrees: degrees,
                vertical: vertical,
                horizontal: horizontal,
                verticalBase: verticalBase,
                horizontalBase: horizontalBase,
                eye: eye
            )
        }
        return lens
    }
}
