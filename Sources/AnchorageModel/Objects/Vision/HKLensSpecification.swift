import Foundation

/// A lens's prescribed values, in fixed units: diopters for powers,
/// degrees for the axis, millimetres for distances (VISION-1).
package struct LensValues: Sendable, Hashable {
    package var sphere: Double
    package var cylinder: Double?
    package var axis: Double?
    package var addPower: Double?
    // Glasses.
    package var vertexDistance: Double?
    package var farPupillaryDistance: Double?
    package var nearPupillaryDistance: Double?
    package var prism: HKVisionPrism?
    // Contacts.
    package var baseCurve: Double?
    package var diameter: Double?

    package init(sphere: Double) {
        self.sphere = sphere
    }

    /// VISION-1: powers within ±40 D, an axis within 0…180°, distances
    /// within 0…100 mm, every value finite; a prism within 0…50 prism
    /// diopters and 0…360°.
    package func check() throws(HKError) {
        func within(_ value: Double?, _ range: ClosedRange<Double>, _ what: String) throws(HKError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw .invalid("VISION-1", "a lens's \(what) must be within \(range.lowerBound)…\(range.upperBound)")
            }
        }
        try within(sphere, -40...40, "sphere (D)")
        try within(cylinder, -40...40, "cylinder (D)")
        try within(axis, 0...180, "axis (°)")
        try within(addPower, -40...40, "add power (D)")
        for (value, what) in [
            (vertexDistance, "vertex distance"), (farPupillaryDistance, "far pupillary distance"),
            (nearPupillaryDistance, "near pupillary distance"), (baseCurve, "base curve"), (diameter, "diameter"),
        ] {
            try within(value, 0...100, what + " (mm)")
        }
        if let prism {
            try within(prism.magnitude, 0...50, "prism amount (pD)")
            try within(prism.degrees, 0...360, "prism angle (°)")
        }
    }

    /// The value of `quantity` in `unit`, checked to be of that dimension.
    package static func value(_ quantity: HKQuantity?, _ unit: HKUnit, _ what: String) throws(HKError) -> Double? {
        guard let quantity else { return nil }
        guard quantity.is(compatibleWith: unit) else {
            throw .invalid("VISION-1", "a lens's \(what) is in \(unit.unitString)")
        }
        return quantity.doubleValue(for: unit)
    }

    static let millimeter = HKUnit.meterUnit(with: .milli)
}

/// The values a lens is prescribed with: the base of
/// ``HKGlassesLensSpecification`` and ``HKContactsLensSpecification``.
public class HKLensSpecification: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    package let values: LensValues

    package init(values: LensValues) {
        self.values = values
    }

    /// The spherical power, in diopters.
    public var sphere: HKQuantity { HKQuantity(unit: .diopter(), doubleValue: values.sphere) }
    /// The cylindrical power, in diopters.
    public var cylinder: HKQuantity? { values.cylinder.map { HKQuantity(unit: .diopter(), doubleValue: $0) } }
    /// The cylinder's axis, in degrees.
    public var axis: HKQuantity? { values.axis.map { HKQuantity(unit: .degreeAngle(), doubleValue: $0) } }
    /// The power added for near vision, in diopters.
    public var addPower: HKQuantity? { values.addPower.map { HKQuantity(unit: .diopter(), doubleValue: $0) } }

    public static func == (lhs: HKLensSpecification, rhs: HKLensSpecification) -> Bool {
        type(of: lhs) == type(of: rhs) && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }

    static func millimetres(_ value: Double?) -> HKQuantity? {
        value.map { HKQuantity(unit: LensValues.millimeter, doubleValue: $0) }
    }
}

/// A glasses lens: the common values, and the vertex distance, prism and
/// pupillary distances.
public final class HKGlassesLensSpecification: HKLensSpecification, @unchecked Sendable {
    /// A lens; stops the program on a quantity in the wrong unit or out of
    /// range (VISION-1), as HealthKit does.
    public convenience init(
        sphere: HKQuantity,
        cylinder: HKQuantity?,
        axis: HKQuantity?,
        addPower: HKQuantity?,
        vertexDistance: HKQuantity?,
        prism: HKVisionPrism?,
        farPupillaryDistance: HKQuantity?,
        nearPupillaryDistance: HKQuantity?
    ) {
        let values = checkedOrStop { () throws(HKError) -> LensValues in
            var values = LensValues(sphere: try LensValues.value(sphere, .diopter(), "sphere") ?? 0)
            values.cylinder = try LensValues.value(cylinder, .diopter(), "cylinder")
            values.axis = try LensValues.value(axis, .degreeAngle(), "axis")
            values.addPower = try LensValues.value(addPower, .diopter(), "add power")
            values.vertexDistance = try LensValues.value(vertexDistance, LensValues.millimeter, "vertex distance")
            values.farPupillaryDistance = try LensValues.value(
                farPupillaryDistance,
                LensValues.millimeter,
                "far pupillary distance"
            )
            values.nearPupillaryDistance = try LensValues.value(
                nearPupillaryDistance,
                LensValues.millimeter,
                "near pupillary distance"
            )
            values.prism = prism
            try values.check()
            return values
        }
        self.init(values: values)
    }

    /// The distance from the lens to the eye, in millimetres.
    public var vertexDistance: HKQuantity? { Self.millimetres(values.vertexDistance) }
    /// The prism, if one is prescribed.
    public var prism: HKVisionPrism? { values.prism }
    /// The pupillary distance for far vision, in millimetres.
    public var farPupillaryDistance: HKQuantity? { Self.millimetres(values.farPupillaryDistance) }
    /// The pupillary distance for near vision, in millimetres.
    public var nearPupillaryDistance: HKQuantity? { Self.millimetres(values.nearPupillaryDistance) }
}

/// A contact lens: the common values, and its base curve and diameter.
public final class HKContactsLensSpecification: HKLensSpecification, @unchecked Sendable {
    /// A lens; stops the program on a quantity in the wrong unit or out of
    /// range (VISION-1), as HealthKit does.
    public convenience init(
        sphere: HKQuantity,
        cylinder: HKQuantity?,
        axis: HKQuantity?,
        addPower: HKQuantity?,
        baseCurve: HKQuantity?,
        diameter: HKQuantity?
    ) {
        let values = checkedOrStop { () throws(HKError) -> LensValues in
            var values = LensValues(sphere: try LensValues.value(sphere, .diopter(), "sphere") ?? 0)
            values.cylinder = try LensValues.value(cylinder, .diopter(), "cylinder")
            values.axis = try LensValues.value(axis, .degreeAngle(), "axis")
            values.addPower = try LensValues.value(addPower, .diopter(), "add power")
            values.baseCurve = try LensValues.value(baseCurve, LensValues.millimeter, "base curve")
            values.diameter = try LensValues.value(diameter, LensValues.millimeter, "diameter")
            try values.check()
            return values
        }
        self.init(values: values)
    }

    /// The curvature of the lens's back surface, in millimetres.
    public var baseCurve: HKQuantity? { Self.millimetres(values.baseCurve) }
    /// The lens's diameter, in millimetres.
    public var diameter: HKQuantity? { Self.millimetres(values.diameter) }
}
