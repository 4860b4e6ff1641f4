/// The JSON form of predicates (docs/json-format.md): an object with exactly
/// one key naming the condition.
///
/// ```json
/// {"and": [{"dateRange": {"start": "2026-11-01T00:00:00Z", "options": ["strictStartDate"]}},
///          {"quantityCompare": {"operator": ">=", "quantity": {"value": 800, "unit": "kcal"}}}]}
/// ```
extension ObjectPredicate: Codable {
    private enum Key: String, CodingKey {
        case constant, and, or, not, uuidIn, sourceIn, sourceRevisionIn, deviceIn, deviceProperty
        case metadataExists, metadataIn, metadataCompare, quantityCompare, categoryValueCompare, categoryValueIn
        case dateRange, workoutActivityType, workoutCompare, inWorkout, noCorrelation
    }

    private struct KeyValues: Codable {
        var key: String
        var values: [String]
    }

    private struct MetadataValues: Codable {
        var key: String
        var values: [HKMetadataValue]
    }

    private struct MetadataComparison: Codable {
        var key: String
        var `operator`: ComparisonOperator
        var value: HKMetadataValue
    }

    private struct QuantityComparison: Codable {
        var `operator`: ComparisonOperator
        var quantity: HKQuantity
    }

    private struct ValueComparison: Codable {
        var `operator`: ComparisonOperator
        var value: Int
    }

    private struct WorkoutComparison: Codable {
        var property: WorkoutProperty
        var `operator`: ComparisonOperator
        var value: HKQuantity
    }

