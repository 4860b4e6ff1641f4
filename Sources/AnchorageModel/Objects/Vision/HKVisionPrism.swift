import Foundation

/// What a vision prescription is for.
public enum HKVisionPrescriptionType: UInt, Hashable, Sendable {
    case glasses = 1
    case contacts = 2
}

/// The direction of a prism's base.
public enum HKPrismBase: Int, Hashable, Sendable {
    case none = 0
    case up = 1
    case down = 2
    case `in` = 3
    case out = 4
}

/// An eye.
public enum HKVisionEye: Int, Hashable, Sendable {
    case left = 1
    case right = 2
}

/// A prism prescribed for one eye: its strength and base direction, given
/// as an amount and an angle or as vertical and horizontal components
/// (VISION-1).
public final class HKVisionPrism: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The strength, in prism diopters.
    public var amount: HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: magnitude) }
    /// The base direction, in degrees.
    public var angle: HKQuantity { HKQuantity(unit: .degreeAngle(), doubleValue: degrees) }
    /// The vertical component, in prism diopters.
    public var verticalAmount: HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: vertical) }
    /// The horizontal component, in prism diopters.
    public var horizontalAmount: HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: horizontal) }
    /// The vertical component's base: up, down or none.
    public let verticalBase: HKPrismBase
    /// The horizontal component's base: in, out or none.
    public let horizontalBase: HKPrismBase
    /// The eye.
    public let eye: HKVisionEye

    package let magnitude: Double
    package let degrees: Double
    package let vertical: Double
    package let horizontal: Double

    /// A prism of `amount` prism diopters with its base at `angle`
    /// (degrees, 0…360, in the standard notation: 90° up, 270° down, 0°
    /// toward the right of the wearer's face as seen by the examiner).
    public convenience init(amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye) {
        let (magnitude, degrees) = checkedOrStop { () throws(HKError) -> (Double, Double) in
            (try Self.value(amount, .prismDiopter()), try Self.value(angle, .degreeAngle()))
        }
        let radians = degrees * .pi / 180
        let vertical = magnitude * sin(radians)
        let across = magnitude * cos(radians)
        // 0° points to the examiner's right: the right eye's nose side, the left eye's temple.
        let horizontalBase: HKPrismBase =
            across == 0 ? .none : (across > 0) == (eye == .right) ? .in : .out
        self.init(
            magnitude: magnitude,
            degrees: degrees,
            vertical: abs(vertical),
            horizontal: abs(across),
            verticalBase: vertical == 0 ? .none : vertical > 0 ? .up : .down,
            horizontalBase: horizontalBase,
            eye: eye
        )
    }

    /// A prism given by its vertical and horizontal components.
    public convenience init(
        verticalAmount: HKQuantity,
        verticalBase: HKPrismBase,
        horizontalAmount: HKQuantity,
        horizontalBase: HKPrismBase,
        eye: HKVisionEye
    ) {
        let (vertical, horizontal) = checkedOrStop { () throws(HKError) -> (Double, Double) in
            (try Self.value(verticalAmount, .prismDiopter()), try Self.value(horizontalAmount, .prismDiopter()))
        }
        let up = verticalBase == .down ? -vertical : vertical
        let toRight = (horizontalBase == .in) == (eye == .right) ? horizontal : -horizontal
        var degrees = atan2(up, toRight) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        self.init(
            magnitude: (vertical * vertical + horizontal * horizontal).squareRoot(),
            degrees: degrees,
            vertical: vertical,
            horizontal: horizontal,
            verticalBase: verticalBase,
            horizontalBase: horizontalBase,
            eye: eye
        )
    }

    package init(
        magnitude: Double,
        degrees: Double,
        vertical: Double,
        horizontal: Double,
        verticalBase: HKPrismBase,
        horizontalBase: HKPrismBase,
        eye: HKVisionEye
    ) {
        self.magnitude = magnitude
        self.degrees = degrees
        self.vertical = vertical
        self.horizontal = horizontal
        self.verticalBase = verticalBase
        self.horizontalBase = horizontalBase
        self.eye = eye
    }

    /// A quantity's value in `unit`, finite and not negative (VISION-1).
    static func value(_ quantity: HKQuantity, _ unit: HKUnit) throws(HKError) -> Double {
        guard quantity.is(compatibleWith: unit) else {
            throw .invalid("VISION-1", "a prism's amount is in prism diopters and its angle in degrees")
        }
        let value = quantity.doubleValue(for: unit)
        guard value.isFinite, value >= 0 else {
            throw .invalid("VISION-1", "a prism's amount and angle are finite and not negative")
        }
        return value
    }

    public static func == (lhs: HKVisionPrism, rhs: HKVisionPrism) -> Bool {
        lhs.magnitude == rhs.magnitude && lhs.degrees == rhs.degrees && lhs.vertical == rhs.vertical
            && lhs.horizontal == rhs.horizontal && lhs.verticalBase == rhs.verticalBase
            && lhs.horizontalBase == rhs.horizontalBase && lhs.eye == rhs.eye
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(magnitude)
        hasher.combine(eye)
    }
}
