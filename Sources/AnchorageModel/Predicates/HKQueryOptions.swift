/// How a date predicate matches samples (PRED-1..4).
///
/// ```swift
/// let today = HKQuery.predicateForSamples(withStart: midnight, end: nextMidnight, options: .strictStartDate)
/// ```
public struct HKQueryOptions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The sample must start inside the interval (PRED-2).
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// The sample must end inside the interval (PRED-3).
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

/// A comparison in a predicate. Its cases carry the names of HealthKit's
/// `NSComparisonPredicate.Operator` cases, so `with: .greaterThan` reads the
/// same (swift-corelibs-foundation has no usable `NSComparisonPredicate`).
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case equalTo = "=="
    case notEqualTo = "!="
    case greaterThanOrEqualTo = ">="
    case greaterThan = ">"

    /// Decodes `"<"`, `"<="`, `"=="`, `"!="`, `">="` or `">"`; anything else
    /// is an ``HKError`` naming the operators (PRED-14), not Swift's words.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw HKError.invalid(
                "PRED-14",
                "'\(text.prefix(20))' is not a comparison operator (<, <=, ==, !=, >= or >)"
            )
        }
        self = value
    }

    /// Whether `lhs op rhs` holds.
    package func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .lessThan: lhs < rhs
        case .lessThanOrEqualTo: lhs <= rhs
        case .equalTo: lhs == rhs
        case .notEqualTo: lhs != rhs
        case .greaterThanOrEqualTo: lhs >= rhs
        case .greaterThan: lhs > rhs
        }
    }
}

/// The device properties a predicate can match (PRED-9).
public let HKDevicePropertyKeyName = "name"
/// Matches ``HKDevice`` property `manufacturer`.
public let HKDevicePropertyKeyManufacturer = "manufacturer"
/// Matches ``HKDevice`` property `model`.
public let HKDevicePropertyKeyModel = "model"
/// Matches ``HKDevice`` property `hardwareVersion`.
public let HKDevicePropertyKeyHardwareVersion = "hardwareVersion"
/// Matches ``HKDevice`` property `firmwareVersion`.
public let HKDevicePropertyKeyFirmwareVersion = "firmwareVersion"
/// Matches ``HKDevice`` property `softwareVersion`.
public let HKDevicePropertyKeySoftwareVersion = "softwareVersion"
/// Matches ``HKDevice`` property `localIdentifier`.
public let HKDevicePropertyKeyLocalIdentifier = "localIdentifier"
/// Matches ``HKDevice`` property `udiDeviceIdentifier`.
public let HKDevicePropertyKeyUDIDeviceIdentifier = "UDIDeviceIdentifier"

/// The device property keys in the order of ``HKDevice/properties``.
package let devicePropertyKeys = [
    HKDevicePropertyKeyName, HKDevicePropertyKeyManufacturer, HKDevicePropertyKeyModel,
    HKDevicePropertyKeyHardwareVersion, HKDevicePropertyKeyFirmwareVersion, HKDevicePropertyKeySoftwareVersion,
    HKDevicePropertyKeyLocalIdentifier, HKDevicePropertyKeyUDIDeviceIdentifier,
]

/// The workout properties a predicate can compare (PRED-13).
public enum WorkoutProperty: String, Sendable, Hashable, Codable, CaseIterable {
    case duration, totalEnergyBurned, totalDistance, totalSwimmingStrokeCount, totalFlightsClimbed
}