    private struct DateRange: Codable {
        var start: String?
        var end: String?
        var options: [String]?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw HKError.invalid("PRED-14", "a predicate is an object with exactly one key naming its condition")
        }
        switch key {
        case .constant: self = .constant(try container.decode(Bool.self, forKey: key))
        case .and: self = .and(try container.decode([ObjectPredicate].self, forKey: key))
        case .or: self = .or(try container.decode([ObjectPredicate].self, forKey: key))
        case .not: self = .not(try container.decode(ObjectPredicate.self, forKey: key))
        case .uuidIn: self = .uuidIn(Set(try container.decode([UUID].self, forKey: key)))
        case .sourceIn: self = .sourceIn(Set(try container.decode([String].self, forKey: key)))
        case .sourceRevisionIn: self = .sourceRevisionIn(try container.decode([RevisionPattern].self, forKey: key))
        case .deviceIn:
            let patterns = try container.decode([DevicePattern].self, forKey: key)
            guard patterns.allSatisfy({ $0.properties.count == 8 }) else {
                throw HKError.invalid("PRED-9", "a device pattern lists its 8 properties")
            }
            self = .deviceIn(patterns)
        case .deviceProperty:
            let value = try container.decode(KeyValues.self, forKey: key)
            guard devicePropertyKeys.contains(value.key) else {
                throw HKError.invalid("PRED-9", "'\(value.key.prefix(60))' is not an HKDevicePropertyKey")
            }
            self = .deviceProperty(key: value.key, values: Set(value.values))
        case .metadataExists: self = .metadataExists(key: try container.decode(String.self, forKey: key))
        case .metadataIn:
            let value = try container.decode(MetadataValues.self, forKey: key)
            self = .metadataIn(key: value.key, values: value.values)
        case .metadataCompare:
            let value = try container.decode(MetadataComparison.self, forKey: key)
            self = .metadataCompare(key: value.key, operator: value.operator, value: value.value)
        case .quantityCompare:
            let value = try container.decode(QuantityComparison.self, forKey: key)
            self = .quantityCompare(operator: value.operator, quantity: value.quantity)
        case .categoryValueCompare:
            let value = try container.decode(ValueComparison.self, forKey: key)
            self = .categoryValueCompare(operator: value.operator, value: value.value)
        case .categoryValueIn: self = .categoryValueIn(Set(try container.decode([Int].self, forKey: key)))
        case .dateRange:
            let value = try container.decode(DateRange.self, forKey: key)
            var options: HKQueryOptions = []
            for option in value.options ?? [] {
                switch option {
                case "strictStartDate": options.insert(.strictStartDate)
                case "strictEndDate": options.insert(.strictEndDate)
                default:
                    throw HKError.invalid("PRED-4", "'\(option.prefix(40))' is not strictStartDate or strictEndDate")
                }
            }
            self = .dateRange(start: try Self.date(value.start), end: try Self.date(value.end), options: options)
        case .workoutActivityType:
            let raw = try container.decode(UInt.self, forKey: key)
            guard let type = HKWorkoutActivityType(rawValue: raw) else {
                throw HKError.invalid("PRED-13", "\(raw) is not a workout activity type")
            }
            self = .workoutActivityType(type)
        case .workoutCompare:
            let value = try container.decode(WorkoutComparison.self, forKey: key)
            self = .workoutCompare(property: value.property, operator: value.operator, value: value.value)
        case .inWorkout: self = .inWorkout(try container.decode(UUID.self, forKey: key))
        case .noCorrelation: self = .noCorrelation
        }
    }

    private static func date(_ text: String?) throws(HKError) -> Date? {
        guard let text else { return nil }
        guard let date = ISO8601.parse(text) else {
            throw .invalid("PRED-6", "'\(text.prefix(40))' is not an ISO 8601 date")
        }
        return date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .constant(let value): try container.encode(value, forKey: .constant)
        case .and(let predicates): try container.encode(predicates, forKey: .and)
        case .or(let predicates): try container.encode(predicates, forKey: .or)
        case .not(let predicate): try container.encode(predicate, forKey: .not)
        case .uuidIn(let uuids): try container.encode(uuids.sorted { $0.uuidString < $1.uuidString }, forKey: .uuidIn)
        case .sourceIn(let sources): try container.encode(sources.sorted(), forKey: .sourceIn)
        case .sourceRevisionIn(let patterns): try container.encode(patterns, forKey: .sourceRevisionIn)
        case .deviceIn(let patterns): try container.encode(patterns, forKey: .deviceIn)
        case .deviceProperty(let key, let values):
            try container.encode(KeyValues(key: key, values: values.sorted()), forKey: .deviceProperty)
        case .metadataExists(let key): try container.encode(key, forKey: .metadataExists)
        case .metadataIn(let key, let values):
            try container.encode(MetadataValues(key: key, values: values), forKey: .metadataIn)
        case .metadataCompare(let key, let op, let value):
            try container.encode(MetadataComparison(key: key, operator: op, value: value), forKey: .metadataCompare)
        case .quantityCompare(let op, let quantity):
            try container.encode(QuantityComparison(operator: op, quantity: quantity), forKey: .quantityCompare)
        case .categoryValueCompare(let op, let value):
            try container.encode(ValueComparison(operator: op, value: value), forKey: .categoryValueCompare)
        case .categoryValueIn(let values): try container.encode(values.sorted(), forKey: .categoryValueIn)
        case .dateRange(let start, let end, let options):
            var names: [String] = []
            if options.contains(.strictStartDate) { names.append("strictStartDate") }
            if options.contains(.strictEndDate) { names.append("strictEndDate") }
            try container.encode(
                DateRange(
                    start: start.map(ISO8601.format),
                    end: end.map(ISO8601.format),
                    options: names.isEmpty ? nil : names
                ),
                forKey: .dateRange
            )
        case .workoutActivityType(let type): try container.encode(type.rawValue, forKey: .workoutActivityType)
        case .workoutCompare(let property, let op, let value):
            try container.encode(
                WorkoutComparison(property: property, operator: op, value: value),
                forKey: .workoutCompare
            )
        case .inWorkout(let uuid): try container.encode(uuid, forKey: .inWorkout)
        case .noCorrelation: try container.encode(true, forKey: .noCorrelation)
        }
    }
}
