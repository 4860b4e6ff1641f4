import AnchorageStoreTesting
import Foundation
import HealthKit
import Testing

/// ECG, audiogram, state-of-mind, questionnaire and vision-prescription
/// code written as HealthKit's documentation shows it, under `import
/// HealthKit`, with names qualified by the module where apps write them so.
@Suite("Ports: recordings, moods, questionnaires and prescriptions under import HealthKit")
struct RecordingsPortTests {
    @Test("ECG-1: reading an electrocardiogram's voltages with the Result form, as the documentation's sample does")
    func electrocardiogram() async throws {
        try await withTemporaryStore { healthStore, _ in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let ecg = try HKElectrocardiogram.stored(
                start: start,
                end: start.addingTimeInterval(30),
                classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: HealthKit.HKQuantity(
                    unit: HKUnit.count().unitDivided(by: .minute()),
                    doubleValue: 61
                ),
                samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
                voltages: [.appleWatchSimilarToLeadI: (0..<1_024).map { Double($0 % 64) * 1e-5 }],
                uuid: UUID(),
                sourceRevision: HKSourceRevision(
                    source: HKSource(name: "ECG", bundleIdentifier: "com.example.ecg"),
                    version: nil
                )
            )
            try await healthStore.save(ecg)

            let ecgType = HKObjectType.electrocardiogramType()
            let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                let query = HKSampleQuery(
                    sampleType: ecgType,
                    predicate: nil,
                    limit: HKObjectQueryNoLimit,
                    sortDescriptors: nil
                ) {
                    _,
                    samples,
                    error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: samples ?? [])
                    }
                }
                healthStore.execute(query)
            }
            guard let ecgSample = samples.first as? HKElectrocardiogram else {
                Issue.record("an electrocardiogram is found")
                return
            }
            let volts: [Double] = await withCheckedContinuation { continuation in
                let collected = Voltages()
                let voltageQuery = HKElectrocardiogramQuery(ecgSample) { _, result in
                    switch result {
                    case .error(let error):
                        print("error: ", error)
                    case .measurement(let measurement):
                        if let voltageQuantity = measurement.quantity(for: .appleWatchSimilarToLeadI) {
                            collected.add(voltageQuantity.doubleValue(for: HKUnit.volt()))
                        }
                    case .done:
                        continuation.resume(returning: collected.all)
                    }
                }
                healthStore.execute(voltageQuery)
            }
            #expect(volts.count == 1_024)
            #expect(volts[63] == 63e-5)
        }
    }

    @Test(
        "AUD-1, MIND-1, ASSESS-1, VISION-1: saving an audiogram, a state of mind, a PHQ-9 and glasses as apps do, and reading them back"
    )
    func samples() async throws {
        try await withTemporaryStore { healthStore, _ in
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            let test = try HKAudiogramSensitivityTest(
                sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 20),
                type: .air,
                masked: false,
                side: .left,
                clampingRange: nil
            )
            let point = try HKAudiogramSensitivityPoint(
                frequency: HKQuantity(unit: .hertz(), doubleValue: 1_000),
                tests: [test]
            )
            let audiogram = HKAudiogramSample(
                sensitivityPoints: [point],
                start: now,
                end: now.addingTimeInterval(300),
                device: nil,
                metadata: nil
            )
            let mood = HKStateOfMind(
                date: now,
                kind: .dailyMood,
                valence: 0.3,
                labels: [.content],
                associations: [.fitness]
            )
            let phq9 = HKPHQ9Assessment(
                date: now,
                answers: [
                    .notAtAll, .severalDays, .notAtAll, .notAtAll, .severalDays, .notAtAll, .notAtAll, .notAtAll,
                    .notAtAll,
                ]
            )
            let glasses = HKGlassesPrescription(
                rightEyeSpecification: HKGlassesLensSpecification(
                    sphere: HKQuantity(unit: .diopter(), doubleValue: -2.25),
                    cylinder: nil,
                    axis: nil,
                    addPower: nil,
                    vertexDistance: nil,
                    prism: nil,
                    farPupillaryDistance: nil,
                    nearPupillaryDistance: nil
                ),
                leftEyeSpecification: nil,
                dateIssued: now,
                expirationDate: nil,
                device: nil,
                metadata: nil
            )
            try await healthStore.save([audiogram, mood, phq9, glasses])
            let moods = try await HKSampleQueryDescriptor(
                predicates: [.stateOfMind(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.content))],
                sortDescriptors: []
            ).result(for: healthStore)
            #expect(moods.first?.valenceClassification == .slightlyPleasant)
            let assessments = try await HKSampleQueryDescriptor(predicates: [.phq9Assessment()], sortDescriptors: [])
                .result(for: healthStore)
            #expect(assessments.first?.risk == .noneToMinimal && assessments.first?.score == 2)
            let audiograms = try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(
                for: healthStore
            )
            #expect(audiograms.first?.sensitivityPoints.first?.tests.first?.side == .left)
            try await healthStore.requestPerObjectReadAuthorization(
                for: HKObjectType.visionPrescriptionType(),
                predicate: nil
            )
            let prescriptions = try await HKSampleQueryDescriptor(
                predicates: [.visionPrescription()],
                sortDescriptors: []
            ).result(for: healthStore)
            #expect(
                (prescriptions.first as? HKGlassesPrescription)?.rightEye?.sphere.doubleValue(for: .diopter()) == -2.25
            )
            #expect(prescriptions.first?.isKind(of: HKVisionPrescription.self) == true)
        }
    }

    final class Voltages: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Double] = []
        func add(_ value: Double) { lock.withLock { values.append(value) } }
        var all: [Double] { lock.withLock { values } }
    }
}
