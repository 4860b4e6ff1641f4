public import AnchorageModel
import Foundation

/// Every stored field of two objects is equal (objects themselves compare
/// by uuid only).
public func identical(_ a: HKObject, _ b: HKObject) -> Bool {
    guard type(of: a) == type(of: b), a.uuid == b.uuid, a.sourceRevision == b.sourceRevision, a.device == b.device,
        a.typedMetadata == b.typedMetadata
    else { return false }
    if let a = a as? HKSample, let b = b as? HKSample {
        guard a.sampleType == b.sampleType,
            a.startDate.timeIntervalSinceReferenceDate.bitPattern
                == b.startDate.timeIntervalSinceReferenceDate.bitPattern,
            a.endDate.timeIntervalSinceReferenceDate.bitPattern == b.endDate.timeIntervalSinceReferenceDate.bitPattern
        else { return false }
    }
    switch (a, b) {
    case let (a as HKQuantitySample, b as HKQuantitySample):
        return a.quantity.unit == b.quantity.unit && a.quantity.value.bitPattern == b.quantity.value.bitPattern
            && a.count == b.count && a.series == b.series
    case let (a as HKCategorySample, b as HKCategorySample):
        return a.value == b.value
    case let (a as HKCorrelation, b as HKCorrelation):
        guard a.objects.count == b.objects.count else { return false }
        let byUUID = Dictionary(uniqueKeysWithValues: b.objects.map { ($0.uuid, $0) })
        return a.objects.allSatisfy { member in byUUID[member.uuid].map { identical(member, $0) } ?? false }
    case let (a as HKWorkout, b as HKWorkout):
        return a.workoutActivityType == b.workoutActivityType && a.duration.bitPattern == b.duration.bitPattern
            && a.totals == b.totals && a.workoutEvents == b.workoutEvents
            && a.recordedStatistics.map(StatisticsFields.init) == b.recordedStatistics.map(StatisticsFields.init)
            && a.workoutActivities.count == b.workoutActivities.count
            && zip(a.workoutActivities, b.workoutActivities).allSatisfy(identical)
    case let (a as HKSeriesSample, b as HKSeriesSample):
        return a.count == b.count && a.points == b.points
    case let (a as HKMedicationDoseEvent, b as HKMedicationDoseEvent):
        let (x, y) = (a.dose, b.dose)
        return x.concept == y.concept && x.scheduleType == y.scheduleType && x.logStatus == y.logStatus
            && x.unit == y.unit
            && x.scheduledDate?.timeIntervalSinceReferenceDate.bitPattern
                == y.scheduledDate?.timeIntervalSinceReferenceDate.bitPattern
            && x.scheduledDoseQuantity?.bitPattern == y.scheduledDoseQuantity?.bitPattern
            && x.doseQuantity?.bitPattern == y.doseQuantity?.bitPattern
    case let (a as HKClinicalRecord, b as HKClinicalRecord):
        return a.displayName == b.displayName && a.fhirResource == b.fhirResource
    case let (a as HKVisionPrescription, b as HKVisionPrescription):
        let (x, y) = (a.lenses, b.lenses)
        return a.storedClass == b.storedClass && a.prescriptionType == b.prescriptionType
            && a.expirationDate == b.expirationDate && x.right == y.right && x.left == y.left && x.brand == y.brand
    case let (a as HKStateOfMind, b as HKStateOfMind):
        return a.kind == b.kind && a.valence.bitPattern == b.valence.bitPattern && a.labels == b.labels
            && a.associations == b.associations
    case let (a as HKScoredAssessment, b as HKScoredAssessment):
        return a.answerValues == b.answerValues && a.score == b.score
    case let (a as HKAudiogramSample, b as HKAudiogramSample):
        return a.sensitivityPoints == b.sensitivityPoints
    case let (a as HKElectrocardiogram, b as HKElectrocardiogram):
        let (x, y) = (a.recording, b.recording)
        return x.classification == y.classification && x.symptomsStatus == y.symptomsStatus
            && x.averageHeartRate?.bitPattern == y.averageHeartRate?.bitPattern
            && x.samplingFrequency?.bitPattern == y.samplingFrequency?.bitPattern && x.leads == y.leads
            && x.count == y.count && a.points == b.points
    default:
        return false
    }
}

/// Every stored field of two workout activities is equal.
public func identical(_ a: HKWorkoutActivity, _ b: HKWorkoutActivity) -> Bool {
    a.uuid == b.uuid && a.configuration == b.configuration && a.startDate == b.startDate && a.endDate == b.endDate
        && a.duration.bitPattern == b.duration.bitPattern && a.workoutEvents == b.workoutEvents
        && a.typedMetadata == b.typedMetadata
        && a.recordedStatistics.map(StatisticsFields.init) == b.recordedStatistics.map(StatisticsFields.init)
}

/// A recorded statistic's fields, to compare two workouts' statistics.
package struct StatisticsFields: Equatable {
    package var type: String
    package var start: Date
    package var end: Date
    package var values: StatisticsValues

    package init(_ statistics: HKStatistics) {
        type = statistics.quantityType.identifier
        start = statistics.startDate
        end = statistics.endDate
        values = statistics.recordedValues
    }
}
