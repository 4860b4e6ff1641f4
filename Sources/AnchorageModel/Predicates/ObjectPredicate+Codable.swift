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
        case workoutStatistic, anyActivity, activityType, activityDuration, activityDateRange, activityStatistic
        case effortRelated, electrocardiogramClassification, electrocardiogramSymptoms
        case stateOfMindValence, stateOfMindKind, stateOfMindLabel, stateOfMindAssociation, fhirResource
        case medication
    }

    private struct FHIRMatch: Codable {
        var type: String
        var source: String?
        var identifier: String?
    }

    private struct ValenceComparison: Codable {
        var `operator`: ComparisonOperator
        var value: Double
    }

    private struct StatisticComparison: Codable {
        var type: String
        var statistic: RecordedStatistic
        var `operator`: ComparisonOperator
        var value: HKQuantity

        func quantityType() throws(HKError) -> HKQuantityType {
            guard let quantityType = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: type))
            else { throw .invalid("PRED-13", "'\(type.prefix(100))' is not a quantity type identifier") }
            guard quantityType.is(compatibleWith: value.unit) else {
                throw .invalid("PRED-13", "\(type) statistics cannot compare with \(value.unit.unitString)")
            }
            return quantityType
        }
    }

    private struct DurationComparison: Codable {
        var `operator`: ComparisonOperator
        var seconds: Double
    }

    private struct EffortRelation: Codable {
        var workout: UUID
        var activity: UUID?
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

        init(start: Date?, end: Date?, options: HKQueryOptions) {
            var names: [String] = []
            if options.contains(.strictStartDate) { names.append("strictStartDate") }
            if options.contains(.strictEndDate) { names.append("strictEndDate") }
            self.start = start.map(ISO8601.format)
            self.end = end.map(ISO8601.format)
            self.options = names.isEmpty ? nil : names
        }

        /// The range's dates (PRED-6) and options (PRED-4), checked.
        func checked() throws(HKError) -> (start: Date?, end: Date?, options: HKQueryOptions) {
            (try Self.date(start), try Self.date(end), try queryOptions())
        }

        private static func date(_ text: String?) throws(HKError) -> Date? {
            guard let text else { return nil }
            guard let date = ISO8601.parse(text) else {
                throw .invalid("PRED-6", "'\(text.prefix(40))' is not an ISO 8601 date")
            }
            return date
        }

        private func queryOptions() throws(HKError) -> HKQueryOptions {
            var result: HKQueryOptions = []
            for option in options ?? [] {
                switch option {
                case "strictStartDate": result.insert(.strictStartDate)
                case "strictEndDate": result.insert(.strictEndDate)
                default:
                    throw .invalid("PRED-4", "'\(option.prefix(40))' is not strictStartDate or strictEndDate")
                }
            }
            return result
        }
    }

    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Key>
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch is DecodingError {
            throw HKError.invalid("PRED-14", "a predicate is an object with exactly one key naming its condition")
        }
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
            let range = try container.decode(DateRange.self, forKey: key).checked()
            self = .dateRange(start: range.start, end: range.end, options: range.options)
        case .workoutActivityType:
            self = .workoutActivityType(try Self.activityType(container.decode(UInt.self, forKey: key)))
        case .electrocardiogramClassification:
            let raw = try container.decode(Int.self, forKey: key)
            guard let value = HKElectrocardiogram.Classification(rawValue: raw) else {
                throw HKError.invalid("PRED-14", "\(raw) is not an electrocardiogram classification")
            }
            self = .electrocardiogramClassification(value)
        case .medication:
            self = .medication(try container.decode(MedicationCondition.self, forKey: key))
        case .fhirResource:
            let match = try container.decode(FHIRMatch.self, forKey: key)
            self = .fhirResource(type: match.type, source: match.source, identifier: match.identifier)
        case .stateOfMindValence:
            let comparison = try container.decode(ValenceComparison.self, forKey: key)
            guard comparison.value.isFinite else { throw HKError.invalid("PRED-14", "a valence is a finite number") }
            self = .stateOfMindValence(operator: comparison.operator, value: comparison.value)
        case .stateOfMindKind:
            let raw = try container.decode(Int.self, forKey: key)
            guard let value = HKStateOfMind.Kind(rawValue: raw) else {
                throw HKError.invalid("PRED-14", "\(raw) is not a state of mind kind")
            }
            self = .stateOfMindKind(value)
        case .stateOfMindLabel:
            let raw = try container.decode(Int.self, forKey: key)
            guard let value = HKStateOfMind.Label(rawValue: raw) else {
                throw HKError.invalid("PRED-14", "\(raw) is not a state of mind label")
            }
            self = .stateOfMindLabel(value)
        case .stateOfMindAssociation:
            let raw = try container.decode(Int.self, forKey: key)
            guard let value = HKStateOfMind.Association(rawValue: raw) else {
                throw HKError.invalid("PRED-14", "\(raw) is not a state of mind association")
            }
            self = .stateOfMindAssociation(value)
        case .electrocardiogramSymptoms:
            let raw = try container.decode(Int.self, forKey: key)
            guard let value = HKElectrocardiogram.SymptomsStatus(rawValue: raw) else {
                throw HKError.invalid("PRED-14", "\(raw) is not an electrocardiogram symptoms status")
            }
            self = .electrocardiogramSymptoms(value)
        case .workoutCompare:
            let value = try container.decode(WorkoutComparison.self, forKey: key)
            self = .workoutCompare(property: value.property, operator: value.operator, value: value.value)
        case .inWorkout: self = .inWorkout(try container.decode(UUID.self, forKey: key))
        case .noCorrelation: self = .noCorrelation
        case .workoutStatistic:
            let value = try container.decode(StatisticComparison.self, forKey: key)
            self = .workoutStatistic(
                type: try value.quantityType(),
                statistic: value.statistic,
                operator: value.operator,
                value: value.value
            )
        case .anyActivity: self = .anyActivity(try container.decode(ObjectPredicate.self, forKey: key))
        case .activityType:
            self = .activityType(try Self.activityType(container.decode(UInt.self, forKey: key)))
        case .activityDuration:
            let value = try container.decode(DurationComparison.self, forKey: key)
            self = .activityDuration(operator: value.operator, seconds: value.seconds)
        case .activityDateRange:
            let range = try container.decode(DateRange.self, forKey: key).checked()
            self = .activityDateRange(start: range.start, end: range.end, options: range.options)
        case .activityStatistic:
            let value = try container.decode(StatisticComparison.self, forKey: key)
            self = .activityStatistic(
                type: try value.quantityType(),
                statistic: value.statistic,
                operator: value.operator,
                value: value.value
            )
        case .effortRelated:
            let value = try container.decode(EffortRelation.self, forKey: key)
            self = .effortRelated(workout: value.workout, activity: value.activity)
        }
    }

    private static func activityType(_ raw: UInt) throws(HKError) -> HKWorkoutActivityType {
        guard let type = HKWorkoutActivityType(rawValue: raw) else {
            throw .invalid("PRED-13", "\(raw) is not a workout activity type")
        }
        return type
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
            try container.encode(DateRange(start: start, end: end, options: options), forKey: .dateRange)
        case .workoutActivityType(let type): try container.encode(type.rawValue, forKey: .workoutActivityType)
        case .electrocardiogramClassification(let value):
            try container.encode(value.rawValue, forKey: .electrocardiogramClassification)
        case .electrocardiogramSymptoms(let value):
            try container.encode(value.rawValue, forKey: .electrocardiogramSymptoms)
        case .medication(let condition): try container.encode(condition, forKey: .medication)
        case .fhirResource(let type, let source, let identifier):
            try container.encode(FHIRMatch(type: type, source: source, identifier: identifier), forKey: .fhirResource)
        case .stateOfMindValence(let op, let value):
            try container.encode(ValenceComparison(operator: op, value: value), forKey: .stateOfMindValence)
        case .stateOfMindKind(let value): try container.encode(value.rawValue, forKey: .stateOfMindKind)
        case .stateOfMindLabel(let value): try container.encode(value.rawValue, forKey: .stateOfMindLabel)
        case .stateOfMindAssociation(let value): try container.encode(value.rawValue, forKey: .stateOfMindAssociation)
        case .workoutCompare(let property, let op, let value):
            try container.encode(
                WorkoutComparison(property: property, operator: op, value: value),
                forKey: .workoutCompare
            )
        case .inWorkout(let uuid): try container.encode(uuid, forKey: .inWorkout)
        case .noCorrelation: try container.encode(true, forKey: .noCorrelation)
        case .workoutStatistic(let type, let statistic, let op, let value):
            try container.encode(
                StatisticComparison(type: type.identifier, statistic: statistic, operator: op, value: value),
                forKey: .workoutStatistic
            )
        case .anyActivity(let predicate): try container.encode(predicate, forKey: .anyActivity)
        case .activityType(let type): try container.encode(type.rawValue, forKey: .activityType)
        case .activityDuration(let op, let seconds):
            try container.encode(DurationComparison(operator: op, seconds: seconds), forKey: .activityDuration)
        case .activityDateRange(let start, let end, let options):
            try container.encode(DateRange(start: start, end: end, options: options), forKey: .activityDateRange)
        case .activityStatistic(let type, let statistic, let op, let value):
            try container.encode(
                StatisticComparison(type: type.identifier, statistic: statistic, operator: op, value: value),
                forKey: .activityStatistic
            )
        case .effortRelated(let workout, let activity):
            try container.encode(EffortRelation(workout: workout, activity: activity), forKey: .effortRelated)
        }
    }
}
