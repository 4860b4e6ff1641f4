import Foundation

/// One logged dose of a medication: what the person did about a scheduled
/// reminder, or a dose taken as needed (MED-1).
///
/// HealthKit's apps only read dose events (the Health app's Medications
/// logs them; there is no public initializer). In Anchorage they arrive in
/// their JSON form (`POST /v1/samples`, `anchorage save`), by replication
/// or from a log export, and are read like any sample:
///
/// ```swift
/// let taken = try await HKSampleQueryDescriptor(
///     predicates: [.sample(type: .medicationDoseEventType(),
///                          predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken))],
///     sortDescriptors: []
/// ).result(for: store)
/// ```
///
/// Apps may read dose events but never share them (AUTH-12).
public final class HKMedicationDoseEvent: HKSample, @unchecked Sendable {
    /// What the person did about the dose.
    public enum LogStatus: Int, Hashable, Sendable, CaseIterable {
        /// The person did not answer the reminder.
        case notInteracted = 1
        /// The reminder was not delivered.
        case notificationNotSent = 2
        /// The person snoozed the reminder.
        case snoozed = 3
        /// The person took the dose.
        case taken = 4
        /// The person skipped the dose.
        case skipped = 5
        /// The person undid a status logged before.
        case notLogged = 6
    }

    /// Whether the dose answered a schedule's reminder or was taken as needed.
    public enum ScheduleType: Int, Hashable, Sendable, CaseIterable {
        /// Logged without a schedule.
        case asNeeded = 1
        /// Logged from a scheduled reminder.
        case schedule = 2
    }

    /// The medication the dose was logged for: the
    /// ``HKMedicationConcept/identifier`` of a person's medication.
    public let medicationConceptIdentifier: HKHealthConceptIdentifier
    /// Scheduled or as needed.
    public let scheduleType: ScheduleType
    /// When the dose was due: set exactly for ``ScheduleType/schedule``.
    public let scheduledDate: Date?
    /// The dose the schedule asked for: set exactly for ``ScheduleType/schedule``.
    public let scheduledDoseQuantity: Double?
    /// The dose logged, in ``unit``, if any.
    public let doseQuantity: Double?
    /// What the person did.
    public let logStatus: LogStatus
    /// The unit the person logs the medication in.
    public let unit: HKUnit

    /// The medication dose event type.
    public var medicationDoseEventType: HKMedicationDoseEventType { TypeCatalog.medicationDoseEvent }

    /// The fields particular to a dose event, as the codecs read them.
    package struct Dose: Sendable, Hashable {
        package var concept: HKHealthConceptIdentifier
        package var scheduleType: ScheduleType
        package var scheduledDate: Date?
        package var scheduledDoseQuantity: Double?
        package var doseQuantity: Double?
        package var logStatus: LogStatus
        package var unit: HKUnit

        package init(
            concept: HKHealthConceptIdentifier,
            scheduleType: ScheduleType,
            scheduledDate: Date?,
            scheduledDoseQuantity: Double?,
            doseQuantity: Double?,
            logStatus: LogStatus,
            unit: HKUnit
        ) {
            self.concept = concept
            self.scheduleType = scheduleType
            self.scheduledDate = scheduledDate
            self.scheduledDoseQuantity = scheduledDoseQuantity
            self.doseQuantity = doseQuantity
            self.logStatus = logStatus
            self.unit = unit
        }
    }

    /// The dose's own fields.
    package var dose: Dose {
        Dose(
            concept: medicationConceptIdentifier,
            scheduleType: scheduleType,
            scheduledDate: scheduledDate,
            scheduledDoseQuantity: scheduledDoseQuantity,
            doseQuantity: doseQuantity,
            logStatus: logStatus,
            unit: unit
        )
    }

    private init(_ dose: Dose, fields: consuming SampleFields) {
        medicationConceptIdentifier = dose.concept
        scheduleType = dose.scheduleType
        scheduledDate = dose.scheduledDate
        scheduledDoseQuantity = dose.scheduledDoseQuantity
        doseQuantity = dose.doseQuantity
        logStatus = dose.logStatus
        unit = dose.unit
        super.init(sampleType: TypeCatalog.medicationDoseEvent, fields: fields)
    }

    /// The one checked door every dose event is built through (the
    /// payload and JSON decoders, importers, the generator).
    ///
    /// - Throws: ``HKError`` `MED-1` when the scheduled date and dose are
    ///   not given exactly for a scheduled dose, or a quantity is negative
    ///   or not finite; the common fields' rules.
    package static func make(_ dose: Dose, _ fields: consuming SampleFields) throws(HKError) -> HKMedicationDoseEvent {
        try fields.checkInterval()
        try check(dose)
        return HKMedicationDoseEvent(dose, fields: fields)
    }

    /// MED-1: a scheduled dose has its scheduled date and dose, an as-needed
    /// one has neither; quantities are finite and not negative. The
    /// messages name the field, never its value.
    package static func check(_ dose: Dose) throws(HKError) {
        let scheduled = dose.scheduleType == .schedule
        guard (dose.scheduledDate != nil) == scheduled, (dose.scheduledDoseQuantity != nil) == scheduled else {
            throw .invalid(
                "MED-1",
                scheduled
                    ? "a scheduled dose event needs its scheduledDate and scheduledDoseQuantity"
                    : "an as-needed dose event has no scheduledDate or scheduledDoseQuantity"
            )
        }
        if let date = dose.scheduledDate, !date.timeIntervalSinceReferenceDate.isFinite {
            throw .invalid("MED-1", "a dose event's scheduledDate must be a valid date")
        }
        for (name, value) in [
            ("scheduledDoseQuantity", dose.scheduledDoseQuantity), ("doseQuantity", dose.doseQuantity),
        ] {
            guard let value else { continue }
            guard value.isFinite, value >= 0 else {
                throw .invalid("MED-1", "a dose event's \(name) must be a finite amount, not negative")
            }
        }
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKMedicationDoseEvent(dose, fields: fields)
    }
}
