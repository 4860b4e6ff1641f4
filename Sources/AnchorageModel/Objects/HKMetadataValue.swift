/// One metadata value, of a kind HealthKit allows (OBJ-4): a string, a
/// number (an integer, a floating-point number or a Boolean, kept as given),
/// a date or a quantity.
///
/// ```swift
/// let metadata: [String: HKMetadataValue] = [HKMetadataKeyWasUserEntered: .bool(true)]
/// ```
public enum HKMetadataValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case quantity(HKQuantity)

    /// The value as HealthKit's `[String: Any]` metadata holds it.
    public var anyValue: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): Int(value)
        case .double(let value): value
        case .bool(let value): value
        case .date(let value): value
        case .quantity(let value): value
        }
    }

    /// The value as a number, for comparisons (PRED-10): integers, doubles
    /// and Booleans (as 0 and 1).
    package var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    /// Converts a value of HealthKit's `[String: Any]` metadata.
    ///
    /// - Throws: ``HKError`` (`OBJ-4`) for any other kind of value, and for
    ///   NaN or infinite numbers.
    package static func converting(_ value: Any, key: String) throws(HKError) -> HKMetadataValue {
        switch value {
        case let value as HKMetadataValue: return try value.checked(key: key)
        case let value as String: return try HKMetadataValue.string(value).checked(key: key)
        case let value as Bool: return .bool(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Int32: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Int8: return .integer(Int64(value))
        case let value as UInt8: return .integer(Int64(value))
        case let value as UInt16: return .integer(Int64(value))
        case let value as UInt32: return .integer(Int64(value))
        case let value as UInt64:
            guard let exact = Int64(exactly: value) else {
                throw .invalid("OBJ-4", "the metadata value of \(key) is an integer too large to store")
            }
            return .integer(exact)
        case let value as UInt:
            guard let exact = Int64(exactly: value) else {
                throw .invalid("OBJ-4", "the metadata value of \(key) is an integer too large to store")
            }
            return .integer(exact)
        case let value as Double: return try HKMetadataValue.double(value).checked(key: key)
        case let value as Float: return try HKMetadataValue.double(Double(value)).checked(key: key)
        case let value as Date: return try HKMetadataValue.date(value).checked(key: key)
        case let value as HKQuantity: return try HKMetadataValue.quantity(value).checked(key: key)
        case let value as NSNumber: return try converting(number: value, key: key)
        default:
            throw .invalid(
                "OBJ-4",
                "the metadata value of \(key) is a \(type(of: value)); allowed are String, numbers, Bool, Date and HKQuantity"
            )
        }
    }

    private static func converting(number: NSNumber, key: String) throws(HKError) -> HKMetadataValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return try HKMetadataValue.double(number.doubleValue).checked(key: key)
        default: return .integer(number.int64Value)
        }
    }

    /// The limit on the length of a metadata string, in UTF-8 bytes (OBJ-4).
    public static let maximumStringLength = 65_536

    /// Checks the value itself: finite numbers and dates, bounded strings.
    package func checked(key: String) throws(HKError) -> HKMetadataValue {
        switch self {
        case .double(let value) where !value.isFinite:
            throw .invalid("OBJ-4", "the metadata value of \(key) is not a finite number")
        case .date(let value) where !value.timeIntervalSinceReferenceDate.isFinite:
            throw .invalid("OBJ-4", "the metadata value of \(key) is not a valid date")
        case .quantity(let value) where !value.value.isFinite:
            throw .invalid("OBJ-4", "the metadata quantity of \(key) is not a finite number")
        case .string(let value) where value.utf8.count > Self.maximumStringLength:
            throw .invalid("OBJ-4", "the metadata string of \(key) is longer than \(Self.maximumStringLength) bytes")
        default:
            return self
        }
    }
}
