import Foundation

/// The conditions of HealthKit's medication predicates
/// (`HKQuery.predicateForMedicationDoseEvent(…)` and
/// `predicateForUserAnnotatedMedications(…)`), inside
/// ``ObjectPredicate/medication(_:)``.
///
/// Dose event conditions match ``HKMedicationDoseEvent`` samples only; the
/// two medication conditions match ``HKUserAnnotatedMedication``s (in an
/// ``HKUserAnnotatedMedicationQuery``) and never a sample.
///
/// JSON (docs/json-format.md): `{"medication": {"statusIn": [4, 5]}}`,
/// `{"medication": {"scheduledRange": {"start": "2026-11-01T00:00:00Z"}}}`.
public enum MedicationCondition: Sendable, Hashable {
    /// Dose events logged for one of these medications.
    case conceptIn(Set<HKHealthConceptIdentifier>)
    /// Dose events scheduled at exactly one of these dates.
    case scheduledDateIn(Set<Date>)
    /// Dose events scheduled in `start..<end`; a nil bound is no bound.
    case scheduledRange(start: Date?, end: Date?)
    /// Dose events with one of these log statuses.
    case statusIn(Set<HKMedicationDoseEvent.LogStatus>)
    /// Medications with (or without) a schedule.
    case hasSchedule(Bool)
    /// Archived (or active) medications.
    case isArchived(Bool)

    /// Whether the condition is about a person's medications rather than
    /// dose events.
    public var isMedicationCondition: Bool {
        switch self {
        case .hasSchedule, .isArchived: true
        default: false
        }
    }

    /// Whether `event` matches; medication conditions never match a sample.
    public func evaluate(_ event: HKMedicationDoseEvent) -> Bool {
        switch self {
        case .conceptIn(let identifiers):
            return identifiers.contains(event.medicationConceptIdentifier)
        case .scheduledDateIn(let dates):
            guard let date = event.scheduledDate else { return false }
            return dates.contains(date)
        case .scheduledRange(let start, let end):
            guard let date = event.scheduledDate else { return false }
            if let start, date < start { return false }
            if let end, date >= end { return false }
            return true
        case .statusIn(let statuses):
            return statuses.contains(event.logStatus)
        case .hasSchedule, .isArchived:
            return false
        }
    }

    /// Whether `medication` matches; dose event conditions never match one.
    public func evaluate(_ medication: HKUserAnnotatedMedication) -> Bool {
        switch self {
        case .hasSchedule(let value): medication.hasSchedule == value
        case .isArchived(let value): medication.isArchived == value
        default: false
        }
    }
}

extension MedicationCondition: Codable {
    private enum Key: String, CodingKey {
        case conceptIn, scheduledDateIn, scheduledRange, statusIn, hasSchedule, isArchived
    }

    private struct Range: Codable {
        var start: String?
        var end: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw HKError.invalid("PRED-14", "a medication condition has exactly one key")
        }
        switch key {
        case .conceptIn:
            let identifiers = try container.decode([ConceptIdentifierJSON].self, forKey: key)
            guard identifiers.count <= 10_000 else {
                throw HKError.invalid("PRED-14", "a medication condition lists at most 10,000 values")
            }
            self = .conceptIn(Set(try identifiers.map { try $0.identifier() }))
        case .scheduledDateIn:
            let texts = try container.decode([String].self, forKey: key)
            guard texts.count <= 10_000 else {
                throw HKError.invalid("PRED-14", "a medication condition lists at most 10,000 values")
            }
            self = .scheduledDateIn(Set(try texts.map(Self.date)))
        case .scheduledRange:
            let range = try container.decode(Range.self, forKey: key)
            self = .scheduledRange(start: try range.start.map(Self.date), end: try range.end.map(Self.date))
        case .statusIn:
            let raws = try container.decode([Int].self, forKey: key)
            var statuses = Set<HKMedicationDoseEvent.LogStatus>()
            for raw in raws.prefix(100) {
                guard let status = HKMedicationDoseEvent.LogStatus(rawValue: raw) else {
                    throw HKError.invalid("PRED-14", "\(raw) is not a dose event log status")
                }
                statuses.insert(status)
            }
            self = .statusIn(statuses)
        case .hasSchedule: self = .hasSchedule(try container.decode(Bool.self, forKey: key))
        case .isArchived: self = .isArchived(try container.decode(Bool.self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .conceptIn(let identifiers):
            let sorted = identifiers.map(ConceptIdentifierJSON.init).sorted {
                ($0.domain, $0.code) < ($1.domain, $1.code)
            }
            try container.encode(sorted, forKey: .conceptIn)
        case .scheduledDateIn(let dates):
            try container.encode(dates.sorted().map(ISO8601.format), forKey: .scheduledDateIn)
        case .scheduledRange(let start, let end):
            try container.encode(
                Range(start: start.map(ISO8601.format), end: end.map(ISO8601.format)),
                forKey: .scheduledRange
            )
        case .statusIn(let statuses):
            try container.encode(statuses.map(\.rawValue).sorted(), forKey: .statusIn)
        case .hasSchedule(let value): try container.encode(value, forKey: .hasSchedule)
        case .isArchived(let value): try container.encode(value, forKey: .isArchived)
        }
    }

    private static func date(_ text: String) throws(HKError) -> Date {
        guard let date = ISO8601.parse(text) else {
            throw .invalid("PRED-14", "'\(text.prefix(40))' is not an ISO 8601 date such as 2026-11-22T10:15:00Z")
        }
        return date
    }
}

extension ObjectPredicate {
    /// Whether `medication` matches: `and`, `or`, `not`, `constant` and the
    /// medication conditions; anything else does not match.
    public func evaluate(_ medication: HKUserAnnotatedMedication) -> Bool {
        switch self {
        case .constant(let value): value
        case .and(let predicates): predicates.allSatisfy { $0.evaluate(medication) }
        case .or(let predicates): predicates.contains { $0.evaluate(medication) }
        case .not(let predicate): !predicate.evaluate(medication)
        case .medication(let condition): condition.evaluate(medication)
        default: false
        }
    }

    /// Whether the predicate can select medications: built only from
    /// `and`, `or`, `not`, `constant` and medication conditions (MED-3).
    public var isMedicationPredicate: Bool {
        switch self {
        case .constant: true
        case .and(let predicates), .or(let predicates): predicates.allSatisfy(\.isMedicationPredicate)
        case .not(let predicate): predicate.isMedicationPredicate
        case .medication(let condition): condition.isMedicationCondition
        default: false
        }
    }
}
