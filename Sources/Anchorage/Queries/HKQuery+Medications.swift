public import AnchorageModel
public import Foundation

// HealthKit's medication predicates (iOS 26): dose events by medication,
// scheduled date and log status, for sample queries of
// `HKObjectType.medicationDoseEventType()`; medications by schedule and
// archive, for `HKUserAnnotatedMedicationQuery`.
extension HKQuery {
    /// Dose events logged for the medication `medicationConceptIdentifier`.
    public class func predicateForMedicationDoseEvent(
        medicationConceptIdentifier: HKHealthConceptIdentifier
    ) -> NSPredicate {
        HKQueryPredicate(.medication(.conceptIn([medicationConceptIdentifier])))
    }

    /// Dose events logged for any of the medications `medicationConceptIdentifiers`.
    public class func predicateForMedicationDoseEvent(
        medicationConceptIdentifiers: Set<HKHealthConceptIdentifier>
    ) -> NSPredicate {
        HKQueryPredicate(.medication(.conceptIn(medicationConceptIdentifiers)))
    }

    /// Dose events scheduled at exactly `scheduledDate`.
    public class func predicateForMedicationDoseEvent(scheduledDate: Date) -> NSPredicate {
        HKQueryPredicate(.medication(.scheduledDateIn([scheduledDate])))
    }

    /// Dose events scheduled at exactly one of `scheduledDates`.
    public class func predicateForMedicationDoseEvent(scheduledDates: Set<Date>) -> NSPredicate {
        HKQueryPredicate(.medication(.scheduledDateIn(scheduledDates)))
    }

    /// Dose events scheduled from `startDate` (included) to `endDate`
    /// (excluded); a nil bound leaves that side open. As-needed dose events
    /// have no scheduled date and never match.
    public class func predicateForMedicationDoseEvent(
        scheduledStart startDate: Date?,
        end endDate: Date?
    ) -> NSPredicate {
        HKQueryPredicate(.medication(.scheduledRange(start: startDate, end: endDate)))
    }

    /// Dose events with the log status `status`.
    public class func predicateForMedicationDoseEvent(status: HKMedicationDoseEvent.LogStatus) -> NSPredicate {
        HKQueryPredicate(.medication(.statusIn([status])))
    }

    /// Dose events with any of the log statuses `statuses` (their raw
    /// values, as in HealthKit); numbers that are no log status match
    /// nothing.
    public class func predicateForMedicationDoseEvent(statuses: Set<NSNumber>) -> NSPredicate {
        HKQueryPredicate(
            .medication(.statusIn(Set(statuses.compactMap { HKMedicationDoseEvent.LogStatus(rawValue: $0.intValue) })))
        )
    }

    /// Medications with a schedule (`true`) or taken only as needed
    /// (`false`), for ``HKUserAnnotatedMedicationQuery``.
    public class func predicateForUserAnnotatedMedications(hasSchedule: Bool) -> NSPredicate {
        HKQueryPredicate(.medication(.hasSchedule(hasSchedule)))
    }

    /// Archived (`true`) or active (`false`) medications, for
    /// ``HKUserAnnotatedMedicationQuery``.
    public class func predicateForUserAnnotatedMedications(isArchived: Bool) -> NSPredicate {
        HKQueryPredicate(.medication(.isArchived(isArchived)))
    }
}
